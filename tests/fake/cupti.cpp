// CUPTI in the family test's C++ program, with the fake `libcupti.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cupti.rs`.
#include <cupti.h>
#include <cupti_pcsampling.h>

static void cupti_present() {
    uint64_t stamp = 0;
    CHECK(cuptiGetTimestamp(&stamp) == CUPTI_SUCCESS);
    std::printf("cupti: timestamp %llu\n", static_cast<unsigned long long>(stamp));
    std::printf("cupti: cuptiActivityFlushAll code %d\n", static_cast<int>(cuptiActivityFlushAll(0)));
    CUpti_PCSamplingGetDataParams data = {};
    std::printf("cupti: cuLaunchKernel id %d, params %zu bytes, cuptiPCSamplingGetData code %d\n",
                static_cast<int>(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel), sizeof(cuLaunchKernel_params),
                static_cast<int>(cuptiPCSamplingGetData(&data)));
}

static void cupti_absent() {
    uint64_t stamp = 0;
    std::printf("cupti: cuptiGetTimestamp code %d\n", static_cast<int>(cuptiGetTimestamp(&stamp)));
}
