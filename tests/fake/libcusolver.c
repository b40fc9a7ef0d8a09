/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuSOLVER for cushim's tests, built as libcusolver.so.<major> and
 * linked against the fake nvJitLink, cuSPARSE, cuBLASLt and cuBLAS (NEEDED,
 * with no run path), as CUDA 13's is: loading it by path works only when
 * all four were loaded first from the same directory. It lacks the
 * cusolverDnLogger* functions that the header declares, as the real one
 * does. Plain C types only; no NVIDIA header.
 *
 * Knobs: FAKE_MAJOR, FAKE_MINOR (what cusolverGetProperty reports; default
 * 12.0, CUDA 13's cuSOLVER).
 */
#ifndef FAKE_MAJOR
#define FAKE_MAJOR 12
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR 0
#endif

int cublasGetProperty(int type, int *value);
int cusparseGetProperty(int type, int *value);

static int handle;

int cusolverGetProperty(int type, int *value) {
    if (!value) return 3; /* CUSOLVER_STATUS_INVALID_VALUE */
    switch (type) {
        case 0: *value = FAKE_MAJOR; return 0;
        case 1: *value = FAKE_MINOR; return 0;
        case 2: *value = 0; return 0;
        default: return 3;
    }
}

int cusolverDnCreate(void **h) {
    int blas = 0, sparse = 0;
    /* Reaches into cuBLAS and cuSPARSE, as the real library does. */
    if (!h || cublasGetProperty(0, &blas) != 0 || cusparseGetProperty(0, &sparse) != 0) return 1;
    if (blas != 13 || sparse != 12) return 1;
    *h = &handle;
    return 0;
}

int cusolverDnDestroy(void *h) { return h == &handle ? 0 : 1; }
