/*
 * memlat.c - the latency one load sees, from where its data lives.
 *
 * A load that hits L1 waits l1_hit_cycles; one served by L2 waits
 * l2_hit_cycles when its footprint is small, rising to l2_random_cycles for
 * random addresses over a large footprint (on the H200 a random chase over
 * 4 MiB still runs at the one-page latency, over 32 MiB it waits 437 cycles:
 * far L2 partitions and slices); one served by DRAM waits dram_cycles, or
 * dram_random_cycles for random addresses beyond the L2. A footprint beyond
 * the TLBs' reach adds tlb_miss_cycles to the share of misses it causes.
 * [sources: h200-calibrated] validation/h200/measured/run3/calibrate_raw.csv,
 * chase and tlb rows.
 */
#include "memlat.h"

#include <math.h>
#include <string.h>

#include "constants.h"
#include "util.h"

void gp_mem_latency_keys(const gp_device_t *d, gp_mem_latency_keys_t *k)
{
    /* the device file's [latency] l2_random_cycles, dram_random_cycles,
       tlb_miss_cycles and tlb_reach_bytes; read here once device.c parses
       them (until then: not known, the plain keys stand in) */
    (void)d;
    memset(k, 0, sizeof *k);
}

double gp_mem_latency(const gp_device_t *d, const gp_mem_latency_keys_t *k, int has_l2,
                      const gp_access_t *a, double footprint, double l1_hit, double l2_hit)
{
    int random = a->pattern == GP_PATTERN_RANDOM;
    double l2 = has_l2 && d->l2_hit_cycles > 0 ? d->l2_hit_cycles : d->dram_cycles;
    double dram = d->dram_cycles, l1, lat;
    l1_hit = GP_MIN(GP_MAX(l1_hit, 0.0), 1.0);
    l2_hit = GP_MIN(GP_MAX(l2_hit, 0.0), 1.0);
    if (random && has_l2 && k->l2_random_cycles > l2 && footprint > GP_L2_NEAR_FOOTPRINT_BYTES) {
        /* from the one-page latency at the near footprint to the measured
           random latency at the far one, in log2 of the footprint */
        double x = (log2(footprint) - log2(GP_L2_NEAR_FOOTPRINT_BYTES)) /
                   (log2(GP_L2_FAR_FOOTPRINT_BYTES) - log2(GP_L2_NEAR_FOOTPRINT_BYTES));
        l2 += GP_MIN(x, 1.0) * (k->l2_random_cycles - l2);
    }
    if (random && k->dram_random_cycles > 0 && footprint > (double)d->l2_bytes)
        dram = k->dram_random_cycles;
    l1 = d->l1_hit_cycles > 0 ? d->l1_hit_cycles : l2;
    lat = l1_hit * l1 + (1 - l1_hit) * (l2_hit * l2 + (1 - l2_hit) * dram);
    if (k->tlb_miss_cycles > 0 && k->tlb_reach_bytes > 0 && footprint > k->tlb_reach_bytes)
        lat += (1 - l1_hit) * (1 - k->tlb_reach_bytes / footprint) * k->tlb_miss_cycles;
    return lat;
}
