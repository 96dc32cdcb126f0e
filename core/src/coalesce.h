/*
 * coalesce.h - memory transactions and shared-memory bank passes of one warp
 * access, from the byte offsets its lanes touch.
 *
 * Everything here works on explicit lane addresses: a pattern shorthand
 * (unit, stride, broadcast, random) is first turned into lane offsets by
 * gp_pattern_lanes, a sampled access (gp_access_t.sample) brings its own.
 * The generation's rules (threads coalesced together, segment sizes and
 * shrinking, the strict rule, banks and their broadcast rule) come in as
 * data. All functions are pure and thread-safe.
 */
#ifndef GP_COALESCE_H
#define GP_COALESCE_H

#include "gpuperf/plugin.h"

/* Lane byte offsets of lanes first..first+n-1 for a pattern access; random
   lanes pick fixed pseudo-random elements of the footprint (0: span_bytes). */
void gp_pattern_lanes(const gp_access_t *a, uint32_t first, uint32_t n, uint64_t span_bytes,
                      int64_t *out);

/* Transactions of one warp's lanes (negative offset: inactive) under rule;
   their bytes through *bytes (may be NULL). */
double gp_coalesce_lanes(const int64_t *off, uint32_t lanes, uint32_t elem_bytes,
                         const gp_coalesce_rule_t *rule, double *bytes);

/* Transactions and bytes of one access by a warp of warp_size lanes: the
   average over the sampled warps when a->sample is set, the expected value
   for a random pattern, else the pattern's lanes. */
double gp_coalesce_access(const gp_access_t *a, uint32_t warp_size,
                          const gp_coalesce_rule_t *rule, double *bytes);

/* How shared-memory banks serve one request. */
typedef struct gp_bank_rule {
    uint32_t banks;      /* at most 64 are modelled */
    uint32_t bank_bytes;
    uint32_t threads;    /* lanes resolved together; 0: all */
    uint32_t broadcast;  /* gp_bank_broadcast_t */
    uint32_t wide;       /* gp_bank_wide_t */
    uint32_t result_bytes; /* GP_BANK_WIDE_RESULT_GROUPS: result bytes per group */
} gp_bank_rule_t;

/* Serialised passes the banks need for one warp's lanes, summed over the
   groups of rule->threads lanes. */
double gp_bank_passes_lanes(const int64_t *off, uint32_t lanes, uint32_t elem_bytes,
                            const gp_bank_rule_t *rule);

/* Passes of one access by a warp: the average over the sampled warps with
   an active lane (1 when none has one), else the
   pattern's lanes (random: by_element 1 picks random elements of the
   footprint, span_bytes when it has none; 0 spreads each group's lanes over
   GP_RANDOM_BANK_WORDS bank words). */
double gp_bank_passes_access(const gp_access_t *a, uint32_t warp_size,
                             const gp_bank_rule_t *rule, int by_element, uint64_t span_bytes);

/* 1 when every lane of a warp that makes the access reads one address (a
   warp-uniform access): the broadcast pattern, or a sample whose every warp
   with an active lane has two or more, all on one offset (a single active
   lane is an ordinary request). */
int gp_access_uniform(const gp_access_t *a);

#endif /* GP_COALESCE_H */
