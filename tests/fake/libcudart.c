/* A fake CUDA runtime for cushim's tests, built as libcudart.so.<major>: a
 * member of the CUDA family that a program loaded itself, whose directory
 * the search for its siblings (NVRTC, nvJitLink, ...) then looks in. */
int cudaRuntimeGetVersion(int *version) {
    if (!version) return 1;
    *version = 13050;
    return 0;
}

/* Device memory is host memory here: enough for a program to allocate,
 * fill, copy and free through the stubs. */
#include <stdlib.h>
#include <string.h>

int cudaMalloc(void **ptr, size_t size) {
    if (!ptr) return 1; /* cudaErrorInvalidValue */
    *ptr = malloc(size ? size : 1);
    return *ptr ? 0 : 2; /* cudaErrorMemoryAllocation */
}

int cudaFree(void *ptr) {
    free(ptr);
    return 0;
}

int cudaMemset(void *ptr, int value, size_t count) {
    if (!ptr) return 1;
    memset(ptr, value, count);
    return 0;
}

int cudaMemcpy(void *dst, const void *src, size_t count, int kind) {
    if (!dst || !src || kind < 0 || kind > 4) return 1;
    memcpy(dst, src, count);
    return 0;
}

int cudaGetDeviceCount(int *count) {
    if (!count) return 1;
    *count = 1;
    return 0;
}

/* 13.x's plain export (12.x's plain one has the old struct): the name is
 * the struct's first member. */
int cudaGetDeviceProperties(char *prop, int device) {
    if (!prop || device != 0) return 101; /* cudaErrorInvalidDevice */
    strcpy(prop, "fake device");
    return 0;
}
