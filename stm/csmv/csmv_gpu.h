/*
 * The versioned boxes (stm/csmv/csmv.h) in device memory, as the GPU backends of
 * csmv (stm/csmv/csmv_gpu.cu, which defines these) and jvstm-gpu
 * (stm/csmv/jvstm_gpu.cu) keep them: one launch over the data words each, on the
 * default stream. CUDA C++ only (nvcc).
 */
#ifndef GB_CSMV_GPU_H
#define GB_CSMV_GPU_H

#include <stdint.h>

#include "stm/csmv/csmv.h"

/* Every word's first version from the data words d_data (the load), waited for. */
void csmv_gpu_boxes_load(const csmv_mem *m, const uint32_t *d_data, uint32_t words);

/* Before a run: every word's newest value its only version (csmv_box_rebase). */
void csmv_gpu_boxes_rebase(const csmv_mem *m, uint32_t words);

/* Every word's newest value into d_data, for the oracle. */
void csmv_gpu_boxes_newest(const csmv_mem *m, uint32_t *d_data, uint32_t words);

#endif
