// The C++ twin of tests/entry-point: a driver pair generated with
// `--resolve runtime-entry-point`, built against one release's cuda.h and
// run as `entry_point SCENARIO [CUDART]` (`calls`, `preloaded CUDART`,
// `unusable`), printing the lines the Rust program prints. The fakes' test
// hooks are read from the files that CUSHIM_TEST_CUDART and
// CUSHIM_TEST_DRIVER name, only where they are loaded already.
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "cuda_shim.h"

namespace {

// A test hook of a fake library, only if the library is loaded already.
template <class T>
T hook(const char *variable, const char *name) {
    const char *path = std::getenv(variable);
    void *library = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    return library ? reinterpret_cast<T>(dlsym(library, name)) : nullptr;
}

using text_hook = const char *(*)();
using int_hook = int (*)();
using unsigned_hook = unsigned (*)();

std::string called() {
    text_hook f = hook<text_hook>("CUSHIM_TEST_DRIVER", "fake_last_called");
    return f ? f() : "?";
}

// Every file named libcuda* mapped in this process, sorted, each once.
void print_mappings() {
    std::ifstream maps("/proc/self/maps");
    std::set<std::string> files;
    for (std::string line; std::getline(maps, line);) {
        std::istringstream fields(line);
        std::string field, path;
        for (int i = 0; i < 6 && fields >> field; ++i)
            if (i == 5) path = field;
        std::size_t slash = path.rfind('/');
        if (!path.empty() && path.compare(slash + 1, 8, "libcuda.") == 0) files.insert(path);
    }
    for (const std::string &f : files) std::printf("mapped: %s\n", f.c_str());
}

void calls() {
    std::printf("cuInit -> %d\n", static_cast<int>(cuInit(0)));
    int version = 0;
    CUresult rc = cuDriverGetVersion(&version);
    std::printf("cuDriverGetVersion -> %d (%d)\n", static_cast<int>(rc), version);
    int count = 0;
    rc = cuDeviceGetCount(&count);
    std::printf("cuDeviceGetCount -> %d (%d)\n", static_cast<int>(rc), count);
    if (cushim_cuda_load() != CUSHIM_CUDA_OK) {
        std::printf("no driver: %s\n", cushim_cuda_last_message());
        return;
    }
    std::printf("driver: %s\n", cushim_cuda_library_path());
    std::printf("driver version: %u\n", cushim_cuda_library_version());
    CUdeviceptr dptr = 0;
    rc = cuMemAlloc(&dptr, 16);
    text_hook bound = hook<text_hook>("CUSHIM_TEST_DRIVER", "fake_last_bound");
    int_hook asked = hook<int_hook>("CUSHIM_TEST_CUDART", "fake_cudart_last_version");
    std::printf("cuMemAlloc -> %d (%#llx) called %s bound %s asked at %d\n", static_cast<int>(rc),
                static_cast<unsigned long long>(dptr), called().c_str(), bound ? bound() : "?", asked ? asked() : -1);
    unsigned char bytes[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    rc = cuMemcpyHtoD(dptr, bytes, sizeof bytes);
    std::printf("cuMemcpyHtoD -> %d called %s\n", static_cast<int>(rc), called().c_str());
    rc = cuStreamQuery(nullptr);
    std::printf("cuStreamQuery -> %d called %s\n", static_cast<int>(rc), called().c_str());
    rc = cuCtxSynchronize();
    std::printf("cuCtxSynchronize -> %d called %s\n", static_cast<int>(rc), called().c_str());
    size_t total = 0;
    rc = cuDeviceTotalMem(&total, 0);
    std::printf("cuDeviceTotalMem -> %d\n", static_cast<int>(rc));
    std::printf("cuDeviceTotalMem: %s\n", cushim_cuda_last_message());
    // Bound, not called: its signature is each header's own.
    cushim_cuda_status status = cushim_cuda_function_status("cuCtxCreate");
    if (status == CUSHIM_CUDA_OK)
        std::printf("cuCtxCreate: available\n");
    else
        std::printf("cuCtxCreate -> status %d: %s\n", static_cast<int>(status), cushim_cuda_last_message());
    int_hook by_version = hook<int_hook>("CUSHIM_TEST_CUDART", "fake_cudart_by_version_calls");
    int_hook entry_point = hook<int_hook>("CUSHIM_TEST_CUDART", "fake_cudart_entry_point_calls");
    unsigned_hook flags = hook<unsigned_hook>("CUSHIM_TEST_CUDART", "fake_cudart_flags_seen");
    text_hook symbol = hook<text_hook>("CUSHIM_TEST_CUDART", "fake_cudart_last_symbol");
    std::printf("runtime asked: by version %d, entry point %d, flags %u, last %s\n", by_version ? by_version() : -1,
                entry_point ? entry_point() : -1, flags ? flags() : 0u, symbol ? symbol() : "?");
    std::printf("open attempts: %u\n", cushim_cuda_library_open_attempts());
    print_mappings();
}

void unusable() {
    std::printf("cuInit -> %d\n", static_cast<int>(cuInit(0)));
    CUdeviceptr dptr = 0;
    std::printf("cuMemAlloc -> %d\n", static_cast<int>(cuMemAlloc(&dptr, 16)));
    std::printf("error %d: %s\n", static_cast<int>(cushim_cuda_load()), cushim_cuda_last_message());
    print_mappings();
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: entry_point calls|preloaded CUDART|unusable\n");
        return 2;
    }
    std::string scenario = argv[1];
    if (scenario == "preloaded") {
        if (argc < 3 || !dlopen(argv[2], RTLD_NOW | RTLD_LOCAL)) {
            std::fprintf(stderr, "preloaded: the runtime does not load\n");
            return 2;
        }
    }
    if (scenario == "unusable")
        unusable();
    else
        calls();
    std::printf("ok: %s\n", scenario.c_str());
    return 0;
}
