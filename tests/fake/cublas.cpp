// cuBLAS in the family test's C++ program, with the fake `libcublas.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cublas.rs`.
#include <cublas_v2.h>

// cublasSgemm binds cublasSgemm_v2 through the header's macro (the fake's
// legacy cublasSgemm aborts), with cuBLASLt loaded first from its directory.
static void cublas_present() {
    cublasHandle_t handle = nullptr;
    CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
    const float a[] = {1, 2, 3, 4}, b[] = {1, 0, 0, 1};
    float c[4] = {};
    const float alpha = 1, beta = 0;
    CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, a, 2, b, 2, &beta, c, 2) ==
          CUBLAS_STATUS_SUCCESS);
    for (int i = 0; i < 4; ++i) CHECK(c[i] == a[i]);
    CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
    std::printf("cublas: cublasSgemm ok\n");
}

// CUBLAS_STATUS_NOT_INITIALIZED, and the names from the header.
static void cublas_absent() {
    cublasHandle_t handle = nullptr;
    std::printf("cublas: cublasCreate code %d\n", static_cast<int>(cublasCreate(&handle)));
    std::printf("cublas: cublasGetStatusName(7) = %s\n", cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE));
}
