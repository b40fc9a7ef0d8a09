// cuTENSOR in the family test's C++ program, with the fake `libcutensor.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cutensor.rs`.
#include <cutensor.h>

static void cutensor_present() {
    std::printf("cutensor: version %zu\n", cutensorGetVersion());
    cutensorHandle_t tensor = nullptr;
    CHECK(cutensorCreate(&tensor) == CUTENSOR_STATUS_SUCCESS);
    std::printf("cutensor: cutensorLoggerSetLevel code %d\n", static_cast<int>(cutensorLoggerSetLevel(1)));
    // The compute descriptor is an object the library exports: the pair
    // defines it, and the runtime copied the library's value when it loaded.
    cutensorOperationDescriptor_t operation = nullptr;
    cutensorStatus_t contraction = cutensorCreateContraction(
        tensor, &operation, nullptr, nullptr, CUTENSOR_OP_IDENTITY, nullptr, nullptr, CUTENSOR_OP_IDENTITY, nullptr,
        nullptr, CUTENSOR_OP_IDENTITY, nullptr, nullptr, CUTENSOR_COMPUTE_DESC_32F);
    std::printf("cutensor: contraction with the library's 32F descriptor code %d\n", static_cast<int>(contraction));
    CHECK(cutensorDestroy(tensor) == CUTENSOR_STATUS_SUCCESS);
}

static void cutensor_absent() {
    cutensorHandle_t tensor = nullptr;
    std::printf("cutensor: cutensorCreate code %d\n", static_cast<int>(cutensorCreate(&tensor)));
    std::printf("cutensor: CUTENSOR_COMPUTE_DESC_32F %s\n", CUTENSOR_COMPUTE_DESC_32F ? "set" : "None");
}
