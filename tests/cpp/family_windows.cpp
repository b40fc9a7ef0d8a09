// NVRTC's stubs on Windows (mingw-w64, run under Wine by tests/family.rs):
// the DLL name of the header's major (nvrtc64_130_0.dll), found in a pip
// wheel's bin directory or a toolkit's, never in the executable's or the
// working directory, where a planted copy waits.
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
    std::printf("ok: windows\n");
    return 0;
}
