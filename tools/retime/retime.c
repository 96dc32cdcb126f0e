/*
 * gpuperf-retime - a validation table's rows timed again on another card.
 *
 * A validation table (validation/h200/calibration.csv) names, per row, a
 * kernel (family, name, params), the script and parameters that describe it,
 * and the time one card measured. The benches of validation/h200/bench write
 * their raw times as CSV with the same family, name and params columns (and a
 * median_us). Run the benches on a second card and this tool writes the
 * table's rows for that card: the same scripts and parameters, the device
 * column and the measured time replaced, a source naming the raw file.
 *
 *   gpuperf-retime --table TABLE.csv --device NAME --source TEXT
 *                  [--family F ...] [--own RAW.csv ... | --via RAW.csv ...]
 *                  [--regs] [--drop KEY ...] RAW.csv [RAW.csv ...]
 *
 * A table row and a raw row are the same kernel when their names are equal
 * and so are their params once the `regs=N` words are left out (the tables
 * add the registers ptxas reported; some benches print them, some do not).
 * With --own, a table row is kept only where its measured time equals the
 * median_us of its own card's raw row in those files, so that a row whose
 * figure came from another run (or was edited since) is not paired with a
 * new time it was never measured beside. Where the table rewrote a bench's
 * params (dropping a trips= word, writing "1 MiB" for bytes=1048576), --via
 * names the table's own raw files and pairs through them: a table row is the
 * kernel of the same name whose median_us there equals its measured_us (where
 * several, the one sharing the most params words with the row), and that
 * kernel's raw name and params find it in the new card's files. With --regs,
 * the rows' regs=N words (params and script_params) take the registers the
 * new raw file's regs column reports: a bench rebuilt since the table's run
 * (its instrumentation moved out of the timed kernel) has its own. With
 * --drop KEY, the KEY=... word leaves the rows' script_params: a parameter
 * that described the table's run and not the new one (stamp=1, the H200's
 * instances of a bench that still read clock64 in every trip). Every
 * error names file:line.
 *
 * Reads CSV through gpuperf's reader (core/src/csvfile.c, libcsv); '#' lines
 * are comments, as gpuperf validate takes them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"

#define MAX_ROWS 1000000
#define MAX_FILES 256
#define MAX_FAMILIES 64

typedef gp_csv_rec_t row_t; /* fields f[0..nf), line: where the row starts */

typedef struct sheet {
    const char *path;
    gp_csv_t csv;
    char **head; /* the header's column names */
    int ncols;
    row_t *rows; /* the rows after the header */
    size_t nrows;
} sheet_t;

static void die(const char *fmt, ...)
{
    va_list ap;
    fputs("gpuperf-retime: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p)
        die("out of memory");
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* Read a CSV file (csvfile.h: '#' lines are comments, as gpuperf validate
   reads tables; every row as wide as the header). */
static void read_sheet(const char *path, sheet_t *s)
{
    gp_err_t err;
    memset(s, 0, sizeof *s);
    s->path = path;
    if (gp_csv_read(path, MAX_ROWS, &s->csv, &err))
        die("%s", err.msg);
    if (s->csv.n == 0)
        die("%s: no header line (expected family,name,params,... column names)", path);
    s->head = s->csv.r[0].f;
    s->ncols = s->csv.r[0].nf;
    s->rows = s->csv.r + 1;
    s->nrows = (size_t)s->csv.n - 1;
}

static void free_sheet(sheet_t *s)
{
    gp_csv_free(&s->csv);
}

static int column(const sheet_t *s, const char *name, int required)
{
    int i;
    for (i = 0; i < s->ncols; i++)
        if (strcmp(s->head[i], name) == 0)
            return i;
    if (required)
        die("%s:1: no '%s' column in the header; a %s needs one", s->path, name,
            required == 1 ? "validation table" : "bench's raw CSV");
    return -1;
}

static const char *cell(const row_t *r, int col)
{
    return r->f[col]; /* col < the header's width, and so the row's (csvfile.h) */
}

/* The blank-separated word of *p after its blanks: its start (*w) and length
   (*wl, 0 at the end); *p moves past it. */
static size_t next_word(const char **p, const char **w)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    *w = *p;
    while (**p && **p != ' ' && **p != '\t')
        (*p)++;
    return (size_t)(*p - *w);
}

/* params without their regs=N words, single-spaced, into out */
static void params_key(const char *params, char *out, size_t size)
{
    const char *p = params;
    size_t n = 0;
    out[0] = '\0';
    while (*p) {
        const char *w;
        size_t wl = next_word(&p, &w);
        if (wl == 0 || (wl > 5 && strncmp(w, "regs=", 5) == 0))
            continue;
        if (n + wl + 2 > size)
            die("params longer than %zu bytes: %s", size, params);
        if (n)
            out[n++] = ' ';
        memcpy(out + n, w, wl);
        n += wl;
        out[n] = '\0';
    }
}

typedef struct raw {
    sheet_t s;
    int c_name, c_params, c_median, c_regs;
    char **key; /* per row, its params less regs=N (params_key), made once */
} raw_t;

static void open_raw(const char *path, raw_t *r)
{
    char k[2048];
    size_t j;
    read_sheet(path, &r->s);
    r->c_name = column(&r->s, "name", 2);
    r->c_params = column(&r->s, "params", 2);
    r->c_median = column(&r->s, "median_us", 2);
    r->c_regs = column(&r->s, "regs", 0);
    r->key = calloc(r->s.nrows ? r->s.nrows : 1, sizeof *r->key);
    if (!r->key)
        die("out of memory");
    for (j = 0; j < r->s.nrows; j++) {
        params_key(cell(&r->s.rows[j], r->c_params), k, sizeof k);
        r->key[j] = dup_n(k, strlen(k));
    }
}

static void free_raw(raw_t *r)
{
    size_t j;
    for (j = 0; j < r->s.nrows; j++)
        free(r->key[j]);
    free(r->key);
    free_sheet(&r->s);
}

/* the raw row of kernel (name, key) in files[0..n), or NULL; two are an error */
static const row_t *find_raw(raw_t *files, int n, const char *name, const char *key,
                             const raw_t **from)
{
    const row_t *hit = NULL;
    int i;
    size_t j;
    for (i = 0; i < n; i++) {
        raw_t *r = &files[i];
        for (j = 0; j < r->s.nrows; j++) {
            const row_t *row = &r->s.rows[j];
            if (strcmp(cell(row, r->c_name), name) != 0 || strcmp(r->key[j], key) != 0)
                continue;
            if (hit)
                die("%s:%ld: kernel '%s' [%s] is also at %s:%ld; give each run's file alone",
                    r->s.path, row->line, name, key, (*from)->s.path, hit->line);
            hit = row;
            *from = r;
        }
    }
    return hit;
}

/* how many of key's words are words of other */
static int shared_words(const char *key, const char *other)
{
    int n = 0;
    const char *p = key;
    while (*p) {
        const char *w = p, *q = other;
        size_t wl;
        while (*p && *p != ' ')
            p++;
        wl = (size_t)(p - w);
        while (*q) {
            const char *v = q;
            while (*q && *q != ' ')
                q++;
            if ((size_t)(q - v) == wl && strncmp(v, w, wl) == 0) {
                n++;
                break;
            }
            while (*q == ' ')
                q++;
        }
        while (*p == ' ')
            p++;
    }
    return n;
}

/* --via: the kernel of files[0..n) named name whose median_us equals measured,
   the one sharing the most words with key where several do (an exact key
   first); NULL where none does, and two kernels equally near are an error */
static const row_t *find_via(raw_t *files, int n, const char *name, const char *key,
                             double measured, const raw_t **from)
{
    const row_t *hit = NULL, *tie = NULL;
    const raw_t *tie_from = NULL;
    size_t hit_j = 0, tie_j = 0, j;
    int best = -1, i;
    for (i = 0; i < n; i++) {
        raw_t *r = &files[i];
        for (j = 0; j < r->s.nrows; j++) {
            const row_t *row = &r->s.rows[j];
            int score;
            if (strcmp(cell(row, r->c_name), name) != 0 ||
                strtod(cell(row, r->c_median), NULL) != measured)
                continue;
            score = strcmp(r->key[j], key) == 0 ? 1 << 20 : shared_words(key, r->key[j]);
            if (score > best) {
                best = score;
                hit = row;
                hit_j = j;
                *from = r;
                tie = NULL;
            } else if (score == best) {
                tie = row;
                tie_j = j;
                tie_from = r;
            }
        }
    }
    if (tie)
        die("%s:%ld: kernel '%s' [%s] and %s:%ld [%s] both took %s us and are equally "
            "near the table's params [%s]; give --via the one run's file alone",
            tie_from->s.path, tie->line, name, tie_from->key[tie_j], (*from)->s.path,
            hit->line, (*from)->key[hit_j], cell(tie, tie_from->c_median), key);
    return hit;
}

/* every kernel of the files once: find_raw dies on a second */
static void check_unique(raw_t *files, int n)
{
    const raw_t *from;
    int i;
    size_t j;
    for (i = 0; i < n; i++)
        for (j = 0; j < files[i].s.nrows; j++)
            find_raw(files, n, cell(&files[i].s.rows[j], files[i].c_name),
                     files[i].key[j], &from);
}

/* one CSV field, quoted where it must be (RFC 4180) */
static void put_field(const char *v, int first)
{
    if (!first)
        putchar(',');
    if (strpbrk(v, ",\"\r\n")) {
        putchar('"');
        for (; *v; v++) {
            if (*v == '"')
                putchar('"');
            putchar(*v);
        }
        putchar('"');
    } else {
        fputs(v, stdout);
    }
}

/* 1 when word w (its first wl characters) is KEY=... for one of keys[0..n) */
static int dropped(const char *w, size_t wl, const char *const *keys, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        size_t kl = strlen(keys[i]);
        if (wl > kl && strncmp(w, keys[i], kl) == 0 && w[kl] == '=')
            return 1;
    }
    return 0;
}

/* v as one field, its words kept in order with the blanks before them: each
   regs=N word's N replaced by regs (NULL: kept), each KEY=... word of a key
   in drop[0..ndrop) left out with the blanks before it (and the first word
   kept loses its own where every word before it was left out) */
static void put_words(const char *v, const char *regs, const char *const *drop, int ndrop,
                      int first)
{
    size_t need = strlen(v) + 1, n = 0;
    const char *p = v;
    char *out;
    if (regs)
        for (const char *q = v; (q = strstr(q, "regs=")) != NULL; q += 5)
            need += strlen(regs);
    out = malloc(need);
    if (!out)
        die("out of memory");
    while (*p) {
        const char *gap = p, *w;
        size_t wl = next_word(&p, &w);
        if (wl > 0 && dropped(w, wl, drop, ndrop))
            continue;
        if (n > 0 || gap == v) {
            memcpy(out + n, gap, (size_t)(w - gap));
            n += (size_t)(w - gap);
        }
        if (regs && wl >= 5 && strncmp(w, "regs=", 5) == 0) {
            memcpy(out + n, "regs=", 5);
            n += 5;
            memcpy(out + n, regs, strlen(regs));
            n += strlen(regs);
        } else {
            memcpy(out + n, w, wl);
            n += wl;
        }
    }
    out[n] = '\0';
    put_field(out, first);
    free(out);
}

/* TEXT with each {raw} replaced by the raw file's path */
static void put_source(const char *text, const char *raw)
{
    size_t need = 1, i = 0;
    const char *p;
    char *out;
    for (p = text; *p; p++)
        need += strncmp(p, "{raw}", 5) == 0 ? strlen(raw) : 1;
    out = malloc(need);
    if (!out)
        die("out of memory");
    for (p = text; *p;) {
        if (strncmp(p, "{raw}", 5) == 0) {
            memcpy(out + i, raw, strlen(raw));
            i += strlen(raw);
            p += 5;
        } else {
            out[i++] = *p++;
        }
    }
    out[i] = '\0';
    put_field(out, 0);
    free(out);
}

static void usage(FILE *to)
{
    fputs("usage: gpuperf-retime --table TABLE.csv --device NAME --source TEXT\n"
          "                      [--family F ...] [--own RAW.csv ... | --via RAW.csv ...]\n"
          "                      [--regs] [--drop KEY ...] RAW.csv [RAW.csv ...]\n"
          "\n"
          "Writes to stdout the rows of a validation table timed again on another card:\n"
          "each row of TABLE.csv whose kernel one of the RAW.csv files (a bench's raw\n"
          "output: family,name,params,...,median_us) timed, with the device column set to\n"
          "NAME, measured_us to the raw median_us and source to TEXT ({raw} in TEXT is the\n"
          "raw file's path). A row and a raw row are one kernel when their names are equal\n"
          "and so are their params less the regs=N words. The header comes first; rows\n"
          "keep the table's order.\n"
          "\n"
          "  --family F   only the table's rows of family F (repeatable; default: the\n"
          "               families the RAW files name)\n"
          "  --own RAW    the table's own raw files (repeatable): keep a row only where its\n"
          "               measured_us equals its kernel's median_us there\n"
          "  --via RAW    the table's own raw files, for a table whose params differ from\n"
          "               the bench's (repeatable): a row is the kernel there of its name\n"
          "               whose median_us equals its measured_us (where several, the one\n"
          "               sharing the most params words with the row), and that kernel's\n"
          "               params find it in the RAW.csv files; rows with no such kernel\n"
          "               are left out\n"
          "  --regs       set each written row's regs=N words (params, script_params) to\n"
          "               the registers its raw row's regs column reports: for a bench\n"
          "               rebuilt since the table's run (the raw files need a regs column)\n"
          "  --drop KEY   leave each written row's KEY=... word out of its script_params\n"
          "               (repeatable): a script parameter that told how the table's card\n"
          "               ran the kernel and does not hold for the raw files' (stamp=1: the\n"
          "               bench's instances that read clock64 in every trip)\n"
          "\n"
          "Rows the RAW files do not time are left out and counted on stderr. Exit status\n"
          "0; 1 for a file that cannot be read, a kernel timed twice, two --via kernels\n"
          "equally near a row or no row written; 2 for a bad command line.\n"
          "\n"
          "example (validation/h100/README.md):\n"
          "  gpuperf-retime --table validation/h200/calibration.csv --device h100-sxm \\\n"
          "      --source '{raw} (bench_uniform on an H100 SXM, measured 2026-12-05)' \\\n"
          "      validation/h100/measured/benches/uniform/uniform.csv\n"
          "  gpuperf-retime --table validation/h200/calibration.csv --device h100-sxm \\\n"
          "      --source '{raw} (bench_flushq on an H100 SXM, measured 2026-12-07)' \\\n"
          "      --via validation/h200/measured/run10/flushq/flushq.csv \\\n"
          "      validation/h100/measured/benches/flushq/flushq.csv\n",
          to);
}

int main(int argc, char **argv)
{
    const char *table = NULL, *device = NULL, *source = NULL;
    const char *fam[MAX_FAMILIES];
    const char *own_paths[MAX_FILES], *via_paths[MAX_FILES], *raw_paths[MAX_FILES];
    int nfam = 0, nown = 0, nvia = 0, nraw = 0, i, kept = 0, untimed = 0, not_own = 0, given_fam;
    int set_regs = 0, ndrop = 0;
    const char *drop[MAX_FAMILIES];
    raw_t *raws, *owns, *vias;
    sheet_t t;
    int c_dev, c_fam, c_name, c_params, c_meas, c_src, c_sparams;
    size_t j;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if ((strcmp(a, "--table") == 0 || strcmp(a, "--device") == 0 ||
                    strcmp(a, "--source") == 0 || strcmp(a, "--family") == 0 ||
                    strcmp(a, "--own") == 0 || strcmp(a, "--via") == 0 ||
                    strcmp(a, "--drop") == 0) &&
                   !has) {
            fprintf(stderr, "gpuperf-retime: %s needs a value\n", a);
            return 2;
        } else if (strcmp(a, "--regs") == 0) {
            set_regs = 1;
        } else if (strcmp(a, "--drop") == 0) {
            const char *k = argv[++i];
            if (!*k || strpbrk(k, "= \t,\"")) {
                fprintf(stderr,
                        "gpuperf-retime: --drop takes a parameter's name (as `stamp` in "
                        "stamp=1), got '%s'\n",
                        k);
                return 2;
            }
            if (ndrop == MAX_FAMILIES) {
                fprintf(stderr, "gpuperf-retime: more than %d --drop\n", MAX_FAMILIES);
                return 2;
            }
            drop[ndrop++] = k;
        } else if (strcmp(a, "--table") == 0) {
            table = argv[++i];
        } else if (strcmp(a, "--device") == 0) {
            device = argv[++i];
        } else if (strcmp(a, "--source") == 0) {
            source = argv[++i];
        } else if (strcmp(a, "--family") == 0) {
            if (nfam == MAX_FAMILIES) {
                fprintf(stderr, "gpuperf-retime: more than %d --family\n", MAX_FAMILIES);
                return 2;
            }
            fam[nfam++] = argv[++i];
        } else if (strcmp(a, "--own") == 0) {
            if (nown == MAX_FILES) {
                fprintf(stderr, "gpuperf-retime: more than %d --own files\n", MAX_FILES);
                return 2;
            }
            own_paths[nown++] = argv[++i];
        } else if (strcmp(a, "--via") == 0) {
            if (nvia == MAX_FILES) {
                fprintf(stderr, "gpuperf-retime: more than %d --via files\n", MAX_FILES);
                return 2;
            }
            via_paths[nvia++] = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "gpuperf-retime: unknown option '%s' (see --help)\n", a);
            return 2;
        } else {
            if (nraw == MAX_FILES) {
                fprintf(stderr, "gpuperf-retime: more than %d raw files\n", MAX_FILES);
                return 2;
            }
            raw_paths[nraw++] = a;
        }
    }
    if (!table || !device || !source || nraw == 0) {
        fprintf(stderr, "gpuperf-retime: %s is required (see --help)\n",
                !table ? "--table" : !device ? "--device" : !source ? "--source"
                                                                     : "a raw file");
        return 2;
    }
    if (nown > 0 && nvia > 0) {
        fprintf(stderr, "gpuperf-retime: --own and --via both name the table's own raw files; "
                        "give one (--via already keeps only rows equal to their own median)\n");
        return 2;
    }

    given_fam = nfam > 0;
    read_sheet(table, &t);
    c_dev = column(&t, "device", 1);
    c_fam = column(&t, "family", 1);
    c_name = column(&t, "name", 1);
    c_params = column(&t, "params", 1);
    c_meas = column(&t, "measured_us", 1);
    c_src = column(&t, "source", 0);
    c_sparams = column(&t, "script_params", 0);
    raws = calloc((size_t)nraw, sizeof *raws);
    owns = calloc((size_t)(nown ? nown : 1), sizeof *owns);
    vias = calloc((size_t)(nvia ? nvia : 1), sizeof *vias);
    if (!raws || !owns || !vias)
        die("out of memory");
    for (i = 0; i < nraw; i++) {
        open_raw(raw_paths[i], &raws[i]);
        if (set_regs && raws[i].c_regs < 0)
            die("%s:1: no 'regs' column in the header; --regs takes the registers from it "
                "(leave --regs out for a bench that does not print them)",
                raws[i].s.path);
        if (!given_fam) {
            /* default: the families the raw files name */
            int cf = column(&raws[i].s, "family", 2), k, seen;
            for (j = 0; j < raws[i].s.nrows; j++) {
                const char *f = cell(&raws[i].s.rows[j], cf);
                for (seen = 0, k = 0; k < nfam; k++)
                    seen |= strcmp(fam[k], f) == 0;
                if (seen)
                    continue;
                if (nfam == MAX_FAMILIES)
                    die("%s:%ld: the raw files name more than %d families; pick with --family",
                        raws[i].s.path, raws[i].s.rows[j].line, MAX_FAMILIES);
                fam[nfam++] = f;
            }
        }
    }
    for (i = 0; i < nown; i++)
        open_raw(own_paths[i], &owns[i]);
    for (i = 0; i < nvia; i++)
        open_raw(via_paths[i], &vias[i]);
    check_unique(raws, nraw);
    check_unique(owns, nown);
    /* --via files may time a kernel twice (a run and its re-run): the median
       tells them apart, and find_via refuses two it cannot */

    for (i = 0; i < t.ncols; i++)
        put_field(t.head[i], i == 0);
    putchar('\n');
    for (j = 0; j < t.nrows; j++) {
        const row_t *r = &t.rows[j];
        const row_t *hit, *mine;
        const raw_t *from = NULL, *from_own = NULL;
        const char *family = cell(r, c_fam);
        char key[2048];
        int k, take = 0;
        for (k = 0; k < nfam; k++)
            take |= strcmp(fam[k], family) == 0;
        if (!take)
            continue;
        params_key(cell(r, c_params), key, sizeof key);
        if (nvia > 0) {
            const raw_t *from_via = NULL;
            mine = find_via(vias, nvia, cell(r, c_name), key, strtod(cell(r, c_meas), NULL),
                            &from_via);
            if (!mine) {
                not_own++;
                continue;
            }
            snprintf(key, sizeof key, "%s", from_via->key[mine - from_via->s.rows]);
        }
        hit = find_raw(raws, nraw, cell(r, c_name), key, &from);
        if (!hit) {
            untimed++;
            continue;
        }
        if (nown > 0) {
            mine = find_raw(owns, nown, cell(r, c_name), key, &from_own);
            if (!mine || strtod(cell(mine, from_own->c_median), NULL) !=
                             strtod(cell(r, c_meas), NULL)) {
                not_own++;
                continue;
            }
        }
        for (k = 0; k < t.ncols; k++) {
            if (k == c_src)
                put_source(source, from->s.path);
            else if (k == c_dev)
                put_field(device, k == 0);
            else if (k == c_meas)
                put_field(cell(hit, from->c_median), k == 0);
            else if (set_regs && k == c_params)
                put_words(cell(r, k), cell(hit, from->c_regs), NULL, 0, k == 0);
            else if ((set_regs || ndrop > 0) && k == c_sparams)
                put_words(cell(r, k), set_regs ? cell(hit, from->c_regs) : NULL, drop, ndrop,
                          k == 0);
            else
                put_field(cell(r, k), k == 0);
        }
        putchar('\n');
        kept++;
    }
    fprintf(stderr, "gpuperf-retime: %d rows written", kept);
    fprintf(stderr, "; %d rows of the families timed by no raw file", untimed);
    if (nown > 0)
        fprintf(stderr, "; %d rows left out whose measured_us is not their own raw median",
                not_own);
    if (nvia > 0)
        fprintf(stderr, "; %d rows left out whose measured_us is no --via kernel's median",
                not_own);
    fputc('\n', stderr);
    if (kept == 0)
        fprintf(stderr, "gpuperf-retime: no row of %s is a kernel the raw files time: check "
                        "--family and that the names and params agree\n", table);
    for (i = 0; i < nraw; i++)
        free_raw(&raws[i]);
    for (i = 0; i < nown; i++)
        free_raw(&owns[i]);
    for (i = 0; i < nvia; i++)
        free_raw(&vias[i]);
    free_sheet(&t);
    free(raws);
    free(owns);
    free(vias);
    return fflush(stdout) == 0 && kept > 0 ? 0 : 1;
}
