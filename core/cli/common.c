/*
 * common.c - helpers shared by the subcommands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "paths.h"

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

size_t gp_cli_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), i, j, row[GP_CLI_SUGGEST_MAX + 1];
    if (la > GP_CLI_SUGGEST_MAX || lb > GP_CLI_SUGGEST_MAX)
        return (size_t)-1;
    for (j = 0; j <= lb; j++)
        row[j] = j;
    for (i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            best = GP_MIN(best, up + 1);
            best = GP_MIN(best, row[j - 1] + 1);
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *gp_cli_suggest(const char *word, const char *const *cands, size_t n)
{
    size_t i, best_d = (size_t)-1, len = strlen(word);
    const char *best = NULL;
    for (i = 0; i < n; i++) {
        size_t d = cands[i] ? gp_cli_edit_distance(word, cands[i]) : (size_t)-1;
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    /* one edit in four characters, at least one, at most three */
    return best && best_d > 0 && best_d <= GP_MAX((size_t)1, GP_MIN((size_t)3, len / 4 + 1))
               ? best
               : NULL;
}

int gp_cli_unknown_option(const char *cmd, const char *arg, const struct option *opts)
{
    const char *cands[64], *best;
    char word[GP_CLI_SUGGEST_MAX + 1];
    size_t n = 0;
    const char *a = arg;
    while (*a == '-')
        a++;
    gp_snprintf(word, sizeof word, "%.*s", (int)strcspn(a, "="), a);
    for (; opts && opts->name && n < GP_ARRAY_LEN(cands); opts++)
        cands[n++] = opts->name;
    best = strncmp(arg, "--", 2) == 0 ? gp_cli_suggest(word, cands, n) : NULL;
    if (best)
        return gp_cli_fail(cmd, GP_EXIT_USAGE, "unknown option '%s'; did you mean --%s? (see "
                           "gpuperf %s --help)", arg, best, cmd);
    return gp_cli_fail(cmd, GP_EXIT_USAGE, "unknown option '%s' (see gpuperf %s --help)", arg,
                       cmd);
}

int gp_cli_is_stdout(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

int gp_cli_write_output(const char *cmd, const char *opt, const char *path, const char *text,
                        size_t len)
{
    gp_err_t err;
    if (gp_cli_is_stdout(path)) {
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)
            return gp_cli_fail(cmd, GP_EXIT_FAIL, "%s -: cannot write to stdout", opt);
        return GP_EXIT_OK;
    }
    if (gp_write_file_atomic(path, text, len, &err))
        return gp_cli_fail(cmd, GP_EXIT_FAIL, "%s %s", opt, err.msg);
    return GP_EXIT_OK;
}

/* The names of the device files on the search path (NAME of NAME.ini), each
   once; logs the folders searched (debug) and each file that a file of the
   same name earlier on the path hides (info). Caller frees with
   gp_free_names. */
static void device_names(char ***out, size_t *n_out)
{
    static int logged; /* the search is logged once per process */
    gp_search_path_t sp;
    char **all = NULL;
    size_t n = 0, cap = 0, i, j, k;
    int log = !logged;
    logged = 1;
    gp_paths_devices(&sp);
    for (i = 0; i < sp.n; i++) {
        char **names;
        size_t m;
        if (log)
            gp_logf(GP_LOG_DEBUG, "devices", "search path %zu: %s", i + 1, sp.dirs[i]);
        if (gp_list_dir(sp.dirs[i], ".ini", &names, &m) != 0)
            continue;
        for (j = 0; j < m; j++) {
            size_t len = strlen(names[j]) - 4; /* without ".ini" */
            int dup = 0;
            names[j][len] = '\0';
            for (k = 0; k < n && !dup; k++)
                dup = strcmp(all[k], names[j]) == 0;
            if (dup) {
                if (log)
                    gp_logf(GP_LOG_INFO, "devices", "%s/%s.ini is hidden by the file of the "
                            "same name earlier on the search path", sp.dirs[i], names[j]);
                continue;
            }
            if (n == cap) {
                char **na = realloc(all, (cap = cap ? cap * 2 : 32) * sizeof *all);
                if (!na)
                    break;
                all = na;
            }
            all[n++] = names[j];
            names[j] = NULL;
        }
        gp_free_names(names, m);
    }
    *out = all;
    *n_out = n;
}

void gp_cli_log_device_search(void)
{
    char **names;
    size_t n;
    device_names(&names, &n);
    gp_free_names(names, n);
}

int gp_cli_open_device(const char *cmd, const char *name, gp_cli_device_t *out)
{
    gp_err_t err;
    char path[GP_PATH_MAX];
    char **names;
    size_t n;
    const char *best;
    memset(out, 0, sizeof *out);
    /* the search (and what hides what) is worth logging whether it succeeds */
    device_names(&names, &n);
    if (gp_device_resolve(name, path, sizeof path, &err)) {
        best = gp_cli_suggest(name, (const char *const *)names, n);
        if (best)
            gp_cli_fail(cmd, GP_EXIT_FAIL, "%s; did you mean %s?", err.msg, best);
        else
            gp_cli_fail(cmd, GP_EXIT_FAIL, "%s", err.msg);
        gp_free_names(names, n);
        return GP_EXIT_FAIL;
    }
    gp_free_names(names, n);
    gp_logf(GP_LOG_INFO, "devices", "device %s: %s", name, path);
    if (gp_device_load(path, &out->dev, &out->arch, &err))
        return gp_cli_fail(cmd, GP_EXIT_FAIL, "%s", err.msg);
    gp_logf(GP_LOG_INFO, "plugins", "device %s: plugin %s: %s", out->dev.id, out->dev.arch,
            out->arch->path);
    return GP_EXIT_OK;
}

int gp_cli_has_work(const gp_workload_t *wl)
{
    uint32_t i;
    for (i = 0; i < wl->n_cmds; i++)
        if (wl->cmds[i].type == GP_CMD_LAUNCH || wl->cmds[i].type == GP_CMD_COPY ||
            (wl->cmds[i].type == GP_CMD_GRAPH && wl->cmds[i].graph < wl->n_graphs &&
             wl->graphs[wl->cmds[i].graph].n_nodes > 0))
            return 1;
    return 0;
}

void gp_cli_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
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
    p->kv[p->n].number = NULL;
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

int gp_cli_parse_count(const char *cmd, const char *label, const char *text, uint64_t lo,
                       uint64_t hi, const char *what, uint64_t *out)
{
    gp_err_t err;
    double v;
    if (gp_parse_number(text, &v, &err)) {
        gp_cli_fail(cmd, GP_EXIT_USAGE, "%s: %s", label, err.msg);
        return -1;
    }
    if (!(v >= (double)lo && v <= (double)hi) || v != (double)(uint64_t)v) {
        gp_cli_fail(cmd, GP_EXIT_USAGE, "%s: %s, a whole number %llu..%llu", label, what,
                    (unsigned long long)lo, (unsigned long long)hi);
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
