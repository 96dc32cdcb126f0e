/*
 * jsoncheck.c - test helper: parse JSON (a file or stdin) and print the value
 * at a path such as .launches[0].name; exit 1 if the document is not valid
 * JSON or the path is missing. With no path, only checks the document.
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

int main(int argc, char **argv)
{
    FILE *f;
    char *text, *p;
    cJSON *doc, *cur;
    if (argc < 2) {
        fprintf(stderr, "usage: jsoncheck FILE|- [.path[0].to.value]\n");
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
    cur = doc;
    p = argv[2];
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
    if (!cur) {
        fprintf(stderr, "jsoncheck: no %s\n", argv[2]);
        cJSON_Delete(doc);
        return 1;
    }
    if (cJSON_IsString(cur))
        printf("%s\n", cur->valuestring);
    else if (cJSON_IsNumber(cur))
        printf("%.17g\n", cur->valuedouble);
    else {
        char *s = cJSON_PrintUnformatted(cur);
        printf("%s\n", s);
        cJSON_free(s);
    }
    cJSON_Delete(doc);
    return 0;
}
