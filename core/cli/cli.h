/*
 * cli.h - shared pieces of the gpuperf command: option helpers, opening
 * devices, running scripts, and the report writers.
 */
#ifndef GP_CLI_H
#define GP_CLI_H

#include <getopt.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "arch.h"
#include "device.h"
#include "engine.h"
#include "script.h"
#include "util.h"
#include "workload.h"

/* Exit statuses. */
#define GP_EXIT_OK 0
#define GP_EXIT_FAIL 1  /* bad input, failed prediction */
#define GP_EXIT_USAGE 2 /* bad command line */

/* One subcommand. */
typedef struct gp_cmd {
    const char *name;
    const char *synopsis; /* one line for `gpuperf --help` */
    int (*run)(int argc, char **argv);
    void (*help)(FILE *out);
} gp_cmd_t;

/* Print "gpuperf CMD: message" to stderr; returns `status`. */
int gp_cli_fail(const char *cmd, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A loaded device with its plugin. */
typedef struct gp_cli_device {
    gp_device_t dev;
    const gp_arch_t *arch;
} gp_cli_device_t;

/* Open a device by name or path, or report why not (returns GP_EXIT_FAIL). */
int gp_cli_open_device(const char *cmd, const char *name, gp_cli_device_t *out);

/* Log the device search path (debug) and each device file hidden by one of
   the same name earlier on it (info). */
void gp_cli_log_device_search(void);

/* Longest word gp_cli_edit_distance compares (longer: distance SIZE_MAX). */
#define GP_CLI_SUGGEST_MAX 63

/* Levenshtein distance between two words. */
size_t gp_cli_edit_distance(const char *a, const char *b);

/* The candidate closest to `word` when it is close enough to be a typo
   (a few edits), else NULL. */
const char *gp_cli_suggest(const char *word, const char *const *cands, size_t n);

/* Report an unknown option, with "did you mean --X?" from the getopt table;
   returns GP_EXIT_USAGE. */
int gp_cli_unknown_option(const char *cmd, const char *arg, const struct option *opts);

/* 1 when an output path is "-" (stdout). */
int gp_cli_is_stdout(const char *path);

/* Write text to path ("-": stdout; else replaced atomically) or report why
   not with the option's name; returns a GP_EXIT_ status. */
int gp_cli_write_output(const char *cmd, const char *opt, const char *path, const char *text,
                        size_t len);

/* 1 when the workload launches a kernel or copies memory (else there is
   nothing to time). */
int gp_cli_has_work(const gp_workload_t *wl);

/* One CSV field, quoted when it holds a comma, quote or line break. */
void gp_cli_csv_field(FILE *f, const char *s);

/* Split "a,b,c" into at most max entries (pointers into buf). */
int gp_cli_split_list(char *buf, char **items, int max);

/* Accumulated -p key=value options. */
typedef struct gp_cli_params {
    gp_param_kv_t kv[64];
    size_t n;
} gp_cli_params_t;

/* Add "key=value"; returns -1 with a message on malformed input. */
int gp_cli_add_param(const char *cmd, gp_cli_params_t *p, char *arg);

/* Parse a non-negative integer option value (accepts 2^20 style). */
int gp_cli_parse_u64(const char *cmd, const char *opt, const char *text, uint64_t *out);
/* `text` as a whole number lo..hi (`what` says what it counts); on error
   prints "LABEL: WHAT, a whole number LO..HI" (LABEL names the option and
   the value as the user wrote them) and returns -1. */
int gp_cli_parse_count(const char *cmd, const char *label, const char *text, uint64_t lo,
                       uint64_t hi, const char *what, uint64_t *out);

/* Parse --memory-cap MiB (1..1048576) into bytes; -1 after reporting. */
int gp_cli_parse_memory_cap(const char *cmd, const char *text, uint64_t *bytes);

/* ---- reports (report.c) ---- */

/* Human-readable prediction. */
void gp_report_predict_text(FILE *out, const gp_device_t *dev, const gp_workload_t *wl,
                            const gp_prediction_t *pred);

/* Prediction as CSV: a header, one row per launch and copy, a total row. */
void gp_report_predict_csv(FILE *out, const gp_device_t *dev, const gp_workload_t *wl,
                           const gp_prediction_t *pred);

/* Prediction as JSON (caller deletes). */
cJSON *gp_report_predict_json(const gp_device_t *dev, const gp_workload_t *wl,
                              const gp_prediction_t *pred);

/* Device summary as JSON (caller deletes). */
cJSON *gp_report_device_json(const gp_device_t *dev);

/* Occupancy as text / JSON. */
void gp_report_occupancy_text(FILE *out, const gp_device_t *dev, const gp_launch_t *l,
                              const gp_occupancy_t *o);
cJSON *gp_report_occupancy_json(const gp_device_t *dev, const gp_launch_t *l,
                                const gp_occupancy_t *o);

/* Print a cJSON document to stdout followed by a newline. */
int gp_print_json(cJSON *doc);

/* Write the Chrome trace-event JSON of a prediction (trace.c). */
int gp_trace_write(const char *path, const gp_device_t *dev, const gp_workload_t *wl,
                   const gp_prediction_t *pred, gp_err_t *err);

/* ---- subcommands ---- */
int gp_cmd_devices(int argc, char **argv);
void gp_help_devices(FILE *out);
int gp_cmd_plugins(int argc, char **argv);
void gp_help_plugins(FILE *out);
int gp_cmd_occupancy(int argc, char **argv);
void gp_help_occupancy(FILE *out);
int gp_cmd_predict(int argc, char **argv);
void gp_help_predict(FILE *out);
int gp_cmd_params(int argc, char **argv);
void gp_help_params(FILE *out);
int gp_cmd_compare(int argc, char **argv);
void gp_help_compare(FILE *out);
int gp_cmd_validate(int argc, char **argv);
void gp_help_validate(FILE *out);
int gp_cmd_sweep(int argc, char **argv);
void gp_help_sweep(FILE *out);
int gp_cmd_plugin_check(int argc, char **argv);
void gp_help_plugin_check(FILE *out);

#endif /* GP_CLI_H */
