/*
 * cmd_params.c - `gpuperf params`: the parameters a workload script declares
 * with gpuperf.param, with their types, defaults and help text.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The first loadable device file on the search path (its id), for scripts
   whose defaults may read gpuperf.device. */
typedef struct first_device {
    char id[GP_NAME_MAX];
} first_device_t;

static void on_device(void *ud, const char *path, const gp_device_t *dev,
                      const gp_arch_t *arch, const char *error)
{
    first_device_t *f = ud;
    (void)path;
    (void)arch;
    (void)error;
    if (dev && !f->id[0])
        gp_strlcpy(f->id, dev->id, sizeof f->id);
}

/* The parameters as text: a table, one row per parameter. */
static void params_text(const gp_workload_t *wl, const char *device)
{
    size_t name_w = 4, def_w = 7;
    uint32_t i;
    char def[160];
    for (i = 0; i < wl->n_params; i++) {
        const gp_param_decl_t *p = &wl->params[i];
        if (p->is_string)
            snprintf(def, sizeof def, "\"%s\"", p->default_str);
        else
            snprintf(def, sizeof def, "%.17g", p->default_value);
        name_w = GP_MAX(name_w, strlen(p->name));
        def_w = GP_MAX(def_w, strlen(def));
    }
    if (wl->n_params == 0) {
        printf("%s declares no parameters (gpuperf.param); it takes no -p options\n",
               wl->script);
        return;
    }
    printf("%s: %u parameter%s, set with -p NAME=VALUE (defaults as the script computes them "
           "for %s)\n\n",
           wl->script, wl->n_params, wl->n_params == 1 ? "" : "s", device);
    printf("%-*s  %-6s  %-*s  %s\n", (int)name_w, "NAME", "TYPE", (int)def_w, "DEFAULT", "HELP");
    for (i = 0; i < wl->n_params; i++) {
        const gp_param_decl_t *p = &wl->params[i];
        if (p->is_string)
            snprintf(def, sizeof def, "\"%s\"", p->default_str);
        else
            snprintf(def, sizeof def, "%.17g", p->default_value);
        printf("%-*s  %-6s  %-*s  %s\n", (int)name_w, p->name, p->is_string ? "string" : "number",
               (int)def_w, def, p->help[0] ? p->help : "-");
    }
}

/* The parameters as JSON. */
static void params_json(const gp_workload_t *wl, const char *device)
{
    cJSON *doc = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    uint32_t i;
    cJSON_AddStringToObject(doc, "script", wl->script);
    cJSON_AddStringToObject(doc, "device", device);
    for (i = 0; i < wl->n_params; i++) {
        const gp_param_decl_t *p = &wl->params[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddStringToObject(o, "type", p->is_string ? "string" : "number");
        if (p->is_string)
            cJSON_AddStringToObject(o, "default", p->default_str);
        else
            cJSON_AddNumberToObject(o, "default", p->default_value);
        cJSON_AddStringToObject(o, "help", p->help);
        cJSON_AddNumberToObject(o, "line", p->line);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddItemToObject(doc, "params", arr);
    gp_print_json(doc);
    cJSON_Delete(doc);
}

int gp_cmd_params(int argc, char **argv)
{
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'}, {"param", required_argument, 0, 'p'},
        {"json", no_argument, 0, 'j'},         {"budget", required_argument, 0, 'b'},
        {"memory-cap", required_argument, 0, 'm'}, {0, 0, 0, 0}};
    const char *device = NULL;
    gp_cli_params_t params;
    gp_script_opts_t so;
    first_device_t first;
    gp_cli_device_t d;
    gp_workload_t wl;
    gp_err_t err;
    int c, json = 0, rc;
    memset(&params, 0, sizeof params);
    memset(&so, 0, sizeof so);
    memset(&first, 0, sizeof first);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:", opts, NULL)) != -1) {
        switch (c) {
        case 'd': device = optarg; break;
        case 'p':
            if (gp_cli_add_param("params", &params, optarg))
                return GP_EXIT_USAGE;
            break;
        case 'j': json = 1; break;
        case 'b':
            if (gp_cli_parse_u64("params", "--budget", optarg, &so.instruction_budget))
                return GP_EXIT_USAGE;
            break;
        case 'm':
            if (gp_cli_parse_memory_cap("params", optarg, &so.memory_cap_bytes))
                return GP_EXIT_USAGE;
            break;
        case ':':
            return gp_cli_fail("params", GP_EXIT_USAGE, "%s needs a value", argv[optind - 1]);
        default:
            return gp_cli_unknown_option("params", argv[optind - 1], opts);
        }
    }
    if (optind >= argc)
        return gp_cli_fail("params", GP_EXIT_USAGE,
                           "no workload script given (e.g. gpuperf params scripts/saxpy.lua)");
    if (optind + 1 < argc)
        return gp_cli_fail("params", GP_EXIT_USAGE, "one script at a time; unexpected '%s'",
                           argv[optind + 1]);
    if (!device) {
        gp_device_scan(on_device, &first);
        if (!first.id[0])
            return gp_cli_fail("params", GP_EXIT_FAIL, "no device file loads; give --device "
                               "PATH.ini (the script runs for a device)");
        device = first.id;
    }
    rc = gp_cli_open_device("params", device, &d);
    if (rc)
        return rc;
    if (gp_script_run(argv[optind], &so, &d.dev, params.kv, params.n, &wl, &err))
        return gp_cli_fail("params", GP_EXIT_FAIL, "%s", err.msg);
    if (json)
        params_json(&wl, d.dev.id);
    else
        params_text(&wl, d.dev.id);
    gp_workload_free(&wl);
    return GP_EXIT_OK;
}

void gp_help_params(FILE *out)
{
    fprintf(out,
            "usage: gpuperf params SCRIPT.lua [--device D] [-p key=value ...] [--json]\n\n"
            "Lists the parameters the workload script declares with gpuperf.param: name,\n"
            "type (number or string), default and the help text the script gives, in the\n"
            "order the script declares them. Set them with -p NAME=VALUE on predict,\n"
            "compare, sweep and validate.\n\n"
            "The script runs once to find its parameters, for device D (default: the first\n"
            "device file found), since a default may depend on gpuperf.device; -p values\n"
            "matter only where a script declares some parameters only for others' values.\n\n"
            "  --device D       device name or .ini path the script runs for\n"
            "  -p key=value     parameter values for that run\n"
            "  --json           {\"script\", \"device\", \"params\": [{\"name\", \"type\",\n"
            "                   \"default\", \"help\", \"line\"}]}\n"
            "  --budget N, --memory-cap MIB   script limits, as for gpuperf predict\n\n"
            "examples:\n"
            "  gpuperf params scripts/saxpy.lua\n"
            "  gpuperf params scripts/matmul_tiled.lua --json\n");
}
