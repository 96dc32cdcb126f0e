/*
 * paths.c - search paths for plugins, device files and scripts.
 */
#include "paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#ifndef GP_BUILD_DIR
#define GP_BUILD_DIR ""
#endif
#ifndef GP_BUILD_PLUGIN_DIR
#define GP_BUILD_PLUGIN_DIR ""
#endif
#ifndef GP_SOURCE_DIR
#define GP_SOURCE_DIR ""
#endif
#ifndef GP_INSTALL_PREFIX
#define GP_INSTALL_PREFIX "/usr/local"
#endif
#ifndef GP_PLUGIN_SUBDIR
#define GP_PLUGIN_SUBDIR "lib/gpuperf/plugins"
#endif
#ifndef GP_DATA_SUBDIR
#define GP_DATA_SUBDIR "share/gpuperf"
#endif

/* Append dir if it is a folder not already listed. */
static void add_dir(gp_search_path_t *sp, const char *dir)
{
    struct stat st;
    size_t i;
    if (!dir || !*dir || sp->n >= GP_MAX_SEARCH_DIRS)
        return;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    for (i = 0; i < sp->n; i++)
        if (strcmp(sp->dirs[i], dir) == 0)
            return;
    if (gp_strlcpy(sp->dirs[sp->n], dir, GP_PATH_MAX) == 0)
        sp->n++;
}

/* Append each entry of a colon-separated list. */
static void add_env_list(gp_search_path_t *sp, const char *env)
{
    const char *v = getenv(env);
    char buf[GP_PATH_MAX];
    const char *p;
    if (!v)
        return;
    p = v;
    while (*p) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (len > 0 && len < sizeof buf) {
            memcpy(buf, p, len);
            buf[len] = '\0';
            add_dir(sp, buf);
        }
        if (!colon)
            break;
        p = colon + 1;
    }
}

/* The folder holding the running executable, or "" if unknown. */
static void exe_dir(char *out, size_t size)
{
    char buf[GP_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    char *slash;
    out[0] = '\0';
    if (n <= 0)
        return;
    buf[n] = '\0';
    slash = strrchr(buf, '/');
    if (!slash)
        return;
    *slash = '\0';
    gp_strlcpy(out, buf, size);
}

/* 1 when the running program lives inside the build tree. */
static int running_from_build(const char *dir)
{
    size_t n = strlen(GP_BUILD_DIR);
    return n > 0 && strlen(dir) >= n && memcmp(dir, GP_BUILD_DIR, n) == 0 &&
           (dir[n] == '\0' || dir[n] == '/');
}

/* prefix/sub, where prefix is the installed prefix seen from the binary. */
static void installed(char *out, size_t size, const char *exe, const char *sub)
{
    /* exe is PREFIX/bin: the prefix is its parent */
    char prefix[GP_PATH_MAX];
    char *slash;
    gp_strlcpy(prefix, exe, sizeof prefix);
    slash = strrchr(prefix, '/');
    if (slash && slash != prefix)
        *slash = '\0';
    gp_snprintf(out, size, "%s/%s", prefix, sub);
}

void gp_paths_plugins(gp_search_path_t *out)
{
    char exe[GP_PATH_MAX], dir[GP_PATH_MAX];
    memset(out, 0, sizeof *out);
    add_env_list(out, "GPUPERF_PLUGIN_PATH");
    exe_dir(exe, sizeof exe);
    if (running_from_build(exe) || !*exe) {
        add_dir(out, GP_BUILD_PLUGIN_DIR);
    } else {
        installed(dir, sizeof dir, exe, GP_PLUGIN_SUBDIR);
        add_dir(out, dir);
    }
    gp_snprintf(dir, sizeof dir, "%s/%s", GP_INSTALL_PREFIX, GP_PLUGIN_SUBDIR);
    add_dir(out, dir);
    add_dir(out, GP_BUILD_PLUGIN_DIR);
}

void gp_paths_devices(gp_search_path_t *out)
{
    char exe[GP_PATH_MAX], dir[GP_PATH_MAX];
    memset(out, 0, sizeof *out);
    add_env_list(out, "GPUPERF_DEVICE_PATH");
    exe_dir(exe, sizeof exe);
    if (running_from_build(exe) || !*exe) {
        gp_snprintf(dir, sizeof dir, "%s/devices", GP_SOURCE_DIR);
        add_dir(out, dir);
    } else {
        installed(dir, sizeof dir, exe, GP_DATA_SUBDIR "/devices");
        add_dir(out, dir);
    }
    gp_snprintf(dir, sizeof dir, "%s/%s/devices", GP_INSTALL_PREFIX, GP_DATA_SUBDIR);
    add_dir(out, dir);
    gp_snprintf(dir, sizeof dir, "%s/devices", GP_SOURCE_DIR);
    add_dir(out, dir);
}

void gp_paths_scripts(char *out, size_t size)
{
    char exe[GP_PATH_MAX], dir[GP_PATH_MAX];
    struct stat st;
    exe_dir(exe, sizeof exe);
    out[0] = '\0';
    if (*exe && !running_from_build(exe)) {
        installed(dir, sizeof dir, exe, GP_DATA_SUBDIR "/scripts");
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
            gp_strlcpy(out, dir, size);
            return;
        }
    }
    gp_snprintf(dir, sizeof dir, "%s/scripts", GP_SOURCE_DIR);
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        gp_strlcpy(out, dir, size);
}
