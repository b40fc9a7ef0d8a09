// cuFFT in the family test's C++ program, with the fake `libcufft.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cufft.rs`.
#include <cufft.h>
#include <cufftXt.h>

// The forward DFT of [1, 2, 3, 4]; the function the fake lacks fails alone.
static void cufft_present() {
    cufftHandle plan = 0;
    CHECK(cufftPlan1d(&plan, 4, CUFFT_C2C, 1) == CUFFT_SUCCESS);
    cufftComplex input[4] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}};
    cufftComplex output[4] = {};
    CHECK(cufftExecC2C(plan, input, output, CUFFT_FORWARD) == CUFFT_SUCCESS);
    std::printf("cufft: forward");
    // Rounded, and +0.0 turns a rounding's -0 into 0.
    for (const cufftComplex &c : output) std::printf(" %.0f%+.0fi", std::round(c.x) + 0.0, std::round(c.y) + 0.0);
    std::printf("\n");
    cufftResult missing = cufftXtSetJITCallback(plan, "f", nullptr, 0, static_cast<cufftXtCallbackType>(0), nullptr);
    std::printf("cufft: cufftXtSetJITCallback code %d\n", static_cast<int>(missing));
    CHECK(cushim_cufft_last_status() == CUSHIM_CUFFT_SYMBOL_NOT_FOUND);
    CHECK(cufftDestroy(plan) == CUFFT_SUCCESS);
}

static void cufft_absent() {
    cufftHandle plan = 0;
    std::printf("cufft: cufftPlan1d code %d\n", static_cast<int>(cufftPlan1d(&plan, 4, CUFFT_C2C, 1)));
    std::printf("cufft: %s\n", cushim_cufft_last_message());
}
