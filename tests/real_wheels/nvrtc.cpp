// NVRTC's part of the real-wheel program: compiles a saxpy kernel for
// compute_90 and prints `nvrtc ptx <size> <hash>`.
#include <vector>

#include "nvrtc.h"
#include "real_wheels.h"

static const char *const kernel =
    "extern \"C\" __global__ void saxpy(float a, const float *x, float *y, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

void real_nvrtc() {
    nvrtcProgram program;
    if (failed("nvrtc", "nvrtcCreateProgram",
               nvrtcCreateProgram(&program, kernel, "saxpy.cu", 0, nullptr, nullptr)))
        return;
    const char *options[] = {"--gpu-architecture=compute_90"};
    nvrtcResult compiled = nvrtcCompileProgram(program, 1, options);
    if (compiled != NVRTC_SUCCESS) {
        size_t size = 0;
        nvrtcGetProgramLogSize(program, &size);
        std::vector<char> log(size + 1);
        nvrtcGetProgramLog(program, log.data());
        std::printf("%s\n", log.data());
        failed("nvrtc", "nvrtcCompileProgram", compiled);
        return;
    }
    size_t size = 0;
    if (failed("nvrtc", "nvrtcGetPTXSize", nvrtcGetPTXSize(program, &size)))
        return;
    std::vector<char> ptx(size);
    if (failed("nvrtc", "nvrtcGetPTX", nvrtcGetPTX(program, ptx.data())))
        return;
    nvrtcDestroyProgram(&program);
    print_hashed("nvrtc", "ptx", ptx.data(), size);
}
