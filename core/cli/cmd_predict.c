/*
 * cmd_predict.c - `gpuperf predict` and `gpuperf compare`.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_DEVICES 16
/* run_one with --check: the script ran, there is nothing to print */
#define GP_EXIT_CHECK_DONE (-1)

/* Options shared by predict and compare. */
typedef struct run_opts {
    const char *script;
    const char *devices; /* --device or --devices */
    gp_cli_params_t params;
    gp_script_opts_t sopts;
    int json;
    const char *trace;
    uint32_t gpus; /* --gpus N; 0: not given */
    int check;     /* --check: run the script only, predict nothing */
} run_opts_t;

/* Parse the command line of predict (single=1) or compare. */
static int parse(const char *cmd, int single, int argc, char **argv, run_opts_t *o)
{
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'},  {"devices", required_argument, 0, 'D'},
        {"param", required_argument, 0, 'p'},   {"json", no_argument, 0, 'j'},
        {"trace", required_argument, 0, 't'},   {"budget", required_argument, 0, 'b'},
        {"memory-cap", required_argument, 0, 'm'}, {"gpus", required_argument, 0, 'g'},
        {"check", no_argument, 0, 'c'},         {0, 0, 0, 0}};
    int c;
    memset(o, 0, sizeof *o);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
        case 'D':
            /* predict takes one device (--devices too, for NAME*N); compare a list */
            if (!single && c == 'd')
                return gp_cli_fail(cmd, GP_EXIT_USAGE, "use --devices D1,D2,... (see gpuperf %s "
                                   "--help)", cmd);
            if (single && strchr(optarg, ','))
                return gp_cli_fail(cmd, GP_EXIT_USAGE, "%s %s: predict takes one device (NAME "
                                   "or NAME*N); compare several with gpuperf compare",
                                   argv[optind - 1], optarg);
            o->devices = optarg;
            break;
        case 'g': {
            uint64_t n;
            if (gp_cli_parse_u64(cmd, "--gpus", optarg, &n))
                return GP_EXIT_USAGE;
            if (n < 1 || n > GP_WL_MAX_DEVICES)
                return gp_cli_fail(cmd, GP_EXIT_USAGE, "--gpus %s: identical GPUs, 1..%d",
                                   optarg, GP_WL_MAX_DEVICES);
            o->gpus = (uint32_t)n;
            break;
        }
        case 'p':
            if (gp_cli_add_param(cmd, &o->params, optarg))
                return GP_EXIT_USAGE;
            break;
        case 'j': o->json = 1; break;
        case 'c':
            if (!single)
                return gp_cli_fail(cmd, GP_EXIT_USAGE, "--check is for gpuperf predict");
            o->check = 1;
            break;
        case 't':
            if (!single)
                return gp_cli_fail(cmd, GP_EXIT_USAGE, "--trace is for gpuperf predict");
            o->trace = optarg;
            break;
        case 'b':
            if (gp_cli_parse_u64(cmd, "--budget", optarg, &o->sopts.instruction_budget))
                return GP_EXIT_USAGE;
            break;
        case 'm':
            if (gp_cli_parse_memory_cap(cmd, optarg, &o->sopts.memory_cap_bytes))
                return GP_EXIT_USAGE;
            break;
        case ':':
            return gp_cli_fail(cmd, GP_EXIT_USAGE, "%s needs a value", argv[optind - 1]);
        default:
            return gp_cli_fail(cmd, GP_EXIT_USAGE, "unknown option '%s' (see gpuperf %s --help)",
                               argv[optind - 1], cmd);
        }
    }
    if (optind >= argc)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "no workload script given (e.g. scripts/saxpy.lua)");
    if (optind + 1 < argc)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "one script at a time; unexpected '%s'",
                           argv[optind + 1]);
    o->script = argv[optind];
    if (!o->devices)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "%s is required (gpuperf devices lists them)",
                           single ? "--device" : "--devices");
    return GP_EXIT_OK;
}

/* Split a device spec "NAME" or "NAME*N" (N identical GPUs) into name and
   count; the count is --gpus (0: not stated) when the spec has none. */
static int device_spec(const char *cmd, const run_opts_t *o, const char *spec, char *name,
                       size_t size, uint32_t *count)
{
    const char *star = strrchr(spec, '*');
    uint64_t n;
    *count = o->gpus;
    if (!star)
        return gp_strlcpy(name, spec, size) ? gp_cli_fail(cmd, GP_EXIT_USAGE,
                                                          "device name '%s' too long", spec)
                                            : GP_EXIT_OK;
    if (star == spec || (size_t)(star - spec) >= size)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "'%s': write a device as NAME or NAME*N", spec);
    memcpy(name, spec, (size_t)(star - spec));
    name[star - spec] = '\0';
    if (gp_cli_parse_u64(cmd, "NAME*N", star + 1, &n))
        return GP_EXIT_USAGE;
    if (n < 1 || n > GP_WL_MAX_DEVICES)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "'%s': N identical GPUs, 1..%d", spec,
                           GP_WL_MAX_DEVICES);
    if (o->gpus && o->gpus != n)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "'%s' and --gpus %u disagree; give one", spec,
                           o->gpus);
    *count = (uint32_t)n;
    return GP_EXIT_OK;
}

/* Run the script for one device (count identical GPUs; 0: as the script
   says) and predict it. */
static int run_one(const char *cmd, gp_script_t *sc, const run_opts_t *o,
                   const gp_cli_device_t *d, uint32_t count, gp_workload_t *wl,
                   gp_prediction_t *pred)
{
    gp_err_t err;
    gp_engine_opts_t eo = {o->trace != NULL};
    if (gp_script_set_devices(sc, count, &err))
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "%s", err.msg);
    if (gp_script_eval(sc, &d->dev, o->params.kv, o->params.n, wl, &err))
        return gp_cli_fail(cmd, GP_EXIT_FAIL, "%s", err.msg);
    if (o->check) {
        printf("%s: checked for %s: %u launches, %u commands; nothing predicted (--check)\n",
               o->script, d->dev.id, gp_workload_launches(wl), wl->n_cmds);
        gp_workload_free(wl);
        return GP_EXIT_CHECK_DONE;
    }
    if (gp_predict(&d->dev, d->arch, wl, &eo, pred, &err)) {
        gp_workload_free(wl);
        return gp_cli_fail(cmd, GP_EXIT_FAIL, "%s", err.msg);
    }
    return GP_EXIT_OK;
}

int gp_cmd_predict(int argc, char **argv)
{
    run_opts_t o;
    gp_cli_device_t d;
    gp_script_t *sc;
    gp_workload_t wl;
    gp_prediction_t pred;
    gp_err_t err;
    char name[GP_PATH_MAX];
    uint32_t count;
    int rc = parse("predict", 1, argc, argv, &o);
    if (rc)
        return rc;
    rc = device_spec("predict", &o, o.devices, name, sizeof name, &count);
    if (rc)
        return rc;
    rc = gp_cli_open_device("predict", name, &d);
    if (rc)
        return rc;
    sc = gp_script_open(o.script, &o.sopts, &err);
    if (!sc)
        return gp_cli_fail("predict", GP_EXIT_FAIL, "%s", err.msg);
    rc = run_one("predict", sc, &o, &d, count, &wl, &pred);
    gp_script_close(sc);
    if (rc == GP_EXIT_CHECK_DONE)
        return GP_EXIT_OK;
    if (rc)
        return rc;
    if (o.trace && gp_trace_write(o.trace, &d.dev, &wl, &pred, &err)) {
        rc = gp_cli_fail("predict", GP_EXIT_FAIL, "--trace: %s", err.msg);
    } else if (o.json) {
        cJSON *doc = gp_report_predict_json(&d.dev, &wl, &pred);
        gp_print_json(doc);
        cJSON_Delete(doc);
    } else {
        gp_report_predict_text(stdout, &d.dev, &wl, &pred);
    }
    gp_prediction_free(&pred);
    gp_workload_free(&wl);
    return rc;
}

void gp_help_predict(FILE *out)
{
    fprintf(out,
            "usage: gpuperf predict --device D SCRIPT.lua [-p key=value ...] [--json]\n"
            "                       [--trace FILE] [--gpus N] [--budget N] [--memory-cap MIB]\n"
            "                       [--check]\n\n"
            "Runs the workload script for device D and predicts every launch: occupancy\n"
            "(blocks per SM and the limiting resource), when it starts and ends, its time,\n"
            "and what bounds it (dram, l2, compute, issue, shared_memory, latency,\n"
            "memory_latency, launch). The total runs from the first launch's submission to\n"
            "the last completion, launch overhead included, as CUDA events around the work\n"
            "would measure it.\n\n"
            "  --device D        device name (gpuperf devices) or path to an .ini file;\n"
            "                    D*N (or --devices D*N) is N identical GPUs of that kind\n"
            "  --gpus N          N identical GPUs: gpuperf.device_count is N and launches\n"
            "                    and copies pick one with device = 0..N-1\n"
            "  -p key=value      set a parameter the script declares with gpuperf.param;\n"
            "                    numbers may be written 2^24, 4*2^20, 1e6\n"
            "  --json            one JSON document: total_us and, per launch, name, stream,\n"
            "                    start_us, end_us, time_us, blocks_per_sm, limiter, bound, ...\n"
            "  --trace FILE      write a Chrome trace (open in https://ui.perfetto.dev or\n"
            "                    chrome://tracing): a track per stream and device with each\n"
            "                    launch and copy, and counters of busy SMs and occupancy\n"
            "  --budget N        Lua VM instructions the script may run (default %llu)\n"
            "  --memory-cap MIB  memory the script may use (default %llu MiB)\n"
            "  --check           run the script for the device and check everything it\n"
            "                    describes (fields, launch limits of the script, index\n"
            "                    functions and bounds), but predict nothing\n\n"
            "examples:\n"
            "  gpuperf predict --device h200-sxm scripts/saxpy.lua\n"
            "  gpuperf predict --device h200-sxm scripts/saxpy.lua -p n=2^28 -p block=128 --json\n"
            "  gpuperf predict --device h200-sxm*2 scripts/validation/multigpu.lua --trace t.json\n",
            (unsigned long long)GP_SCRIPT_DEFAULT_BUDGET,
            (unsigned long long)(GP_SCRIPT_DEFAULT_MEMORY >> 20));
}

/* One device's column in a comparison. */
typedef struct column {
    gp_cli_device_t d;
    char label[GP_NAME_MAX + 8]; /* id, or id*N */
    uint32_t count;
    gp_workload_t wl;
    gp_prediction_t pred;
    int ok;
} column_t;

static void compare_text(const run_opts_t *o, column_t *cols, int n)
{
    int i;
    uint32_t r, rows = 0;
    printf("gpuperf compare: %s", o->script);
    for (i = 0; i < (int)o->params.n; i++)
        printf("%s %s=%s", i ? "," : " (", o->params.kv[i].key, o->params.kv[i].value);
    printf("%s\n\n", o->params.n ? ")" : "");
    printf("%-28s", "");
    for (i = 0; i < n; i++)
        printf(" %18s", cols[i].label);
    printf("\n%-28s", "compute capability / SMs");
    for (i = 0; i < n; i++) {
        char b[32];
        snprintf(b, sizeof b, "%u.%u / %u", cols[i].d.dev.cc_major, cols[i].d.dev.cc_minor,
                 cols[i].d.dev.sm_count);
        printf(" %18s", b);
    }
    for (i = 0; i < n; i++)
        rows = GP_MAX(rows, cols[i].pred.n_cmds);
    for (r = 0; r < rows; r++) {
        const gp_cmd_result_t *first = NULL;
        for (i = 0; i < n && !first; i++)
            if (r < cols[i].pred.n_cmds)
                first = &cols[i].pred.cmds[r];
        printf("\n%-28.28s", first ? first->name : "?");
        for (i = 0; i < n; i++) {
            if (r < cols[i].pred.n_cmds)
                printf(" %15.2f us", cols[i].pred.cmds[r].time_us);
            else
                printf(" %18s", "-");
        }
        if (first && first->type == GP_CMD_LAUNCH) {
            printf("\n%-28s", "  bound");
            for (i = 0; i < n; i++)
                printf(" %18s", r < cols[i].pred.n_cmds
                                    ? gp_bound_name(cols[i].pred.cmds[r].bound)
                                    : "-");
            printf("\n%-28s", "  blocks/SM (limiter)");
            for (i = 0; i < n; i++) {
                char b[40] = "-";
                if (r < cols[i].pred.n_cmds)
                    snprintf(b, sizeof b, "%u (%s)", cols[i].pred.cmds[r].occ.blocks_per_sm,
                             gp_limiter_name(cols[i].pred.cmds[r].occ.limiter));
                printf(" %18s", b);
            }
        }
    }
    printf("\n%-28s", "total");
    for (i = 0; i < n; i++)
        printf(" %15.2f us", cols[i].pred.total_us);
    printf("\n%-28s", "speedup vs first");
    for (i = 0; i < n; i++)
        printf(" %17.2fx", cols[i].pred.total_us > 0
                               ? cols[0].pred.total_us / cols[i].pred.total_us
                               : 0.0);
    printf("\n");
}

int gp_cmd_compare(int argc, char **argv)
{
    run_opts_t o;
    char list[2048];
    char *names[MAX_DEVICES];
    column_t *cols;
    gp_script_t *sc;
    gp_err_t err;
    int n, i, rc = parse("compare", 0, argc, argv, &o);
    if (rc)
        return rc;
    if (gp_strlcpy(list, o.devices, sizeof list))
        return gp_cli_fail("compare", GP_EXIT_USAGE, "--devices list too long");
    n = gp_cli_split_list(list, names, MAX_DEVICES);
    if (n <= 0)
        return gp_cli_fail("compare", GP_EXIT_USAGE,
                           n < 0 ? "at most %d devices" : "--devices needs a comma-separated "
                                                          "list (at most %d)",
                           MAX_DEVICES);
    cols = calloc((size_t)n, sizeof *cols);
    if (!cols)
        return gp_cli_fail("compare", GP_EXIT_FAIL, "out of memory");
    sc = gp_script_open(o.script, &o.sopts, &err);
    if (!sc) {
        free(cols);
        return gp_cli_fail("compare", GP_EXIT_FAIL, "%s", err.msg);
    }
    for (i = 0; i < n && rc == 0; i++) {
        char name[GP_PATH_MAX];
        rc = device_spec("compare", &o, names[i], name, sizeof name, &cols[i].count);
        if (!rc)
            rc = gp_cli_open_device("compare", name, &cols[i].d);
        if (!rc)
            rc = run_one("compare", sc, &o, &cols[i].d, cols[i].count, &cols[i].wl,
                         &cols[i].pred);
        if (!rc && cols[i].pred.n_devices > 1)
            snprintf(cols[i].label, sizeof cols[i].label, "%s*%u", cols[i].d.dev.id,
                     cols[i].pred.n_devices);
        else if (!rc)
            snprintf(cols[i].label, sizeof cols[i].label, "%s", cols[i].d.dev.id);
        cols[i].ok = rc == 0;
    }
    gp_script_close(sc);
    if (rc == 0) {
        if (o.json) {
            cJSON *doc = cJSON_CreateObject(), *arr = cJSON_CreateArray();
            cJSON_AddStringToObject(doc, "script", o.script);
            for (i = 0; i < n; i++) {
                cJSON *one = gp_report_predict_json(&cols[i].d.dev, &cols[i].wl, &cols[i].pred);
                cJSON_AddNumberToObject(one, "speedup_vs_first",
                                        cols[i].pred.total_us > 0
                                            ? cols[0].pred.total_us / cols[i].pred.total_us
                                            : 0);
                cJSON_AddItemToArray(arr, one);
            }
            cJSON_AddItemToObject(doc, "devices", arr);
            gp_print_json(doc);
            cJSON_Delete(doc);
        } else {
            compare_text(&o, cols, n);
        }
    }
    for (i = 0; i < n; i++) {
        if (cols[i].ok) {
            gp_prediction_free(&cols[i].pred);
            gp_workload_free(&cols[i].wl);
        }
    }
    free(cols);
    return rc;
}

void gp_help_compare(FILE *out)
{
    fprintf(out,
            "usage: gpuperf compare --devices D1,D2,... SCRIPT.lua [-p key=value ...] [--json]\n\n"
            "Predicts the same workload on several devices (up to %d) and prints one column\n"
            "per device: each launch's time, what bounds it and its occupancy, the total, and\n"
            "the speedup against the first device. The script runs once per device and may\n"
            "size its grid from gpuperf.device.\n\n"
            "  --devices LIST   comma-separated device names or .ini paths; NAME*N is N\n"
            "                   identical GPUs of that kind\n"
            "  --gpus N         every device as N identical GPUs\n"
            "  -p key=value     parameters, as for gpuperf predict\n"
            "  --json           {\"script\":..., \"devices\": [predict --json of each, plus\n"
            "                   speedup_vs_first]}\n\n"
            "example:\n"
            "  gpuperf compare --devices geforce-8800-gtx,tesla-c1060,h200-sxm scripts/saxpy.lua\n",
            MAX_DEVICES);
}
