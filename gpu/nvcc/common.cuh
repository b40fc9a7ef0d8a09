// What every program of this directory shares: the first runtime call, which
// says whether the CUDA runtime is reachable, and a checked call.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Without a usable runtime the first call answers its error: printed, and
// the program ends there with status 0 (what run.sh checks without cudart).
static inline bool first_call() {
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess) {
        std::printf("first call: %s (%d)\n", cudaGetErrorName(e), static_cast<int>(e));
        return false;
    }
    std::printf("devices: %s\n", devices > 0 ? "at least one" : "none");
    return devices > 0;
}

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t check_e = (call);                                                     \
        if (check_e != cudaSuccess) {                                                     \
            std::printf("%s failed: %s (%d)\n", #call, cudaGetErrorName(check_e), (int)check_e); \
            std::exit(1);                                                                 \
        }                                                                                 \
    } while (0)
