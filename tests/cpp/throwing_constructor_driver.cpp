// A driver whose initializer throws while the platform's loader opens it, as
// a C++ library whose static constructor fails might. The rest is a driver
// that works, so that anything that got past the throw could use it.
#include <stdexcept>

namespace {
struct Start {
    Start() { throw std::runtime_error("the driver's constructor failed"); }
};
Start start;
}  // namespace

extern "C" int cuDriverGetVersion(int *version) {
    *version = 13050;
    return 0;
}

extern "C" int cuInit(unsigned int) { return 0; }
