/*
 * fuzz_table.c - fuzz the CSV reader behind validation tables and the raw
 * bench CSVs (gp_csv_parse, core/src/csvfile.c).
 *
 * Input: the text of a CSV file, not NUL-terminated. It must be refused with
 * "fuzz.csv:LINE: ..." (or "fuzz.csv: ..." for a NUL byte) or read into
 * records that keep the reader's promises: every record as wide as the header,
 * 1..GP_CSV_MAX_COLS fields of at most GP_CSV_MAX_FIELD bytes, NUL-terminated,
 * and first lines that never go back from record to record, within the
 * input's lines (a bare CR ends a record mid-line: the next starts there).
 */
#include <stddef.h>
#include <stdint.h>

#include "csvfile.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "fuzz.csv:LINE: " with 1 <= LINE <= lines, or "fuzz.csv: " */
static void check_where(const char *msg, long lines)
{
    const char *p = msg + strlen("fuzz.csv:");
    long line = 0;
    if (strncmp(msg, "fuzz.csv:", strlen("fuzz.csv:")) != 0)
        fz_fail("CSV error without fuzz.csv: in front: %s", msg);
    if (*p == ' ')
        return;
    while (*p >= '0' && *p <= '9' && line < 1000000)
        line = 10 * line + (*p++ - '0');
    if (*p != ':' || line < 1 || line > lines)
        fz_fail("CSV error at a line the input does not have (%ld lines): %s", lines, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_csv_t t;
    gp_err_t err;
    char *text;
    long lines = 1, prev = 0;
    size_t i;
    int r, j;
    text = fz_copy_input(data, size);
    if (!text)
        return 0;
    for (i = 0; i < size; i++)
        lines += text[i] == '\n';
    err.msg[0] = '\0';
    if (gp_csv_parse("fuzz.csv", text, size, 64, &t, &err) != 0) {
        check_where(err.msg, lines);
        if (t.n != 0 || t.r != NULL)
            fz_fail("a refused CSV left records behind");
    } else {
        for (r = 0; r < t.n; r++) {
            const gp_csv_rec_t *rec = &t.r[r];
            if (rec->nf < 1 || rec->nf > GP_CSV_MAX_COLS || rec->nf != t.r[0].nf)
                fz_fail("record %d has %d fields, the header %d", r, rec->nf, t.r[0].nf);
            if (rec->line < 1 || rec->line < prev || rec->line > lines)
                fz_fail("record %d starts at line %ld after line %ld (%ld lines)", r,
                        rec->line, prev, lines);
            prev = rec->line;
            for (j = 0; j < rec->nf; j++)
                if (!rec->f[j] || strlen(rec->f[j]) > GP_CSV_MAX_FIELD)
                    fz_fail("record %d field %d missing or too long", r, j);
        }
        gp_csv_free(&t);
    }
    free(text);
    return 0;
}
