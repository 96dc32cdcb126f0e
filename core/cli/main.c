/*
 * main.c - the gpuperf command: subcommand dispatch, global help.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "log.h"

#ifndef GP_VERSION
#define GP_VERSION "0.2.0"
#endif

static const gp_cmd_t COMMANDS[] = {
    {"devices", "list the device files found: arch, compute capability, SMs",
     gp_cmd_devices, gp_help_devices},
    {"plugins", "list the plugins found: ABI, compute capabilities served",
     gp_cmd_plugins, gp_help_plugins},
    {"occupancy", "blocks per SM, active warps and the limiting resource",
     gp_cmd_occupancy, gp_help_occupancy},
    {"predict", "predict every launch of a workload script on one device",
     gp_cmd_predict, gp_help_predict},
    {"compare", "predict a workload on several devices side by side", gp_cmd_compare,
     gp_help_compare},
    {"params", "list a workload script's parameters: names, types, defaults, help",
     gp_cmd_params, gp_help_params},
    {"validate", "compare predictions with measured times from a CSV table", gp_cmd_validate,
     gp_help_validate},
    {"sweep", "predict a workload over a grid of parameters and devices", gp_cmd_sweep, gp_help_sweep},
    {"plugin-check", "check a plugin: the ABI and the invariants of a sane model", gp_cmd_plugin_check, gp_help_plugin_check},
};

static int g_verbose;

/* Log handler: warnings and errors always, info with -v, debug with -vv. A
   script's print() arrives as "print" at info level and is shown always,
   as the line the script wrote. */
static void log_to_stderr(void *ud, int level, const char *who, const char *msg)
{
    static const char *const names[] = {"error", "warning", "info", "debug"};
    (void)ud;
    if (strcmp(who, "print") == 0)
        fprintf(stderr, "%s\n", msg);
    else if (level <= GP_LOG_WARN || level <= GP_LOG_INFO + g_verbose - 1)
        fprintf(stderr, "gpuperf: %s: %s: %s\n", who, names[level & 3], msg);
}

/* -v, -vv, -vvv...: the number of v's; 0 if arg is not of that form. */
static int count_vs(const char *arg)
{
    int n = 0;
    if (arg[0] != '-')
        return 0;
    while (arg[n + 1] == 'v')
        n++;
    return arg[n + 1] == '\0' ? n : 0;
}

/* The -v, -vv... or --verbose that arg is: the verbosity it adds; 0 if it
   is none of them. */
static int verbosity_of(const char *arg)
{
    return strcmp(arg, "--verbose") == 0 ? 1 : count_vs(arg);
}

/* The command called name, or NULL. */
static const gp_cmd_t *find_command(const char *name)
{
    size_t i;
    for (i = 0; i < GP_ARRAY_LEN(COMMANDS); i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

/* "unknown command 'X'; did you mean Y? the commands are: ..." */
static int unknown_command(const char *name)
{
    const char *cands[GP_ARRAY_LEN(COMMANDS) + 1], *best;
    size_t i;
    for (i = 0; i < GP_ARRAY_LEN(COMMANDS); i++)
        cands[i] = COMMANDS[i].name;
    cands[i] = "help";
    best = gp_cli_suggest(name, cands, GP_ARRAY_LEN(cands));
    fprintf(stderr, "gpuperf: unknown command '%s'", name);
    if (best)
        fprintf(stderr, "; did you mean %s? The commands are:", best);
    else
        fprintf(stderr, "; the commands are:");
    for (i = 0; i < GP_ARRAY_LEN(COMMANDS); i++)
        fprintf(stderr, " %s", COMMANDS[i].name);
    fprintf(stderr, " (see gpuperf --help)\n");
    return GP_EXIT_USAGE;
}

static void usage(FILE *out)
{
    size_t i;
    fprintf(out,
            "gpuperf %s - predict how long CUDA kernels take on NVIDIA GPUs, from the G80\n"
            "(compute capability 1.0) to Hopper (9.0), without the GPU.\n\n"
            "usage: gpuperf [-v] COMMAND [options]\n"
            "       gpuperf help COMMAND | --help | --version\n\n"
            "commands:\n",
            GP_VERSION);
    for (i = 0; i < GP_ARRAY_LEN(COMMANDS); i++)
        fprintf(out, "  %-13s %s\n", COMMANDS[i].name, COMMANDS[i].synopsis);
    fprintf(out,
            "\n"
            "A workload is a Lua script describing kernels (launch shape, registers, shared\n"
            "memory, per-thread work, memory access patterns, streams); a device is an INI\n"
            "file (devices/NAME.ini) naming its architecture plugin, a shared object that\n"
            "models one GPU generation. A saxpy, for instance, is:\n\n"
            "  local n = gpuperf.param(\"n\", 2^24, \"elements\")\n"
            "  local x, y = gpuperf.buffer(\"x\", 4 * n), gpuperf.buffer(\"y\", 4 * n)\n"
            "  gpuperf.launch{ name = \"saxpy\", grid = math.ceil(n / 256), block = 256,\n"
            "                  regs = 12, work = { gpuperf.load{x}, gpuperf.load{y},\n"
            "                                  gpuperf.fp32(1), gpuperf.store{y} } }\n\n"
            "Start with:\n\n"
            "  gpuperf devices\n"
            "  gpuperf predict --device h200-sxm scripts/saxpy.lua\n"
            "  gpuperf predict --device h200-sxm scripts/saxpy.lua -p n=2^28 -p block=128\n"
            "  gpuperf compare --devices geforce-8800-gtx,tesla-c1060,h200-sxm \\\n"
            "      scripts/saxpy.lua\n"
            "  gpuperf occupancy --device h200-sxm --threads 256 --regs 32 --smem 0\n\n"
            "`gpuperf COMMAND --help` (or `gpuperf help COMMAND`) explains each command.\n"
            "docs/workloads.md is the script reference, docs/plugins.md tells how to write a\n"
            "plugin, `man gpuperf` sums it all up.\n\n"
            "environment:\n"
            "  GPUPERF_DEVICE_PATH  extra folders of device files (colon-separated), searched\n"
            "                       before the installed and source devices/ folders\n"
            "  GPUPERF_PLUGIN_PATH  extra folders of plugins (colon-separated), searched\n"
            "                       before this build's or installation's plugins\n\n"
            "options:\n"
            "  -v, --verbose   say on stderr which device and plugin files are loaded and\n"
            "                  which file hides another of the same name; -vv (or -v -v)\n"
            "                  adds debugging detail such as the folders searched; before\n"
            "                  or after the command's name\n"
            "  -h, --help      this text\n"
            "  -V, --version   print the version and the plugin ABI version\n\n"
            "Output files given as - (--trace -, -o -, --svg -) go to stdout.\n\n"
            "exit status: 0 success, 1 failure (bad input, failed prediction, a check that\n"
            "failed), 2 bad command line.\n");
}

int main(int argc, char **argv)
{
    const gp_cmd_t *cmd;
    int argi = 1, rc, j;
    gp_log_set_handler(log_to_stderr, NULL);
    while (argi < argc && argv[argi][0] == '-') {
        const char *a = argv[argi];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return GP_EXIT_OK;
        }
        if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            printf("gpuperf %s (plugin ABI %d.%d)\n", GP_VERSION, GP_ABI_MAJOR, GP_ABI_MINOR);
            return GP_EXIT_OK;
        }
        if (verbosity_of(a) > 0) {
            g_verbose += verbosity_of(a);
            argi++;
            continue;
        }
        if (strncmp(a, "--", 2) == 0) {
            static const char *const globals[] = {"help", "version", "verbose"};
            const char *best = gp_cli_suggest(a + 2, globals, GP_ARRAY_LEN(globals));
            if (best) {
                fprintf(stderr, "gpuperf: unknown option '%s'; did you mean --%s? (see "
                                "gpuperf --help)\n", a, best);
                return GP_EXIT_USAGE;
            }
        }
        fprintf(stderr, "gpuperf: unknown option '%s' (see gpuperf --help; a command's "
                        "options come after its name)\n", a);
        return GP_EXIT_USAGE;
    }
    if (argi >= argc) {
        usage(stderr);
        return GP_EXIT_USAGE;
    }
    if (strcmp(argv[argi], "help") == 0) {
        if (argi + 1 >= argc) {
            usage(stdout);
            return GP_EXIT_OK;
        }
        if (argi + 2 < argc) {
            fprintf(stderr, "gpuperf help: one command at a time; unexpected '%s'\n",
                    argv[argi + 2]);
            return GP_EXIT_USAGE;
        }
        cmd = find_command(argv[argi + 1]);
        if (!cmd)
            return unknown_command(argv[argi + 1]);
        cmd->help(stdout);
        return GP_EXIT_OK;
    }
    cmd = find_command(argv[argi]);
    if (!cmd)
        return unknown_command(argv[argi]);
    /* -v is global, so it is taken after the command's name too (no command
       has a -v of its own); the command sees the rest. */
    for (j = argi + 1; j < argc; j++) {
        if (strcmp(argv[j], "--") == 0)
            break;
        if (strcmp(argv[j], "-h") == 0 || strcmp(argv[j], "--help") == 0) {
            cmd->help(stdout);
            return GP_EXIT_OK;
        }
        if (verbosity_of(argv[j]) > 0) {
            g_verbose += verbosity_of(argv[j]);
            memmove(argv + j, argv + j + 1, (size_t)(argc - j) * sizeof *argv); /* and NULL */
            argc--;
            j--;
        }
    }
    rc = cmd->run(argc - argi, argv + argi);
    gp_arch_unload_all();
    return rc;
}
