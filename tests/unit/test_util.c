/*
 * test_util.c - number expressions, files written atomically, names, folder
 * listings.
 */
#include "test_common.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

static double num(const char *s)
{
    double v = -1;
    gp_err_t err;
    if (gp_parse_number(s, &v, &err))
        fail_msg("%s: %s", s, err.msg);
    return v;
}

static void test_numbers(void **state)
{
    (void)state;
    assert_true(num("256") == 256);
    assert_true(num("2^24") == 16777216);
    assert_true(num("4*2^20") == 4194304);
    assert_true(num("1e6") == 1e6);
    assert_true(num("(2^31-1)*256") == 549755813632.0);
    assert_true(num(" 3 + 4 * 2 ") == 11);
    assert_true(num("2^3^2") == 512); /* right associative */
    assert_true(num("-5") == -5);
    assert_true(num("0x100") == 256);
    assert_true(num("10/4") == 2.5);
}

static void test_bad_numbers(void **state)
{
    static const char *const bad[] = {"",    "abc", "2^",  "(1+2", "1/0",     "nan",
                                      "inf", "1e999", "2^2000", "5 MHz", "0x", "1..2"};
    size_t i;
    double v;
    gp_err_t err;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(bad); i++)
        if (gp_parse_number(bad[i], &v, &err) == 0)
            fail_msg("'%s' parsed as %g", bad[i], v);
    assert_int_equal(gp_parse_number("1/0", &v, &err), -1);
    assert_contains(err.msg, "division by zero");
    {
        char deep[200];
        memset(deep, '(', 100);
        deep[100] = '1';
        memset(deep + 101, ')', 98);
        deep[199] = '\0';
        assert_int_equal(gp_parse_number(deep, &v, &err), -1);
    }
}

static void test_atomic_write(void **state)
{
    char dir[] = "/tmp/gp_test_XXXXXX", path[256], *data;
    size_t len;
    gp_err_t err;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.json", dir);
    assert_int_equal(gp_write_file_atomic(path, "{\"a\":1}", 7, &err), 0);
    assert_int_equal(gp_read_file(path, 100, &data, &len, &err), 0);
    assert_int_equal(len, 7);
    assert_string_equal(data, "{\"a\":1}");
    free(data);
    assert_int_equal(gp_read_file(path, 3, &data, &len, &err), -1);
    assert_contains(err.msg, "larger than 3 bytes");
    unlink(path);
    snprintf(path, sizeof path, "%s/no/such/dir/out.json", dir);
    assert_int_equal(gp_write_file_atomic(path, "x", 1, &err), -1);
    assert_contains(err.msg, "cannot create a temporary file");
    assert_int_equal(gp_read_file(dir, 100, &data, &len, &err), -1);
    assert_contains(err.msg, "is a directory");
    rmdir(dir);
}

static void test_names_and_strings(void **state)
{
    char small[4];
    gp_err_t err;
    (void)state;
    assert_true(gp_is_plain_name("h200-sxm"));
    assert_false(gp_is_plain_name("../x"));
    assert_false(gp_is_plain_name(".."));
    assert_false(gp_is_plain_name(""));
    assert_int_equal(gp_strlcpy(small, "abcdef", sizeof small), -1);
    assert_string_equal(small, "abc");
    assert_true(gp_mul_sat_u64(1ull << 40, 1ull << 40) == UINT64_MAX);
    assert_true(gp_mul_sat_u64(3, 5) == 15);
    gp_err_set(&err, "inner %d", 1);
    gp_err_prefix(&err, "outer");
    assert_string_equal(err.msg, "outer: inner 1");
}

static void test_list_dir(void **state)
{
    static const char *const files[] = {"b.ini", "a.ini", ".hidden.ini", ".ini", "c.so",
                                        "z.ini"};
    char dir[] = "/tmp/gp_test_XXXXXX", path[256], **names;
    size_t i, n;
    gp_err_t err;
    (void)state;
    assert_non_null(mkdtemp(dir));
    for (i = 0; i < GP_ARRAY_LEN(files); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        assert_int_equal(gp_write_file_atomic(path, "x", 1, &err), 0);
    }
    /* sorted, hidden names and the bare suffix left out */
    assert_int_equal(gp_list_dir(dir, ".ini", &names, &n), 0);
    assert_int_equal(n, 3);
    assert_string_equal(names[0], "a.ini");
    assert_string_equal(names[1], "b.ini");
    assert_string_equal(names[2], "z.ini");
    gp_free_names(names, n);
    assert_int_equal(gp_list_dir(dir, "", &names, &n), 0);
    assert_int_equal(n, 4);
    assert_string_equal(names[2], "c.so");
    gp_free_names(names, n);
    for (i = 0; i < GP_ARRAY_LEN(files); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    assert_int_equal(gp_list_dir(dir, "", &names, &n), 0);
    assert_int_equal(n, 0);
    assert_null(names);
    rmdir(dir);
    assert_int_equal(gp_list_dir(dir, ".ini", &names, &n), -1);
    assert_int_equal(n, 0);
}

/* gp_format_fixed against printf's "%.*f": exact ties (dyadic values),
   values a tie away by one ulp, decimal fractions, random bit patterns,
   signs and the values it leaves to printf. */
static uint64_t fixed_rng = 88172645463325252ull;
static uint64_t fixed_next(void)
{
    fixed_rng ^= fixed_rng << 13;
    fixed_rng ^= fixed_rng >> 7;
    fixed_rng ^= fixed_rng << 17;
    return fixed_rng;
}

static void check_fixed(double v, int decimals, int *fast)
{
    char got[64], want[512];
    size_t n = gp_format_fixed(got, v, decimals);
    if (n == 0) { /* left to printf: only what it says it leaves */
        assert_false(fabs(v) < 1e9);
        return;
    }
    snprintf(want, sizeof want, "%.*f", decimals, v);
    if (strcmp(got, want) != 0 || n != strlen(want))
        fail_msg("%.17g with %d decimals: '%s', printf writes '%s'", v, decimals, got, want);
    (*fast)++;
}

static void test_format_fixed(void **state)
{
    static const double special[] = {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.0625, 0.1875, 0.0005,
                                      -0.0001, 999999999.9999999, 5e-324, 0.99995, 1e9, 2e300,
                                      INFINITY, -INFINITY, NAN};
    int fast = 0, d;
    size_t i;
    char buf[64];
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(special); i++)
        for (d = 0; d <= 6; d++)
            check_fixed(special[i], d, &fast);
    for (i = 0; i < 300000; i++) {
        double v;
        uint64_t bits;
        switch (fixed_next() % 5) {
        case 0: /* dyadic: exact ties at every precision */
            v = (double)(fixed_next() % 2000000) / (double)(1u << (fixed_next() % 20));
            break;
        case 1:
            bits = fixed_next();
            memcpy(&v, &bits, sizeof v);
            break;
        case 2: /* a decimal fraction, and the doubles either side */
            v = (double)(fixed_next() % 1000000000) * 1e-3;
            v = nextafter(v, fixed_next() & 1 ? 1e300 : -1e300);
            break;
        case 3:
            v = ldexp((double)(fixed_next() >> 11), -(int)(fixed_next() % 80));
            break;
        default:
            v = (double)(fixed_next() % 100000000) / 1e4 + (double)(fixed_next() % 3) * 5e-5;
            break;
        }
        if (fixed_next() & 1)
            v = -v;
        check_fixed(v, (int)(fixed_next() % 7), &fast);
    }
    assert_true(fast > 200000); /* most values took the fast path */
    assert_int_equal(gp_format_fixed(buf, 1.0, 7), 0);
    assert_int_equal(gp_format_fixed(buf, 1.0, -1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_bad_numbers),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_names_and_strings),
        cmocka_unit_test(test_list_dir),
        cmocka_unit_test(test_format_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
