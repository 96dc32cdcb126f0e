/*
 * jsoncheck.c - test helper: parse JSON (a file or stdin) and print the value
 * at a path such as .launches[0].name, or at each of several paths, a line
 * each; exit 1 if the document is not valid JSON or a path is missing (the
 * values before it printed). With no path, only checks the document.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read all of a stream. */
static char *slurp(FILE *f)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
    }
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* The value at a path such as .launches[0].name; NULL: none. */
static cJSON *at_path(cJSON *doc, const char *p)
{
    cJSON *cur = doc;
    while (*p && cur) {
        if (*p == '.') {
            char key[256];
            size_t n = 0;
            p++;
            while (*p && *p != '.' && *p != '[' && n < sizeof key - 1)
                key[n++] = *p++;
            key[n] = '\0';
            cur = cJSON_GetObjectItemCaseSensitive(cur, key);
        } else if (*p == '[') {
            int idx = atoi(++p);
            while (isdigit((unsigned char)*p))
                p++;
            if (*p == ']')
                p++;
            cur = cJSON_GetArrayItem(cur, idx);
        } else {
            cur = NULL;
        }
    }
    return cur;
}

/* A string as it is, a number to 17 digits, anything else as JSON; a line. */
static void print_value(const cJSON *v)
{
    if (cJSON_IsString(v))
        printf("%s\n", v->valuestring);
    else if (cJSON_IsNumber(v))
        printf("%.17g\n", v->valuedouble);
    else {
        char *s = cJSON_PrintUnformatted(v);
        printf("%s\n", s ? s : "null");
        cJSON_free(s);
    }
}

int main(int argc, char **argv)
{
    FILE *f;
    char *text;
    cJSON *doc, *cur;
    int i;
    if (argc < 2) {
        fprintf(stderr, "usage: jsoncheck FILE|- [.path[0].to.value ...]\n");
        return 2;
    }
    f = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "jsoncheck: cannot open %s\n", argv[1]);
        return 1;
    }
    text = slurp(f);
    if (f != stdin)
        fclose(f);
    doc = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!doc) {
        fprintf(stderr, "jsoncheck: not valid JSON\n");
        return 1;
    }
    if (argc < 3) {
        cJSON_Delete(doc);
        return 0;
    }
    for (i = 2; i < argc; i++) {
        cur = at_path(doc, argv[i]);
        if (!cur) {
            fprintf(stderr, "jsoncheck: no %s\n", argv[i]);
            cJSON_Delete(doc);
            return 1;
        }
        print_value(cur);
    }
    cJSON_Delete(doc);
    return 0;
}
