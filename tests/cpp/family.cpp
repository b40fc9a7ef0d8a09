// The family test's C++ program: every library of cushim's registry but the
// driver through cushim's stubs only (linked without -l of any of them), each
// scenario in a fresh process, as tests/family.rs runs it: `which LIB`,
// `present LIB...` and `absent LIB...` (each library's own calls,
// tests/fake/<name>.cpp, then `which`), `old-nvjitlink`, `compile [PATH]`,
// `preloaded PATH`, `cudart-stream`. The headers are the real pinned ones,
// so the compiler checks every stub's prototype.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dlfcn.h>

#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
            std::exit(1);                                             \
        }                                                             \
    } while (0)

// Each library's pair header, its scenarios (with its own headers), and
// `which`, `present` and `absent` over them: written by tests/family.rs from
// the registry.
#include "libraries.h"

// nvJitLink older than the header: OUTDATED_LIBRARY, and why.
static void old_nvjitlink() {
    nvJitLinkHandle handle = nullptr;
    nvJitLinkResult rc = nvJitLinkCreate(&handle, 0, nullptr);
    std::printf("nvjitlink: raw code %d: %s\n", static_cast<int>(rc), cushim_nvjitlink_last_message());
    CHECK(cushim_nvjitlink_last_status() == CUSHIM_NVJITLINK_TOO_OLD);
    unsigned major = 0, minor = 0;
    CHECK(nvJitLinkVersion(&major, &minor) == NVJITLINK_SUCCESS);
    std::printf("nvjitlink: version %u.%u\n", major, minor);
}

// NVRTC compiles (a fake built with FAKE_BUILTINS opens its builtins by bare
// name then, as the real one does), after the program loaded `path` itself if
// given: the status, the program log (the builtins' file, or the loader's
// error) and where NVRTC was found.
static void compile(const char *path) {
    if (path) CHECK(dlopen(path, RTLD_NOW | RTLD_LOCAL) != nullptr);
    nvrtcProgram prog = nullptr;
    CHECK(nvrtcCreateProgram(&prog, "k", "k.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
    nvrtcResult rc = nvrtcCompileProgram(prog, 0, nullptr);
    size_t size = 0;
    char log[4096] = {};
    CHECK(nvrtcGetProgramLogSize(prog, &size) == NVRTC_SUCCESS && size <= sizeof log);
    CHECK(nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS);
    std::printf("nvrtc: compile code %d log %s\n", static_cast<int>(rc), log);
    which("nvrtc");
    CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
}

// cudaMemcpyAsync through the stubs: the fake says whether its plain export
// or its per-thread twin ran (the stream mode comes from the environment).
static void cudart_stream() {
    unsigned char src[4] = {1, 1, 1, 1}, dst[4] = {};
    CHECK(cudaMemcpyAsync(dst, src, 4, cudaMemcpyHostToHost, nullptr) == cudaSuccess);
    void *library = dlopen(cushim_cudart_library_path(), RTLD_NOW | RTLD_NOLOAD);
    CHECK(library != nullptr);
    auto last = reinterpret_cast<const char *(*)()>(dlsym(library, "fake_last_copy"));
    CHECK(last != nullptr);
    std::printf("cudart: ran %s\n", last());
}

int main(int argc, char **argv) {
    CHECK(argc >= 2);
    const char *scenario = argv[1];
    if (std::strcmp(scenario, "which") == 0 && argc == 3)
        which(argv[2]);
    else if (std::strcmp(scenario, "present") == 0) {
        for (int i = 2; i < argc; ++i) present(argv[i]);
    } else if (std::strcmp(scenario, "absent") == 0) {
        for (int i = 2; i < argc; ++i) absent(argv[i]);
    }
    else if (std::strcmp(scenario, "old-nvjitlink") == 0)
        old_nvjitlink();
    else if (std::strcmp(scenario, "cudart-stream") == 0)
        cudart_stream();
    else if (std::strcmp(scenario, "compile") == 0 && argc <= 3)
        compile(argc == 3 ? argv[2] : nullptr);
    else if (std::strcmp(scenario, "preloaded") == 0 && argc == 3) {
        CHECK(dlopen(argv[2], RTLD_NOW | RTLD_LOCAL) != nullptr);
        which("nvrtc");
    } else {
        std::fprintf(stderr, "unknown scenario %s\n", scenario);
        return 2;
    }
    std::printf("ok: %s\n", scenario);
    return 0;
}
