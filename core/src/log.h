/*
 * log.h - diagnostics of the core and of plugins (log.c). Messages go to
 * the handler the program installs; with none they are dropped.
 */
#ifndef GP_LOG_H
#define GP_LOG_H

typedef void (*gp_log_fn)(void *ud, int level, const char *who, const char *msg);

/* Install the handler (NULL drops messages). */
void gp_log_set_handler(gp_log_fn fn, void *ud);

/* Send a message at a gp_log_level_t level in the name of `who`. */
void gp_logf(int level, const char *who, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for a plugin (gp_host_t.log). */
void gp_log_plugin(int level, const char *plugin, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* GP_LOG_H */
