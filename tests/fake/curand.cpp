// cuRAND in the family test's C++ program, with the fake `libcurand.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `curand.rs`.
#include <curand.h>

// Found after cudart from its directory; the function the fake lacks fails alone.
static void curand_present() {
    curandGenerator_t generator = nullptr;
    CHECK(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10) == CURAND_STATUS_SUCCESS);
    CHECK(curandSetPseudoRandomGeneratorSeed(generator, 1234) == CURAND_STATUS_SUCCESS);
    float numbers[3] = {};
    CHECK(curandGenerateUniform(generator, numbers, 3) == CURAND_STATUS_SUCCESS);
    std::printf("curand: uniform [%.6f, %.6f, %.6f]\n", numbers[0], numbers[1], numbers[2]);
    unsigned counts[2] = {};
    curandStatus_t binomial = curandGenerateBinomial(generator, counts, 2, 10, 0.5);
    std::printf("curand: curandGenerateBinomial code %d\n", static_cast<int>(binomial));
    CHECK(cushim_curand_last_status() == CUSHIM_CURAND_SYMBOL_NOT_FOUND);
    CHECK(curandDestroyGenerator(generator) == CURAND_STATUS_SUCCESS);
}

static void curand_absent() {
    curandGenerator_t generator = nullptr;
    std::printf("curand: curandCreateGenerator code %d\n",
                static_cast<int>(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10)));
}
