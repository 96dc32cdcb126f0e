/*
 * device.h - device files: one card per INI file, read with inih.
 *
 * Every key is checked against a schema (device.c): an unknown key, a
 * duplicate key or section, a missing required key, a malformed value or
 * one out of range is an error "file:line: what is wrong". `arch =` names a
 * plugin (never a path); the plugin is loaded and may declare extra keys in
 * the file's [arch] section and check the device further.
 */
#ifndef GP_DEVICE_H
#define GP_DEVICE_H

#include <stddef.h>

#include "arch.h"
#include "gpuperf/plugin.h"
#include "util.h"

/* Resolve a device name ("h200-sxm") on the search path, or accept a path
   (anything containing '/' or ending in .ini). */
int gp_device_resolve(const char *name_or_path, char *path, size_t size, gp_err_t *err);

/* Load and validate one device file; *arch receives its plugin. */
int gp_device_load(const char *path, gp_device_t *dev, const gp_arch_t **arch,
                   gp_err_t *err);

/* Parse device text (for tests and fuzzing); `label` names it in errors. */
int gp_device_load_text(const char *label, const char *text, size_t len,
                        gp_device_t *dev, const gp_arch_t **arch, gp_err_t *err);

/* gp_device_resolve + gp_device_load. */
int gp_device_open(const char *name_or_path, gp_device_t *dev, const gp_arch_t **arch,
                   gp_err_t *err);

/* Visit every *.ini on the device search path, loaded or with the error. A
   name found in several folders is visited once (the first wins). */
typedef void (*gp_device_scan_fn)(void *ud, const char *path, const gp_device_t *dev,
                                  const gp_arch_t *arch, const char *error);
void gp_device_scan(gp_device_scan_fn fn, void *ud);

/* The schema, for documentation and `gpuperf devices --keys`. */
typedef struct gp_device_key_info {
    const char *section, *key, *unit_help;
    int required;
    double min, max;
} gp_device_key_info_t;
size_t gp_device_keys(const gp_device_key_info_t **out);

/* Seconds per cycle and friends. */
double gp_device_cycle_us(const gp_device_t *dev);

#endif /* GP_DEVICE_H */
