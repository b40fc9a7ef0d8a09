/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuBLAS for cushim's tests, built as libcublas.so.<major> and linked
 * against the fake libcublasLt.so.<major> (NEEDED, with no run path), as the
 * real one is: loading it by path works only when cuBLASLt was loaded first
 * from the same directory. Plain C types only; no NVIDIA header.
 *
 * Like the real library it exports the legacy (v1) functions under the plain
 * names beside the _v2 ones the header binds: `void cublasSgemm(char, ...)`
 * here prints a marker and aborts, so a program bound to the wrong ABI fails.
 *
 * Knobs: FAKE_MAJOR, FAKE_MINOR (what cublasGetProperty reports; default 13.1).
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef FAKE_MAJOR
#define FAKE_MAJOR 13
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR 1
#endif

int cublasLtGetProperty(int type, int *value);

int cublasGetProperty(int type, int *value) {
    if (!value) return 7; /* CUBLAS_STATUS_INVALID_VALUE */
    switch (type) {
        case 0: *value = FAKE_MAJOR; return 0;
        case 1: *value = FAKE_MINOR; return 0;
        case 2: *value = 0; return 0;
        default: return 7;
    }
}

static int handle;

int cublasCreate_v2(void **h) {
    int lt = 0;
    /* Reaches into cuBLASLt, as the real library does. */
    if (!h || cublasLtGetProperty(0, &lt) != 0 || lt != FAKE_MAJOR) return 1;
    *h = &handle;
    return 0;
}

int cublasDestroy_v2(void *h) { return h == &handle ? 0 : 1; }

/* Column-major C = alpha * op(A) * op(B) + beta * C on host memory, no transposes. */
int cublasSgemm_v2(void *h, int transa, int transb, int m, int n, int k, const float *alpha, const float *a, int lda,
                   const float *b, int ldb, const float *beta, float *c, int ldc) {
    if (h != &handle) return 1;
    if (transa != 0 || transb != 0 || !alpha || !beta || !a || !b || !c) return 7;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            float sum = 0;
            for (int p = 0; p < k; ++p) sum += a[i + p * lda] * b[p + j * ldb];
            c[i + j * ldc] = *alpha * sum + *beta * c[i + j * ldc];
        }
    return 0;
}

/* The legacy v1 API under the plain names: never to be bound. */
void cublasSgemm(char transa, char transb, int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                 int ldb, float beta, float *c, int ldc) {
    (void)transa, (void)transb, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb;
    (void)beta, (void)c, (void)ldc;
    fprintf(stderr, "fake cuBLAS: the legacy v1 cublasSgemm was called\n");
    abort();
}

const char *cublasGetStatusName(int status) { return status == 0 ? "fake: CUBLAS_STATUS_SUCCESS" : "fake: other"; }
