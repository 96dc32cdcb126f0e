/*
 * cmd_plugin_check.c - `gpuperf plugin-check FILE.so`: the conformance run
 * of one plugin (core/src/conformance.h), printed as text or JSON.
 */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "conformance.h"

#define MAX_DEVICE_ARGS 32

/* Options of one run. */
typedef struct pc_opts {
    const char *file;
    const char *devices[MAX_DEVICE_ARGS];
    size_t n_devices;
    int json;
    uint32_t max_reports;
} pc_opts_t;

/* Write a string to stderr from a signal handler. */
static void write_err(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* A plugin crashed: say in which call, with which inputs, then exit. The
   text is formatted from the run's record of the call in progress; the
   process is past saving, so exactness matters more than signal safety. */
static void on_crash(int sig)
{
    const char *what = gp_conf_current();
    write_err("gpuperf plugin-check: the plugin crashed (");
    write_err(sig == SIGSEGV   ? "SIGSEGV"
              : sig == SIGBUS  ? "SIGBUS"
              : sig == SIGFPE  ? "SIGFPE"
              : sig == SIGILL  ? "SIGILL"
                               : "SIGABRT");
    write_err(")");
    if (*what) {
        write_err(" in ");
        write_err(what);
    }
    write_err("\nplugin-check: does not conform: the plugin crashed\n");
    _exit(GP_EXIT_FAIL);
}

/* Catch crashes inside plugin code. */
static void install_crash_handler(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    struct sigaction sa;
    size_t i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = (int)SA_RESETHAND;
    for (i = 0; i < GP_ARRAY_LEN(sigs); i++)
        sigaction(sigs[i], &sa, NULL);
}

/* Parse the command line. */
static int parse(int argc, char **argv, pc_opts_t *o)
{
    static const struct option opts[] = {{"device", required_argument, 0, 'd'},
                                         {"json", no_argument, 0, 'j'},
                                         {"max-reports", required_argument, 0, 'm'},
                                         {0, 0, 0, 0}};
    int c;
    uint64_t v;
    memset(o, 0, sizeof *o);
    o->max_reports = 5;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (o->n_devices == MAX_DEVICE_ARGS)
                return gp_cli_fail("plugin-check", GP_EXIT_USAGE, "more than %d --device options",
                                   MAX_DEVICE_ARGS);
            o->devices[o->n_devices++] = optarg;
            break;
        case 'j':
            o->json = 1;
            break;
        case 'm':
            if (gp_cli_parse_u64("plugin-check", "--max-reports", optarg, &v))
                return GP_EXIT_USAGE;
            o->max_reports = v == 0 || v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
            break;
        default:
            if (optopt == 'd' || optopt == 'm')
                return gp_cli_fail("plugin-check", GP_EXIT_USAGE, "%s needs a value",
                                   argv[optind - 1]);
            return gp_cli_unknown_option("plugin-check", argv[optind - 1], opts);
        }
    }
    if (optind >= argc)
        return gp_cli_fail("plugin-check", GP_EXIT_USAGE,
                           "name the plugin file: gpuperf plugin-check FILE.so (see --help)");
    if (optind + 1 < argc)
        return gp_cli_fail("plugin-check", GP_EXIT_USAGE,
                           "unexpected argument '%s': check one plugin file at a time",
                           argv[optind + 1]);
    o->file = argv[optind];
    return GP_EXIT_OK;
}

/* Put the plugin's folder first on the plugin path, so that device files
   naming it load this very file. */
static void prefer_folder(const char *abs_path)
{
    char dir[GP_PATH_MAX], *slash, *val;
    const char *old = getenv("GPUPERF_PLUGIN_PATH");
    size_t n;
    gp_strlcpy(dir, abs_path, sizeof dir);
    slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = '\0';
    n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    val = malloc(n);
    if (!val)
        return;
    snprintf(val, n, "%s%s%s", dir, old && *old ? ":" : "", old ? old : "");
    setenv("GPUPERF_PLUGIN_PATH", val, 1);
    free(val);
}

/* The report as text. */
static void print_text(const gp_arch_t *a, const char *path, const gp_conf_device_t *devs,
                       size_t n_devs, const gp_conf_report_t *r)
{
    const gp_conf_check_t *checks = gp_conf_checks();
    const gp_plugin_t *p = a->plugin;
    char ccs[128];
    uint64_t total = gp_conf_total_violations(r), cases = 0;
    size_t i;
    int c;
    gp_arch_ccs_text(a, ccs, sizeof ccs);
    printf("plugin %s %s (ABI %u.%u), compute capability %s\n  %s\n  %s\n", p->name,
           p->version ? p->version : "(no version)", p->abi_major, p->abi_minor, ccs,
           p->description, path);
    printf("devices:\n");
    for (i = 0; i < n_devs; i++)
        printf("  %-22s %u.%u  %s\n", devs[i].dev.id, devs[i].dev.cc_major,
               devs[i].dev.cc_minor, devs[i].origin);
    for (i = 0; i < r->n_notes; i++)
        printf("note: %s\n", r->notes[i]);
    if (r->n_kept)
        printf("violations:\n");
    for (i = 0; i < r->n_kept; i++) {
        const gp_conf_violation_t *v = &r->kept[i];
        printf("  [%s]%s%s: %s\n      inputs: %s\n", checks[v->check].id, *v->device ? " " : "",
               v->device, v->what, v->inputs);
    }
    if (total > r->n_kept)
        printf("  (%llu more not shown: --max-reports 0 shows every one)\n",
               (unsigned long long)(total - r->n_kept));
    printf("checks:\n");
    for (c = 0; c < GP_CONF_N_CHECKS; c++) {
        cases += r->cases[c];
        printf("  %-22s %10llu cases  %s", checks[c].id, (unsigned long long)r->cases[c],
               r->violations[c] ? "" : (r->cases[c] ? "ok\n" : "-\n"));
        if (r->violations[c])
            printf("%llu violation%s\n", (unsigned long long)r->violations[c],
                   r->violations[c] == 1 ? "" : "s");
    }
    printf("plugin-check: %s %s: %llu violation%s in %llu cases on %u device%s "
           "(%llu plugin calls; %llu optional ops refused with a reason)\n",
           p->name, total ? "does not conform" : "conforms", (unsigned long long)total,
           total == 1 ? "" : "s", (unsigned long long)cases, r->n_devices,
           r->n_devices == 1 ? "" : "s", (unsigned long long)r->calls,
           (unsigned long long)r->refusals);
}

/* The report as one JSON document. */
static void print_json(const gp_arch_t *a, const char *path, const gp_conf_device_t *devs,
                       size_t n_devs, const gp_conf_report_t *r)
{
    const gp_conf_check_t *checks = gp_conf_checks();
    const gp_plugin_t *p = a->plugin;
    cJSON *doc = cJSON_CreateObject(), *plugin = cJSON_CreateObject();
    cJSON *arr, *o;
    char buf[32];
    uint64_t cases = 0, total = gp_conf_total_violations(r);
    size_t i;
    int c;
    cJSON_AddStringToObject(plugin, "name", p->name);
    cJSON_AddStringToObject(plugin, "version", p->version ? p->version : "");
    snprintf(buf, sizeof buf, "%u.%u", p->abi_major, p->abi_minor);
    cJSON_AddStringToObject(plugin, "abi", buf);
    cJSON_AddStringToObject(plugin, "description", p->description);
    cJSON_AddStringToObject(plugin, "path", path);
    arr = cJSON_AddArrayToObject(plugin, "compute_capabilities");
    for (i = 0; i < p->n_gens; i++) {
        snprintf(buf, sizeof buf, "%u.%u", p->gens[i].cc.major, p->gens[i].cc.minor);
        cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
    }
    cJSON_AddItemToObject(doc, "plugin", plugin);
    arr = cJSON_AddArrayToObject(doc, "devices");
    for (i = 0; i < n_devs; i++) {
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", devs[i].dev.id);
        snprintf(buf, sizeof buf, "%u.%u", devs[i].dev.cc_major, devs[i].dev.cc_minor);
        cJSON_AddStringToObject(o, "compute_capability", buf);
        cJSON_AddStringToObject(o, "origin", devs[i].origin);
        cJSON_AddItemToArray(arr, o);
    }
    arr = cJSON_AddArrayToObject(doc, "notes");
    for (i = 0; i < r->n_notes; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(r->notes[i]));
    arr = cJSON_AddArrayToObject(doc, "checks");
    for (c = 0; c < GP_CONF_N_CHECKS; c++) {
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", checks[c].id);
        cJSON_AddStringToObject(o, "requires", checks[c].requires);
        cJSON_AddNumberToObject(o, "cases", (double)r->cases[c]);
        cJSON_AddNumberToObject(o, "violations", (double)r->violations[c]);
        cJSON_AddItemToArray(arr, o);
        cases += r->cases[c];
    }
    arr = cJSON_AddArrayToObject(doc, "violations");
    for (i = 0; i < r->n_kept; i++) {
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "check", checks[r->kept[i].check].id);
        cJSON_AddStringToObject(o, "device", r->kept[i].device);
        cJSON_AddStringToObject(o, "what", r->kept[i].what);
        cJSON_AddStringToObject(o, "inputs", r->kept[i].inputs);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddNumberToObject(doc, "violations_total", (double)total);
    cJSON_AddNumberToObject(doc, "cases_total", (double)cases);
    cJSON_AddNumberToObject(doc, "calls", (double)r->calls);
    cJSON_AddNumberToObject(doc, "optional_ops_refused", (double)r->refusals);
    cJSON_AddBoolToObject(doc, "conforms", total == 0);
    gp_print_json(doc);
    cJSON_Delete(doc);
}

/* The plugin did not load: say why, as text or JSON. */
static int load_failed(const pc_opts_t *o, const char *path, const char *msg)
{
    if (o->json) {
        cJSON *doc = cJSON_CreateObject(), *plugin = cJSON_CreateObject();
        cJSON_AddStringToObject(plugin, "path", path);
        cJSON_AddItemToObject(doc, "plugin", plugin);
        cJSON_AddStringToObject(doc, "error", msg);
        cJSON_AddBoolToObject(doc, "conforms", 0);
        gp_print_json(doc);
        cJSON_Delete(doc);
    }
    return gp_cli_fail("plugin-check", GP_EXIT_FAIL, "%s", msg);
}

int gp_cmd_plugin_check(int argc, char **argv)
{
    pc_opts_t o;
    char path[PATH_MAX];
    gp_arch_t a;
    gp_err_t err;
    gp_conf_report_t r;
    gp_conf_device_t *devs = NULL;
    size_t n_devs = 0, i;
    const char *base;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    /* an absolute path: dlopen would search the library path for a bare name */
    if (!realpath(o.file, path)) {
        char msg[GP_PATH_MAX + 128];
        snprintf(msg, sizeof msg,
                 "%.4000s: no such file; give the path of a plugin (e.g. build/plugins/"
                 "hopper.so)",
                 o.file);
        return load_failed(&o, o.file, msg);
    }
    if (gp_arch_open_file(path, &a, &err))
        return load_failed(&o, path, err.msg);
    base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, a.plugin->name, strlen(a.plugin->name)) == 0 &&
        strcmp(base + strlen(a.plugin->name), ".so") == 0)
        prefer_folder(path);
    install_crash_handler();
    gp_conf_report_init(&r, o.max_reports);
    gp_conf_descriptor(&a, path, &r);
    if (gp_conf_devices(&a, o.devices, o.n_devices, &devs, &n_devs, &r, &err)) {
        gp_conf_report_free(&r);
        gp_arch_close(&a);
        return gp_cli_fail("plugin-check", GP_EXIT_FAIL, "%s", err.msg);
    }
    for (i = 0; i < n_devs; i++)
        gp_conf_run_device(&a, &devs[i].dev, &r);
    if (o.json)
        print_json(&a, path, devs, n_devs, &r);
    else
        print_text(&a, path, devs, n_devs, &r);
    rc = gp_conf_total_violations(&r) ? GP_EXIT_FAIL : GP_EXIT_OK;
    free(devs);
    gp_conf_report_free(&r);
    gp_arch_close(&a);
    return rc;
}

/* "  id   text..." with the text wrapped at 80 columns under itself. */
static void print_wrapped(FILE *out, const char *id, const char *text)
{
    const int indent = 25, width = 80;
    int col = fprintf(out, "  %-22s ", id);
    const char *p = text;
    while (*p) {
        int len;
        while (*p == ' ')
            p++;
        len = (int)strcspn(p, " ");
        if (!len)
            break;
        if (col > indent) {
            if (col + 1 + len > width) {
                fprintf(out, "\n%*s", indent, "");
                col = indent;
            } else {
                col += fprintf(out, " ");
            }
        }
        col += fprintf(out, "%.*s", len, p);
        p += len;
    }
    fputc('\n', out);
}

void gp_help_plugin_check(FILE *out)
{
    const gp_conf_check_t *checks = gp_conf_checks();
    int c;
    fprintf(out,
            "usage: gpuperf plugin-check FILE.so [--device D ...] [--json]\n"
            "                            [--max-reports N]\n\n"
            "Checks that an architecture plugin keeps the ABI and the invariants of a sane\n"
            "timing model. It loads FILE.so the way gpuperf does (descriptor, ABI version,\n"
            "callbacks), then calls every callback on a grid of inputs: thousands of launch\n"
            "shapes (threads per block 1 to the maximum and one past it, registers,\n"
            "shared memory, cache preferences and carve-outs), a catalogue of kernels\n"
            "(every op class, memory space and access pattern, loops, divergence) and,\n"
            "for each, the block at every residency, with more work, a faster clock, more\n"
            "bandwidth and worse access patterns. Each violation is printed with the\n"
            "inputs that produced it. A plugin that crashes is reported with the call\n"
            "that crashed it.\n\n"
            "Devices: by default, for each compute capability the plugin serves, the\n"
            "device files on the search path that name it; else a device file of that\n"
            "capability written for another plugin (checked with this one, [arch] keys\n"
            "at their defaults); else a copy of the nearest device with the capability\n"
            "changed. The plugin's check_device must accept such stand-ins. Each choice is\n"
            "printed as a note. FILE.so's folder is searched first for plugins, so device\n"
            "files that name the plugin load this very file.\n\n"
            "  --device D        check on device D (a name or an .ini path); repeatable.\n"
            "                    A device written for another plugin is checked as one of\n"
            "                    this plugin's if it serves the compute capability\n"
            "  --json            one JSON document: plugin, devices, notes, checks (id,\n"
            "                    requires, cases, violations), violations (check, device,\n"
            "                    what, inputs), violations_total, conforms\n"
            "  --max-reports N   print at most N violations per check and device\n"
            "                    (default 5; 0: all); the counts always cover all\n\n"
            "The checks (docs/plugins.md explains each):\n");
    for (c = 0; c < GP_CONF_N_CHECKS; c++)
        print_wrapped(out, checks[c].id, checks[c].requires);
    fprintf(out,
            "\nExit status: 0 when the plugin conforms, 1 when it does not load, a check\n"
            "fails or it crashes, 2 for a bad command line.\n\n"
            "examples:\n"
            "  gpuperf plugin-check build/plugins/hopper.so\n"
            "  gpuperf plugin-check ./toyarch.so --device toyarch-t1.ini\n"
            "  gpuperf plugin-check build/plugins/ampere.so --json > ampere-check.json\n");
}
