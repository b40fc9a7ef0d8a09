// cuDNN in the family test's C++ program, with the fake `libcudnn.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cudnn.rs`.
#include <cudnn.h>

// Its graph and ops libraries loaded from its directory first; the function
// the fake lacks fails alone.
static void cudnn_present() {
    std::printf("cudnn: version %zu\n", cudnnGetVersion());
    cudnnHandle_t handle = nullptr;
    CHECK(cudnnCreate(&handle) == CUDNN_STATUS_SUCCESS);
    void *front = dlopen(cushim_cudnn_library_path(), RTLD_NOW | RTLD_NOLOAD);
    CHECK(front != nullptr);
    auto ops = reinterpret_cast<const char *(*)()>(dlsym(front, "fake_cudnn_ops_file"));
    CHECK(ops != nullptr);
    std::printf("cudnn: ops from %s\n", ops());
    std::printf("cudnn: cudnnBackendCreateDescriptor code %d\n",
                static_cast<int>(cudnnBackendCreateDescriptor(static_cast<cudnnBackendDescriptorType_t>(0), nullptr)));
    CHECK(cushim_cudnn_last_status() == CUSHIM_CUDNN_SYMBOL_NOT_FOUND);
    CHECK(cudnnDestroy(handle) == CUDNN_STATUS_SUCCESS);
}

static void cudnn_absent() {
    cudnnHandle_t handle = nullptr;
    std::printf("cudnn: cudnnCreate code %d\n", static_cast<int>(cudnnCreate(&handle)));
    std::printf("cudnn: cudnnGetVersion %zu\n", cudnnGetVersion());
}
