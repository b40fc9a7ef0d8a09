/* A fake CUDA driver for cushim's tests, built by the tests as libcuda.so.1.
 * It stands in for NVIDIA's library the way a user's machine presents it: a
 * shared object opened with dlopen. It is written against plain C types so
 * that it needs no CUDA header.
 *
 * Knobs (preprocessor):
 *   FAKE_DRIVER_VERSION      what cuDriverGetVersion reports (default 13050)
 *   FAKE_OMIT_cuMemAlloc_v2  leave that export out
 *   FAKE_STUB                behave like NVIDIA's toolkit stub: every call
 *                            answers CUDA_ERROR_STUB_LIBRARY (34)
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef FAKE_DRIVER_VERSION
#define FAKE_DRIVER_VERSION 13050
#endif

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, STUB_LIBRARY = 34 };

#ifdef FAKE_STUB
#define STUB_GUARD return STUB_LIBRARY
#else
#define STUB_GUARD (void)0
#endif

static atomic_int init_calls;
static atomic_int loads;

__attribute__((constructor)) static void fake_loaded(void) { atomic_fetch_add(&loads, 1); }

/* Test hooks: how often the library was initialised and cuInit called. */
int fake_load_count(void) { return atomic_load(&loads); }
int fake_init_calls(void) { return atomic_load(&init_calls); }

CUresult cuInit(unsigned int flags) {
    STUB_GUARD;
    atomic_fetch_add(&init_calls, 1);
    return flags == 0 ? OK : INVALID_VALUE;
}

CUresult cuDriverGetVersion(int *version) {
    STUB_GUARD;
    if (!version) return INVALID_VALUE;
    *version = FAKE_DRIVER_VERSION;
    return OK;
}

CUresult cuDeviceGetCount(int *count) {
    STUB_GUARD;
    if (!count) return INVALID_VALUE;
    *count = 2;
    return OK;
}

CUresult cuDeviceGetName(char *name, int len, int dev) {
    STUB_GUARD;
    if (!name || len <= 0) return INVALID_VALUE;
    snprintf(name, (size_t)len, "Fake GPU %d", dev);
    return OK;
}

struct uuid16 { char bytes[16]; };

CUresult cuDeviceGetUuid_v2(struct uuid16 *uuid, int dev) {
    STUB_GUARD;
    if (!uuid) return INVALID_VALUE;
    for (int i = 0; i < 16; i++) uuid->bytes[i] = (char)(i * 3 + dev);
    return OK;
}

#ifndef FAKE_OMIT_cuMemAlloc_v2
CUresult cuMemAlloc_v2(unsigned long long *dptr, size_t bytesize) {
    STUB_GUARD;
    if (!dptr || bytesize == 0) return INVALID_VALUE;
    *dptr = 0x7f0000000000ULL + bytesize;
    return OK;
}
#endif

/* The 32-bit v1 ABI under the unversioned name, as old drivers export it. A
 * loader that binds `cuMemAlloc` instead of `cuMemAlloc_v2` lands here. */
CUresult cuMemAlloc(unsigned int *dptr, unsigned int bytesize) {
    STUB_GUARD;
    (void)bytesize;
    if (dptr) *dptr = 0xdead;
    return OK;
}

static uint64_t last_copy_sum;
uint64_t fake_last_copy_sum(void) { return last_copy_sum; }

CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t n) {
    STUB_GUARD;
    if (!src || dst == 0) return INVALID_VALUE;
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) sum += ((const unsigned char *)src)[i];
    last_copy_sum = sum;
    return OK;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
    STUB_GUARD;
    if (!name) return INVALID_VALUE;
    *name = error == 0 ? "CUDA_SUCCESS" : error == 2 ? "CUDA_ERROR_OUT_OF_MEMORY" : "CUDA_ERROR_UNKNOWN";
    return OK;
}

/* Says where it came from, so tests can tell the driver from a fallback. */
CUresult cuGetErrorString(CUresult error, const char **text) {
    STUB_GUARD;
    if (!text) return INVALID_VALUE;
    *text = error == 2 ? "fake driver: out of memory" : "fake driver: some error";
    return OK;
}

/* cuCtxCreate_v4 takes a struct pointer; the fake reads its fields back. */
struct exec_affinity { int type; int sm_count; };
struct ctx_create_params { struct exec_affinity *affinity; int num_affinity; void *cig; };

CUresult cuCtxCreate_v4(void **pctx, struct ctx_create_params *params, unsigned int flags, int dev) {
    STUB_GUARD;
    if (!pctx) return INVALID_VALUE;
    uintptr_t tag = 0x1000u + flags * 16u + (unsigned)dev;
    if (params && params->num_affinity > 0 && params->affinity)
        tag += (uintptr_t)params->affinity[0].sm_count << 20;
    *pctx = (void *)tag;
    return OK;
}

/* A call that fails, to tell driver failures from loading failures. */
CUresult cuCtxSynchronize(void) {
    STUB_GUARD;
    return 201; /* CUDA_ERROR_INVALID_CONTEXT */
}
