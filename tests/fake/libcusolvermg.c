/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuSOLVERMg for cushim's tests, built as libcusolverMg.so.<major>
 * and linked against the fake nvJitLink, cuBLASLt and cuBLAS (NEEDED, with
 * no run path), as CUDA 13's is: loading it by path works only when all
 * three were loaded first from the same directory. Its Windows DLL, like
 * the real one, needs no nvJitLink. A handle, the devices it selects and a
 * grid of them; it lacks the rest of the header's functions (the matrix
 * descriptors and the solvers). Like the real library it has no version
 * function. Plain C types only; no NVIDIA header.
 */
#include <stdint.h>

int cublasGetProperty(int type, int *value);
#ifndef _WIN32
int nvJitLinkVersion(unsigned *major, unsigned *minor);
#endif

static int handle;
static int selected = -1;
static int32_t grid[2];

int cusolverMgCreate(void **h) {
    int blas = 0;
    /* Reaches into cuBLAS and (off Windows) nvJitLink, as the real library does. */
    if (!h || cublasGetProperty(0, &blas) != 0 || blas != 13) return 1;
#ifndef _WIN32
    unsigned major = 0, minor = 0;
    if (nvJitLinkVersion(&major, &minor) != 0 || major != 13) return 1;
#endif
    selected = -1;
    *h = &handle;
    return 0;
}

int cusolverMgDestroy(void *h) { return h == &handle ? 0 : 1; }

/* One device, which the grid may then name. */
int cusolverMgDeviceSelect(void *h, int count, int ids[]) {
    if (h != &handle || count != 1 || !ids || ids[0] < 0) return 3; /* INVALID_VALUE */
    selected = ids[0];
    return 0;
}

int cusolverMgCreateDeviceGrid(void **out, int32_t rows, int32_t cols, const int32_t ids[], unsigned mapping) {
    if (!out || rows != 1 || cols != 1 || !ids || ids[0] != selected || mapping > 1) return 3;
    grid[0] = rows;
    grid[1] = cols;
    *out = grid;
    return 0;
}

int cusolverMgDestroyGrid(void *g) { return g == grid ? 0 : 3; }
