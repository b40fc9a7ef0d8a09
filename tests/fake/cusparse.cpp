// cuSPARSE in the family test's C++ program, with the fake `libcusparse.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cusparse.rs`.
#include <cusparse.h>

// Found after nvJitLink from its directory; the function the fake lacks fails alone.
static void cusparse_present() {
    cusparseHandle_t sparse = nullptr;
    CHECK(cusparseCreate(&sparse) == CUSPARSE_STATUS_SUCCESS);
    // Declared deprecated, and not exported by the real library either.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    cusparseStatus_t gebsr = cusparseXgebsr2csr(sparse, CUSPARSE_DIRECTION_ROW, 0, 0, nullptr, nullptr, nullptr, 1, 1,
                                                nullptr, nullptr, nullptr);
#pragma GCC diagnostic pop
    std::printf("cusparse: cusparseXgebsr2csr code %d\n", static_cast<int>(gebsr));
    CHECK(cusparseDestroy(sparse) == CUSPARSE_STATUS_SUCCESS);
}

static void cusparse_absent() {
    cusparseHandle_t sparse = nullptr;
    std::printf("cusparse: cusparseCreate code %d\n", static_cast<int>(cusparseCreate(&sparse)));
}
