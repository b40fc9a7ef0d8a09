// The family check in C++ (scripts/gpu-family.sh): NVRTC compiles a kernel,
// nvJitLink links it, the driver launches it, cuBLAS and cuBLASLt multiply
// 4096x4096 matrices and NVML reports the device. Built twice from this one
// source: with cushim's stubs only (no -lnvrtc, -lnvJitLink, -lcuda,
// -lnvidia-ml, -lcublas or -lcublasLt; the real headers check every stub),
// and with -DFAMILY_DIRECT linked to the libraries themselves. The SGEMM's
// checksum of both builds must be equal.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda.h>
#include <nvJitLink.h>
#include <nvml.h>
#include <nvrtc.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef FAMILY_DIRECT
#include "cublasLt_shim.h"
#include "cublas_shim.h"
#include "cuda_shim.h"
#include "nvjitlink_shim.h"
#include "nvml_shim.h"
#include "nvrtc_shim.h"
#endif

static const char *kernel = R"(
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)";

static void fail(const char *what, int code) {
    std::printf("FAIL: %s: %d\n", what, code);
    std::exit(1);
}
#define CHECK(call)                            \
    do {                                       \
        int rc_ = static_cast<int>(call);      \
        if (rc_ != 0) fail(#call, rc_);        \
    } while (0)

// FNV-1a over the bytes of `v`: equal sums mean equal bits.
static unsigned long long fnv1a(const std::vector<float> &v) {
    unsigned long long h = 1469598103934665603ull;
    const unsigned char *p = reinterpret_cast<const unsigned char *>(v.data());
    for (size_t i = 0; i < v.size() * sizeof(float); ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

// cuBLAS SGEMM on 4096x4096 deterministic inputs, then the same product
// through cuBLASLt; prints the SGEMM's checksum and Lt's largest difference.
static void blas() {
    const int n = 4096;
    const size_t count = static_cast<size_t>(n) * n, bytes = count * sizeof(float);
    std::vector<float> a(count), b(count), c(count), d(count);
    for (size_t i = 0; i < count; ++i) {
        a[i] = static_cast<float>((i * 7) % 13) / 13.0f - 0.5f;
        b[i] = static_cast<float>((i * 11) % 17) / 17.0f - 0.5f;
    }
    CUdeviceptr da, db, dc, dd, work;
    const size_t work_size = 32u << 20;
    CHECK(cuMemAlloc(&da, bytes));
    CHECK(cuMemAlloc(&db, bytes));
    CHECK(cuMemAlloc(&dc, bytes));
    CHECK(cuMemAlloc(&dd, bytes));
    CHECK(cuMemAlloc(&work, work_size));
    CHECK(cuMemcpyHtoD(da, a.data(), bytes));
    CHECK(cuMemcpyHtoD(db, b.data(), bytes));
    cublasHandle_t handle;
    CHECK(cublasCreate(&handle));
    const float alpha = 1.0f, beta = 0.0f;
    CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, reinterpret_cast<const float *>(da), n,
                      reinterpret_cast<const float *>(db), n, &beta, reinterpret_cast<float *>(dc), n));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(c.data(), dc, bytes));
    CHECK(cublasDestroy(handle));
    std::printf("ok: cublasSgemm %dx%d fnv1a=%016llx c[0]=%.6f c[last]=%.6f\n", n, n, fnv1a(c), c[0], c[count - 1]);

    cublasLtHandle_t lt;
    CHECK(cublasLtCreate(&lt));
    cublasLtMatmulDesc_t desc;
    CHECK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasLtMatrixLayout_t layout;
    CHECK(cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, n, n, n));
    CHECK(cublasLtMatmul(lt, desc, &alpha, reinterpret_cast<const void *>(da), layout,
                         reinterpret_cast<const void *>(db), layout, &beta, reinterpret_cast<const void *>(dd), layout,
                         reinterpret_cast<void *>(dd), layout, nullptr, reinterpret_cast<void *>(work), work_size,
                         nullptr));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(d.data(), dd, bytes));
    double worst = 0;
    for (size_t i = 0; i < count; ++i) worst = std::fmax(worst, std::fabs(static_cast<double>(d[i]) - c[i]));
    CHECK(cublasLtMatrixLayoutDestroy(layout));
    CHECK(cublasLtMatmulDescDestroy(desc));
    CHECK(cublasLtDestroy(lt));
    for (CUdeviceptr p : {da, db, dc, dd, work}) CHECK(cuMemFree(p));
    if (worst > 1e-2) fail("cublasLtMatmul differs from cublasSgemm", static_cast<int>(worst * 1000));
    std::printf("ok: cublasLtMatmul %dx%d, largest difference from cublasSgemm %.3g\n", n, n, worst);
}

int main() {
#ifndef FAMILY_DIRECT
    std::printf("found nvrtc: %s (version %u)\n", cushim_nvrtc_library_path() ? cushim_nvrtc_library_path() : "-",
                cushim_nvrtc_library_version());
    std::printf("found nvjitlink: %s (version %u)\n",
                cushim_nvjitlink_library_path() ? cushim_nvjitlink_library_path() : "-",
                cushim_nvjitlink_library_version());
    std::printf("found cuda: %s (version %u)\n", cushim_cuda_library_path() ? cushim_cuda_library_path() : "-",
                cushim_cuda_library_version());
    std::printf("found nvml: %s\n", cushim_nvml_library_path() ? cushim_nvml_library_path() : "-");
    std::printf("found cublas: %s (version %u)\n", cushim_cublas_library_path() ? cushim_cublas_library_path() : "-",
                cushim_cublas_library_version());
    std::printf("found cublasLt: %s (version %u)\n",
                cushim_cublasLt_library_path() ? cushim_cublasLt_library_path() : "-", cushim_cublasLt_library_version());
#endif

    CHECK(cuInit(0));
    CUdevice device;
    CHECK(cuDeviceGet(&device, 0));
    int major = 0, minor = 0;
    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
    char arch[32];
    std::snprintf(arch, sizeof arch, "-arch=sm_%d%d", major, minor);

    nvrtcProgram prog;
    CHECK(nvrtcCreateProgram(&prog, kernel, "saxpy.cu", 0, nullptr, nullptr));
    const char *compile_options[] = {arch, "-dlto"};
    nvrtcResult compiled = nvrtcCompileProgram(prog, 2, compile_options);
    if (compiled != NVRTC_SUCCESS) {
        size_t size = 0;
        nvrtcGetProgramLogSize(prog, &size);
        std::vector<char> log(size + 1);
        nvrtcGetProgramLog(prog, log.data());
        std::printf("nvrtc log: %s\n", log.data());
        fail(nvrtcGetErrorString(compiled), compiled);
    }
    size_t ltoir_size = 0;
    CHECK(nvrtcGetLTOIRSize(prog, &ltoir_size));
    std::vector<char> ltoir(ltoir_size);
    CHECK(nvrtcGetLTOIR(prog, ltoir.data()));
    CHECK(nvrtcDestroyProgram(&prog));
    std::printf("ok: nvrtc compiled saxpy to %zu bytes of LTO-IR\n", ltoir_size);

    const char *link_options[] = {arch, "-lto"};
    nvJitLinkHandle link;
    CHECK(nvJitLinkCreate(&link, 2, link_options));
    CHECK(nvJitLinkAddData(link, NVJITLINK_INPUT_LTOIR, ltoir.data(), ltoir.size(), "saxpy"));
    CHECK(nvJitLinkComplete(link));
    size_t cubin_size = 0;
    CHECK(nvJitLinkGetLinkedCubinSize(link, &cubin_size));
    std::vector<char> cubin(cubin_size);
    CHECK(nvJitLinkGetLinkedCubin(link, cubin.data()));
    CHECK(nvJitLinkDestroy(&link));
    std::printf("ok: nvjitlink linked a %zu-byte cubin\n", cubin_size);

    CUcontext ctx;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, device));
    CHECK(cuCtxSetCurrent(ctx));
    CUmodule module;
    CHECK(cuModuleLoadData(&module, cubin.data()));
    CUfunction function;
    CHECK(cuModuleGetFunction(&function, module, "saxpy"));
    int n = 1 << 20;
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i), y[i] = static_cast<float>(i % 7);
    CUdeviceptr dx, dy;
    CHECK(cuMemAlloc(&dx, n * sizeof(float)));
    CHECK(cuMemAlloc(&dy, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));
    float a = 2.0f;
    void *params[] = {&a, &dx, &dy, &n};
    CHECK(cuLaunchKernel(function, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(out.data(), dy, n * sizeof(float)));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += out[i] != 2.0f * x[i] + y[i];
    CHECK(cuMemFree(dx));
    CHECK(cuMemFree(dy));
    if (wrong) fail("saxpy results wrong", wrong);
    std::printf("ok: driver launched saxpy on %d elements, all exact\n", n);
    blas();

    CHECK(nvmlInit());
    nvmlDevice_t nvml_device;
    CHECK(nvmlDeviceGetHandleByIndex(0, &nvml_device));
    char name[96];
    CHECK(nvmlDeviceGetName(nvml_device, name, sizeof name));
    nvmlMemory_t memory;
    CHECK(nvmlDeviceGetMemoryInfo(nvml_device, &memory));
    unsigned temperature = 0;
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    CHECK(nvmlDeviceGetTemperature(nvml_device, NVML_TEMPERATURE_GPU, &temperature));
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    std::printf("ok: nvml name=%s; memory.total=%llu MiB; temperature.gpu=%u\n", name,
                static_cast<unsigned long long>(memory.total / (1024 * 1024)), temperature);
    CHECK(nvmlShutdown());
#ifdef FAMILY_DIRECT
    std::printf("ok: all (c++, linked directly)\n");
#else
    std::printf("ok: all (c++)\n");
#endif
    return 0;
}
