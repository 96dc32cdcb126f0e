/*
 * csvfile.h - a CSV file read whole into records (libcsv, strict quoting):
 * lines that start with '#' are comments, blank lines are skipped, and every
 * record knows the line it starts on, so callers can say file:line. One
 * reader for `gpuperf validate`'s tables and gpuperf-retime's raw bench CSVs.
 * The first record is the header: every other record must have as many
 * fields.
 */
#ifndef GP_CSVFILE_H
#define GP_CSVFILE_H

#include <stddef.h>

#include "util.h"

#define GP_CSV_MAX_COLS 32    /* fields in one record */
#define GP_CSV_MAX_FIELD 2048 /* bytes in one field */

/* One record: its fields (NUL-terminated, owned) and its first line. */
typedef struct gp_csv_rec {
    char *f[GP_CSV_MAX_COLS];
    int nf;
    long line;
} gp_csv_rec_t;

/* The records of a file; r[0] is the header where the file has one. */
typedef struct gp_csv {
    gp_csv_rec_t *r;
    int n;
    /* reader state */
    int cap, max, bad, bad_nf;
    long line; /* the line being read */
    gp_csv_rec_t cur;
} gp_csv_t;

/* Read path (at most 64 MiB, at most max_records records) into t. On error
   t is empty and err says "path:line: what is wrong" and what to do:
   unbalanced quotes, a record whose fields are not as many as the header's,
   a record wider than GP_CSV_MAX_COLS fields or with a field above
   GP_CSV_MAX_FIELD bytes, binary data, too many records. */
int gp_csv_read(const char *path, int max_records, gp_csv_t *t, gp_err_t *err);

/* The same from text[0..len) (need not end in NUL), named `name` in errors. */
int gp_csv_parse(const char *name, const char *text, size_t len, int max_records, gp_csv_t *t,
                 gp_err_t *err);

void gp_csv_free(gp_csv_t *t);

#endif
