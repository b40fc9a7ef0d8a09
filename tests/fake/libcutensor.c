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
