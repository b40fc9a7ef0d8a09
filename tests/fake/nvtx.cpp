// NVTX in the family test's C++ program, with the fake `libnvtx.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `nvtx.rs`.
// The stubs define NVTX's functions: the header declares them only so.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

static void nvtx_ranges() {
    int outer = nvtxRangePushA("outer");
    int inner = nvtxRangePushA("inner");
    nvtxMarkA("mark");
    int popped = nvtxRangePop();
    nvtxDomainHandle_t domain = nvtxDomainCreateA("d");
    std::printf("nvtx: push %d %d pop %d domain null %s\n", outer, inner, popped, domain ? "false" : "true");
}

static void nvtx_present() { nvtx_ranges(); }

static void nvtx_absent() { nvtx_ranges(); }
