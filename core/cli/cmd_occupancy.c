/*
 * cmd_occupancy.c - `gpuperf occupancy`: the occupancy calculator. One
 * configuration (with the fix of a launch that cannot run, --suggest's
 * advice and --svg's charts), or a sweep over A:B:STEP ranges.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "occupancy.h"

/* Largest values accepted on the command line: beyond any GPU, small
   enough that no arithmetic on them overflows. */
#define MAX_THREADS (1ull << 20)
#define MAX_REGS 65536ull
#define MAX_SMEM_BYTES (1ull << 32)

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

/* Parse a value-or-range option; returns 0 or prints the error. */
static int parse_range(const char *opt, const char *text, uint64_t min, uint64_t max,
                       gp_occ_range_t *out)
{
    gp_err_t err;
    if (gp_occ_range_parse(opt, text, min, max, out, &err)) {
        gp_cli_fail("occupancy", GP_EXIT_USAGE, "%s", err.msg);
        return -1;
    }
    return 0;
}

/* "--threads 1:1024:1 (1024 values) x --regs 1:255:1 (255 values)". */
static void sweep_text(char *out, size_t size, const gp_occ_sweep_t *s,
                       const char *const *texts)
{
    const gp_occ_range_t *r[4] = {&s->threads, &s->regs, &s->smem, &s->dynamic_smem};
    static const char *const opts[4] = {"--threads", "--regs", "--smem", "--dynamic-smem"};
    size_t len = 0;
    int i;
    out[0] = '\0';
    for (i = 0; i < 4 && len < size; i++) {
        if (!r[i]->is_range)
            continue;
        len += (size_t)snprintf(out + len, size - len, "%s%s %s (%llu values)",
                                len ? " x " : "", opts[i], texts[i],
                                (unsigned long long)gp_occ_range_count(r[i]));
    }
}

/* The report of one configuration: text or JSON, advice, charts. */
static int report_one(const gp_cli_device_t *d, const gp_occ_config_t *cfg, int json,
                      int suggest, int chosen, const char *svg)
{
    gp_occ_target_t t = {&d->dev, d->arch};
    gp_occupancy_t o;
    gp_launch_t l;
    gp_err_t err;
    if (gp_occ_eval(&t, cfg, &o, &err))
        return gp_cli_fail("occupancy", GP_EXIT_FAIL, "%s", err.msg);
    gp_occ_launch(cfg, &l);
    if (svg && gp_occ_chart_write(svg, &t, cfg, &err))
        return gp_cli_fail("occupancy", GP_EXIT_FAIL, "%s", err.msg);
    if (json) {
        cJSON *doc = gp_report_occupancy_json(&d->dev, &l, &o);
        if (cfg->smem_per_thread_bytes)
            cJSON_AddNumberToObject(doc, "smem_per_thread", (double)cfg->smem_per_thread_bytes);
        if (gp_occ_advice_json(doc, &t, cfg, &o, suggest, &err)) {
            cJSON_Delete(doc);
            return gp_cli_fail("occupancy", GP_EXIT_FAIL, "%s", err.msg);
        }
        if (svg)
            cJSON_AddStringToObject(doc, "svg", svg);
        if (chosen)
            cJSON_AddStringToObject(doc, "threads_per_block_from", "suggest");
        gp_print_json(doc);
        cJSON_Delete(doc);
        return GP_EXIT_OK;
    }
    if (chosen)
        printf("no --threads: the block size below is the largest with the highest occupancy\n"
               "(the answer of cudaOccupancyMaxPotentialBlockSize)\n\n");
    gp_report_occupancy_text(stdout, &d->dev, &l, &o);
    if (cfg->smem_per_thread_bytes)
        printf("  shared memory grows  %llu B per thread: %llu static + %llu dynamic + %llu x "
               "%llu\n",
               (unsigned long long)cfg->smem_per_thread_bytes,
               (unsigned long long)cfg->static_smem_bytes,
               (unsigned long long)cfg->dynamic_smem_bytes, (unsigned long long)cfg->threads,
               (unsigned long long)cfg->smem_per_thread_bytes);
    if (gp_occ_advice_text(stdout, &t, cfg, &o, suggest, &err))
        return gp_cli_fail("occupancy", GP_EXIT_FAIL, "%s", err.msg);
    if (svg)
        printf("  charts               %s\n", svg);
    return GP_EXIT_OK;
}

int gp_cmd_occupancy(int argc, char **argv)
{
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'},
        {"threads", required_argument, 0, 't'},
        {"regs", required_argument, 0, 'r'},
        {"smem", required_argument, 0, 's'},
        {"dynamic-smem", required_argument, 0, 'D'},
        {"smem-per-thread", required_argument, 0, 'p'},
        {"cache", required_argument, 0, 'c'},
        {"carveout", required_argument, 0, 'C'},
        {"json", no_argument, 0, 'j'},
        {"suggest", no_argument, 0, 'S'},
        {"svg", required_argument, 0, 'g'},
        {0, 0, 0, 0}};
    const char *device = NULL, *svg = NULL, *texts[4] = {"", "", "", ""};
    uint64_t carve = 0, per_thread = 0;
    int have_threads = 0, have_regs = 0, json = 0, have_carve = 0, suggest = 0, c, rc;
    uint32_t cache = GP_CACHE_PREFER_NONE;
    gp_occ_sweep_t sw;
    gp_occ_config_t cfg;
    gp_cli_device_t d;
    memset(&sw, 0, sizeof sw);
    /* default 0 bytes: one value; no --threads: --suggest picks one */
    sw.threads.step = sw.smem.step = sw.dynamic_smem.step = 1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'd': device = optarg; break;
        case 't':
            if (parse_range("--threads", optarg, 1, MAX_THREADS, &sw.threads))
                return GP_EXIT_USAGE;
            texts[0] = optarg;
            have_threads = 1;
            break;
        case 'r':
            if (parse_range("--regs", optarg, 0, MAX_REGS, &sw.regs))
                return GP_EXIT_USAGE;
            texts[1] = optarg;
            have_regs = 1;
            break;
        case 's':
            if (parse_range("--smem", optarg, 0, MAX_SMEM_BYTES, &sw.smem))
                return GP_EXIT_USAGE;
            texts[2] = optarg;
            break;
        case 'D':
            if (parse_range("--dynamic-smem", optarg, 0, MAX_SMEM_BYTES, &sw.dynamic_smem))
                return GP_EXIT_USAGE;
            texts[3] = optarg;
            break;
        case 'p':
            if (gp_cli_parse_u64("occupancy", "--smem-per-thread", optarg, &per_thread))
                return GP_EXIT_USAGE;
            if (per_thread > MAX_SMEM_BYTES)
                return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                                   "--smem-per-thread %s: at most %llu bytes", optarg,
                                   (unsigned long long)MAX_SMEM_BYTES);
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
        case 'S': suggest = 1; break;
        case 'g':
            if (!*optarg)
                return gp_cli_fail("occupancy", GP_EXIT_USAGE, "--svg needs a file name");
            svg = optarg;
            break;
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
    if (!have_regs)
        return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                           "--regs is required (e.g. --threads 256 --regs 32)");
    if (!have_threads && !suggest)
        return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                           "--threads is required unless --suggest picks the block size (e.g. "
                           "--threads 256 --regs 32, or --regs 32 --suggest)");
    {
        uint64_t rows = gp_occ_sweep_rows(&sw);
        int sweeping = sw.threads.is_range || sw.regs.is_range || sw.smem.is_range ||
                       sw.dynamic_smem.is_range;
        if (rows > GP_OCC_MAX_ROWS) {
            char what[512];
            sweep_text(what, sizeof what, &sw, texts);
            return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                               "%s make %llu rows, more than %u; narrow a range or take a "
                               "larger STEP",
                               what, (unsigned long long)rows, GP_OCC_MAX_ROWS);
        }
        if (sweeping && (suggest || svg))
            return gp_cli_fail("occupancy", GP_EXIT_USAGE,
                               "%s works on one configuration; give single values instead of "
                               "the A:B:STEP ranges",
                               suggest ? "--suggest" : "--svg");
        rc = gp_cli_open_device("occupancy", device, &d);
        if (rc)
            return rc;
        memset(&cfg, 0, sizeof cfg);
        cfg.threads = sw.threads.first;
        cfg.regs = (uint32_t)sw.regs.first;
        cfg.static_smem_bytes = sw.smem.first;
        cfg.dynamic_smem_bytes = sw.dynamic_smem.first;
        cfg.smem_per_thread_bytes = per_thread;
        cfg.cache_pref = cache;
        cfg.carveout_percent = have_carve ? (int32_t)carve : -1;
        if (!have_threads) {
            /* like cudaOccupancyMaxPotentialBlockSize: the block size is the answer */
            gp_occ_target_t t = {&d.dev, d.arch};
            gp_occ_best_t best;
            gp_err_t err;
            if (gp_occ_best_block(&t, &cfg, &best, &err))
                return gp_cli_fail("occupancy", GP_EXIT_FAIL, "%s", err.msg);
            if (best.threads == 0)
                return gp_cli_fail("occupancy", GP_EXIT_FAIL,
                                   "--regs %s: no block size (a multiple of %u threads up to "
                                   "%llu) runs with this many registers and this much shared "
                                   "memory on %s; lower --regs or --smem",
                                   texts[1], d.dev.warp_size,
                                   (unsigned long long)best.limit_threads, d.dev.id);
            cfg.threads = best.threads_largest;
        }
        if (sweeping) {
            gp_occ_target_t t = {&d.dev, d.arch};
            gp_err_t err;
            if (gp_occ_sweep_print(stdout, &t, &cfg, &sw, json, &err))
                return gp_cli_fail("occupancy", GP_EXIT_FAIL, "%s", err.msg);
            return GP_EXIT_OK;
        }
    }
    return report_one(&d, &cfg, json, suggest, !have_threads, svg);
}

void gp_help_occupancy(FILE *out)
{
    fprintf(out,
            "usage: gpuperf occupancy --device D --threads T --regs R [--smem BYTES]\n"
            "       gpuperf occupancy --device D --regs R [--smem BYTES] --suggest\n"
            "                         [--dynamic-smem BYTES] [--smem-per-thread BYTES]\n"
            "                         [--cache PREF] [--carveout PCT] [--suggest]\n"
            "                         [--svg FILE] [--json]\n\n"
            "How many blocks of a kernel fit on one SM, how many warps that keeps active,\n"
            "the occupancy (active warps / warp slots) and which resource limits it, computed\n"
            "with the rules of the device's generation: NVIDIA's occupancy calculator\n"
            "spreadsheet for 1.x, the CUDA 7 cuda_occupancy.h for 2.x, the current\n"
            "cuda_occupancy.h from 3.0 on (docs/occupancy.md has the rules and their\n"
            "sources).\n\n"
            "  --device D          device name (gpuperf devices) or path to an .ini file\n"
            "  --threads T         threads per block; without it, --suggest picks the block\n"
            "                      size (as cudaOccupancyMaxPotentialBlockSize does)\n"
            "  --regs R            registers per thread, as `nvcc -Xptxas -v` reports them\n"
            "  --smem BYTES        static shared memory per block (default 0)\n"
            "  --dynamic-smem B    dynamic shared memory per block (default 0); a block above\n"
            "                      48 KiB in all is taken as opted in (cudaFuncSetAttribute)\n"
            "  --smem-per-thread B shared memory that grows with the block: the block gets\n"
            "                      --dynamic-smem + threads x B bytes of dynamic shared\n"
            "                      memory\n"
            "  --cache PREF        none | prefer_shared | prefer_l1 | prefer_equal\n"
            "  --carveout PCT      shared-memory carve-out preference, 0..100 (7.0 and later)\n"
            "  --suggest           also the block size with the highest occupancy (the\n"
            "                      smallest such, and cudaOccupancyMaxPotentialBlockSize's\n"
            "                      answer, the largest), the grid that fills every SM, and\n"
            "                      for the configuration given the change of registers,\n"
            "                      shared memory or block size that reaches the next step\n"
            "  --svg FILE          write the spreadsheet's three charts to FILE (SVG):\n"
            "                      occupancy against threads per block, registers per thread\n"
            "                      and shared memory per block, the configuration marked\n"
            "  --json              one JSON document (see below)\n\n"
            "Sweeps: --threads, --regs, --smem and --dynamic-smem also take a range\n"
            "FIRST:LAST:STEP (e.g. --threads 32:1024:32) and then print one row per value,\n"
            "or per combination when several are ranges (threads vary slowest), with blocks\n"
            "per SM, active warps, occupancy and limiter; at most %u rows. With --json a\n"
            "sweep is one JSON array of rows. --suggest and --svg take single values.\n\n"
            "A launch that cannot run at all is still an answer: blocks_per_sm 0, the broken\n"
            "limit in `limiter`, by how much in `detail`, and for each of registers, shared\n"
            "memory and block size the largest smaller value that makes it run (`fixes`);\n"
            "the exit status is 0.\n\n"
            "JSON (one configuration): blocks_per_sm, active_warps, max_warps, occupancy\n"
            "(0..1), limiter, warps_per_block, regs_per_block_allocated,\n"
            "smem_per_block_allocated, smem_per_sm_configured, limits.{warps, blocks,\n"
            "registers, shared_memory, barriers} (null: no limit), detail and fixes (launch\n"
            "cannot run), suggest.best_block_size and suggest.next_step (--suggest), svg.\n"
            "A sweep row: device, threads_per_block, regs_per_thread, static_smem,\n"
            "dynamic_smem, smem_per_block, blocks_per_sm, active_warps, max_warps,\n"
            "occupancy, limiter (and detail when it cannot run).\n\n"
            "examples:\n"
            "  gpuperf occupancy --device h200-sxm --threads 256 --regs 32 --smem 0\n"
            "  gpuperf occupancy --device tesla-c1060 --threads 128 --regs 17 --suggest\n"
            "  gpuperf occupancy --device h200-sxm --regs 40 --smem 0 --suggest\n"
            "  gpuperf occupancy --device a100-sxm4-40gb --threads 32:1024:32 --regs 64\n"
            "  gpuperf occupancy --device h100-sxm --threads 256 --regs 32:128:8 \\\n"
            "      --smem 0:49152:16384 --json\n"
            "  gpuperf occupancy --device geforce-gtx-480 --threads 256 --regs 40 \\\n"
            "      --smem-per-thread 64 --suggest --svg occupancy.svg\n",
            GP_OCC_MAX_ROWS);
}
