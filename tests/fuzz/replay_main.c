/*
 * replay_main.c - run a fuzz harness over a corpus without libFuzzer.
 *
 *   replay_device tests/fuzz/corpus/device [more files or folders...]
 *
 * Each file is read and handed to the harness's LLVMFuzzerTestOneInput, in
 * name order; a broken invariant aborts (the test fails). Built with every
 * compiler, so the normal and the sanitizer builds replay the committed
 * corpus as ordinary ctest tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

/* optional, as for libFuzzer: a harness with nothing to set up leaves it out */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Feed one file to the harness; returns 0, or -1 when it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            unsigned char *nb = realloc(buf, cap = cap ? cap * 2 : 4096);
            if (!nb) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    /* an exact-size copy, as libFuzzer hands it over */
    {
        unsigned char *exact = malloc(len ? len : 1);
        if (!exact) {
            free(buf);
            return -1;
        }
        memcpy(exact, buf, len);
        free(buf);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
    }
    return 0;
}

/* Replay every regular file of a folder, in name order; returns the count
   or -1. */
static long replay_dir(const char *dir)
{
    char **names;
    size_t n, i;
    long done = 0;
    if (gp_list_dir(dir, "", &names, &n) != 0)
        return -1;
    for (i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(path) != 0)
                done = -1;
            else if (done >= 0)
                done++;
        }
    }
    gp_free_names(names, n);
    return done;
}

int main(int argc, char **argv)
{
    long total = 0;
    int i;
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (i = 1; i < argc; i++) {
        struct stat st;
        long n;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s does not exist\n", argv[i]);
            return 1;
        }
        n = S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i]) == 0 ? 1 : -1;
        if (n < 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 1;
        }
        total += n;
    }
    if (total == 0) {
        fprintf(stderr, "replay: no input found (an empty corpus tests nothing)\n");
        return 1;
    }
    printf("replayed %ld inputs\n", total);
    return 0;
}
