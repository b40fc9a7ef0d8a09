// The real-GPU check in C++: an ordinary driver-API program (cuda.h, no
// -lcuda) linked against the generated stub pair. Also built with
// CUDA_API_PER_THREAD_DEFAULT_STREAM, where cuda.h routes calls to the
// _ptds/_ptsz exports.
//
//   vector_add run     vector add on the GPU, verified
//   vector_add stub    expects CUSHIM_CUDA_LIBRARY to name NVIDIA's stub
#include <cuda.h>
#include <cudaProfiler.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "cuda_shim.h"

// gpu/vadd.ptx as a string; scripts/gpu-check.sh writes this header.
#include "vadd_ptx.h"

#define CHECK(call)                                                                                  \
    do {                                                                                             \
        CUresult rc_ = (call);                                                                       \
        if (rc_ != CUDA_SUCCESS) {                                                                   \
            const char *name_ = nullptr;                                                             \
            cuGetErrorName(rc_, &name_);                                                             \
            std::printf("FAILED: %s -> %d %s (%s)\n", #call, static_cast<int>(rc_), name_ ? name_ : "?", \
                        cushim_cuda_last_message());                                                 \
            return 1;                                                                                \
        }                                                                                            \
    } while (0)

static int run() {
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
    std::printf("built with CUDA_API_PER_THREAD_DEFAULT_STREAM\n");
#endif
    CHECK(cuInit(0));
    int version = 0, count = 0, major = 0, minor = 0;
    CHECK(cuDriverGetVersion(&version));
    CHECK(cuDeviceGetCount(&count));
    CUdevice dev = 0;
    CHECK(cuDeviceGet(&dev, 0));
    char name[128] = {};
    CHECK(cuDeviceGetName(name, sizeof name, dev));
    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    size_t total = 0;
    CHECK(cuDeviceTotalMem(&total, dev));
    std::printf("driver %d, %d device(s); device 0: %s, compute capability %d.%d, %zu MiB\n", version, count, name,
                major, minor, total >> 20);

    CUcontext ctx = nullptr;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));

    const unsigned n = 4u << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> a(n), b(n), c(n);
    for (unsigned i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = static_cast<float>(2 * i) + 0.5f;
    }
    CUdeviceptr da = 0, db = 0, dc = 0;
    CHECK(cuMemAlloc(&da, bytes));
    CHECK(cuMemAlloc(&db, bytes));
    CHECK(cuMemAlloc(&dc, bytes));
    CHECK(cuMemcpyHtoD(da, a.data(), bytes));
    CHECK(cuMemcpyHtoD(db, b.data(), bytes));

    CUmodule module = nullptr;
    CHECK(cuModuleLoadData(&module, ptx));
    CUfunction kernel = nullptr;
    CHECK(cuModuleGetFunction(&kernel, module, "vadd"));
    CUstream stream = nullptr;
    CHECK(cuStreamCreate(&stream, 0));
    CUevent start = nullptr, stop = nullptr;
    CHECK(cuEventCreate(&start, 0));
    CHECK(cuEventCreate(&stop, 0));
    unsigned count_arg = n;
    void *params[] = {&da, &db, &dc, &count_arg};
    const unsigned block = 256, grid = (n + block - 1) / block;
    CHECK(cuProfilerStart());  // cudaProfiler.h, through the stubs
    CHECK(cuEventRecord(start, stream));
    CHECK(cuLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, stream, params, nullptr));
    CHECK(cuEventRecord(stop, stream));
    CHECK(cuStreamSynchronize(stream));
    CHECK(cuProfilerStop());
    std::printf("cuProfilerStart and cuProfilerStop around the kernel: CUDA_SUCCESS\n");
    float ms = 0;
    CHECK(cuEventElapsedTime(&ms, start, stop));
    CHECK(cuMemcpyDtoH(c.data(), dc, bytes));
    unsigned wrong = 0;
    for (unsigned i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];

    CHECK(cuEventDestroy(start));
    CHECK(cuEventDestroy(stop));
    CHECK(cuStreamDestroy(stream));
    CHECK(cuModuleUnload(module));
    CHECK(cuMemFree(da));
    CHECK(cuMemFree(db));
    CHECK(cuMemFree(dc));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    if (wrong) {
        std::printf("FAILED: %u of %u results are wrong\n", wrong, n);
        return 1;
    }
    std::printf("vector add of %u floats: kernel %.3f ms (events), all results verified\n", n, ms);
    std::printf("ok\n");
    return 0;
}

static int stub() {
    CUresult rc = cuInit(0);
    cushim_cuda_status status = cushim_cuda_last_status();
    std::printf("cuInit -> %d, status %d: %s\n", static_cast<int>(rc), static_cast<int>(status),
                cushim_cuda_last_message());
    int count = -1;
    std::printf("cuDeviceGetCount -> %d (count left at %d)\n", static_cast<int>(cuDeviceGetCount(&count)), count);
    bool ok = rc == CUDA_ERROR_STUB_LIBRARY && status == CUSHIM_CUDA_STUB_LIBRARY && count == -1;
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "run";
    if (std::strcmp(mode, "stub") == 0) return stub();
    return run();
}
