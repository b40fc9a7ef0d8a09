// The driver through the CUDA runtime's entry point on the GPU machine: a
// driver pair generated with `--resolve runtime-entry-point` (or, with
// -DENTRY_DIRECT, the same source linked with -lcuda). It allocates, fills
// and reads device memory through cu* calls, prints the FNV-1a hash of what
// it read and every libcuda file mapped in the process; `entry time` prints
// the first call's and the steady call's cost.
#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#define CHECK(call)                                                                  \
    do {                                                                             \
        CUresult rc_ = (call);                                                       \
        if (rc_ != CUDA_SUCCESS) {                                                   \
            std::fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #call, rc_); \
            std::exit(1);                                                            \
        }                                                                            \
    } while (0)

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "time") == 0) {
        int version = 0;
        auto t0 = std::chrono::steady_clock::now();
        CHECK(cuDriverGetVersion(&version));
        auto t1 = std::chrono::steady_clock::now();
        const int reps = 1000000;
        for (int i = 0; i < reps; ++i) CHECK(cuDriverGetVersion(&version));
        auto t2 = std::chrono::steady_clock::now();
        std::printf("time driver first_us %.1f steady_ns %.2f\n",
                    std::chrono::duration<double, std::micro>(t1 - t0).count(),
                    std::chrono::duration<double, std::nano>(t2 - t1).count() / reps);
        return 0;
    }
    CHECK(cuInit(0));
    int version = 0;
    CHECK(cuDriverGetVersion(&version));
    CUdevice device;
    CHECK(cuDeviceGet(&device, 0));
    char name[256] = {};
    CHECK(cuDeviceGetName(name, sizeof name, device));
    CUcontext context;
    CHECK(cuDevicePrimaryCtxRetain(&context, device));
    CHECK(cuCtxSetCurrent(context));
    const size_t size = 1 << 20;
    CUdeviceptr memory;
    CHECK(cuMemAlloc(&memory, size));
    CHECK(cuMemsetD8(memory, 0x5a, size));
    std::vector<unsigned char> host(size);
    for (size_t i = 0; i < size; i += 4096) host[i] = static_cast<unsigned char>(i >> 12);
    CHECK(cuMemcpyHtoD(memory + 4096, host.data() + 4096, 65536));
    CHECK(cuMemcpyDtoH(host.data(), memory, size));
    uint64_t h = 1469598103934665603ull;
    for (unsigned char b : host) h = (h ^ b) * 1099511628211ull;
    CHECK(cuMemFree(memory));
    CHECK(cuDevicePrimaryCtxRelease(device));
    std::printf("driver %d device %s memory %016llx\n", version, name, static_cast<unsigned long long>(h));
    std::ifstream maps("/proc/self/maps");
    std::string last;
    for (std::string line; std::getline(maps, line);) {
        std::size_t at = line.find('/');
        if (at == std::string::npos) continue;
        std::string path = line.substr(at);
        std::size_t slash = path.rfind('/');
        if (path.compare(slash + 1, 8, "libcuda.") == 0 && path != last) {
            std::fprintf(stderr, "mapped: %s\n", path.c_str());
            last = path;
        }
    }
    return 0;
}
