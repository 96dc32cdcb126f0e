/*
 * log.h - where diagnostics go. The library never prints: messages from the
 * core and from plugins go to a handler the program installs (none: dropped).
 */
#ifndef GP_LOG_H
#define GP_LOG_H

typedef void (*gp_log_fn)(void *ud, int level, const char *who, const char *msg);

/* Install the handler (NULL drops messages). */
void gp_log_set_handler(gp_log_fn fn, void *ud);

/* Send a message at a gp_log_level_t level. */
void gp_logf(int level, const char *who, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* GP_LOG_H */
