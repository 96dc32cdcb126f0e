/*
 * log.c - where diagnostics of the library and of plugins go: to the
 * handler the program installs, or nowhere.
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static gp_log_fn g_log_fn;
static void *g_log_ud;

void gp_log_set_handler(gp_log_fn fn, void *ud)
{
    g_log_fn = fn;
    g_log_ud = ud;
}

void gp_logf(int level, const char *who, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    if (!g_log_fn)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    g_log_fn(g_log_ud, level, who ? who : "gpuperf", msg);
}

/* The log entry point plugins see (gp_host_t.log). */
void gp_log_plugin(int level, const char *plugin, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    if (!g_log_fn)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    g_log_fn(g_log_ud, level, plugin ? plugin : "plugin", msg);
}

