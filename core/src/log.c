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

/* Format and hand a message to the handler, in the name of who (or dflt). */
static void vlog(int level, const char *who, const char *dflt, const char *fmt, va_list ap)
{
    char msg[1024];
    if (!g_log_fn)
        return;
    vsnprintf(msg, sizeof msg, fmt, ap);
    g_log_fn(g_log_ud, level, who ? who : dflt, msg);
}

void gp_logf(int level, const char *who, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(level, who, "gpuperf", fmt, ap);
    va_end(ap);
}

/* The log entry point plugins see (gp_host_t.log). */
void gp_log_plugin(int level, const char *plugin, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(level, plugin, "plugin", fmt, ap);
    va_end(ap);
}
