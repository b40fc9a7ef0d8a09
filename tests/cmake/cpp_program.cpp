// A C++ program built by CMake with the stubs instead of -lcuda. Without a
// driver, cuInit returns CUDA_ERROR_SHARED_OBJECT_INIT_FAILED and the status
// header says why; cuGetErrorName still answers.
#include <cuda.h>

#include <cstdio>

#include "cuda_shim.h"

int main() {
    CUresult rc = cuInit(0);
    const char *name = nullptr;
    CUresult named = cuGetErrorName(rc, &name);
    std::printf("cuInit -> %d (%s), status %d\n", static_cast<int>(rc), named == CUDA_SUCCESS ? name : "?",
                static_cast<int>(cushim_cuda_load()));
    return rc == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED && cushim_cuda_load() == CUSHIM_CUDA_LIBRARY_NOT_FOUND ? 0 : 1;
}
