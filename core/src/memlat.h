/*
 * memlat.h - the latency one load sees, from where its data lives: the hit
 * fractions of L1 and L2 (opcost.c) and the device's measured latencies of
 * each level, for the footprint and order the load walks.
 */
#ifndef GP_MEMLAT_H
#define GP_MEMLAT_H

#include "gpuperf/plugin.h"

/* Latencies measured beside l1_hit_cycles, l2_hit_cycles and dram_cycles
   (tools/calibrate chase sweeps); 0: not known, the plain key stands in. */
typedef struct gp_mem_latency_keys {
    double l2_random_cycles;   /* L2 hits, random over a large footprint */
    double dram_random_cycles; /* DRAM, random over a footprint beyond L2 */
    double tlb_miss_cycles;    /* added by a TLB miss */
    double tlb_reach_bytes;    /* footprint the TLBs cover */
} gp_mem_latency_keys_t;

/* The device's keys above (the device file's; 0 where it has none). */
void gp_mem_latency_keys(const gp_device_t *d, gp_mem_latency_keys_t *k);

/* Latency of one load of access `a` (footprint_bytes distinct bytes) hitting
   L1 with fraction l1_hit and, of the rest, L2 with fraction l2_hit; has_l2
   0 where the generation has none. */
double gp_mem_latency(const gp_device_t *d, const gp_mem_latency_keys_t *k, int has_l2,
                      const gp_access_t *a, double footprint_bytes, double l1_hit,
                      double l2_hit);

#endif /* GP_MEMLAT_H */
