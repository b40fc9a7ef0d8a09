// cuSOLVER in the family test's C++ program, with the fake `libcusolver.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cusolver.rs`.
#include <cusolverDn.h>

// Found after nvJitLink, cuSPARSE, cuBLASLt and cuBLAS; the function the
// fake lacks fails alone.
static void cusolver_present() {
    cusolverDnHandle_t dense = nullptr;
    CHECK(cusolverDnCreate(&dense) == CUSOLVER_STATUS_SUCCESS);
    std::printf("cusolver: cusolverDnLoggerSetLevel code %d\n", static_cast<int>(cusolverDnLoggerSetLevel(1)));
    CHECK(cusolverDnDestroy(dense) == CUSOLVER_STATUS_SUCCESS);
}

static void cusolver_absent() {
    cusolverDnHandle_t dense = nullptr;
    std::printf("cusolver: cusolverDnCreate code %d\n", static_cast<int>(cusolverDnCreate(&dense)));
}
