/*
 * common.c - helpers shared by the subcommands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int gp_cli_fail(const char *cmd, int status, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "gpuperf %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}

int gp_cli_open_device(const char *cmd, const char *name, gp_cli_device_t *out)
{
    gp_err_t err;
    memset(out, 0, sizeof *out);
    if (gp_device_open(name, &out->dev, &out->arch, &err))
        return gp_cli_fail(cmd, GP_EXIT_FAIL, "%s", err.msg);
    return GP_EXIT_OK;
}

int gp_cli_split_list(char *buf, char **items, int max)
{
    int n = 0;
    char *save = NULL, *tok = strtok_r(buf, ",", &save);
    while (tok && n < max) {
        while (*tok == ' ')
            tok++;
        if (*tok)
            items[n++] = tok;
        tok = strtok_r(NULL, ",", &save);
    }
    return tok ? -1 : n;
}

int gp_cli_add_param(const char *cmd, gp_cli_params_t *p, char *arg)
{
    char *eq = strchr(arg, '=');
    size_t i;
    if (!eq || eq == arg || !eq[1]) {
        gp_cli_fail(cmd, GP_EXIT_USAGE, "-p %s: write -p key=value (e.g. -p n=2^24)", arg);
        return -1;
    }
    if (p->n >= GP_ARRAY_LEN(p->kv)) {
        gp_cli_fail(cmd, GP_EXIT_USAGE, "more than %zu -p parameters", GP_ARRAY_LEN(p->kv));
        return -1;
    }
    *eq = '\0';
    for (i = 0; i < p->n; i++)
        if (strcmp(p->kv[i].key, arg) == 0) {
            gp_cli_fail(cmd, GP_EXIT_USAGE, "-p %s given twice", arg);
            return -1;
        }
    p->kv[p->n].key = arg;
    p->kv[p->n].value = eq + 1;
    p->n++;
    return 0;
}

int gp_cli_parse_u64(const char *cmd, const char *opt, const char *text, uint64_t *out)
{
    gp_err_t err;
    double v;
    if (gp_parse_number(text, &v, &err)) {
        gp_cli_fail(cmd, GP_EXIT_USAGE, "%s: %s", opt, err.msg);
        return -1;
    }
    /* range first: converting a double beyond 2^64 to uint64_t is undefined */
    if (!(v >= 0 && v < 1.8e19) || v != (double)(uint64_t)v) {
        gp_cli_fail(cmd, GP_EXIT_USAGE, "%s %s: expected a whole number >= 0", opt, text);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

int gp_cli_parse_memory_cap(const char *cmd, const char *text, uint64_t *bytes)
{
    uint64_t mib;
    if (gp_cli_parse_u64(cmd, "--memory-cap", text, &mib))
        return -1;
    if (mib == 0 || mib > (1u << 20)) {
        gp_cli_fail(cmd, GP_EXIT_USAGE, "--memory-cap %s: MiB, 1..1048576", text);
        return -1;
    }
    *bytes = mib << 20;
    return 0;
}

int gp_print_json(cJSON *doc)
{
    char *s;
    if (!doc)
        return -1;
    s = cJSON_Print(doc);
    if (!s)
        return -1;
    fputs(s, stdout);
    fputc('\n', stdout);
    cJSON_free(s);
    return 0;
}
