/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuTENSOR 2 for cushim's tests, built as libcutensor.so.2 and
 * linked against the fake libcublasLt.so.13 (NEEDED, with no run path), as
 * the real one is: loading it by path works only when cuBLASLt was loaded
 * first. It lacks cutensorCreatePlanPreference, which the header declares.
 * Plain C types only; no NVIDIA header.
 *
 * Knobs: FAKE_VERSION (what cutensorGetVersion answers; default 20801),
 * FAKE_CUDART (what cutensorGetCudartVersion answers; default 13000).
 */
#include <stddef.h>

#ifndef FAKE_VERSION
#define FAKE_VERSION 20801
#endif
#ifndef FAKE_CUDART
#define FAKE_CUDART 13000
#endif

int cublasLtCreate(void **h);
int cublasLtDestroy(void *h);

size_t cutensorGetVersion(void) { return FAKE_VERSION; }

size_t cutensorGetCudartVersion(void) { return FAKE_CUDART; }

const char *cutensorGetErrorString(int error) { return error == 0 ? "CUTENSOR_STATUS_SUCCESS" : "fake error"; }

static void *lt;

/* Reaches into cuBLASLt, as the real library does. */
int cutensorCreate(void **handle) {
    if (!handle) return 7; /* CUTENSOR_STATUS_INVALID_VALUE */
    if (cublasLtCreate(&lt) != 0) return 17; /* CUTENSOR_STATUS_CUBLAS_ERROR */
    *handle = &lt;
    return 0;
}

int cutensorDestroy(void *handle) {
    if (handle != &lt) return 7;
    return cublasLtDestroy(lt) == 0 ? 0 : 17;
}

/* The compute descriptors: objects, pointers to the library's own data. */
struct compute {
    int bits;
};
static const struct compute compute_32f = {32}, compute_64f = {64};
const struct compute *const CUTENSOR_COMPUTE_DESC_32F = &compute_32f;
const struct compute *const CUTENSOR_COMPUTE_DESC_64F = &compute_64f;

/* CUTENSOR_STATUS_SUCCESS for the library's own 32F descriptor, else
 * CUTENSOR_STATUS_INVALID_VALUE (a descriptor a loader left zero). */
int cutensorCreateContraction(void *handle, void **desc, void *a, const int *ma, int oa, void *b, const int *mb,
                              int ob, void *c, const int *mc, int oc, void *d, const int *md,
                              const struct compute *compute) {
    (void)a, (void)ma, (void)oa, (void)b, (void)mb, (void)ob, (void)c, (void)mc, (void)oc, (void)d, (void)md;
    if (handle != &lt || !desc || compute != &compute_32f) return 7;
    *desc = (void *)&compute_32f;
    return 0;
}
