/*
 * cmd_predict.c - `gpuperf predict` and `gpuperf compare`.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_DEVICES 16
#define COMPARE_WIDTH 100    /* text columns when $COLUMNS does not say */
#define COMPARE_LABEL_MAX 28 /* longest kernel name shown in full */
/* run_one with --check: the script ran, there is nothing to print */
#define GP_EXIT_CHECK_DONE (-1)

/* Options shared by predict and compare. */
typedef struct run_opts {
    const char *script;
    const char *devices; /* --device or --devices */
    gp_cli_params_t params;
    gp_script_opts_t sopts;
    int json, csv;
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
        {"csv", no_argument, 0, 'c'},
        {"check", no_argument, 0, 'k'},         {0, 0, 0, 0}};
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
            char label[96];
            snprintf(label, sizeof label, "--gpus %.80s", optarg);
            if (gp_cli_parse_count(cmd, label, optarg, 1, GP_WL_MAX_DEVICES, "identical GPUs",
                                   &n))
                return GP_EXIT_USAGE;
            o->gpus = (uint32_t)n;
            break;
        }
        case 'p':
            if (gp_cli_add_param(cmd, &o->params, optarg))
                return GP_EXIT_USAGE;
            break;
        case 'j': o->json = 1; break;
        case 'c': o->csv = 1; break;
        case 'k':
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
            return gp_cli_unknown_option(cmd, argv[optind - 1], opts);
        }
    }
    if (o->json && o->csv)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "--json and --csv: give one");
    if (gp_cli_is_stdout(o->trace) && (o->json || o->csv))
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "--trace - writes the trace to stdout in place "
                           "of the report; drop --%s or give --trace FILE",
                           o->json ? "json" : "csv");
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
    char label[GP_PATH_MAX + 4];
    snprintf(label, sizeof label, "'%s'", spec);
    if (gp_cli_parse_count(cmd, label, star + 1, 1, GP_WL_MAX_DEVICES, "N identical GPUs", &n))
        return GP_EXIT_USAGE;
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
    if (!gp_cli_has_work(wl)) {
        gp_workload_free(wl);
        return gp_cli_fail(cmd, GP_EXIT_FAIL, "%s: the script launches no kernel and copies "
                           "nothing, so there is no time to predict; add a gpuperf.launch{...} "
                           "(docs/workloads.md)%s", o->script,
                           o->params.n ? " or check the -p values" : "");
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
    } else if (gp_cli_is_stdout(o.trace)) {
        /* the trace took stdout */
    } else if (o.csv) {
        gp_report_predict_csv(stdout, &d.dev, &wl, &pred);
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
            "usage: gpuperf predict --device D SCRIPT.lua [-p key=value ...] [--json | --csv]\n"
            "                       [--trace FILE] [--gpus N] [--budget N] [--memory-cap MIB]\n"
            "                       [--check]\n\n"
            "Runs the workload script for device D and predicts every launch: occupancy\n"
            "(blocks per SM and the limiting resource), when it starts and ends, its time,\n"
            "and what bounds it (dram, l2, compute, issue, shared_memory, latency,\n"
            "memory_latency, block_dispatch: the SMs cannot start blocks as fast as they\n"
            "finish; a compute-bound launch names its pipe: compute (fp32), compute (int),\n"
            "compute (sfu), ...). The total runs from the first launch's submission to the\n"
            "last completion, launch overhead included, as CUDA events around the work\n"
            "would measure it; a script that calls gpuperf.elapsed(start, stop) times only\n"
            "the interval between those two events (warm-ups before it untimed), and the\n"
            "whole run is printed beside it. A script that launches nothing is an error.\n"
            "`gpuperf params SCRIPT.lua` lists the parameters a script takes.\n\n"
            "  --device D        device name (gpuperf devices) or path to an .ini file;\n"
            "                    D*N (or --devices D*N) is N identical GPUs of that kind\n"
            "  --gpus N          N identical GPUs: gpuperf.device_count is N and launches\n"
            "                    and copies pick one with device = 0..N-1\n"
            "  -p key=value      set a parameter the script declares with gpuperf.param;\n"
            "                    numbers may be written 2^24, 4*2^20, 1e6\n"
            "  --json            one JSON document: total_us, run_us (the whole run) and,\n"
            "                    per launch, name, stream, start_us, end_us, time_us,\n"
            "                    blocks_per_sm, limiter, bound, bound_pipe (the busiest\n"
            "                    of the SM's pipes: issue, fp32, fp64, fp16, int, sfu,\n"
            "                    conversion, tensor, ldst, shared, l1), ...\n"
            "  --csv             one CSV row per launch and copy, then a row named total\n"
            "  --trace FILE      write a Chrome trace (open in https://ui.perfetto.dev or\n"
            "                    chrome://tracing): a track per stream and device with each\n"
            "                    launch and copy, and counters of busy SMs and occupancy;\n"
            "                    --trace - writes it to stdout instead of the report\n"
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

/* Speedup of column i against the first, as text ("-" when undefined). */
static void speedup_text(char *out, size_t size, const column_t *cols, int i)
{
    if (cols[i].pred.total_us > 0 && cols[0].pred.total_us > 0)
        snprintf(out, size, "%.2fx", cols[0].pred.total_us / cols[i].pred.total_us);
    else
        snprintf(out, size, "-");
}

/* The cell of row `row` for column c (row 0: the header; see compare_text). */
static void compare_cell(char *out, size_t size, const column_t *cols, int c, uint32_t r,
                         int what)
{
    const gp_prediction_t *p = &cols[c].pred;
    *out = '\0';
    switch (what) {
    case 0: snprintf(out, size, "%s", cols[c].label); break;
    case 1:
        snprintf(out, size, "%u.%u / %u", cols[c].d.dev.cc_major, cols[c].d.dev.cc_minor,
                 cols[c].d.dev.sm_count);
        break;
    case 2:
        if (r < p->n_cmds)
            snprintf(out, size, "%.2f us", p->cmds[r].time_us);
        else
            snprintf(out, size, "-");
        break;
    case 3:
        snprintf(out, size, "%s", r < p->n_cmds ? gp_bound_name(p->cmds[r].bound) : "-");
        break;
    case 4:
        if (r < p->n_cmds)
            snprintf(out, size, "%u (%s)", p->cmds[r].occ.blocks_per_sm,
                     gp_limiter_name(p->cmds[r].occ.limiter));
        else
            snprintf(out, size, "-");
        break;
    case 5: snprintf(out, size, "%.2f us", p->total_us); break;
    default: speedup_text(out, size, cols, c); break;
    }
}

/* The text width compare fits its table into: $COLUMNS when set, else 100. */
static int compare_width(void)
{
    const char *e = getenv("COLUMNS");
    long w = e ? strtol(e, NULL, 10) : 0;
    return w >= 40 && w <= 1000 ? (int)w : COMPARE_WIDTH;
}

/* One table of columns [c0, c1). */
static void compare_group(const column_t *cols, int c0, int c1, const int *width, int label_w,
                          uint32_t rows)
{
    char cell[GP_NAME_MAX + 32];
    uint32_t r;
    int c, what;
    /* header and compute capability */
    for (what = 0; what < 2; what++) {
        printf("%-*s", label_w, what ? "compute capability / SMs" : "");
        for (c = c0; c < c1; c++) {
            compare_cell(cell, sizeof cell, cols, c, 0, what);
            printf("  %*s", width[c], cell);
        }
        printf("\n");
    }
    for (r = 0; r < rows; r++) {
        const gp_cmd_result_t *first = NULL;
        for (c = 0; c < c1 && !first; c++)
            if (r < cols[c].pred.n_cmds)
                first = &cols[c].pred.cmds[r];
        for (what = 2; what < 5; what++) {
            if (what > 2 && !(first && first->type == GP_CMD_LAUNCH))
                break;
            if (what == 2)
                printf("%-*.*s", label_w, label_w, first ? first->name : "?");
            else
                printf("%-*s", label_w, what == 3 ? "  bound" : "  blocks/SM (limiter)");
            for (c = c0; c < c1; c++) {
                compare_cell(cell, sizeof cell, cols, c, r, what);
                printf("  %*s", width[c], cell);
            }
            printf("\n");
        }
    }
    for (what = 5; what < 7; what++) {
        char label[COMPARE_LABEL_MAX + 16] = "total";
        if (what == 6 && gp_snprintf(label, sizeof label, "speedup vs %s", cols[0].label) == 0 &&
            (int)strlen(label) > label_w)
            snprintf(label, sizeof label, "speedup vs first");
        else if (what == 6 && (int)strlen(label) > label_w)
            snprintf(label, sizeof label, "speedup vs first");
        printf("%-*s", label_w, label);
        for (c = c0; c < c1; c++) {
            compare_cell(cell, sizeof cell, cols, c, 0, what);
            printf("  %*s", width[c], cell);
        }
        printf("\n");
    }
}

/* The end of the table that starts at column c0: as many columns as fit in
   avail characters, at most max, at least one. */
static int group_end(const int *width, int n, int c0, int label_w, int avail, int max)
{
    int c1 = c0 + 1, used = label_w + 2 + width[c0];
    while (c1 < n && c1 - c0 < max && used + 2 + width[c1] <= avail)
        used += 2 + width[c1++];
    return c1;
}

/* The comparison as a table, one column per device; when the columns do
   not fit in the terminal's width, in several tables of as many columns as
   fit, each with the row labels (the speedup is always against the first
   device). */
static void compare_text(const run_opts_t *o, column_t *cols, int n)
{
    char cell[GP_NAME_MAX + 32];
    int i, c, what, label_w = 24, avail = compare_width(), c0, groups, per;
    int *width = calloc((size_t)n, sizeof *width);
    uint32_t r, rows = 0;
    if (!width) {
        gp_cli_fail("compare", GP_EXIT_FAIL, "out of memory");
        return;
    }
    printf("gpuperf compare: %s", o->script);
    for (i = 0; i < (int)o->params.n; i++)
        printf("%s %s=%s", i ? "," : " (", o->params.kv[i].key, o->params.kv[i].value);
    printf("%s\n", o->params.n ? ")" : "");
    for (i = 0; i < n; i++)
        rows = GP_MAX(rows, cols[i].pred.n_cmds);
    for (i = 0; i < n; i++)
        for (r = 0; r < cols[i].pred.n_cmds; r++)
            label_w = GP_MAX(label_w, GP_MIN(COMPARE_LABEL_MAX,
                                             (int)strlen(cols[i].pred.cmds[r].name)));
    label_w = GP_MAX(label_w, GP_MIN(COMPARE_LABEL_MAX, 11 + (int)strlen(cols[0].label)));
    /* each column as wide as its widest cell */
    for (c = 0; c < n; c++) {
        width[c] = 6;
        for (what = 0; what < 7; what++)
            for (r = 0; r < (what >= 2 && what <= 4 ? rows : 1); r++) {
                compare_cell(cell, sizeof cell, cols, c, r, what);
                width[c] = GP_MAX(width[c], (int)strlen(cell));
            }
    }
    /* as many tables as packing greedily needs, then the columns spread
       evenly over them when that fits too (6 columns: 3 + 3, not 5 + 1) */
    groups = 0;
    for (c0 = 0; c0 < n; groups++)
        c0 = group_end(width, n, c0, label_w, avail, n);
    per = (n + groups - 1) / groups;
    for (c0 = 0; c0 < n && per > 0; c0 += per)
        if (group_end(width, n, c0, label_w, avail, per) < GP_MIN(n, c0 + per))
            per = 0;
    for (c0 = 0; c0 < n;) {
        int c1 = group_end(width, n, c0, label_w, avail, per ? per : n);
        printf("\n");
        compare_group(cols, c0, c1, width, label_w, rows);
        c0 = c1;
    }
    free(width);
}

/* The comparison as CSV: one row per device and command, then a total row
   per device with its speedup against the first. */
static void compare_csv(column_t *cols, int n)
{
    char sp[32];
    int c;
    uint32_t r;
    fputs("device,cc,sms,index,name,type,time_us,bound,blocks_per_sm,limiter,speedup_vs_first\n",
          stdout);
    for (c = 0; c < n; c++) {
        const gp_prediction_t *p = &cols[c].pred;
        for (r = 0; r < p->n_cmds; r++) {
            const gp_cmd_result_t *x = &p->cmds[r];
            gp_cli_csv_field(stdout, cols[c].label);
            printf(",%u.%u,%u,%u,", cols[c].d.dev.cc_major, cols[c].d.dev.cc_minor,
                   cols[c].d.dev.sm_count, r + 1);
            gp_cli_csv_field(stdout, x->name);
            if (x->type == GP_CMD_LAUNCH)
                printf(",kernel,%.3f,%s,%u,%s,\n", x->time_us, gp_bound_name(x->bound),
                       x->occ.blocks_per_sm, gp_limiter_name(x->occ.limiter));
            else
                printf(",copy,%.3f,copy,,,\n", x->time_us);
        }
        if (p->total_us > 0 && cols[0].pred.total_us > 0)
            snprintf(sp, sizeof sp, "%.4f", cols[0].pred.total_us / p->total_us);
        else
            sp[0] = '\0';
        gp_cli_csv_field(stdout, cols[c].label);
        printf(",%u.%u,%u,,total,total,%.3f,,,,%s\n", cols[c].d.dev.cc_major,
               cols[c].d.dev.cc_minor, cols[c].d.dev.sm_count, p->total_us, sp);
    }
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
                if (cols[i].pred.total_us > 0)
                    cJSON_AddNumberToObject(one, "speedup_vs_first",
                                            cols[0].pred.total_us / cols[i].pred.total_us);
                else
                    cJSON_AddNullToObject(one, "speedup_vs_first");
                cJSON_AddItemToArray(arr, one);
            }
            cJSON_AddItemToObject(doc, "devices", arr);
            gp_print_json(doc);
            cJSON_Delete(doc);
        } else if (o.csv) {
            compare_csv(cols, n);
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
            "usage: gpuperf compare --devices D1,D2,... SCRIPT.lua [-p key=value ...]\n"
            "                       [--json | --csv] [--gpus N] [--budget N] [--memory-cap MIB]\n\n"
            "Predicts the same workload on several devices (up to %d) and prints one column\n"
            "per device: each launch's time, what bounds it and its occupancy, the total, and\n"
            "the speedup against the first device. The script runs once per device and may\n"
            "size its grid from gpuperf.device. Columns that do not fit in 100 characters\n"
            "(or $COLUMNS) continue in a second table below the first.\n\n"
            "  --devices LIST   comma-separated device names or .ini paths; NAME*N is N\n"
            "                   identical GPUs of that kind\n"
            "  --gpus N         every device as N identical GPUs\n"
            "  -p key=value     parameters, as for gpuperf predict\n"
            "  --json           {\"script\":..., \"devices\": [predict --json of each, plus\n"
            "                   speedup_vs_first]}\n"
            "  --csv            one row per device and launch or copy, then a total row per\n"
            "                   device with speedup_vs_first\n"
            "  --budget N, --memory-cap MIB   script limits, as for gpuperf predict\n\n"
            "example:\n"
            "  gpuperf compare --devices geforce-8800-gtx,tesla-c1060,h200-sxm scripts/saxpy.lua\n",
            MAX_DEVICES);
}
