// Compiles a saxpy kernel with NVRTC for compute_90 and prints the PTX's
// size and its FNV-1a hash: `ptx <size> <hash>`. Built against the lazy
// stubs or linked to the library directly, it must print the same line.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "nvrtc.h"

static const char *const kernel =
    "extern \"C\" __global__ void saxpy(float a, const float *x, float *y, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static int check(nvrtcResult r, const char *what) {
    if (r != NVRTC_SUCCESS) {
        std::printf("%s: %s\n", what, nvrtcGetErrorString(r));
        return 1;
    }
    return 0;
}

int main() {
    nvrtcProgram program;
    if (check(nvrtcCreateProgram(&program, kernel, "saxpy.cu", 0, nullptr, nullptr),
              "nvrtcCreateProgram"))
        return 1;
    const char *options[] = {"--gpu-architecture=compute_90"};
    nvrtcResult compiled = nvrtcCompileProgram(program, 1, options);
    if (compiled != NVRTC_SUCCESS) {
        size_t size = 0;
        nvrtcGetProgramLogSize(program, &size);
        std::vector<char> log(size + 1);
        nvrtcGetProgramLog(program, log.data());
        std::printf("%s\n", log.data());
        return check(compiled, "nvrtcCompileProgram");
    }
    size_t size = 0;
    if (check(nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize"))
        return 1;
    std::vector<char> ptx(size);
    if (check(nvrtcGetPTX(program, ptx.data()), "nvrtcGetPTX"))
        return 1;
    nvrtcDestroyProgram(&program);
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (char c : ptx) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    std::printf("ptx %zu %016llx\n", size, static_cast<unsigned long long>(hash));
    return 0;
}
