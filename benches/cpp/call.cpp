// Per-call cost of one cheap driver function, cuDriverGetVersion, called the
// way a C++ program calls it. Built twice by scripts/bench-cpp.sh: linked
// against the driver directly (-lcuda) and against the generated stubs. Each
// binary also times a raw function pointer from dlsym, in the same run.
#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using get_version = CUresult (*)(int *);
// A volatile slot keeps the compiler from turning the pointer call into a direct one.
static get_version volatile raw_slot;

template <class F>
static double ns_per_call(long calls, F &&f) {
    std::vector<double> runs;
    for (int r = 0; r < 9; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < calls; ++i) f();
        auto t1 = std::chrono::steady_clock::now();
        runs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / calls);
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? std::atol(argv[1]) : 20000000;
    int version = 0;
    if (cuDriverGetVersion(&version) != CUDA_SUCCESS) {
        std::fprintf(stderr, "cuDriverGetVersion failed\n");
        return 1;
    }
    if (argc > 2) {  // instruction counting: just the loop
        for (long i = 0; i < calls; ++i) cuDriverGetVersion(&version);
        return version == 0;
    }
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    raw_slot = lib ? reinterpret_cast<get_version>(dlsym(lib, "cuDriverGetVersion")) : nullptr;
    double this_way = ns_per_call(calls, [&] { cuDriverGetVersion(&version); });
    double raw = raw_slot ? ns_per_call(calls, [&] { raw_slot(&version); }) : 0.0;
    std::printf("%.3f %.3f\n", this_way, raw);
    return 0;
}
