/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake NVTX library for cushim's tests, built as libnvtx3interop.so.1:
 * the range stack of one thread, and marks counted. It lacks
 * nvtxDomainCreateA, which the header declares. Plain C types only; no
 * NVIDIA header. */
#include <stdint.h>

static int depth;

void nvtxMarkA(const char *message) { (void)message; }

int nvtxRangePushA(const char *message) {
    (void)message;
    return depth++;
}

int nvtxRangePop(void) { return depth > 0 ? --depth : -1; }

uint64_t nvtxRangeStartA(const char *message) {
    (void)message;
    return 42;
}
