/* A C program built by CMake with the cuda, NVRTC and cuBLAS stubs and one
 * runtime, linked with -Wl,--no-as-needed: nothing it does not need may be
 * recorded, so libstdc++ must be absent from its NEEDED entries. Without the
 * libraries every call answers its library's "not found" status. */
#include <cublas_v2.h>
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>

#include "cublas_shim.h"
#include "cuda_shim.h"
#include "nvrtc_shim.h"

int main(void) {
    int major = 0, minor = 0;
    cublasHandle_t handle = 0;
    CUresult cu = cuInit(0);
    nvrtcResult rtc = nvrtcVersion(&major, &minor);
    cublasStatus_t blas = cublasCreate(&handle);
    printf("cuInit -> %d, nvrtcVersion -> %d, cublasCreate -> %d\n", (int)cu, (int)rtc, (int)blas);
    printf("%s\n", cushim_nvrtc_last_message());
    return cu != CUDA_SUCCESS && rtc != NVRTC_SUCCESS && blas != CUBLAS_STATUS_SUCCESS &&
                   cushim_nvrtc_load() == CUSHIM_NVRTC_LIBRARY_NOT_FOUND &&
                   cushim_cublas_load() == CUSHIM_CUBLAS_LIBRARY_NOT_FOUND
               ? 0
               : 1;
}
