/*
 * cmd_sweep.c - `gpuperf sweep`: one workload over a grid of parameter values
 * and devices, predicted in parallel, as CSV, JSON and an SVG chart.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sweep.h"
#include "svg.h"

#define SWEEP_MAX_DEVICES 64
#define SWEEP_BATCH 65536            /* points predicted between writes */
#define SWEEP_SVG_MAX_POINTS 1000000 /* a chart of more is unreadable anyway */
#define SWEEP_SVG_MAX_SERIES 40
#define SWEEP_SVG_WIDTH_PX 900.0
#define SWEEP_SVG_HEIGHT_PX 560.0
#define SWEEP_SVG_LOG_SPAN_X 64.0  /* x is logarithmic beyond this max/min */
#define SWEEP_SVG_LOG_SPAN_Y 100.0 /* y likewise */
#define SWEEP_MAX_JOBS 1024

/* The command line. */
typedef struct sweep_opts {
    const char *script;
    const char *devices;
    gp_sweep_axis_t axes[GP_SWEEP_MAX_AXES];
    uint32_t n_axes;
    gp_script_opts_t sopts;
    unsigned jobs; /* 0: one per processor */
    const char *output;
    const char *svg;
    const char *x_name;
    int json, csv; /* --csv: the default, said explicitly */
} sweep_opts_t;

/* Where rows go: stdout, or a temporary file renamed into place at the end. */
typedef struct sweep_out {
    FILE *f;
    const char *path;
    char tmp[GP_PATH_MAX + 16];
    int direct; /* written in place (not a regular file) */
} sweep_out_t;

/* Release the parsed axes. */
static void opts_free(sweep_opts_t *o)
{
    uint32_t i;
    for (i = 0; i < o->n_axes; i++)
        gp_sweep_axis_free(&o->axes[i]);
    o->n_axes = 0;
}

/* Parse the command line; GP_EXIT_OK or a usage error already reported. */
static int parse(int argc, char **argv, sweep_opts_t *o)
{
    static const struct option opts[] = {
        {"devices", required_argument, 0, 'D'}, {"device", required_argument, 0, 'D'},
        {"param", required_argument, 0, 'p'},   {"jobs", required_argument, 0, 'j'},
        {"output", required_argument, 0, 'o'},  {"json", no_argument, 0, 'J'},
        {"svg", required_argument, 0, 's'},     {"x", required_argument, 0, 'x'},
        {"budget", required_argument, 0, 'b'},  {"memory-cap", required_argument, 0, 'm'},
        {"csv", no_argument, 0, 'C'},           {0, 0, 0, 0}};
    int c;
    memset(o, 0, sizeof *o);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:j:o:", opts, NULL)) != -1) {
        gp_err_t err;
        uint64_t v;
        switch (c) {
        case 'D': o->devices = optarg; break;
        case 'p':
            if (o->n_axes >= GP_SWEEP_MAX_AXES)
                return gp_cli_fail("sweep", GP_EXIT_USAGE, "more than %d -p parameters",
                                   GP_SWEEP_MAX_AXES);
            if (gp_sweep_axis_parse(optarg, &o->axes[o->n_axes], &err))
                return gp_cli_fail("sweep", GP_EXIT_USAGE, "%s", err.msg);
            o->n_axes++;
            break;
        case 'j':
            {
                char label[96];
                snprintf(label, sizeof label, "-j %.80s", optarg);
                if (gp_cli_parse_count("sweep", label, optarg, 1, SWEEP_MAX_JOBS, "threads", &v))
                    return GP_EXIT_USAGE;
            }
            o->jobs = (unsigned)v;
            break;
        case 'o': o->output = optarg; break;
        case 'J': o->json = 1; break;
        case 'C': o->csv = 1; break;
        case 's': o->svg = optarg; break;
        case 'x': o->x_name = optarg; break;
        case 'b':
            if (gp_cli_parse_u64("sweep", "--budget", optarg, &o->sopts.instruction_budget))
                return GP_EXIT_USAGE;
            break;
        case 'm':
            if (gp_cli_parse_memory_cap("sweep", optarg, &o->sopts.memory_cap_bytes))
                return GP_EXIT_USAGE;
            break;
        case ':':
            return gp_cli_fail("sweep", GP_EXIT_USAGE, "%s needs a value", argv[optind - 1]);
        default:
            return gp_cli_unknown_option("sweep", argv[optind - 1], opts);
        }
    }
    if (optind >= argc)
        return gp_cli_fail("sweep", GP_EXIT_USAGE,
                           "no workload script given (e.g. scripts/saxpy.lua)");
    if (optind + 1 < argc)
        return gp_cli_fail("sweep", GP_EXIT_USAGE, "one script at a time; unexpected '%s'",
                           argv[optind + 1]);
    o->script = argv[optind];
    if (!o->devices)
        return gp_cli_fail("sweep", GP_EXIT_USAGE,
                           "--devices D1,D2,... is required (gpuperf devices lists them)");
    if (o->x_name && !o->svg)
        return gp_cli_fail("sweep", GP_EXIT_USAGE, "--x picks the chart's axis; give --svg FILE");
    if (o->json && o->csv)
        return gp_cli_fail("sweep", GP_EXIT_USAGE, "--json and --csv: give one");
    if (gp_cli_is_stdout(o->svg) && (!o->output || gp_cli_is_stdout(o->output)))
        return gp_cli_fail("sweep", GP_EXIT_USAGE, "--svg - and the rows would both go to "
                           "stdout; send the rows elsewhere with -o FILE (or -o /dev/null)");
    return GP_EXIT_OK;
}

/* ---------------------------------------------------------------- output */

/* Open stdout or a temporary file next to the output path. */
static int out_open(sweep_out_t *out, const char *path)
{
    struct stat st;
    int fd;
    memset(out, 0, sizeof *out);
    if (!path || gp_cli_is_stdout(path)) {
        out->f = stdout;
        return 0;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* /dev/null, a pipe, a terminal: nothing to replace atomically */
        out->f = fopen(path, "w");
        if (!out->f)
            return gp_cli_fail("sweep", GP_EXIT_FAIL, "-o %s: cannot open: %s", path,
                               strerror(errno));
        out->direct = 1;
        out->path = path;
        return 0;
    }
    out->path = path;
    if (gp_snprintf(out->tmp, sizeof out->tmp, "%s.tmp.XXXXXX", path))
        return gp_cli_fail("sweep", GP_EXIT_USAGE, "-o %s: path too long", path);
    fd = mkstemp(out->tmp);
    /* mkstemp makes the file private; the result is an ordinary file */
    if (fd < 0 || fchmod(fd, 0644) != 0 || !(out->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(out->tmp);
        }
        return gp_cli_fail("sweep", GP_EXIT_FAIL, "-o %s: cannot create the file: %s", path,
                           strerror(e));
    }
    return 0;
}

/* Finish the output: rename into place (ok) or remove the temporary file. */
static int out_close(sweep_out_t *out, int ok)
{
    int rc = 0;
    if (!out->f)
        return 0;
    if (fflush(out->f) != 0 || ferror(out->f))
        rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "%s: write error: %s",
                         out->path ? out->path : "stdout", strerror(errno));
    if (out->path && out->direct) {
        if (fclose(out->f) != 0 && rc == 0)
            rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "-o %s: write error: %s", out->path,
                             strerror(errno));
    } else if (out->path) {
        if (fclose(out->f) != 0 && rc == 0)
            rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "-o %s: write error: %s", out->path,
                             strerror(errno));
        if (ok && rc == 0 && rename(out->tmp, out->path) != 0)
            rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "-o %s: cannot rename into place: %s",
                             out->path, strerror(errno));
        if (!ok || rc)
            unlink(out->tmp);
    }
    out->f = NULL;
    return rc;
}

/* A JSON string literal. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch == '\t')
            fputs("\\t", f);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* A parameter value in JSON: a number as is, a word as a string. */
static void json_value(FILE *f, const gp_sweep_axis_t *a, uint32_t i)
{
    if (isnan(a->numbers[i]))
        json_string(f, a->values[i]);
    else
        fputs(a->values[i], f);
}

/* What precedes the first row. */
static void write_head(FILE *f, const sweep_opts_t *o, const gp_cli_device_t *devs, int n_dev,
                       uint64_t points)
{
    uint32_t a, i;
    int d;
    if (!o->json) {
        fputs("device", f);
        for (a = 0; a < o->n_axes; a++) {
            fputc(',', f);
            gp_cli_csv_field(f, o->axes[a].name);
        }
        fputs(",total_us,launches,bound,blocks_per_sm,occupancy,limiter,error\n", f);
        return;
    }
    fputs("{\n  \"script\": ", f);
    json_string(f, o->script);
    fputs(",\n  \"devices\": [", f);
    for (d = 0; d < n_dev; d++) {
        fputs(d ? ", " : "", f);
        json_string(f, devs[d].dev.id);
    }
    fputs("],\n  \"params\": [", f);
    for (a = 0; a < o->n_axes; a++) {
        fputs(a ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        json_string(f, o->axes[a].name);
        fputs(", \"values\": [", f);
        for (i = 0; i < o->axes[a].n_values; i++) {
            fputs(i ? ", " : "", f);
            json_value(f, &o->axes[a], i);
        }
        fputs("]}", f);
    }
    fprintf(f, "%s],\n  \"points\": %llu,\n  \"results\": [", o->n_axes ? "\n  " : "",
            (unsigned long long)points);
}

/* Append s to buf at n (room checked by the caller); returns the new length. */
static size_t put_text(char *buf, size_t n, const char *s)
{
    size_t len = strlen(s);
    memcpy(buf + n, s, len);
    return n + len;
}

/* The columns of a row that predicted, from total_us on: as
   ",%.3f,%u,%s,,,,\n" (a copy, or no commands) or ",%.3f,%u,%s,%u,%.4f,%s,\n"
   would write them, formatted here (printf was two thirds of writing a
   row); a number gp_format_fixed does not take goes to printf. */
static void write_csv_numbers(FILE *f, const gp_sweep_result_t *r)
{
    char buf[192];
    size_t n = 0, len;
    int full = !(r->is_copy || r->commands == 0);
    const char *bound = full ? gp_bound_name(r->bound) : r->is_copy ? "copy" : "";
    const char *limiter = full ? gp_limiter_name(r->limiter) : "";
    buf[n++] = ',';
    len = gp_format_fixed(buf + n, r->total_us, 3);
    if (len == 0 || strlen(bound) > 48 || strlen(limiter) > 48)
        goto with_printf;
    n += len;
    buf[n++] = ',';
    n = gp_put_uint(buf, n, r->launches);
    buf[n++] = ',';
    n = put_text(buf, n, bound);
    if (full) {
        buf[n++] = ',';
        n = gp_put_uint(buf, n, r->blocks_per_sm);
        buf[n++] = ',';
        len = gp_format_fixed(buf + n, r->occupancy, 4);
        if (len == 0)
            goto with_printf;
        n += len;
        buf[n++] = ',';
        n = put_text(buf, n, limiter);
        n = put_text(buf, n, ",\n");
    } else {
        n = put_text(buf, n, ",,,,\n");
    }
    fwrite(buf, 1, n, f);
    return;
with_printf:
    if (full)
        fprintf(f, ",%.3f,%u,%s,%u,%.4f,%s,\n", r->total_us, r->launches, bound,
                r->blocks_per_sm, r->occupancy, limiter);
    else
        fprintf(f, ",%.3f,%u,%s,,,,\n", r->total_us, r->launches, bound);
}

/* One row: point `index` and what it predicted. */
static void write_row(FILE *f, const sweep_opts_t *o, const gp_sweep_t *sw,
                      const gp_cli_device_t *devs, uint64_t index, const gp_sweep_result_t *r)
{
    uint32_t dev, vi[GP_SWEEP_MAX_AXES], a;
    gp_sweep_point(sw, index, &dev, vi);
    if (!o->json) {
        fputs(devs[dev].dev.id, f);
        for (a = 0; a < o->n_axes; a++) {
            fputc(',', f);
            gp_cli_csv_field(f, o->axes[a].values[vi[a]]);
        }
        if (r->error) {
            fputs(",,,,,,,", f);
            gp_cli_csv_field(f, r->error);
            fputc('\n', f);
        } else {
            write_csv_numbers(f, r);
        }
        return;
    }
    fputs(index ? ",\n    {\"device\": " : "\n    {\"device\": ", f);
    json_string(f, devs[dev].dev.id);
    fputs(", \"params\": {", f);
    for (a = 0; a < o->n_axes; a++) {
        fputs(a ? ", " : "", f);
        json_string(f, o->axes[a].name);
        fputs(": ", f);
        json_value(f, &o->axes[a], vi[a]);
    }
    fputc('}', f);
    if (r->error) {
        fputs(", \"error\": ", f);
        json_string(f, r->error);
    } else if (r->is_copy || r->commands == 0) {
        fprintf(f, ", \"total_us\": %.17g, \"launches\": %u%s", r->total_us, r->launches,
                r->is_copy ? ", \"bound\": \"copy\"" : "");
    } else {
        fprintf(f,
                ", \"total_us\": %.17g, \"launches\": %u, \"bound\": \"%s\", "
                "\"blocks_per_sm\": %u, \"occupancy\": %.17g, \"limiter\": \"%s\"",
                r->total_us, r->launches, gp_bound_name(r->bound), r->blocks_per_sm,
                r->occupancy, gp_limiter_name(r->limiter));
    }
    fputc('}', f);
}

/* Progress bar on a terminal. */
typedef struct progress {
    uint64_t base, total;
    int shown;
} progress_t;

/* gp_sweep_progress_fn: redraw the bar. */
static void show_progress(void *ud, uint64_t done, uint64_t total)
{
    progress_t *p = ud;
    enum { WIDTH = 40 };
    char bar[WIDTH + 1];
    uint64_t all = p->base + done;
    int fill = (int)((double)all / (double)p->total * WIDTH), i;
    (void)total;
    for (i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(stderr, "\r[%s] %3.0f%%  %llu/%llu points", bar,
            100.0 * (double)all / (double)p->total, (unsigned long long)all,
            (unsigned long long)p->total);
    fflush(stderr);
    p->shown = 1;
}

/* ----------------------------------------------------------------- chart */

/* Which axis the chart's x is, checked before the sweep runs. */
static int chart_axis(const sweep_opts_t *o, uint64_t points, int n_dev, uint32_t *x_axis)
{
    uint32_t a, i;
    uint64_t series = (uint64_t)n_dev;
    int found = 0;
    for (a = 0; a < o->n_axes && !found; a++) {
        if (o->x_name ? strcmp(o->axes[a].name, o->x_name) == 0 : o->axes[a].n_values > 1) {
            *x_axis = a;
            found = 1;
        }
    }
    if (!found)
        return o->x_name ? gp_cli_fail("sweep", GP_EXIT_USAGE,
                                       "--x %s: no -p parameter of that name", o->x_name)
                         : gp_cli_fail("sweep", GP_EXIT_USAGE,
                                       "--svg needs a swept parameter (-p key=A:B:STEP or "
                                       "-p key=V1,V2,...)");
    for (i = 0; i < o->axes[*x_axis].n_values; i++)
        if (isnan(o->axes[*x_axis].numbers[i]))
            return gp_cli_fail("sweep", GP_EXIT_USAGE,
                               "--svg: parameter '%s' takes the word '%s'; the chart's x axis "
                               "needs numbers (pick another with --x)",
                               o->axes[*x_axis].name, o->axes[*x_axis].values[i]);
    for (a = 0; a < o->n_axes; a++)
        if (a != *x_axis)
            series *= o->axes[a].n_values;
    if (points > SWEEP_SVG_MAX_POINTS || series > SWEEP_SVG_MAX_SERIES)
        return gp_cli_fail("sweep", GP_EXIT_USAGE,
                           "--svg: %llu lines of %u points; a chart takes at most %d lines "
                           "(devices x values of the other parameters) and %d points",
                           (unsigned long long)series, o->axes[*x_axis].n_values,
                           SWEEP_SVG_MAX_SERIES, SWEEP_SVG_MAX_POINTS);
    return GP_EXIT_OK;
}

/* One chart axis over [min, max] of positive-or-not values: logarithmic
   (values replaced by their log10, ticks at decades) when all are positive
   and they span more than `log_span`; from zero when `from_zero`. */
static void chart_fit(gp_svg_axis_t *ax, double *v, size_t n, double log_span, int from_zero,
                      int exact)
{
    double lo = INFINITY, hi = -INFINITY, step;
    size_t i;
    for (i = 0; i < n; i++)
        if (isfinite(v[i])) {
            lo = fmin(lo, v[i]);
            hi = fmax(hi, v[i]);
        }
    if (!(lo <= hi)) { /* no point ran: an empty frame */
        lo = 0;
        hi = 1;
    }
    if (lo > 0 && hi / lo > log_span) {
        for (i = 0; i < n; i++)
            v[i] = v[i] > 0 ? log10(v[i]) : NAN;
        ax->min = exact ? log10(lo) : floor(log10(lo));
        ax->max = exact ? log10(hi) : ceil(log10(hi));
        ax->tick_step = 1;
        ax->tick_format = "1e%g";
        return;
    }
    if (from_zero && lo > 0)
        lo = 0;
    if (hi <= lo) {
        double pad = lo != 0 ? fabs(lo) * 0.1 : 1;
        lo -= pad;
        hi += pad;
    }
    /* round the far end up to a 1-2-5 step so the top tick is labelled */
    step = pow(10, floor(log10((hi - lo) / 5)));
    step *= (hi - lo) / step > 35 ? 10 : (hi - lo) / step > 15 ? 5 : (hi - lo) / step > 7 ? 2 : 1;
    if (exact && hi > lo) { /* the axis spans the data, ticks fall inside it */
        ax->min = lo;
        ax->max = hi;
        ax->tick_step = step;
        return;
    }
    ax->min = from_zero ? lo : floor(lo / step) * step;
    ax->max = ceil(hi / step) * step;
}

/* Draw time against the x axis, one line per device (and per value of the
   other swept parameters). y_us[i] is point i's time, NaN where it failed. */
static int chart_write(const sweep_opts_t *o, const gp_sweep_t *sw, const gp_cli_device_t *devs,
                       uint32_t x_axis, const double *y_us)
{
    uint64_t points = gp_sweep_points(sw), i;
    uint32_t nx = o->axes[x_axis].n_values, n_series = (uint32_t)(points / nx), s, k;
    gp_svg_series_t *series = calloc(n_series, sizeof *series);
    char (*labels)[160] = calloc(n_series, sizeof *labels);
    double *xs = malloc((size_t)points * sizeof *xs), *ys = malloc((size_t)points * sizeof *ys);
    char title[600], x_label[GP_WL_NAME_MAX + 16], *text = NULL;
    size_t len = 0;
    gp_svg_chart_t chart;
    gp_svg_t svg;
    double height_px = GP_MAX(SWEEP_SVG_HEIGHT_PX, 140.0 + 16.0 * n_series), width_px;
    int rc = GP_EXIT_OK;
    if (!series || !labels || !xs || !ys) {
        rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "--svg: out of memory");
        goto out;
    }
    /* group points by everything but the x value, in first-seen order */
    for (i = 0; i < points; i++) {
        uint32_t dev, vi[GP_SWEEP_MAX_AXES], a;
        uint64_t key;
        gp_sweep_point(sw, i, &dev, vi);
        key = dev;
        for (a = 0; a < o->n_axes; a++)
            if (a != x_axis)
                key = key * o->axes[a].n_values + vi[a];
        s = (uint32_t)key;
        if (series[s].n == 0) {
            size_t n = (size_t)snprintf(labels[s], sizeof labels[s], "%s", devs[dev].dev.id);
            for (a = 0; a < o->n_axes; a++)
                if (a != x_axis && o->axes[a].n_values > 1 && n < sizeof labels[s])
                    n += (size_t)snprintf(labels[s] + n, sizeof labels[s] - n, " %s=%s",
                                          o->axes[a].name, o->axes[a].values[vi[a]]);
            series[s].label = labels[s];
            series[s].x = xs + (size_t)s * nx;
            series[s].y = ys + (size_t)s * nx;
        }
        k = (uint32_t)series[s].n++;
        xs[(size_t)s * nx + k] = o->axes[x_axis].numbers[vi[x_axis]];
        ys[(size_t)s * nx + k] = y_us[i];
    }
    memset(&chart, 0, sizeof chart);
    snprintf(title, sizeof title, "%s: predicted time against %s", o->script,
             o->axes[x_axis].name);
    chart.title = title;
    chart.note = "gpuperf sweep";
    chart.x.label = o->axes[x_axis].name;
    chart.y.label = "predicted time (us)";
    /* x runs from the first value swept to the last; y from zero to a
       labelled tick above the slowest point */
    chart_fit(&chart.x, xs, (size_t)points, SWEEP_SVG_LOG_SPAN_X, 0, 1);
    chart_fit(&chart.y, ys, (size_t)points, SWEEP_SVG_LOG_SPAN_Y, 1, 0);
    if (chart.x.tick_format) {
        snprintf(x_label, sizeof x_label, "%s (log scale)", o->axes[x_axis].name);
        chart.x.label = x_label;
    }
    if (chart.y.tick_format)
        chart.y.label = "predicted time (us, log scale)";
    chart.series = series;
    chart.n_series = n_series;
    /* the legend sits right of the plot, never over its lines */
    chart.legend_outside = 1;
    width_px = SWEEP_SVG_WIDTH_PX + gp_svg_legend_width(&chart);
    gp_svg_begin(&svg, width_px, height_px);
    if (gp_svg_line_chart(&svg, 0, 0, width_px, height_px, &chart)) {
        gp_svg_free(&svg);
        rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "--svg %s: nothing to draw", o->svg);
    } else if (gp_svg_end(&svg, &text, &len)) {
        rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "--svg %s: out of memory", o->svg);
    } else {
        rc = gp_cli_write_output("sweep", "--svg", o->svg, text, len);
    }
out:
    free(text);
    free(series);
    free(labels);
    free(xs);
    free(ys);
    return rc;
}

/* ------------------------------------------------------------------- run */

/* One batch of points being predicted, possibly on a thread of its own. */
typedef struct batch {
    gp_sweep_t *sw;
    uint64_t first, count;
    gp_sweep_result_t *res;
    progress_t *prog; /* NULL: no progress bar */
    gp_err_t err;
    int rc;
    pthread_t thread;
    int threaded;
} batch_t;

/* Predict one batch (the body of a batch thread). */
static void *batch_main(void *arg)
{
    batch_t *b = arg;
    if (b->prog)
        b->prog->base = b->first;
    b->rc = gp_sweep_run(b->sw, b->first, b->count, b->res, b->prog ? show_progress : NULL,
                         b->prog, &b->err);
    return NULL;
}

/* Start predicting points [first, first + count) into res: on a thread, so
   that the rows of the previous batch are written meanwhile, or inline. */
static void batch_start(batch_t *b, gp_sweep_t *sw, uint64_t first, uint64_t count,
                        gp_sweep_result_t *res, progress_t *prog)
{
    b->sw = sw;
    b->first = first;
    b->count = count;
    b->res = res;
    b->prog = prog;
    b->threaded = pthread_create(&b->thread, NULL, batch_main, b) == 0;
    if (!b->threaded)
        batch_main(b);
}

/* Wait for a started batch; its gp_sweep_run status. */
static int batch_wait(batch_t *b)
{
    if (b->threaded)
        pthread_join(b->thread, NULL);
    b->threaded = 0;
    return b->rc;
}

/* Predict every batch of points and write its rows in order; batch k + 1 is
   predicted while the rows of batch k are written. */
static int run_batches(const sweep_opts_t *o, gp_sweep_t *sw, const gp_cli_device_t *devs,
                       FILE *f, double *y_us, uint64_t *n_failed)
{
    uint64_t points = gp_sweep_points(sw), first, i, size = GP_MIN(points, SWEEP_BATCH);
    gp_sweep_result_t *res[2];
    progress_t prog = {0, points, 0};
    batch_t cur;
    int tty = isatty(STDERR_FILENO), rc = GP_EXIT_OK, k = 0;
    res[0] = calloc(size, sizeof *res[0]);
    res[1] = calloc(size, sizeof *res[1]);
    if (!res[0] || !res[1]) {
        free(res[0]);
        free(res[1]);
        return gp_cli_fail("sweep", GP_EXIT_FAIL, "out of memory");
    }
    memset(&cur, 0, sizeof cur);
    batch_start(&cur, sw, 0, size, res[0], tty ? &prog : NULL);
    for (first = 0; first < points; first += SWEEP_BATCH, k ^= 1) {
        uint64_t count = GP_MIN(SWEEP_BATCH, points - first), next = first + SWEEP_BATCH;
        if (batch_wait(&cur)) {
            if (prog.shown)
                fputc('\n', stderr);
            rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "%s", cur.err.msg);
            gp_sweep_results_clear(res[k], count);
            break;
        }
        if (next < points)
            batch_start(&cur, sw, next, GP_MIN(SWEEP_BATCH, points - next), res[k ^ 1],
                        tty ? &prog : NULL);
        for (i = 0; i < count && !rc; i++)
            if (!res[k][i].error && res[k][i].commands == 0)
                rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "%s: the script launches no kernel "
                                 "and copies nothing at point %llu, so there is no time to "
                                 "predict; add a gpuperf.launch{...} (docs/workloads.md) or "
                                 "check the -p values", o->script,
                                 (unsigned long long)(first + i + 1));
        if (rc) {
            gp_sweep_results_clear(res[k], count);
            if (next < points)
                batch_wait(&cur);
            if (next < points)
                gp_sweep_results_clear(res[k ^ 1], GP_MIN(SWEEP_BATCH, points - next));
            break;
        }
        for (i = 0; i < count; i++) {
            write_row(f, o, sw, devs, first + i, &res[k][i]);
            *n_failed += res[k][i].error != NULL;
            if (y_us)
                y_us[first + i] = res[k][i].error ? NAN : res[k][i].total_us;
        }
        gp_sweep_results_clear(res[k], count);
    }
    if (prog.shown && rc == GP_EXIT_OK)
        fputs("\r\033[K", stderr);
    free(res[0]);
    free(res[1]);
    return rc;
}

int gp_cmd_sweep(int argc, char **argv)
{
    sweep_opts_t o;
    char list[4096];
    char *names[SWEEP_MAX_DEVICES];
    gp_cli_device_t *devs = NULL;
    gp_device_t *dv = NULL;
    const gp_arch_t **archs = NULL;
    gp_sweep_t *sw = NULL;
    sweep_out_t out = {0};
    double *y_us = NULL;
    uint64_t points = 0, n_failed = 0;
    uint32_t x_axis = 0;
    gp_err_t err;
    int n, i, rc = parse(argc, argv, &o);
    if (rc)
        goto done;
    if (gp_strlcpy(list, o.devices, sizeof list)) {
        rc = gp_cli_fail("sweep", GP_EXIT_USAGE, "--devices list too long");
        goto done;
    }
    n = gp_cli_split_list(list, names, SWEEP_MAX_DEVICES);
    if (n <= 0) {
        rc = gp_cli_fail("sweep", GP_EXIT_USAGE,
                         n < 0 ? "--devices: at most %d devices"
                               : "--devices needs a comma-separated list (at most %d)",
                         SWEEP_MAX_DEVICES);
        goto done;
    }
    devs = calloc((size_t)n, sizeof *devs);
    dv = calloc((size_t)n, sizeof *dv);
    archs = calloc((size_t)n, sizeof *archs);
    if (!devs || !dv || !archs) {
        rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "out of memory");
        goto done;
    }
    /* every device file and plugin is loaded once, before any point runs */
    for (i = 0; i < n; i++) {
        rc = gp_cli_open_device("sweep", names[i], &devs[i]);
        if (rc)
            goto done;
        dv[i] = devs[i].dev;
        archs[i] = devs[i].arch;
    }
    sw = gp_sweep_new(o.script, &o.sopts, dv, archs, (uint32_t)n, o.axes, o.n_axes, o.jobs,
                      &err);
    if (!sw) {
        rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "%s", err.msg);
        goto done;
    }
    points = gp_sweep_points(sw);
    if (o.svg) {
        rc = chart_axis(&o, points, n, &x_axis);
        if (rc)
            goto done;
        y_us = malloc((size_t)points * sizeof *y_us);
        if (!y_us) {
            rc = gp_cli_fail("sweep", GP_EXIT_FAIL, "--svg: out of memory");
            goto done;
        }
    }
    rc = out_open(&out, o.output);
    if (rc)
        goto done;
    write_head(out.f, &o, devs, n, points);
    rc = run_batches(&o, sw, devs, out.f, y_us, &n_failed);
    if (rc == GP_EXIT_OK && o.json)
        fputs(points ? "\n  ]\n}\n" : "]\n}\n", out.f);
    i = out_close(&out, rc == GP_EXIT_OK);
    if (rc == GP_EXIT_OK)
        rc = i;
    if (rc == GP_EXIT_OK && o.svg)
        rc = chart_write(&o, sw, devs, x_axis, y_us);
    if (rc == GP_EXIT_OK && n_failed)
        fprintf(stderr, "gpuperf sweep: %llu of %llu points cannot run on their device (see the "
                        "error column)\n",
                (unsigned long long)n_failed, (unsigned long long)points);
done:
    out_close(&out, 0);
    gp_sweep_free(sw);
    free(y_us);
    free(devs);
    free(dv);
    free(archs);
    opts_free(&o);
    return rc;
}

void gp_help_sweep(FILE *out)
{
    fprintf(out,
            "usage: gpuperf sweep --devices D1,D2,... SCRIPT.lua -p key=SPEC ... [-j N]\n"
            "                     [-o FILE] [--csv | --json] [--svg FILE [--x KEY]]\n"
            "                     [--budget N] [--memory-cap MIB]\n\n"
            "Predicts the workload for every combination of the parameter values on every\n"
            "device, in parallel, and writes one row per combination: the device, the\n"
            "parameter values, the predicted total, the number of launches, and the bound,\n"
            "blocks per SM, occupancy and limiter of the longest launch. A combination that\n"
            "cannot run on its device (e.g. block=2048) is a row with the reason in the\n"
            "error column; a script error (a failed assert, an undeclared parameter) stops\n"
            "the sweep and names the point. Rows come in the same order whatever -j: device\n"
            "by device, then the parameters in the order given, the last varying fastest.\n\n"
            "  --devices LIST   comma-separated device names or .ini paths\n"
            "  -p key=SPEC      SPEC is a value (-p regs=32), a list (-p n=2^20,2^24,2^28),\n"
            "                   a range A:B:STEP (-p block=32:1024:32, B included when the\n"
            "                   steps land on it; A:B steps by 1) or a geometric range\n"
            "                   A:B:*F (-p n=2^16:2^28:*4); a value containing ':' is a range\n"
            "  -j N             threads (default: one per processor)\n"
            "  -o FILE          write to FILE (replaced only once the sweep succeeds)\n"
            "                   instead of stdout (-o -: stdout)\n"
            "  --csv            CSV rows (the default)\n"
            "  --json           one JSON document instead of CSV: script, devices, params\n"
            "                   (name, values), points, results (one object per row)\n"
            "  --svg FILE       chart of the predicted time against the first swept parameter\n"
            "                   (or --x KEY), one line per device and per value of the other\n"
            "                   swept parameters (at most %d lines); --svg - writes it to\n"
            "                   stdout (the rows then need -o FILE)\n"
            "  --budget N, --memory-cap MIB   script limits, as for gpuperf predict\n\n"
            "At most %llu points (devices x combinations). A progress bar is drawn on stderr\n"
            "when it is a terminal.\n\n"
            "examples:\n"
            "  gpuperf sweep --devices h100-sxm,h200-sxm scripts/saxpy.lua \\\n"
            "      -p block=32:1024:32 -p n=2^20,2^24,2^28 --svg saxpy.svg -o saxpy.csv\n"
            "  gpuperf sweep --devices a100-sxm4-80gb scripts/matmul_tiled.lua -p n=256:4096:256 "
            "--json\n",
            SWEEP_SVG_MAX_SERIES, (unsigned long long)GP_SWEEP_MAX_POINTS);
}
