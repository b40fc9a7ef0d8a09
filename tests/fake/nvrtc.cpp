// NVRTC in the family test's C++ program, with the fake `libnvrtc.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `nvrtc.rs`.
#include <nvrtc.h>

// The functions the fake has work; the one it lacks fails alone.
static void nvrtc_present() {
    nvrtcProgram prog = nullptr;
    CHECK(nvrtcCreateProgram(&prog, "k", "k.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
    CHECK(nvrtcCompileProgram(prog, 0, nullptr) == NVRTC_SUCCESS);
    size_t size = 0;
    CHECK(nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS && size == 42);
    nvrtcResult missing = nvrtcGetTileIRSize(prog, &size);
    std::printf("nvrtc: nvrtcGetTileIRSize code %d status %d: %s\n", static_cast<int>(missing),
                static_cast<int>(cushim_nvrtc_last_status()), cushim_nvrtc_last_message());
    CHECK(cushim_nvrtc_last_status() == CUSHIM_NVRTC_SYMBOL_NOT_FOUND);
    CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
    std::printf("nvrtc: nvrtcGetErrorString(0) = %s\n", nvrtcGetErrorString(NVRTC_SUCCESS));
}

static void nvrtc_absent() {
    nvrtcProgram prog = nullptr;
    std::printf("nvrtc: nvrtcCreateProgram code %d\n",
                static_cast<int>(nvrtcCreateProgram(&prog, "k", "k.cu", 0, nullptr, nullptr)));
    std::printf("nvrtc: nvrtcGetErrorString(6) = %s\n", nvrtcGetErrorString(NVRTC_ERROR_COMPILATION));
    std::printf("nvrtc: nvrtcGetErrorString(12345) = %s\n", nvrtcGetErrorString(static_cast<nvrtcResult>(12345)));
}
