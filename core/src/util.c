/*
 * util.c - errors, checked arithmetic, strings and files shared by the core.
 */
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Format a message into err and return -1. */
int gp_err_set(gp_err_t *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Prefix the message already in err. */
int gp_err_prefix(gp_err_t *err, const char *fmt, ...)
{
    if (err) {
        char prefix[512], old[sizeof err->msg];
        size_t n;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(prefix, sizeof prefix, fmt, ap);
        va_end(ap);
        memcpy(old, err->msg, sizeof old);
        n = strlen(prefix);
        memcpy(err->msg, prefix, n);
        err->msg[n] = ':';
        err->msg[n + 1] = ' ';
        gp_strlcpy(err->msg + n + 2, old, sizeof err->msg - n - 2);
    }
    return -1;
}

/* Empty the message. */
void gp_err_clear(gp_err_t *err)
{
    if (err)
        err->msg[0] = '\0';
}

/* Bounded string copy; -1 when truncated. */
int gp_strlcpy(char *dst, const char *src, size_t size)
{
    size_t n;
    if (size == 0)
        return -1;
    n = strlen(src);
    if (n >= size) {
        memcpy(dst, src, size - 1);
        dst[size - 1] = '\0';
        return -1;
    }
    memcpy(dst, src, n + 1);
    return 0;
}

/* Bounded formatted print; -1 when truncated. */
int gp_snprintf(char *dst, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(dst, size, fmt, ap);
    va_end(ap);
    return (n < 0 || (size_t)n >= size) ? -1 : 0;
}

/* calloc that reports failure loudly; callers in the library check NULL. */
int gp_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void *gp_xcalloc(size_t n, size_t size)
{
    return calloc(n ? n : 1, size ? size : 1);
}

/* ---------------------------------------------------------- number parser */

/* Recursive-descent state for gp_parse_number. */
typedef struct num_parser {
    const char *s;
    const char *start;
    gp_err_t *err;
    int depth;
} num_parser_t;

static int parse_expr(num_parser_t *p, double *out);

/* Skip blanks. */
static void skip_ws(num_parser_t *p)
{
    while (*p->s == ' ' || *p->s == '\t')
        p->s++;
}

/* A literal or a parenthesised expression, with optional unary sign. */
static int parse_primary(num_parser_t *p, double *out)
{
    skip_ws(p);
    if (*p->s == '-' || *p->s == '+') {
        int neg = *p->s == '-';
        p->s++;
        if (parse_primary(p, out))
            return -1;
        if (neg)
            *out = -*out;
        return 0;
    }
    if (*p->s == '(') {
        if (++p->depth > 32)
            return gp_err_set(p->err, "'%s': expression nested too deeply", p->start);
        p->s++;
        if (parse_expr(p, out))
            return -1;
        skip_ws(p);
        if (*p->s != ')')
            return gp_err_set(p->err, "'%s': missing ')'", p->start);
        p->s++;
        p->depth--;
        return 0;
    }
    if (isdigit((unsigned char)*p->s) || *p->s == '.') {
        char *end;
        errno = 0;
        if (p->s[0] == '0' && (p->s[1] == 'x' || p->s[1] == 'X')) {
            unsigned long long v = strtoull(p->s, &end, 16);
            if (end == p->s + 2)
                return gp_err_set(p->err, "'%s': bad hexadecimal number", p->start);
            *out = (double)v;
        } else {
            *out = strtod(p->s, &end);
        }
        if (end == p->s)
            return gp_err_set(p->err, "'%s': not a number", p->start);
        if (errno == ERANGE && fabs(*out) > 1)
            return gp_err_set(p->err, "'%s': number too large", p->start);
        p->s = end;
        return 0;
    }
    return gp_err_set(p->err, "'%s': not a number (write e.g. 256, 2^24, 4*2^20 or 1e6)",
                      p->start);
}

/* Right-associative power: a ^ b ^ c. */
static int parse_power(num_parser_t *p, double *out)
{
    if (parse_primary(p, out))
        return -1;
    skip_ws(p);
    if (*p->s == '^') {
        double e;
        p->s++;
        if (parse_power(p, &e))
            return -1;
        *out = pow(*out, e);
    }
    return 0;
}

/* Products and quotients. */
static int parse_term(num_parser_t *p, double *out)
{
    if (parse_power(p, out))
        return -1;
    for (;;) {
        double r;
        char op;
        skip_ws(p);
        op = *p->s;
        if (op != '*' && op != '/')
            return 0;
        p->s++;
        if (parse_power(p, &r))
            return -1;
        if (op == '/') {
            if (r == 0)
                return gp_err_set(p->err, "'%s': division by zero", p->start);
            *out /= r;
        } else {
            *out *= r;
        }
    }
}

/* Sums and differences. */
static int parse_expr(num_parser_t *p, double *out)
{
    if (parse_term(p, out))
        return -1;
    for (;;) {
        double r;
        char op;
        skip_ws(p);
        op = *p->s;
        if (op != '+' && op != '-')
            return 0;
        p->s++;
        if (parse_term(p, &r))
            return -1;
        *out = op == '+' ? *out + r : *out - r;
    }
}

int gp_parse_number(const char *text, double *out, gp_err_t *err)
{
    num_parser_t p = {text, text, err, 0};
    double v;
    if (!text || !*text)
        return gp_err_set(err, "empty value where a number was expected");
    if (strlen(text) > 256)
        return gp_err_set(err, "number expression longer than 256 characters");
    if (parse_expr(&p, &v))
        return -1;
    skip_ws(&p);
    if (*p.s != '\0')
        return gp_err_set(err, "'%s': unexpected '%c' in a number", text, *p.s);
    if (!isfinite(v))
        return gp_err_set(err, "'%s': the value is not finite", text);
    *out = v;
    return 0;
}

/* ------------------------------------------------------------------ files */

int gp_write_file_atomic(const char *path, const char *data, size_t len, gp_err_t *err)
{
    char tmp[4096];
    int fd;
    size_t done = 0;
    if (gp_snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path))
        return gp_err_set(err, "%s: path too long", path);
    fd = mkstemp(tmp);
    if (fd < 0)
        return gp_err_set(err, "%s: cannot create a temporary file beside it: %s", path,
                          strerror(errno));
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            gp_err_set(err, "%s: write failed: %s", path, strerror(errno));
            close(fd);
            unlink(tmp);
            return -1;
        }
        done += (size_t)n;
    }
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0) {
        gp_err_set(err, "%s: %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        return -1;
    }
    if (close(fd) != 0) {
        gp_err_set(err, "%s: close failed: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        gp_err_set(err, "%s: cannot rename the temporary file into place: %s", path,
                   strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int gp_read_file(const char *path, size_t max_bytes, char **data, size_t *len, gp_err_t *err)
{
    FILE *f;
    char *buf;
    size_t cap = 4096, n = 0;
    struct stat st;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return gp_err_set(err, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0) {
        gp_err_set(err, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return gp_err_set(err, S_ISDIR(st.st_mode)
                                   ? "%s: is a directory, not a file"
                                   : "%s: not a regular file (a FIFO, socket or device?)",
                          path);
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
        (f = fdopen(fd, "rb")) == NULL) {
        gp_err_set(err, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return gp_err_set(err, "%s: out of memory", path);
    }
    for (;;) {
        size_t got;
        if (n + 1 >= cap) {
            char *nb;
            if (cap > max_bytes) {
                free(buf);
                fclose(f);
                return gp_err_set(err, "%s: larger than %zu bytes", path, max_bytes);
            }
            nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return gp_err_set(err, "%s: out of memory", path);
            }
            buf = nb;
            cap *= 2;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return gp_err_set(err, "%s: read error", path);
    }
    fclose(f);
    if (n > max_bytes) {
        free(buf);
        return gp_err_set(err, "%s: larger than %zu bytes", path, max_bytes);
    }
    buf[n] = '\0';
    *data = buf;
    if (len)
        *len = n;
    return 0;
}

int gp_is_plain_name(const char *s)
{
    const char *c;
    if (!s || !*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return 0;
    for (c = s; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '-' || *c == '.'))
            return 0;
    return 1;
}

uint64_t gp_mul_sat_u64(uint64_t a, uint64_t b)
{
    if (a && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

/* ------------------------------------------------------------ folders */

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void gp_free_names(char **names, size_t n)
{
    size_t i;
    for (i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

int gp_list_dir(const char *dir, const char *suffix, char ***names, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char **v = NULL;
    size_t cnt = 0, cap = 0, sl = strlen(suffix);
    *names = NULL;
    *n = 0;
    if (!d)
        return -1;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.' || len <= sl || strcmp(de->d_name + len - sl, suffix) != 0)
            continue;
        if (cnt == cap) {
            char **nv = realloc(v, (cap = cap ? cap * 2 : 32) * sizeof *v);
            if (!nv)
                goto fail;
            v = nv;
        }
        if (!(v[cnt] = strdup(de->d_name)))
            goto fail;
        cnt++;
    }
    closedir(d);
    if (cnt)
        qsort(v, cnt, sizeof *v, cmp_name);
    *names = v;
    *n = cnt;
    return 0;
fail:
    closedir(d);
    gp_free_names(v, cnt);
    return -1;
}

size_t gp_put_uint(char *buf, size_t n, uint64_t u)
{
    char d[24];
    size_t k = 0;
    do {
        d[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (k)
        buf[n++] = d[--k];
    return n;
}

size_t gp_format_fixed(char *buf, double v, int decimals)
{
    static const double scale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
    static const uint64_t iscale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    double a = fabs(v), p, e, whole, f;
    uint64_t q, fp;
    size_t n = 0;
    int i;
    if (decimals < 0 || decimals > 6 || !(a < 1e9))
        return 0;
    /* a * 10^decimals = p + e exactly (fma leaves the product's rounding
       error e); p < 1e15 < 2^50, so its fraction f is exact and |e| is at
       most 1/16 */
    p = a * scale[decimals];
    e = fma(a, scale[decimals], -p);
    whole = floor(p);
    f = p - whole;
    q = (uint64_t)whole;
    /* round the exact value: below a fraction of 1/4 it rounds down;
       from there f - 1/2 is exact (Sterbenz) and the sign of a sum of two
       doubles is the sign of the exact sum */
    if (f >= 0.25) {
        double d = (f - 0.5) + e;
        if (d > 0 || (d == 0 && (q & 1)))
            q++;
    }
    if (signbit(v))
        buf[n++] = '-';
    fp = q % iscale[decimals];
    n = gp_put_uint(buf, n, q / iscale[decimals]);
    if (decimals) {
        buf[n++] = '.';
        for (i = decimals - 1; i >= 0; i--) {
            buf[n + (size_t)i] = (char)('0' + fp % 10);
            fp /= 10;
        }
        n += (size_t)decimals;
    }
    buf[n] = '\0';
    return n;
}
