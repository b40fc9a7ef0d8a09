// NVRTC's stubs on Windows (mingw-w64, run under Wine by tests/family.rs):
// the DLL name of the header's major (nvrtc64_130_0.dll), found in a pip
// wheel's bin directory or a toolkit's, never in the executable's or the
// working directory, where a planted copy waits; and a compile, for which a
// fake built with FAKE_BUILTINS opens its builtins DLL by bare name.
#include <nvrtc.h>

#include <cstdio>

#include "nvrtc_shim.h"

int main() {
    int major = 0, minor = 0;
    nvrtcResult rc = nvrtcVersion(&major, &minor);
    const char *path = cushim_nvrtc_library_path();
    std::printf("nvrtcVersion -> %d, %d.%d\n", static_cast<int>(rc), major, minor);
    std::printf("path=%s\n", path ? path : "-");
    if (rc != NVRTC_SUCCESS) std::printf("why: %s\n", cushim_nvrtc_last_message());
    nvrtcProgram prog = nullptr;
    if (rc == NVRTC_SUCCESS && nvrtcCreateProgram(&prog, "k", "k.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS) {
        nvrtcResult compiled = nvrtcCompileProgram(prog, 0, nullptr);
        size_t size = 0;
        char log[4096] = {};
        if (nvrtcGetProgramLogSize(prog, &size) == NVRTC_SUCCESS && size <= sizeof log) nvrtcGetProgramLog(prog, log);
        std::printf("compile -> %d, log %s\n", static_cast<int>(compiled), log);
        nvrtcDestroyProgram(&prog);
    }
    std::printf("ok: windows\n");
    return 0;
}
