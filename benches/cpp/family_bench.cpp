// First-call and steady-call cost of NVRTC, nvJitLink, NVML, cuBLAS and
// cuBLASLt through cushim's C++ stubs, against the same source linked to the
// libraries (-DFAMILY_DIRECT). Each run is one fresh process:
//   family_bench first LIB     one call of LIB's cheap function, timed in process (µs)
//   family_bench steady LIB N  N calls after a warm-up, ns per call
// scripts/bench-family.sh runs both builds interleaved and prints the table.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <nvJitLink.h>
#include <nvml.h>
#include <nvrtc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// One cheap call of the library, with no device work: its version query
// (NVML's needs no initialization).
// Built once per library (-DWITH_NVRTC, ...), so that a process loads that
// library alone, in both builds.
static int call(const char *lib) {
    int major = 0, minor = 0;
    (void)major, (void)minor;
#ifdef WITH_NVRTC
    if (std::strcmp(lib, "nvrtc") == 0) return nvrtcVersion(&major, &minor);
#endif
#ifdef WITH_NVJITLINK
    if (std::strcmp(lib, "nvjitlink") == 0) {
        unsigned a = 0, b = 0;
        return nvJitLinkVersion(&a, &b);
    }
#endif
#ifdef WITH_NVML
    if (std::strcmp(lib, "nvml") == 0) {
        char text[96];
        return nvmlSystemGetNVMLVersion(text, sizeof text);
    }
#endif
#ifdef WITH_CUBLAS
    if (std::strcmp(lib, "cublas") == 0) return cublasGetProperty(MAJOR_VERSION, &major);
#endif
#ifdef WITH_CUBLASLT
    if (std::strcmp(lib, "cublaslt") == 0) return cublasLtGetProperty(MAJOR_VERSION, &major);
#endif
    std::fprintf(stderr, "not built for %s\n", lib);
    std::exit(2);
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    using clock = std::chrono::steady_clock;
    if (std::strcmp(argv[1], "first") == 0) {
        auto t0 = clock::now();
        int rc = call(argv[2]);
        auto t1 = clock::now();
        std::printf("%.3f %d\n", std::chrono::duration<double, std::micro>(t1 - t0).count(), rc);
        return rc == 0 ? 0 : 1;
    }
    long n = argc > 3 ? std::atol(argv[3]) : 1000000;
    for (int i = 0; i < 1000; ++i) call(argv[2]);
    auto t0 = clock::now();
    int bad = 0;
    for (long i = 0; i < n; ++i) bad |= call(argv[2]);
    auto t1 = clock::now();
    std::printf("%.2f %d\n", std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(n), bad);
    return bad == 0 ? 0 : 1;
}
