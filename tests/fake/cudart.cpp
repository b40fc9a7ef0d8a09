// The CUDA runtime in the family test's C++ program, with the fake `libcudart.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cudart.rs`.
#include <cuda_runtime_api.h>
#include <cuda_profiler_api.h>

// Device memory is host memory in the fake; the function it lacks
// (cudaDeviceReset) fails alone, with cudaErrorSharedObjectSymbolNotFound.
static void cudart_present() {
    void *device = nullptr;
    CHECK(cudaMalloc(&device, 8) == cudaSuccess);
    CHECK(cudaMemset(device, 7, 8) == cudaSuccess);
    unsigned char host[8] = {};
    CHECK(cudaMemcpy(host, device, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(cudaFree(device) == cudaSuccess);
    static cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
    std::printf("cudart: memory [");
    for (int i = 0; i < 8; ++i) std::printf(i ? ", %u" : "%u", host[i]);
    std::printf("], device %s\n", prop.name);
    std::printf("cudart: cudaDeviceReset code %d\n", static_cast<int>(cudaDeviceReset()));
    CHECK(cushim_cudart_last_status() == CUSHIM_CUDART_SYMBOL_NOT_FOUND);
    std::printf("cudart: flags [%d, %d, %d], cudaProfilerStop code %d\n", static_cast<int>(cudaStreamNonBlocking),
                static_cast<int>(cudaHostAllocMapped), static_cast<int>(cudaEventDisableTiming),
                static_cast<int>(cudaProfilerStop()));
    CHECK(cudaFree(nullptr) == cudaSuccess);
}

static void cudart_absent() {
    void *device = nullptr;
    std::printf("cudart: cudaMalloc code %d\n", static_cast<int>(cudaMalloc(&device, 8)));
}
