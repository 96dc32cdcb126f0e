/*
 * cmd_list.c - `gpuperf devices` and `gpuperf plugins`.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "paths.h"

/* State while listing. */
typedef struct list_state {
    int json;
    cJSON *arr;
    int ok, bad;
} list_state_t;

/* Parse the only option these commands take. */
static int parse_json_flag(const char *cmd, int argc, char **argv, int *json)
{
    static const struct option opts[] = {{"json", no_argument, 0, 'j'}, {0, 0, 0, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'j')
            *json = 1;
        else
            return gp_cli_unknown_option(cmd, argv[optind - 1], opts);
    }
    if (optind < argc)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
    return GP_EXIT_OK;
}

/* One device file. */
static void on_device(void *ud, const char *path, const gp_device_t *dev, const gp_arch_t *arch,
                      const char *error)
{
    list_state_t *st = ud;
    (void)arch;
    if (dev) {
        st->ok++;
        if (st->json) {
            cJSON *o = gp_report_device_json(dev);
            cJSON_AddStringToObject(o, "path", path);
            cJSON_AddItemToArray(st->arr, o);
        } else {
            printf("%-20s %-13s %u.%u %5u %6.0f %9.1f  %s\n", dev->id, dev->arch, dev->cc_major,
                   dev->cc_minor, dev->sm_count, dev->core_clock_mhz, dev->dram_bandwidth_gbps,
                   dev->name);
        }
    } else {
        st->bad++;
        if (st->json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "path", path);
            cJSON_AddStringToObject(o, "error", error);
            cJSON_AddItemToArray(st->arr, o);
        } else {
            fprintf(stderr, "gpuperf devices: skipped %s\n", error);
        }
    }
}

int gp_cmd_devices(int argc, char **argv)
{
    list_state_t st = {0, NULL, 0, 0};
    int rc = parse_json_flag("devices", argc, argv, &st.json);
    if (rc)
        return rc;
    if (st.json)
        st.arr = cJSON_CreateArray();
    else
        printf("%-20s %-13s %-3s %5s %6s %9s  %s\n", "DEVICE", "ARCH", "CC", "SMs", "MHz",
               "DRAM GB/s", "NAME");
    gp_cli_log_device_search();
    gp_device_scan(on_device, &st);
    if (st.json) {
        cJSON *doc = cJSON_CreateObject();
        cJSON_AddItemToObject(doc, "devices", st.arr);
        gp_print_json(doc);
        cJSON_Delete(doc);
    }
    if (st.ok == 0 && st.bad == 0)
        return gp_cli_fail("devices", GP_EXIT_FAIL,
                           "no device files found; set GPUPERF_DEVICE_PATH to a folder of "
                           ".ini files");
    return st.bad && !st.ok ? GP_EXIT_FAIL : GP_EXIT_OK;
}

void gp_help_devices(FILE *out)
{
    gp_search_path_t sp;
    size_t i;
    fprintf(out,
            "usage: gpuperf devices [--json]\n\n"
            "Lists every device file (NAME.ini) on the device search path with its\n"
            "architecture plugin, compute capability, SM count, SM clock and DRAM bandwidth.\n"
            "A file that does not load is reported on stderr with file:line and the reason.\n"
            "Use the NAME column (or a path to an .ini file) wherever a command takes a\n"
            "device. docs/device-files.md describes the keys of a device file; to add a card,\n"
            "copy the file of a card of the same generation into a folder on the search path.\n\n"
            "The search path is GPUPERF_DEVICE_PATH (colon-separated), then the installed and\n"
            "source devices/ folders. Here it is:\n");
    gp_paths_devices(&sp);
    for (i = 0; i < sp.n; i++)
        fprintf(out, "  %s\n", sp.dirs[i]);
    fprintf(out, "\noptions:\n  --json   one JSON document: {\"devices\": [...]}, each with its\n"
                 "           path; a file that does not load has \"path\" and \"error\"\n\n"
                 "examples:\n  gpuperf devices\n  GPUPERF_DEVICE_PATH=~/my-cards gpuperf devices --json\n");
}

/* One plugin file. */
static void on_plugin(void *ud, const char *path, const gp_arch_t *a, const char *error)
{
    list_state_t *st = ud;
    if (a) {
        char ccs[128];
        st->ok++;
        gp_arch_ccs_text(a, ccs, sizeof ccs);
        if (st->json) {
            cJSON *o = cJSON_CreateObject(), *arr = cJSON_CreateArray();
            uint32_t i;
            char abi[32];
            cJSON_AddStringToObject(o, "name", a->plugin->name);
            snprintf(abi, sizeof abi, "%u.%u", a->plugin->abi_major, a->plugin->abi_minor);
            cJSON_AddStringToObject(o, "abi", abi);
            cJSON_AddStringToObject(o, "version", a->plugin->version ? a->plugin->version : "");
            cJSON_AddStringToObject(o, "description", a->plugin->description);
            for (i = 0; i < a->plugin->n_gens; i++) {
                char cc[16];
                snprintf(cc, sizeof cc, "%u.%u", a->plugin->gens[i].cc.major,
                         a->plugin->gens[i].cc.minor);
                cJSON_AddItemToArray(arr, cJSON_CreateString(cc));
            }
            cJSON_AddItemToObject(o, "compute_capabilities", arr);
            cJSON_AddStringToObject(o, "path", path);
            cJSON_AddItemToArray(st->arr, o);
        } else {
            printf("%-14s %u.%-4u %-24s %s\n               %s\n", a->plugin->name,
                   a->plugin->abi_major, a->plugin->abi_minor, ccs, a->plugin->description,
                   path);
        }
    } else {
        st->bad++;
        if (st->json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "path", path);
            cJSON_AddStringToObject(o, "error", error);
            cJSON_AddItemToArray(st->arr, o);
        } else {
            printf("%-14s %-6s %s\n", "(not loaded)", "-", error);
        }
    }
}

int gp_cmd_plugins(int argc, char **argv)
{
    list_state_t st = {0, NULL, 0, 0};
    int rc = parse_json_flag("plugins", argc, argv, &st.json);
    if (rc)
        return rc;
    if (st.json)
        st.arr = cJSON_CreateArray();
    else
        printf("%-14s %-6s %-24s %s\n", "PLUGIN", "ABI", "COMPUTE CAPABILITIES", "DESCRIPTION");
    gp_arch_scan(on_plugin, &st);
    if (st.json) {
        cJSON *doc = cJSON_CreateObject();
        cJSON_AddItemToObject(doc, "plugins", st.arr);
        gp_print_json(doc);
        cJSON_Delete(doc);
    }
    if (st.ok == 0)
        return gp_cli_fail("plugins", GP_EXIT_FAIL,
                           "no plugin loaded; set GPUPERF_PLUGIN_PATH to the folder holding "
                           "the plugins (*.so)");
    return GP_EXIT_OK;
}

void gp_help_plugins(FILE *out)
{
    gp_search_path_t sp;
    size_t i;
    fprintf(out,
            "usage: gpuperf plugins [--json]\n\n"
            "Lists the architecture plugins (shared objects NAME.so) on the plugin search\n"
            "path: name, plugin ABI version, the compute capabilities each serves and its\n"
            "file. A file that is not a valid plugin (not a library, no descriptor, another\n"
            "ABI, missing callbacks) is listed as not loaded, with the reason; the others\n"
            "still load.\n"
            "This gpuperf speaks plugin ABI %d.%d. A device file's `arch = NAME` loads NAME.so.\n"
            "docs/plugins.md tells how to write a plugin (start from examples/plugin/);\n"
            "`gpuperf plugin-check FILE.so` checks one.\n\n"
            "The search path is GPUPERF_PLUGIN_PATH (colon-separated), then the plugins\n"
            "of this build or installation. Here it is:\n",
            GP_ABI_MAJOR, GP_ABI_MINOR);
    gp_paths_plugins(&sp);
    for (i = 0; i < sp.n; i++)
        fprintf(out, "  %s\n", sp.dirs[i]);
    fprintf(out, "\noptions:\n  --json   one JSON document: {\"plugins\": [...]}, each with name, abi,\n"
                 "           version, description, compute_capabilities and path\n\n"
                 "examples:\n  gpuperf plugins\n  GPUPERF_PLUGIN_PATH=$PWD/build gpuperf plugins --json\n");
}
