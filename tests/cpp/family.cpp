// The family test's C++ program: NVRTC, nvJitLink and NVML through cushim's
// stubs only (linked without -lnvrtc, -lnvJitLink or -lnvidia-ml), each
// scenario in a fresh process, as tests/family.rs runs it. The headers are
// the real pinned ones, so the compiler checks every stub's prototype.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <nvJitLink.h>
#include <nvml.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dlfcn.h>

#include "cublasLt_shim.h"
#include "cublas_shim.h"
#include "nvjitlink_shim.h"
#include "nvml_shim.h"
#include "nvrtc_shim.h"

#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
            std::exit(1);                                             \
        }                                                             \
    } while (0)

// Where each library's stubs found it, or why they found none.
static void which(const char *lib) {
    if (std::strcmp(lib, "nvrtc") == 0) {
        if (cushim_nvrtc_load() == CUSHIM_NVRTC_OK)
            std::printf("path=%s version=%u\n", cushim_nvrtc_library_path(), cushim_nvrtc_library_version());
        else
            std::printf("error=%s\n", (cushim_nvrtc_function_status("nvrtcVersion"), cushim_nvrtc_last_message()));
    } else if (std::strcmp(lib, "nvjitlink") == 0) {
        if (cushim_nvjitlink_load() == CUSHIM_NVJITLINK_OK)
            std::printf("path=%s version=%u\n", cushim_nvjitlink_library_path(), cushim_nvjitlink_library_version());
        else
            std::printf("error=%s\n",
                        (cushim_nvjitlink_function_status("nvJitLinkVersion"), cushim_nvjitlink_last_message()));
    } else if (std::strcmp(lib, "cublas") == 0) {
        if (cushim_cublas_load() == CUSHIM_CUBLAS_OK)
            std::printf("path=%s version=%u\n", cushim_cublas_library_path(), cushim_cublas_library_version());
        else
            std::printf("error=%s\n", (cushim_cublas_function_status("cublasCreate_v2"), cushim_cublas_last_message()));
    } else if (std::strcmp(lib, "cublaslt") == 0) {
        if (cushim_cublasLt_load() == CUSHIM_CUBLASLT_OK)
            std::printf("path=%s version=%u\n", cushim_cublasLt_library_path(), cushim_cublasLt_library_version());
        else
            std::printf("error=%s\n", (cushim_cublasLt_function_status("cublasLtCreate"), cushim_cublasLt_last_message()));
    } else {
        CHECK(std::strcmp(lib, "nvml") == 0);
        if (cushim_nvml_load() == CUSHIM_NVML_OK)
            std::printf("path=%s version=%u\n", cushim_nvml_library_path(), cushim_nvml_library_version());
        else
            std::printf("error=%s\n", (cushim_nvml_function_status("nvmlInit_v2"), cushim_nvml_last_message()));
    }
}

// Every library present: each binds the export its header names.
static void bind() {
    // The header maps nvmlInit to nvmlInit_v2; the fake's v1 answers 999.
    CHECK(nvmlInit() == NVML_SUCCESS);
    // The status API knows the header's other names too.
    CHECK(cushim_nvml_function_status("nvmlInit") == CUSHIM_NVML_OK);
    unsigned count = 0;
    CHECK(nvmlDeviceGetCount(&count) == NVML_SUCCESS && count == 1);
    std::printf("nvml: nvmlInit ok, devices %u\n", count);

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

    nvJitLinkHandle handle = nullptr;
    CHECK(nvJitLinkCreate(&handle, 0, nullptr) == NVJITLINK_SUCCESS);
    CHECK(nvJitLinkComplete(handle) == NVJITLINK_SUCCESS);
    CHECK(nvJitLinkDestroy(&handle) == NVJITLINK_SUCCESS);
    std::printf("nvjitlink: nvJitLinkCreate ok\n");
}

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

// No library at all: each library's own not-found code, and the strings.
static void absent() {
    std::printf("nvml: nvmlInit code %d\n", static_cast<int>(nvmlInit()));
    std::printf("nvml: %s\n", cushim_nvml_last_message());
    nvrtcProgram prog = nullptr;
    std::printf("nvrtc: nvrtcCreateProgram code %d\n",
                static_cast<int>(nvrtcCreateProgram(&prog, "k", "k.cu", 0, nullptr, nullptr)));
    std::printf("nvrtc: nvrtcGetErrorString(3) = %s\n", nvrtcGetErrorString(NVRTC_ERROR_INVALID_INPUT));
    std::printf("nvrtc: nvrtcGetErrorString(12345) = %s\n", nvrtcGetErrorString(static_cast<nvrtcResult>(12345)));
    std::printf("nvml: nvmlErrorString(12) = %s\n", nvmlErrorString(NVML_ERROR_LIBRARY_NOT_FOUND));
    nvJitLinkHandle handle = nullptr;
    std::printf("nvjitlink: nvJitLinkCreate code %d\n", static_cast<int>(nvJitLinkCreate(&handle, 0, nullptr)));
    std::printf("nvjitlink: %s\n", cushim_nvjitlink_last_message());
}

// cuBLAS binds cublasSgemm_v2 through the header's macro (the fake's legacy
// cublasSgemm aborts), with cuBLASLt loaded first from its directory.
static void cublas_sgemm() {
    cublasHandle_t handle = nullptr;
    CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
    const float a[] = {1, 2, 3, 4}, b[] = {1, 0, 0, 1};
    float c[4] = {};
    const float alpha = 1, beta = 0;
    CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, a, 2, b, 2, &beta, c, 2) ==
          CUBLAS_STATUS_SUCCESS);
    for (int i = 0; i < 4; ++i) CHECK(c[i] == a[i]);
    CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
    std::printf("cublas: cublasSgemm ok\n");
    which("cublas");
    cublasLtHandle_t lt = nullptr;
    CHECK(cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS);
    CHECK(cublasLtDestroy(lt) == CUBLAS_STATUS_SUCCESS);
    which("cublaslt");
}

// Without cuBLAS: CUBLAS_STATUS_NOT_INITIALIZED, and the names from the header.
static void cublas_absent() {
    cublasHandle_t handle = nullptr;
    std::printf("cublas: cublasCreate code %d\n", static_cast<int>(cublasCreate(&handle)));
    std::printf("cublas: cublasGetStatusName(7) = %s\n", cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE));
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

int main(int argc, char **argv) {
    CHECK(argc >= 2);
    const char *scenario = argv[1];
    if (std::strcmp(scenario, "which") == 0 && argc == 3)
        which(argv[2]);
    else if (std::strcmp(scenario, "bind") == 0)
        bind();
    else if (std::strcmp(scenario, "old-nvjitlink") == 0)
        old_nvjitlink();
    else if (std::strcmp(scenario, "absent") == 0)
        absent();
    else if (std::strcmp(scenario, "cublas") == 0)
        cublas_sgemm();
    else if (std::strcmp(scenario, "cublas-absent") == 0)
        cublas_absent();
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
