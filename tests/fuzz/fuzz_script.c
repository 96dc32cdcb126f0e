/*
 * fuzz_script.c - fuzz the Lua workload front end (gp_script_run).
 *
 * Input: the text of a workload script. It is written to fuzz.lua in a
 * private temporary folder and run sandboxed with a small instruction budget
 * and memory cap, on one of a few shipped devices (chosen by the input's
 * size). A script must either fail with "fuzz.lua:..." or produce a workload,
 * which is then predicted (when it is small) and must come out finite.
 */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "script.h"

#define FZ_BUDGET 2000000ULL      /* VM instructions per input */
#define FZ_MEMORY (16ULL << 20)   /* bytes */
#define FZ_MAX_PREDICT_CMDS 256   /* larger workloads are only built */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char g_dir[64];
static char g_path[128];
static const char *const g_names[] = {"h200-sxm", "geforce-8800-gtx", "geforce-gtx-480",
                                      "a100-sxm4-40gb", "tesla-k40"};
static gp_device_t g_dev[GP_ARRAY_LEN(g_names)];
static const gp_arch_t *g_arch[GP_ARRAY_LEN(g_names)];

/* Remove the temporary folder at exit. */
static void cleanup(void)
{
    unlink(g_path);
    rmdir(g_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    size_t i;
    gp_err_t err;
    (void)argc;
    (void)argv;
    strcpy(g_dir, "/tmp/gpuperf-fuzz-script.XXXXXX");
    if (!mkdtemp(g_dir))
        fz_fail("cannot create a temporary folder");
    snprintf(g_path, sizeof g_path, "%s/fuzz.lua", g_dir);
    atexit(cleanup);
    for (i = 0; i < GP_ARRAY_LEN(g_names); i++)
        if (gp_device_open(g_names[i], &g_dev[i], &g_arch[i], &err))
            fz_fail("shipped device %s does not load: %s", g_names[i], err.msg);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_script_opts_t opts = {FZ_BUDGET, FZ_MEMORY};
    size_t di = size % GP_ARRAY_LEN(g_names);
    gp_workload_t wl;
    gp_prediction_t pred;
    gp_err_t err;
    FILE *f;
    if (size > FZ_MAX_INPUT)
        return 0;
    f = fopen(g_path, "wb");
    if (!f)
        fz_fail("cannot write %s", g_path);
    if (size && fwrite(data, 1, size, f) != size)
        fz_fail("cannot write %s", g_path);
    fclose(f);
    err.msg[0] = '\0';
    if (gp_script_run(g_path, &opts, &g_dev[di], NULL, 0, &wl, &err) != 0) {
        /* "fuzz.lua:LINE: ..." from the script, "PATH: ..." about the file */
        if (strncmp(err.msg, "fuzz.lua:", 9) != 0 &&
            !(strncmp(err.msg, g_path, strlen(g_path)) == 0 && err.msg[strlen(g_path)] == ':'))
            fz_fail("script error without fuzz.lua: in front: %s", err.msg);
        return 0;
    }
    if (wl.n_cmds <= FZ_MAX_PREDICT_CMDS) {
        err.msg[0] = '\0';
        if (gp_predict(&g_dev[di], g_arch[di], &wl, NULL, &pred, &err) == 0) {
            fz_check_prediction(&g_dev[di], &wl, &pred);
            gp_prediction_free(&pred);
        } else {
            fz_check_error("predict", err.msg);
            if (!strstr(err.msg, "fuzz.lua"))
                fz_fail("prediction error that does not name the script: %s", err.msg);
        }
    }
    gp_workload_free(&wl);
    return 0;
}
