/*
 * cmd_occupancy.c - `gpuperf occupancy`: the occupancy calculator.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Parse --cache VALUE. */
static int parse_cache(const char *v, uint32_t *out)
{
    static const char *const names[] = {"none", "prefer_shared", "prefer_l1", "prefer_equal"};
    uint32_t i;
    for (i = 0; i < 4; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return 0;
        }
    return -1;
}

int gp_cmd_occupancy(int argc, char **argv)
{
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'},  {"threads", required_argument, 0, 't'},
        {"regs", required_argument, 0, 'r'},    {"smem", required_argument, 0, 's'},
        {"dynamic-smem", required_argument, 0, 'D'},
        {"cache", required_argument, 0, 'c'},   {"carveout", required_argument, 0, 'C'},
        {"json", no_argument, 0, 'j'},          {0, 0, 0, 0}};
    const char *device = NULL;
    uint64_t threads = 0, regs = 0, smem = 0, dyn = 0, carve = 0;
    int have_threads = 0, have_regs = 0, json = 0, have_carve = 0, c, rc;
    uint32_t cache = GP_CACHE_PREFER_NONE;
    gp_cli_device_t d;
    gp_launch_t l;
    gp_occupancy_t o;
    gp_err_t err;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'd': device = optarg; break;
        case 't':
            if (gp_cli_parse_u64("occupancy", "--threads", optarg, &threads))
                return GP_EXIT_USAGE;
            have_threads = 1;
            break;
        case 'r':
            if (gp_cli_parse_u64("occupancy", "--regs", optarg, &regs))
                return GP_EXIT_USAGE;
            have_regs = 1;
            break;
        case 's':
            if (gp_cli_parse_u64("occupancy", "--smem", optarg, &smem))
                return GP_EXIT_USAGE;
            break;
        case 'D':
            if (gp_cli_parse_u64("occupancy", "--dynamic-smem", optarg, &dyn))
                return GP_EXIT_USAGE;
            break;
        case 'c':
            if (parse_cache(optarg, &cache))
                return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                                   "--cache %s: expected none, prefer_shared, prefer_l1 or "
                                   "prefer_equal",
                                   optarg);
            break;
        case 'C':
            if (gp_cli_parse_u64("occupancy", "--carveout", optarg, &carve))
                return GP_EXIT_USAGE;
            if (carve > 100)
                return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                                   "--carveout %s: a percentage 0..100", optarg);
            have_carve = 1;
            break;
        case 'j': json = 1; break;
        case ':':
            return gp_cli_fail("occupancy", GP_EXIT_USAGE, "%s needs a value",
                               argv[optind - 1]);
        default:
            return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                               "unknown option '%s' (see gpuperf occupancy --help)",
                               argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gp_cli_fail("occupancy", GP_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
    if (!device)
        return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                           "--device is required (gpuperf devices lists them)");
    if (!have_threads || !have_regs)
        return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                           "--threads and --regs are required (e.g. --threads 256 --regs 32)");
    if (threads == 0 || threads > (1u << 20))
        return gp_cli_fail("occupancy", GP_EXIT_USAGE, "--threads %llu: expected 1..1048576",
                           (unsigned long long)threads);
    if (regs > 65536 || smem > (1ull << 32) || dyn > (1ull << 32))
        return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                           "--regs or --smem is beyond any GPU (regs <= 65536, smem <= 4 GiB)");
    rc = gp_cli_open_device("occupancy", device, &d);
    if (rc)
        return rc;
    memset(&l, 0, sizeof l);
    l.block.x = threads;
    l.block.y = l.block.z = 1;
    l.grid.x = l.grid.y = l.grid.z = 1;
    l.threads_per_block = threads;
    l.regs_per_thread = (uint32_t)regs;
    l.static_smem_bytes = smem;
    l.dynamic_smem_bytes = dyn;
    l.cache_pref = cache;
    l.carveout_percent = have_carve ? (int32_t)carve : -1;
    if (gp_arch_occupancy(d.arch, &d.dev, &l, &o, &err))
        return gp_cli_fail("occupancy", GP_EXIT_FAIL, "%s", err.msg);
    if (json) {
        cJSON *doc = gp_report_occupancy_json(&d.dev, &l, &o);
        gp_print_json(doc);
        cJSON_Delete(doc);
    } else {
        gp_report_occupancy_text(stdout, &d.dev, &l, &o);
    }
    return GP_EXIT_OK;
}

void gp_help_occupancy(FILE *out)
{
    fprintf(out,
            "usage: gpuperf occupancy --device D --threads T --regs R [--smem BYTES]\n"
            "                         [--dynamic-smem BYTES] [--cache PREF] [--carveout PCT]\n"
            "                         [--json]\n\n"
            "How many blocks of a kernel fit on one SM, how many warps that keeps active, the\n"
            "occupancy (active warps / warp slots) and which resource limits it, computed with\n"
            "the rules of the device's generation (NVIDIA's occupancy calculator for 1.x/2.x,\n"
            "cuda_occupancy.h from 3.0 on).\n\n"
            "  --device D          device name (gpuperf devices) or path to an .ini file\n"
            "  --threads T         threads per block\n"
            "  --regs R            registers per thread, as `nvcc -Xptxas -v` reports them\n"
            "  --smem BYTES        static shared memory per block (default 0); above 48 KiB\n"
            "                      it is taken as opted in (cudaFuncSetAttribute)\n"
            "  --dynamic-smem B    dynamic shared memory per block (default 0)\n"
            "  --cache PREF        none | prefer_shared | prefer_l1 | prefer_equal\n"
            "  --carveout PCT      shared-memory carve-out preference, 0..100 (7.0 and later)\n"
            "  --json              one JSON document with blocks_per_sm, active_warps,\n"
            "                      max_warps, occupancy (0..1), limiter and the per-resource\n"
            "                      limits\n\n"
            "A launch that cannot run at all is still an answer: blocks_per_sm 0, the broken\n"
            "limit in `limiter` and by how much in `detail`; the exit status is 0.\n\n"
            "example:\n"
            "  gpuperf occupancy --device h200-sxm --threads 256 --regs 32 --smem 0\n");
}
