// NVML in the family test's C++ program, with the fake `libnvml.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `nvml.rs`.
#include <nvml.h>

// The header maps nvmlInit to nvmlInit_v2; the fake's v1 answers 999.
static void nvml_present() {
    CHECK(nvmlInit() == NVML_SUCCESS);
    // The status API knows the header's other names too.
    CHECK(cushim_nvml_function_status("nvmlInit") == CUSHIM_NVML_OK);
    unsigned count = 0;
    CHECK(nvmlDeviceGetCount(&count) == NVML_SUCCESS && count == 1);
    std::printf("nvml: nvmlInit ok, devices %u\n", count);
}

static void nvml_absent() {
    std::printf("nvml: nvmlInit code %d\n", static_cast<int>(nvmlInit()));
    std::printf("nvml: %s\n", cushim_nvml_last_message());
    std::printf("nvml: nvmlErrorString(12) = %s\n", nvmlErrorString(NVML_ERROR_LIBRARY_NOT_FOUND));
}
