// A driver whose version function throws on its first call, as a driver
// written in C++ might when its initialization fails; later calls succeed.
// No cuGetProcAddress: the stubs bind exact exports.
#include <atomic>
#include <stdexcept>

static std::atomic<int> version_calls{0};

extern "C" int cuDriverGetVersion(int *version) {
    if (version_calls.fetch_add(1) == 0) throw std::runtime_error("the driver failed to initialize");
    *version = 13050;
    return 0;
}

extern "C" int cuInit(unsigned int) { return 0; }
