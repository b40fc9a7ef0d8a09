// The first load meets a driver that throws: the exception reaches the
// caller, and the stubs are not left stuck: another thread loads again and
// gets an answer, and so does this thread.
#include <cuda.h>

#include <cstdio>
#include <stdexcept>
#include <thread>

int main() {
    try {
        CUresult rc = cuInit(0);
        std::printf("first call returned %d without throwing\n", static_cast<int>(rc));
        return 1;
    } catch (const std::runtime_error &e) {
        std::printf("first load threw: %s\n", e.what());
    }
    int other = -1;
    std::thread t([&] { other = static_cast<int>(cuInit(0)); });
    t.join();
    std::printf("other thread: %d\n", other);
    std::printf("same thread: %d\n", static_cast<int>(cuInit(0)));
    return 0;
}
