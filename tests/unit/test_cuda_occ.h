/*
 * test_cuda_occ.h - NVIDIA's cuda_occupancy.h for the occupancy tests.
 *
 * CMake defines GP_CUDA_OCCUPANCY_H (the cache variable
 * GPUPERF_CUDA_OCCUPANCY_H) for every unit test where that header exists;
 * without it the comparisons against NVIDIA's computation are skipped.
 */
#ifndef GP_TEST_CUDA_OCC_H
#define GP_TEST_CUDA_OCC_H

#ifdef GP_CUDA_OCCUPANCY_H
#include <string.h>

#include GP_CUDA_OCCUPANCY_H

#include "gpuperf/plugin.h"

/* NVIDIA's device description, filled from the device file. */
static inline cudaOccDeviceProp gp_test_occ_prop(const gp_device_t *d)
{
    cudaOccDeviceProp p;
    memset(&p, 0, sizeof p);
    p.computeMajor = (int)d->cc_major;
    p.computeMinor = (int)d->cc_minor;
    p.maxThreadsPerBlock = (int)d->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = (int)d->max_threads_per_sm;
    p.regsPerBlock = (int)d->max_registers_per_block;
    p.regsPerMultiprocessor = (int)d->registers_per_sm;
    p.warpSize = (int)d->warp_size;
    p.sharedMemPerBlock = d->shared_memory_per_block_bytes;
    p.sharedMemPerMultiprocessor = d->shared_memory_per_sm_bytes;
    p.numSms = (int)d->sm_count;
    p.sharedMemPerBlockOptin = d->shared_memory_per_block_optin_bytes;
    p.reservedSharedMemPerBlock = d->reserved_shared_memory_per_block_bytes;
    return p;
}
#endif

#endif
