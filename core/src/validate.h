/*
 * validate.h - validation tables: the reader (CSV through libcsv, '#'
 * comment lines, every error "path:line: ...") and the scorer that predicts
 * each row and compares it with the measured figure.
 *
 * The public API is in gpuperf/gpuperf.h (gp_table_*, gp_score_*); this
 * header adds what the library's own code and tests use besides it.
 */
#ifndef GP_VALIDATE_H
#define GP_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "gpuperf/gpuperf.h"

/* Most rows in a table (fields and their bytes: csvfile.h). */
#define GP_TABLE_MAX_ROWS 100000

/*
 * Split a device column "NAME" or "NAME*N" (N identical GPUs, 1..64) into
 * name (at most size bytes) and count (0 when not given). Returns 0, or -1
 * with a message in err.
 */
int gp_validate_device_spec(const char *spec, char *name, size_t size, unsigned *count,
                            gp_error_t *err);

/*
 * Split "k=v k=v" (space, tab or ';' separated; modified in place) into at
 * most max parameters. Returns the count, or -1 when a token is not key=value
 * or there are more than max.
 */
int gp_validate_split_params(char *text, gp_param_t *out, int max);

#endif /* GP_VALIDATE_H */
