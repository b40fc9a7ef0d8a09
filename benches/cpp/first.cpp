// The C++ stubs' first call, in a fresh process that has not loaded the
// driver: prints `<µs> <status> <version>` like the Rust first-* binaries.
#include <cuda.h>

#include <chrono>
#include <cstdio>

int main() {
    int version = 0;
    auto t = std::chrono::steady_clock::now();
    CUresult rc = cuDriverGetVersion(&version);
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count();
    std::printf("%.1f %d %d\n", us, static_cast<int>(rc), version);
    return 0;
}
