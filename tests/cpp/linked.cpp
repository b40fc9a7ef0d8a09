// A program built with the pair in linked mode and -lcuda: the driver's
// functions are the library's own, and the status API reports on it.
#include <cuda.h>
#include <cudaProfiler.h>

#include <cstdio>
#include <cstdlib>

#include "cuda_shim.h"

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

int main() {
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    int version = 0;
    EXPECT(cuDriverGetVersion(&version) == CUDA_SUCCESS && version == 13050);
    CUdeviceptr ptr = 0;
    EXPECT(cuMemAlloc(&ptr, 16) == CUDA_SUCCESS && ptr == 0x7f0000000010ULL);
    EXPECT(cuProfilerStart() == CUDA_SUCCESS);
    EXPECT(cuCtxSynchronize() == CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cushim_cuda_load() == CUSHIM_CUDA_OK);
    EXPECT(cushim_cuda_library_version() == 13050);
    EXPECT(cushim_cuda_function_status("cuMemAlloc") == CUSHIM_CUDA_OK);
    std::printf("ok: linked\n");
    return 0;
}
