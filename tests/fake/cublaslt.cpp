// cuBLASLt in the family test's C++ program, with the fake `libcublaslt.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cublaslt.rs`.
#include <cublasLt.h>

static void cublaslt_present() {
    cublasLtHandle_t lt = nullptr;
    CHECK(cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS);
    CHECK(cublasLtDestroy(lt) == CUBLAS_STATUS_SUCCESS);
}

static void cublaslt_absent() {
    cublasLtHandle_t lt = nullptr;
    std::printf("cublaslt: cublasLtCreate code %d\n", static_cast<int>(cublasLtCreate(&lt)));
}
