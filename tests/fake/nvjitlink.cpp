// nvJitLink in the family test's C++ program, with the fake `libnvjitlink.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `nvjitlink.rs`.
#include <nvJitLink.h>

static void nvjitlink_present() {
    nvJitLinkHandle handle = nullptr;
    CHECK(nvJitLinkCreate(&handle, 0, nullptr) == NVJITLINK_SUCCESS);
    CHECK(nvJitLinkComplete(handle) == NVJITLINK_SUCCESS);
    CHECK(nvJitLinkDestroy(&handle) == NVJITLINK_SUCCESS);
    std::printf("nvjitlink: nvJitLinkCreate ok\n");
}

static void nvjitlink_absent() {
    nvJitLinkHandle handle = nullptr;
    std::printf("nvjitlink: nvJitLinkCreate code %d\n", static_cast<int>(nvJitLinkCreate(&handle, 0, nullptr)));
    std::printf("nvjitlink: %s\n", cushim_nvjitlink_last_message());
}
