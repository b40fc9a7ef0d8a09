// cuSOLVERMg in the family test's C++ program, with the fake `libcusolvermg.c`:
// included by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cusolvermg.rs`.
// CUDA 13.0 deprecates its functions.
#define DISABLE_CUSOLVERMG_DEPRECATED
#include <cusolverMg.h>

// Found after nvJitLink, cuBLASLt and cuBLAS: a handle, one device and its
// grid; a function the fake lacks fails alone.
static void cusolvermg_present() {
    cusolverMgHandle_t handle = nullptr;
    CHECK(cusolverMgCreate(&handle) == CUSOLVER_STATUS_SUCCESS);
    int devices[1] = {0};
    CHECK(cusolverMgDeviceSelect(handle, 1, devices) == CUSOLVER_STATUS_SUCCESS);
    cudaLibMgGrid_t grid = nullptr;
    CHECK(cusolverMgCreateDeviceGrid(&grid, 1, 1, devices, CUDALIBMG_GRID_MAPPING_COL_MAJOR) ==
          CUSOLVER_STATUS_SUCCESS);
    std::printf("cusolvermg: grid of 1 device %s\n", grid ? "made" : "null");
    std::printf("cusolvermg: cusolverMgDestroyMatrixDesc code %d\n",
                static_cast<int>(cusolverMgDestroyMatrixDesc(nullptr)));
    CHECK(cusolverMgDestroyGrid(grid) == CUSOLVER_STATUS_SUCCESS);
    CHECK(cusolverMgDestroy(handle) == CUSOLVER_STATUS_SUCCESS);
}

static void cusolvermg_absent() {
    cusolverMgHandle_t handle = nullptr;
    std::printf("cusolvermg: cusolverMgCreate code %d\n", static_cast<int>(cusolverMgCreate(&handle)));
}
