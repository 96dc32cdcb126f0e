/*
 * test_common.h - helpers shared by the unit tests.
 */
#ifndef GP_TEST_COMMON_H
#define GP_TEST_COMMON_H

#include "coalesce.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"

/* Read a file of the source tree into a heap string (test fails if absent). */
static inline char *tc_read(const char *relpath)
{
    char path[4096], *data = NULL;
    size_t len;
    gp_err_t err;
    snprintf(path, sizeof path, "%s/%s", GP_SOURCE_DIR, relpath);
    if (gp_read_file(path, 1 << 24, &data, &len, &err)) {
        fail_msg("%s", err.msg);
        return NULL;
    }
    return data;
}

/* Replace the first line starting with `prefix` by `line` ("" deletes it). */
static inline char *tc_replace_line(const char *text, const char *prefix, const char *line)
{
    const char *p = text;
    size_t plen = strlen(prefix);
    while (*p) {
        if (strncmp(p, prefix, plen) == 0 && (p == text || p[-1] == '\n')) {
            const char *end = strchr(p, '\n');
            size_t head = (size_t)(p - text), tail_off = end ? (size_t)(end - text) : strlen(text);
            size_t n = head + strlen(line) + strlen(text + tail_off) + 1;
            char *out = malloc(n);
            memcpy(out, text, head);
            strcpy(out + head, line);
            strcat(out, text + tail_off + (*line ? 0 : (end ? 1 : 0)));
            return out;
        }
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    fail_msg("no line starts with '%s'", prefix);
    return NULL;
}

/* 1-based line number of the first line starting with prefix. */
static inline int tc_line_of(const char *text, const char *prefix)
{
    int line = 1;
    const char *p = text;
    size_t plen = strlen(prefix);
    while (*p) {
        if (strncmp(p, prefix, plen) == 0)
            return line;
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
        line++;
    }
    return -1;
}

/* Assert that `msg` contains `needle`. */
#define assert_contains(msg, needle)                                                   \
    do {                                                                               \
        if (!strstr((msg), (needle)))                                                  \
            fail_msg("expected \"%s\" in \"%s\"", (needle), (msg));                     \
    } while (0)


/* One access's transactions by `threads` lanes coalesced together at
   segment size seg (shrinking to min_seg): the coalescing module's answer
   for a warp of `threads` lanes. */
static inline double tc_coalesce(const gp_access_t *a, uint32_t threads, uint32_t seg,
                                 uint32_t min_seg, double *bytes)
{
    gp_coalesce_rule_t r = {threads, seg, min_seg, 0};
    return gp_coalesce_access(a, threads, &r, bytes);
}

/* Bank passes of one access by `threads` lanes over `banks` banks of
   bank_bytes, every word read by several lanes served once. */
static inline double tc_bank_passes(const gp_access_t *a, uint32_t threads, uint32_t banks,
                                    uint32_t bank_bytes)
{
    gp_bank_rule_t r = {banks, bank_bytes, threads, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_PHASES, 0};
    uint32_t e = a->elem_bytes ? a->elem_bytes : 4;
    if (a->conflict_ways > 0)
        return (double)a->conflict_ways * (e > bank_bytes ? e / bank_bytes : 1);
    return gp_bank_passes_access(a, threads, &r, 0, 0);
}

#endif /* GP_TEST_COMMON_H */
