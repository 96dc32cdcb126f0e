/*
 * test_csvfile.c - the CSV reader of validation tables and raw bench CSVs:
 * comments, blank lines, quoting, the line each record starts on, and the
 * file:line errors for what is not a table.
 */
#include "test_common.h"

#include "csvfile.h"

/* Parse text; returns the records (caller frees) or fails the test. */
static void parse_ok(const char *text, gp_csv_t *t)
{
    gp_err_t err;
    if (gp_csv_parse("t.csv", text, strlen(text), 100, t, &err))
        fail_msg("%s", err.msg);
}

/* Parse text that must be refused with a message containing want. */
static void parse_bad(const char *text, int max, const char *want)
{
    gp_csv_t t;
    gp_err_t err;
    assert_int_equal(gp_csv_parse("t.csv", text, strlen(text), max, &t, &err), -1);
    assert_contains(err.msg, want);
    assert_int_equal(t.n, 0);
    assert_null(t.r);
}

static void test_records_and_lines(void **state)
{
    gp_csv_t t;
    (void)state;
    parse_ok("# a comment, with \"quotes\n"
             "a,b,c\n"
             "\n"
             "1,\"two, with a comma\",3\r\n"
             "   \t\n"
             "# another comment\n"
             "4,\"five\nspans a line\",\"say \"\"six\"\"\"\n"
             "7,,9",
             &t);
    assert_int_equal(t.n, 4);
    assert_int_equal(t.r[0].line, 2);
    assert_string_equal(t.r[0].f[2], "c");
    assert_int_equal(t.r[1].line, 4);
    assert_string_equal(t.r[1].f[1], "two, with a comma");
    assert_string_equal(t.r[1].f[2], "3");
    assert_int_equal(t.r[2].line, 7);
    assert_string_equal(t.r[2].f[1], "five\nspans a line");
    assert_string_equal(t.r[2].f[2], "say \"six\"");
    assert_int_equal(t.r[3].line, 9); /* the last line needs no newline */
    assert_int_equal(t.r[3].nf, 3);
    assert_string_equal(t.r[3].f[1], "");
    gp_csv_free(&t);
    assert_int_equal(t.n, 0);
    parse_ok("", &t); /* nothing at all: no records, the caller decides */
    assert_int_equal(t.n, 0);
    gp_csv_free(&t);
}

static void test_refusals(void **state)
{
    char wide[200], longf[GP_CSV_MAX_FIELD + 16];
    int i;
    (void)state;
    parse_bad("a,b\n1,\"2\n", 100, "t.csv:2: not valid CSV");
    parse_bad("a,b\n1,\"2\n", 100, "a quoted field is not closed");
    parse_bad("a,b\n\n1,2\"x\n", 100, "t.csv:3: not valid CSV");
    parse_bad("a,b,c\n1,2\n", 100, "t.csv:2: 2 fields where the header (line 1) names 3");
    parse_bad("# c\na\n1,2\n", 100, "t.csv:3: 2 fields where the header (line 2) names 1");
    parse_bad("a\n1\n2\n3\n", 3, "t.csv:4: more than 2 rows");
    for (i = 0; i <= GP_CSV_MAX_COLS; i++) /* one field too many */
        memcpy(wide + 2 * i, "x,", 2);
    wide[2 * GP_CSV_MAX_COLS + 1] = '\n';
    wide[2 * GP_CSV_MAX_COLS + 2] = '\0';
    parse_bad(wide, 100, "t.csv:1: more than 32 fields");
    memset(longf, 'y', GP_CSV_MAX_FIELD + 1);
    strcpy(longf + GP_CSV_MAX_FIELD + 1, "\n");
    parse_bad(longf, 100, "a field above 2048 bytes");
    {
        gp_csv_t t;
        gp_err_t err;
        assert_int_equal(gp_csv_parse("t.csv", "a\0b\n", 4, 100, &t, &err), -1);
        assert_contains(err.msg, "t.csv: binary data");
    }
}

static void test_read_file(void **state)
{
    gp_csv_t t;
    gp_err_t err;
    (void)state;
    assert_int_equal(gp_csv_read(GP_SOURCE_DIR "/validation/h200/evaluation.csv", 100000, &t,
                                 &err),
                     0);
    assert_true(t.n > 200);
    assert_string_equal(t.r[0].f[0], "device");
    gp_csv_free(&t);
    assert_int_equal(gp_csv_read("/nonexistent/t.csv", 10, &t, &err), -1);
    assert_contains(err.msg, "/nonexistent/t.csv");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records_and_lines),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_read_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
