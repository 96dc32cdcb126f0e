/*
 * paths.h - where gpuperf looks for plugins, device files and scripts.
 *
 * Search order for plugins: $GPUPERF_PLUGIN_PATH (colon-separated), then the
 * plugins beside the running binary (build tree or installed prefix).
 * Device files: $GPUPERF_DEVICE_PATH, then the installed devices/ folder and
 * the source tree's devices/ folder. A build-tree binary prefers the build's
 * plugins and the source tree; an installed one its own prefix.
 */
#ifndef GP_PATHS_H
#define GP_PATHS_H

#include <stddef.h>

#define GP_MAX_SEARCH_DIRS 32
#define GP_PATH_MAX 4096

typedef struct gp_search_path {
    char dirs[GP_MAX_SEARCH_DIRS][GP_PATH_MAX];
    size_t n;
} gp_search_path_t;

/* The plugin search path, in order. */
void gp_paths_plugins(gp_search_path_t *out);

/* The device-file search path, in order. */
void gp_paths_devices(gp_search_path_t *out);

/* The folder of shipped scripts (installed or source), or "" if none. */
void gp_paths_scripts(char *out, size_t size);

#endif /* GP_PATHS_H */
