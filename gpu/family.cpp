// The family check in C++ (scripts/gpu-family.sh): NVRTC compiles a kernel,
// nvJitLink links it, the driver launches it and NVML reports the device,
// through cushim's stubs only: the program links none of -lnvrtc,
// -lnvJitLink, -lcuda or -lnvidia-ml, and the real headers check every stub.
#include <cuda.h>
#include <nvJitLink.h>
#include <nvml.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_shim.h"
#include "nvjitlink_shim.h"
#include "nvml_shim.h"
#include "nvrtc_shim.h"

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

int main() {
    std::printf("found nvrtc: %s (version %u)\n", cushim_nvrtc_library_path() ? cushim_nvrtc_library_path() : "-",
                cushim_nvrtc_driver_version());
    std::printf("found nvjitlink: %s (version %u)\n",
                cushim_nvjitlink_library_path() ? cushim_nvjitlink_library_path() : "-",
                cushim_nvjitlink_driver_version());
    std::printf("found cuda: %s (version %u)\n", cushim_cuda_library_path() ? cushim_cuda_library_path() : "-",
                cushim_cuda_driver_version());
    std::printf("found nvml: %s\n", cushim_nvml_library_path() ? cushim_nvml_library_path() : "-");

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
    std::printf("ok: all (c++)\n");
    return 0;
}
