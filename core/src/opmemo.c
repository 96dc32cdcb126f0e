/*
 * opmemo.c - op costs kept across the residencies of one kernel (opmemo.h).
 */
#include "opmemo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opcost.h"

/* The part of res that plugin p's op costs read. */
static void res_key(const gp_plugin_t *p, const gp_residency_t *res, gp_residency_t *key)
{
    if (p->op_cost) {
        /* a plugin's own op_cost may read any of it */
        memset(key, 0, sizeof *key);
        key->blocks = res->blocks;
        key->warps_sm = res->warps_sm;
        key->active_sms = res->active_sms;
        key->dram_share = res->dram_share;
        key->l2_share = res->l2_share;
        key->l2_capacity_bytes = res->l2_capacity_bytes;
        return;
    }
    gp_op_cost_default_res_key(res, key);
}

/* 1 when two keys are the same (field by field: no padding compared). */
static int same_key(const gp_residency_t *a, const gp_residency_t *b)
{
    return a->blocks == b->blocks && a->warps_sm == b->warps_sm &&
           a->active_sms == b->active_sms && a->dram_share == b->dram_share &&
           a->l2_share == b->l2_share && a->l2_capacity_bytes == b->l2_capacity_bytes;
}

void gp_op_memo_begin(gp_op_memo_t *m, const gp_plugin_t *p, const gp_kernel_t *kernel,
                      const gp_residency_t *res)
{
    gp_residency_t key;
    if (!m)
        return;
    res_key(p, res, &key);
    if (m->ops == kernel->ops && m->n_ops == kernel->n_ops && same_key(&m->key, &key))
        return;
    gp_op_memo_reset(m);
    if (kernel->n_ops > m->cap) {
        /* one block: the costs, then the flags */
        gp_op_cost_t *c = malloc(kernel->n_ops * (sizeof *c + 1));
        if (!c)
            return; /* keeps nothing: m->ops stays NULL */
        free(m->cost);
        m->cost = c;
        m->have = (unsigned char *)(c + kernel->n_ops);
        m->cap = kernel->n_ops;
    }
    if (kernel->n_ops)
        memset(m->have, 0, kernel->n_ops);
    m->ops = kernel->ops;
    m->n_ops = kernel->n_ops;
    m->key = key;
}

int gp_op_memo_cost(gp_op_memo_t *m, const gp_plugin_t *p, const gp_generation_t *g,
                    const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                    const gp_occupancy_t *occ, const gp_residency_t *res, gp_op_cost_t *out,
                    int *kept, char *err, size_t errlen)
{
    size_t i;
    *kept = 0;
    if (!m || !m->ops || m->ops != k->ops || op < m->ops || op >= m->ops + m->n_ops)
        return gp_op_cost(p, g, d, k, op, occ, res, out, err, errlen);
    i = (size_t)(op - m->ops);
    if (m->have[i]) {
#ifndef NDEBUG
        /* the key must hold everything of the residency the cost reads */
        if (gp_op_cost(p, g, d, k, op, occ, res, out, err, errlen))
            return -1;
        if (memcmp(out, &m->cost[i], sizeof *out) != 0) {
            snprintf(err, errlen,
                     "the op at line %u costs differently at two residencies with the same "
                     "key: gp_op_cost_default_res_key misses a field its cost reads",
                     op->line);
            return -1;
        }
#endif
        *out = m->cost[i];
        *kept = 1;
        return 0;
    }
    if (gp_op_cost(p, g, d, k, op, occ, res, out, err, errlen))
        return -1;
    m->cost[i] = *out;
    m->have[i] = 1;
    return 0;
}

void gp_op_memo_reset(gp_op_memo_t *m)
{
    m->ops = NULL;
    m->n_ops = 0;
}

void gp_op_memo_free(gp_op_memo_t *m)
{
    free(m->cost); /* m->have is in the same block */
    memset(m, 0, sizeof *m);
}
