/*
 * csvfile.c - a CSV file read whole into records (see csvfile.h).
 */
#include <csv.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"

enum { BAD_WIDE = 1, BAD_WIDTH, BAD_MANY, BAD_OOM };

static void rec_free(gp_csv_rec_t *r)
{
    int j;
    for (j = 0; j < r->nf; j++)
        free(r->f[j]);
    memset(r, 0, sizeof *r);
}

/* libcsv field callback */
static void on_field(void *s, size_t len, void *ud)
{
    gp_csv_t *t = ud;
    char *v;
    if (t->bad)
        return;
    if (t->cur.nf >= GP_CSV_MAX_COLS || len > GP_CSV_MAX_FIELD) {
        t->bad = BAD_WIDE;
        return;
    }
    v = malloc(len + 1);
    if (!v) {
        t->bad = BAD_OOM;
        return;
    }
    if (len)
        memcpy(v, s, len);
    v[len] = '\0';
    t->cur.f[t->cur.nf++] = v;
}

/* libcsv record callback */
static void on_row(int c, void *ud)
{
    gp_csv_t *t = ud;
    (void)c;
    if (t->bad)
        return;
    if (t->n > 0 && t->cur.nf != t->r[0].nf) {
        t->bad = BAD_WIDTH;
        t->bad_nf = t->cur.nf;
        return;
    }
    if (t->n == t->max) {
        t->bad = BAD_MANY;
        return;
    }
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        gp_csv_rec_t *r;
        if (cap > t->max)
            cap = t->max;
        r = realloc(t->r, (size_t)cap * sizeof *r);
        if (!r) {
            t->bad = BAD_OOM;
            return;
        }
        t->r = r;
        t->cap = cap;
    }
    t->r[t->n++] = t->cur;
    memset(&t->cur, 0, sizeof t->cur);
    t->cur.line = t->line; /* a record after a bare CR starts on this line */
}

void gp_csv_free(gp_csv_t *t)
{
    int i;
    for (i = 0; i < t->n; i++)
        rec_free(&t->r[i]);
    rec_free(&t->cur);
    free(t->r);
    memset(t, 0, sizeof *t);
}

/* The message for t->bad at record line `at`. */
static int bad_record(const char *path, const gp_csv_t *t, long at, gp_err_t *err)
{
    switch (t->bad) {
    case BAD_WIDE:
        return gp_err_set(err, "%s:%ld: more than %d fields or a field above %d bytes: "
                          "check the commas and quotes of this row",
                          path, at, GP_CSV_MAX_COLS, GP_CSV_MAX_FIELD);
    case BAD_WIDTH:
        return gp_err_set(err, "%s:%ld: %d fields where the header (line %ld) names %d: "
                          "check the commas and quotes of this row",
                          path, at, t->bad_nf, t->r[0].line, t->r[0].nf);
    case BAD_MANY:
        return gp_err_set(err, "%s:%ld: more than %d rows: split the file", path, at,
                          t->max - 1);
    default:
        return gp_err_set(err, "%s: out of memory", path);
    }
}

/* 1 if the n bytes at s are spaces, tabs and line ends only */
static int blank(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    return 1;
}

int gp_csv_parse(const char *name, const char *text, size_t len, int max_records, gp_csv_t *t,
                 gp_err_t *err)
{
    const char *line = text, *end = text + len;
    long lineno = 0;
    struct csv_parser csv;
    memset(t, 0, sizeof *t);
    t->max = max_records > 0 ? max_records : 1;
    if (len && memchr(text, '\0', len))
        return gp_err_set(err, "%s: binary data (a NUL byte) where a CSV table was expected",
                          name);
    if (csv_init(&csv, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI) != 0)
        return gp_err_set(err, "%s: out of memory", name);
    /* line by line, so every record knows the line it starts on */
    for (; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        size_t n = eol ? (size_t)(eol - line + 1) : (size_t)(end - line);
        int fresh = t->cur.nf == 0; /* no field of a record read yet */
        lineno++;
        if (fresh && (*line == '#' || blank(line, n))) {
            line += n; /* a comment or a blank line */
            continue;
        }
        t->line = lineno;
        if (fresh)
            t->cur.line = lineno;
        if (csv_parse(&csv, line, n, on_field, on_row, t) != n) {
            gp_err_set(err, "%s:%ld: not valid CSV (%s): check the quotes and commas of "
                       "this row", name, lineno, csv_strerror(csv_error(&csv)));
            goto fail;
        }
        if (t->bad) {
            bad_record(name, t, t->cur.line, err);
            goto fail;
        }
        line += n;
    }
    if (csv_fini(&csv, on_field, on_row, t) != 0) {
        gp_err_set(err, "%s:%ld: not valid CSV (%s): a quoted field is not closed", name,
                   t->cur.line, csv_strerror(csv_error(&csv)));
        goto fail;
    }
    if (t->bad) {
        bad_record(name, t, t->cur.line, err);
        goto fail;
    }
    csv_free(&csv);
    return 0;
fail:
    csv_free(&csv);
    gp_csv_free(t);
    return -1;
}

int gp_csv_read(const char *path, int max_records, gp_csv_t *t, gp_err_t *err)
{
    char *data = NULL;
    size_t len;
    int rc;
    memset(t, 0, sizeof *t);
    if (gp_read_file(path, 64u << 20, &data, &len, err))
        return -1;
    rc = gp_csv_parse(path, data, len, max_records, t, err);
    free(data);
    return rc;
}
