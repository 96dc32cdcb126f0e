/*
 * embed.c - a program that embeds libgpuperf through <gpuperf/gpuperf.h>
 * alone: it opens a device, runs a workload script on it with parameters,
 * prints every launch as predicted, asks the occupancy calculator for the
 * best block size, and scores a validation table.
 *
 *   cc embed.c $(pkg-config --cflags --libs gpuperf) -o embed
 *   ./embed h200-sxm scripts/saxpy.lua n=2^24 [TABLE.csv]
 *
 * Exit status 0, or 1 with the library's message on stderr.
 */
#include <stdio.h>
#include <string.h>

#include <gpuperf/gpuperf.h>

/* Print a run: one line per launch or copy. */
static void print_run(const gp_run_t *run)
{
    size_t i;
    for (i = 0; i < gp_run_count(run); i++) {
        gp_run_cmd_t c;
        gp_run_cmd(run, i, &c);
        if (strcmp(c.type, "launch") == 0)
            printf("  %-16s stream %u  %10.2f us  %u blocks/SM (%s), %.0f%% occupancy, %s-bound,"
                   " %.0f DRAM bytes\n",
                   c.name, c.stream, c.time_us, c.blocks_per_sm, c.limiter, c.occupancy * 100,
                   c.bound, c.dram_bytes);
        else
            printf("  %-16s stream %u  %10.2f us  copy %s of %llu bytes\n", c.name, c.stream,
                   c.time_us, c.copy_kind, (unsigned long long)c.copy_bytes);
    }
    printf("  total %.2f us\n", gp_run_total_us(run));
}

/* Score a validation table and print its headline. */
static int score(const char *path)
{
    gp_table_t *t;
    gp_score_t *s;
    gp_score_stats_t st;
    gp_error_t err;
    if (gp_table_read(path, &t, &err)) {
        fprintf(stderr, "embed: %s\n", err.msg);
        return 1;
    }
    if (gp_score_table(t, NULL, &s, &err)) {
        fprintf(stderr, "embed: %s\n", err.msg);
        gp_table_free(t);
        return 1;
    }
    gp_score_stats(s, NULL, &st);
    printf("table %s: %u rows, %u predicted, MAPE %.1f%%, %u within 2x\n", path, st.rows,
           st.predicted, st.mape_pct, st.within_2x);
    gp_score_free(s);
    gp_table_free(t);
    return st.predicted == st.rows ? 0 : 1;
}

int main(int argc, char **argv)
{
    gp_param_t params[16];
    gp_gpu_info_t info;
    gp_occ_config_t cfg;
    gp_occ_block_size_t best;
    gp_error_t err;
    gp_gpu_t *gpu;
    gp_run_t *run;
    char text[16][128];
    int i, n = 0, rc = 0;
    const char *table = NULL;
    if (argc < 3) {
        fprintf(stderr, "usage: embed DEVICE SCRIPT.lua [key=value ...] [TABLE.csv]\n");
        return 1;
    }
    for (i = 3; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) {
            table = argv[i];
            continue;
        }
        if (n == 16 || snprintf(text[n], sizeof text[n], "%s", argv[i]) >= (int)sizeof text[n])
            return fprintf(stderr, "embed: too many or too long parameters\n"), 1;
        text[n][eq - argv[i]] = '\0';
        params[n].key = text[n];
        params[n].value = text[n] + (eq - argv[i]) + 1;
        n++;
    }
    printf("libgpuperf %s\n", gp_version());
    if (gp_gpu_open(argv[1], &gpu, &err)) {
        fprintf(stderr, "embed: %s\n", err.msg);
        return 1;
    }
    gp_gpu_info(gpu, &info);
    printf("%s (%s, compute capability %u.%u, %u SMs, plugin %s)\n", info.name, info.id,
           info.cc_major, info.cc_minor, info.sm_count, info.arch);
    if (gp_run_script(gpu, argv[2], params, (size_t)n, NULL, &run, &err)) {
        fprintf(stderr, "embed: %s\n", err.msg);
        gp_gpu_close(gpu);
        return 1;
    }
    printf("%s:\n", argv[2]);
    print_run(run);
    gp_run_free(run);
    memset(&cfg, 0, sizeof cfg);
    cfg.regs = 32;
    cfg.carveout_percent = -1;
    if (gp_occ_best_block_size(gpu, &cfg, &best, &err)) {
        fprintf(stderr, "embed: %s\n", err.msg);
        rc = 1;
    } else {
        printf("32 registers per thread: best block size %llu threads (%.0f%% occupancy)\n",
               (unsigned long long)best.threads_largest, best.occ.occupancy * 100);
    }
    gp_gpu_close(gpu);
    if (table && rc == 0)
        rc = score(table);
    return rc;
}
