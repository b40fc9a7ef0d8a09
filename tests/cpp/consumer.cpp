// The C++ test program: an ordinary driver-API program that includes cuda.h and
// links the generated stubs instead of -lcuda. Each scenario is one process;
// it prints "ok: <scenario>" when every expectation held and aborts otherwise.
#include <cuda.h>
// The profiler and interop headers, with the system's OpenGL, EGL and VDPAU
// headers they need: the stubs define these functions too.
#include <cudaProfiler.h>
#include <GL/gl.h>
#include <cudaGL.h>
#include <cudaEGL.h>
#include <vdpau/vdpau.h>
#include <cudaVDPAU.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuda_shim.h"

// What cuda.h declares for a translation unit built with
// CUDA_API_PER_THREAD_DEFAULT_STREAM; this one is built without it.
extern "C" CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, "  last message: %s\n", cushim_cuda_last_message()); \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

static bool contains(const char *haystack, const char *needle) {
    return haystack && std::strstr(haystack, needle) != nullptr;
}

// Every function of the header, called with value-initialised arguments
// (written by the test harness from cushim's IR).
struct Call {
    const char *name;
    CUresult result;
};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static std::vector<Call> call_every_function() {
    std::vector<Call> calls;
#define CALL(NAME, ARGS) calls.push_back(Call{#NAME, NAME ARGS});
#include "calls.inc"
#undef CALL
    return calls;
}
#pragma GCC diagnostic pop

static void no_library(const char *expected_name) {
    std::vector<Call> calls = call_every_function();
    EXPECT(calls.size() > 400);
    for (const Call &c : calls) {
        if (std::strcmp(c.name, "cuGetErrorName") == 0 || std::strcmp(c.name, "cuGetErrorString") == 0)
            continue;  // they answer from the fallback table
        if (c.result != CUDA_ERROR_SHARED_OBJECT_INIT_FAILED) {
            std::fprintf(stderr, "%s returned %d\n", c.name, static_cast<int>(c.result));
            std::exit(1);
        }
    }
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_LIBRARY_NOT_FOUND);
    EXPECT(contains(cushim_cuda_last_message(), expected_name));
    EXPECT(contains(cushim_cuda_last_message(), "not found"));
    EXPECT(cushim_cuda_load() == CUSHIM_CUDA_LIBRARY_NOT_FOUND);
    EXPECT(cushim_cuda_resolve_all(nullptr, 0) == static_cast<size_t>(-1));
    for (int i = 0; i < 1000; ++i) EXPECT(cuInit(0) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
    EXPECT(cushim_cuda_library_open_attempts() == 1);

    const char *text = nullptr;
    EXPECT(cuGetErrorName(CUDA_ERROR_OUT_OF_MEMORY, &text) == CUDA_SUCCESS);
    EXPECT(text && std::strcmp(text, "CUDA_ERROR_OUT_OF_MEMORY") == 0);
    EXPECT(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &text) == CUDA_SUCCESS);
    EXPECT(text && std::strcmp(text, "CUDA_ERROR_OUT_OF_MEMORY") == 0);
    EXPECT(cuGetErrorString(CUDA_SUCCESS, &text) == CUDA_SUCCESS);
    EXPECT(text && std::strcmp(text, "CUDA_SUCCESS") == 0);
    EXPECT(cuGetErrorName(static_cast<CUresult>(123456), &text) == CUDA_ERROR_INVALID_VALUE);
    EXPECT(text == nullptr);
    std::printf("checked %zu functions: %s\n", calls.size(), cushim_cuda_last_message());
}

static void fake() {
    EXPECT(cushim_cuda_set_library_path("relative/libcuda.so.1") == -1);
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    EXPECT(cushim_cuda_load() == CUSHIM_CUDA_OK);
    EXPECT(cushim_cuda_set_library_path("/too/late/libcuda.so.1") == -2);
    // cudaGL.h's Windows-only function has a row, but not on this system.
    EXPECT(cushim_cuda_function_status("cuWGLGetDevice") == CUSHIM_CUDA_SYMBOL_NOT_FOUND);
    EXPECT(contains(cushim_cuda_last_message(), "on this system"));
    int version = 0;
    EXPECT(cuDriverGetVersion(&version) == CUDA_SUCCESS && version == 13050);
    int count = 0;
    EXPECT(cuDeviceGetCount(&count) == CUDA_SUCCESS && count == 2);
    char name[64] = {};
    EXPECT(cuDeviceGetName(name, sizeof name, 1) == CUDA_SUCCESS);
    EXPECT(std::strcmp(name, "Fake GPU 1") == 0);
    CUuuid uuid = {};
    EXPECT(cuDeviceGetUuid(&uuid, 2) == CUDA_SUCCESS);
    for (int i = 0; i < 16; ++i) EXPECT(uuid.bytes[i] == static_cast<char>(i * 3 + 2));

    // cuMemAlloc is cuMemAlloc_v2 here, never the v1 export of the same name.
    CUdeviceptr ptr = 0;
    EXPECT(cuMemAlloc(&ptr, 4096) == CUDA_SUCCESS);
    EXPECT(ptr == 0x7f0000000000ULL + 4096);
    unsigned char data[] = {1, 2, 3, 250};
    EXPECT(cuMemcpyHtoD(ptr, data, sizeof data) == CUDA_SUCCESS);

    CUexecAffinityParam affinity = {};
    affinity.param.smCount.val = 7;
    CUctxCreateParams params = {};
    params.execAffinityParams = &affinity;
    params.numExecAffinityParams = 1;
    CUcontext ctx = nullptr;
    EXPECT(cuCtxCreate(&ctx, &params, 3, 1) == CUDA_SUCCESS);
    EXPECT(reinterpret_cast<uintptr_t>(ctx) == 0x1000u + 3 * 16 + 1 + (7u << 20));

    // The driver answers when it is there.
    const char *text = nullptr;
    EXPECT(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &text) == CUDA_SUCCESS);
    EXPECT(text && std::strcmp(text, "fake driver: out of memory") == 0);

    // A driver failure passes through untouched and is no loader failure.
    EXPECT(cuCtxSynchronize() == CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuInit(5) == CUDA_ERROR_INVALID_VALUE);

    // A function the fake lacks fails alone.
    EXPECT(cuCtxGetCurrent(&ctx) == CUDA_ERROR_NOT_FOUND);
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_SYMBOL_NOT_FOUND);
    EXPECT(contains(cushim_cuda_last_message(), "cuCtxGetCurrent"));
    EXPECT(cushim_cuda_function_status("cuCtxGetCurrent") == CUSHIM_CUDA_SYMBOL_NOT_FOUND);
    EXPECT(cushim_cuda_function_status("cuMemAlloc") == CUSHIM_CUDA_OK);
    EXPECT(cushim_cuda_function_status("cuMemAlloc_v2") == CUSHIM_CUDA_OK);
    EXPECT(cushim_cuda_function_status("cuNoSuchThing") == CUSHIM_CUDA_SYMBOL_NOT_FOUND);
    EXPECT(cuInit(0) == CUDA_SUCCESS);

    // Eager resolution lists what this driver lacks.
    std::vector<const char *> missing(1000);
    size_t n = cushim_cuda_resolve_all(missing.data(), missing.size());
    EXPECT(n > 400 && n < 1000);
    bool listed = false;
    for (size_t i = 0; i < n; ++i) {
        EXPECT(std::strcmp(missing[i], "cuInit") != 0);
        EXPECT(std::strcmp(missing[i], "cuWGLGetDevice") != 0);  // not this system's
        listed = listed || std::strcmp(missing[i], "cuCtxGetCurrent") == 0;
    }
    EXPECT(listed);
    EXPECT(cushim_cuda_library_open_attempts() == 1);
}

static void missing_symbol() {
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    CUdeviceptr ptr = 0;
    EXPECT(cuMemAlloc(&ptr, 64) == CUDA_ERROR_NOT_FOUND);
    EXPECT(ptr == 0);
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_SYMBOL_NOT_FOUND);
    EXPECT(contains(cushim_cuda_last_message(), "cuMemAlloc_v2"));
    int version = 0;
    EXPECT(cuDriverGetVersion(&version) == CUDA_SUCCESS && version == 13050);
    EXPECT(cuMemAlloc(&ptr, 64) == CUDA_ERROR_NOT_FOUND);
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_SYMBOL_NOT_FOUND);
}

static void stub(const char *path) {
    EXPECT(cuInit(0) == CUDA_ERROR_STUB_LIBRARY);
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_STUB_LIBRARY);
    EXPECT(contains(cushim_cuda_last_message(), path));
    EXPECT(contains(cushim_cuda_last_message(), "stub library"));
    int count = -1;
    EXPECT(cuDeviceGetCount(&count) == CUDA_ERROR_STUB_LIBRARY && count == -1);
    EXPECT(cushim_cuda_load() == CUSHIM_CUDA_STUB_LIBRARY);
    void *again = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    EXPECT(again != nullptr);
    auto init_calls = reinterpret_cast<int (*)()>(dlsym(again, "fake_init_calls"));
    EXPECT(init_calls && init_calls() == 0);
}

// The fake driver's test hooks, from the instance the stubs loaded.
struct Fake {
    void *lib;
    Fake() {
        const char *path = std::getenv("CUSHIM_CUDA_LIBRARY");
        lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        EXPECT(lib != nullptr);
    }
    const char *text(const char *hook) const {
        auto f = reinterpret_cast<const char *(*)()>(dlsym(lib, hook));
        EXPECT(f != nullptr);
        return f();
    }
    unsigned number(const char *hook) const {
        auto f = reinterpret_cast<unsigned (*)()>(dlsym(lib, hook));
        EXPECT(f != nullptr);
        return f();
    }
    int asked_for(const char *base) const {
        auto f = reinterpret_cast<int (*)(const char *)>(dlsym(lib, "fake_proc_calls_for"));
        EXPECT(f != nullptr);
        return f(base);
    }
    bool last_called(const char *name) const { return std::strcmp(text("fake_last_called"), name) == 0; }
};

static void binds(bool expect_proc) {
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    Fake fake;
    CUdeviceptr ptr = 0;
    EXPECT(cuMemAlloc(&ptr, 16) == CUDA_SUCCESS && fake.last_called("cuMemAlloc_v2"));
    unsigned char data[4] = {7, 7, 7, 7};
    EXPECT(cuMemcpyHtoD(ptr, data, 4) == CUDA_SUCCESS && fake.last_called("cuMemcpyHtoD_v2"));
    EXPECT(cuStreamQuery(nullptr) == CUDA_SUCCESS && fake.last_called("cuStreamQuery"));
    CUuuid uuid = {};
    EXPECT(cuDeviceGetUuid(&uuid, 0) == CUDA_SUCCESS && fake.last_called("cuDeviceGetUuid_v2"));
    // The per-thread export binds the per-thread variant in any mode.
    EXPECT(cuMemcpyHtoD_v2_ptds(ptr, data, 4) == CUDA_SUCCESS && fake.last_called("cuMemcpyHtoD_v2_ptds"));
    // The profiler and interop functions bind their header's ABI, never the v1 export.
    EXPECT(cuProfilerStart() == CUDA_SUCCESS && fake.last_called("cuProfilerStart"));
    EXPECT(cuProfilerStop() == CUDA_SUCCESS && fake.last_called("cuProfilerStop"));
    unsigned int gl_devices = 0;
    EXPECT(cuGLGetDevices(&gl_devices, nullptr, 0, CU_GL_DEVICE_LIST_ALL) == CUDA_SUCCESS &&
           fake.last_called("cuGLGetDevices_v2") && gl_devices == 1);
    size_t gl_size = 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    EXPECT(cuGLMapBufferObject(&ptr, &gl_size, 5) == CUDA_SUCCESS &&
           fake.last_called("cuGLMapBufferObject_v2") && ptr == 0x9005 && gl_size == 64);
#pragma GCC diagnostic pop
    CUcontext vdpau_ctx = nullptr;
    EXPECT(cuVDPAUCtxCreate(&vdpau_ctx, 1, 0, 0, nullptr) == CUDA_SUCCESS &&
           fake.last_called("cuVDPAUCtxCreate_v2") && vdpau_ctx == reinterpret_cast<CUcontext>(0x5010));
    CUgraphicsResource resource = nullptr;
    EXPECT(cuGraphicsEGLRegisterImage(&resource, nullptr, 3) == CUDA_SUCCESS &&
           fake.last_called("cuGraphicsEGLRegisterImage"));
    if (expect_proc) {
        EXPECT(fake.number("fake_proc_calls") >= 5);
        EXPECT(fake.number("fake_flags_seen") == (1u | 2u));
    } else {
        EXPECT(fake.number("fake_proc_calls") == 0);
    }
    EXPECT(cushim_cuda_library_version() > 0);
}

static void per_thread() {
    EXPECT(cushim_cuda_set_stream_mode(1) == 0);
    EXPECT(cushim_cuda_stream_mode() == 1);
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    Fake fake;
    CUdeviceptr ptr = 0;
    EXPECT(cuMemAlloc(&ptr, 16) == CUDA_SUCCESS && fake.last_called("cuMemAlloc_v2"));
    unsigned char data[4] = {7, 7, 7, 7};
    EXPECT(cuMemcpyHtoD(ptr, data, 4) == CUDA_SUCCESS && fake.last_called("cuMemcpyHtoD_v2_ptds"));
    EXPECT(cuStreamQuery(nullptr) == CUDA_SUCCESS && fake.last_called("cuStreamQuery_ptsz"));
    size_t gl_size = 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    EXPECT(cuGLMapBufferObject(&ptr, &gl_size, 5) == CUDA_SUCCESS && fake.last_called("cuGLMapBufferObject_v2_ptds"));
#pragma GCC diagnostic pop
    EXPECT(fake.number("fake_flags_seen") == (1u | 2u));
    EXPECT(cushim_cuda_set_stream_mode(0) == -2);
    EXPECT(contains(cushim_cuda_last_message(), "before the first CUDA call"));
    EXPECT(cushim_cuda_stream_mode() == 1);
}

static void too_old(unsigned driver) {
    Fake *fake = nullptr;
    CUcontext ctx = nullptr;
    EXPECT(cuCtxCreate(&ctx, nullptr, 0, 0) == CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER);
    fake = new Fake;
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_TOO_OLD);
    char want[128];
    std::snprintf(want, sizeof want, "driver too old: `cuCtxCreate` needs CUDA 12.5, driver is %u.%u", driver / 1000,
                  driver % 1000 / 10);
    EXPECT(std::strcmp(cushim_cuda_last_message(), want) == 0);
    EXPECT(fake->asked_for("cuCtxCreate") == 0);
    EXPECT(!fake->last_called("cuCtxCreate_v4"));
    EXPECT(cushim_cuda_function_status("cuCtxCreate") == CUSHIM_CUDA_TOO_OLD);
    CUdeviceptr ptr = 0;
    EXPECT(cuMemAlloc(&ptr, 16) == CUDA_SUCCESS && fake->last_called("cuMemAlloc_v2"));
    delete fake;
}

static void quirks() {
    int n = 0;
    EXPECT(cuDeviceGetCount(&n) == CUDA_ERROR_NOT_FOUND);
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_SYMBOL_NOT_FOUND);
    char name[8];
    EXPECT(cuDeviceGetName(name, 8, 0) == CUDA_ERROR_NOT_FOUND);
    EXPECT(contains(cushim_cuda_last_message(), "answered 500"));
    CUuuid uuid = {};
    EXPECT(cuDeviceGetUuid(&uuid, 0) == CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER);
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_VERSION_NOT_SUFFICIENT);
    EXPECT(cuInit(0) == CUDA_SUCCESS);
}

static void relative_override() {
    EXPECT(cuInit(0) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
    EXPECT(cushim_cuda_last_status() == CUSHIM_CUDA_LIBRARY_NOT_FOUND);
    EXPECT(contains(cushim_cuda_last_message(), "not an absolute path"));
    EXPECT(cushim_cuda_library_open_attempts() == 0);
}

// RELIABILITY 17: stubs called from an atexit handler, after main returned,
// still reach the driver (nothing is unloaded or destroyed at exit).
static void at_exit() {
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    std::atexit([] {
        int version = 0;
        if (cuDriverGetVersion(&version) != CUDA_SUCCESS || version != 13050) std::_Exit(3);
        std::printf("atexit: driver %d\n", version);
    });
}

// RELIABILITY 24: a driver already loaded by someone else (here LD_PRELOAD)
// is the instance the stubs use; no second copy is mapped.
static void preloaded() {
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    Fake fake;
    EXPECT(fake.number("fake_load_count") == 1);
    // One executable mapping of the library in this process.
    const char *path = std::getenv("CUSHIM_CUDA_LIBRARY");
    FILE *maps = std::fopen("/proc/self/maps", "r");
    EXPECT(maps != nullptr && path != nullptr);
    char line[4096];
    int text_mappings = 0;
    while (std::fgets(line, sizeof line, maps))
        if (std::strstr(line, " r-xp ") && std::strstr(line, path)) ++text_mappings;
    std::fclose(maps);
    EXPECT(text_mappings == 1);
}

// RELIABILITY 18: a fork while another thread sits in a slow first load: the
// child gets CUDA_ERROR_NOT_INITIALIZED and a status, not a hang.
static void fork_during_load() {
    std::thread loader([] { EXPECT(cuInit(0) == CUDA_SUCCESS); });
    usleep(100 * 1000);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10);  // a hang becomes SIGALRM, which the parent sees
        int version = 0;
        CUresult rc = cuDriverGetVersion(&version);
        _exit(rc == CUDA_ERROR_NOT_INITIALIZED && cushim_cuda_last_status() == CUSHIM_CUDA_FORKED_DURING_LOAD ? 0 : 1);
    }
    int status = 0;
    EXPECT(waitpid(pid, &status, 0) == pid);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    loader.join();
}

// RELIABILITY 14: the driver's initializer calls back into a stub during the
// load. No deadlock: that call gets a status, and the load completes.
static void reentrant() {
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    Fake fake;
    EXPECT(fake.number("fake_reentry_result") == static_cast<unsigned>(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED));
    int version = 0;
    EXPECT(cuDriverGetVersion(&version) == CUDA_SUCCESS && version == 13050);
}

static void race(bool expect_driver) {
    constexpr int threads = 32;
    std::atomic<int> ready{0};
    std::vector<CUresult> results(threads);
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) {
        pool.emplace_back([&, i] {
            ready.fetch_add(1);
            while (ready.load() < threads) {
            }
            int n = 0;
            switch (i % 3) {
                case 0: results[i] = cuInit(0); break;
                case 1: results[i] = cuDriverGetVersion(&n); break;
                default: results[i] = cuDeviceGetCount(&n); break;
            }
        });
    }
    for (std::thread &t : pool) t.join();
    EXPECT(cushim_cuda_library_open_attempts() == 1);
    for (CUresult r : results)
        EXPECT(r == (expect_driver ? CUDA_SUCCESS : CUDA_ERROR_SHARED_OBJECT_INIT_FAILED));
}

static void set_path(const char *path) {
    EXPECT(cushim_cuda_set_library_path(path) == 0);
    EXPECT(cuInit(0) == CUDA_SUCCESS);
    int version = 0;
    EXPECT(cuDriverGetVersion(&version) == CUDA_SUCCESS && version == 13050);
}

int main(int argc, char **argv) {
    std::string scenario = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : "";
    if (scenario == "no-library") no_library(arg);
    else if (scenario == "fake") fake();
    else if (scenario == "missing-symbol") missing_symbol();
    else if (scenario == "stub") stub(arg);
    else if (scenario == "binds-proc") binds(true);
    else if (scenario == "binds-dlsym") binds(false);
    else if (scenario == "per-thread") per_thread();
    else if (scenario == "too-old") too_old(static_cast<unsigned>(std::atoi(arg)));
    else if (scenario == "quirks") quirks();
    else if (scenario == "relative-override") relative_override();
    else if (scenario == "at-exit") at_exit();
    else if (scenario == "preloaded") preloaded();
    else if (scenario == "fork-during-load") fork_during_load();
    else if (scenario == "reentrant") reentrant();
    else if (scenario == "race") race(true);
    else if (scenario == "race-no-library") race(false);
    else if (scenario == "set-path") set_path(arg);
    else {
        std::fprintf(stderr, "unknown scenario `%s`\n", scenario.c_str());
        return 2;
    }
    std::printf("ok: %s\n", scenario.c_str());
    return 0;
}
