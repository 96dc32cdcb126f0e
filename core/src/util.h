/*
 * util.h - errors, checked arithmetic, strings and files shared by the core.
 */
#ifndef GP_UTIL_H
#define GP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* A caller-owned error: one message, "where: what is wrong[; what to do]". */
typedef struct gp_err {
    char msg[1024];
} gp_err_t;

/* Format into err (may be NULL) and return -1, so `return gp_err_set(...)`. */
int gp_err_set(gp_err_t *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prefix an existing message: "prefix: old message". Returns -1. */
int gp_err_prefix(gp_err_t *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Clear the message. */
void gp_err_clear(gp_err_t *err);

/* snprintf that always terminates and never overflows; returns 0, or -1 when
   the result was truncated. */
int gp_strlcpy(char *dst, const char *src, size_t size);
int gp_snprintf(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* qsort comparator: int64_t values in ascending order. */
int gp_cmp_i64(const void *a, const void *b);

/* Allocation that never returns NULL: on failure the process reports and
   exits from the CLI layer's handler (library code checks NULL itself). */
void *gp_xcalloc(size_t n, size_t size);

/*
 * Parse a number written as a decimal or hexadecimal literal or a small
 * arithmetic expression over them: + - * / ^ (power) and parentheses, e.g.
 * "2^24", "4*2^20", "1e6", "(2^31-1)*256". Rejects anything else, NaN and
 * infinities. Returns 0 or -1 with a message in err.
 */
int gp_parse_number(const char *text, double *out, gp_err_t *err);

/* Write data to path through a temporary file in the same folder, then rename,
   so readers never see a truncated file. */
int gp_write_file_atomic(const char *path, const char *data, size_t len,
                         gp_err_t *err);

/* Read a whole file (at most max_bytes) into a NUL-terminated heap buffer. */
int gp_read_file(const char *path, size_t max_bytes, char **data, size_t *len,
                 gp_err_t *err);

/* 1 if s is a plain name: [A-Za-z0-9_.-]+ without "/" and not "." or "..". */
int gp_is_plain_name(const char *s);

/* The names of the entries of folder dir that end in suffix (and are longer
   than it; "" takes every name), hidden ones left out, sorted by strcmp.
   *names gets n strings to release with gp_free_names. Returns -1 (and no
   names) when the folder cannot be read or memory runs out. */
int gp_list_dir(const char *dir, const char *suffix, char ***names, size_t *n);
void gp_free_names(char **names, size_t n);

/* Saturating conversions and products for launch arithmetic. */
uint64_t gp_mul_sat_u64(uint64_t a, uint64_t b);

/* Write the decimal digits of u at buf + n (no terminator); returns the new
   length. */
size_t gp_put_uint(char *buf, size_t n, uint64_t u);

/* v with `decimals` (0 to 6) digits after the point, exactly as printf's
   "%.*f" writes it (the binary value rounded to nearest, ties to even; "-"
   for any negative sign, -0 included), into buf (at least 32 bytes), NUL-
   terminated, without printf's cost; returns the length. Returns 0 (buf
   untouched) for |v| >= 1e9, infinities and NaN: print those with printf. */
size_t gp_format_fixed(char *buf, double v, int decimals);

#define GP_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define GP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define GP_MAX(a, b) ((a) > (b) ? (a) : (b))

#endif /* GP_UTIL_H */
