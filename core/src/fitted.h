/*
 * fitted.h - the registry of the model constants that were set from rows of
 * a validation table (calibration rows), as against those taken from first
 * principles, published figures, gpuperf-calibrate's raw sweeps or SASS.
 *
 * constants.h stays the one home of every value: the registry names each
 * row-fitted constant, points at its shipped value, and says how it is
 * refitted (its search range, the calibration families it was set from, the
 * fitting rule of gp_fit_search). The model reads these constants through
 * gp_fit_value(), which is the shipped value unless a validation run of this
 * thread has overridden it (gp_fit_override); no device file, script or
 * public API can. The leave-one-family-out report (validate.c) is the one
 * user of the override.
 */
#ifndef GP_FITTED_H
#define GP_FITTED_H

#include <stddef.h>

/* The row-fitted constants; add one here, in gp_fit_registry (fitted.c)
   and at its use. */
typedef enum gp_fit_id {
    GP_FIT_BLOCK_RETIRE_SKEW = 0,
    GP_FIT_MLP_INFLIGHT_BYTES_PER_THREAD,
    GP_FIT_COUNT
} gp_fit_id_t;

/* One registered constant. */
typedef struct gp_fit_const {
    const char *name;     /* its macro in constants.h */
    double shipped;       /* the value in constants.h */
    double lo, hi;        /* the search range, lo < shipped < hi */
    int log_scale;        /* 1: search in log(value) (a scale, e.g. bytes) */
    const char *families; /* calibration families it was set from, space-separated */
    const char *rows;     /* which of their rows decided it (for the report) */
} gp_fit_const_t;

/* The registry, GP_FIT_COUNT entries in gp_fit_id_t order. */
extern const gp_fit_const_t gp_fit_registry[GP_FIT_COUNT];

/* The value the model uses: the override of this thread, else shipped. */
double gp_fit_value(gp_fit_id_t id);

/* Override constant id for this thread (validation runs only). */
void gp_fit_override(gp_fit_id_t id, double value);
/* Drop every override of this thread: the model is the shipped one again. */
void gp_fit_reset(void);

/* 1 when `family` is one the constant was set from. */
int gp_fit_uses_family(const gp_fit_const_t *c, const char *family);

/*
 * The fitting rule: the value in [c->lo, c->hi] that minimises cost(value)
 * (the mean absolute percentage error over the fitting rows):
 *  1. a grid of GP_FIT_GRID_POINTS values evenly spaced over the range (in
 *     log(value) when log_scale), the lowest cost first in range order;
 *  2. a golden-section search of GP_FIT_GOLDEN_EVALS evaluations between
 *     the grid neighbours of that point (in the same scale);
 *  3. the best value evaluated in 1 and 2 (the lower one on a tie);
 *  4. when every evaluated cost is the same (the rows do not depend on the
 *     constant, so they cannot set it), *flat is 1 and *best the shipped
 *     value.
 * GP_FIT_GRID_POINTS + GP_FIT_GOLDEN_EVALS evaluations of cost in all. cost
 * returns a number (NaN or +inf count as worst) and may set *stop to end
 * the search (then the function returns -1). Returns 0 with *best,
 * *best_cost and *flat.
 */
#define GP_FIT_GRID_POINTS 9
#define GP_FIT_GOLDEN_EVALS 14
int gp_fit_search(const gp_fit_const_t *c, double (*cost)(double value, void *ud, int *stop),
                  void *ud, double *best, double *best_cost, int *flat);

#endif /* GP_FITTED_H */
