/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuRAND for cushim's tests, built as libcurand.so.10 and linked
 * against the fake libcudart.so.13 (NEEDED, with no run path), as CUDA 13's
 * is: loading it by path works only when cudart was loaded first from the
 * same directory. Like the real one it declares but does not export
 * curandGenerateBinomial. Plain C types only; no NVIDIA header.
 *
 * Knobs: FAKE_MINOR (what curandGetProperty and curandGetVersion report
 * for 10.x; default 10.4).
 */
#include <stddef.h>
#include <stdlib.h>

#ifndef FAKE_MINOR
#define FAKE_MINOR 4
#endif

int cudaRuntimeGetVersion(int *version);

struct generator {
    unsigned long long state;
};

int curandGetVersion(int *version) {
    if (!version) return 104; /* CURAND_STATUS_OUT_OF_RANGE */
    *version = 10000 + FAKE_MINOR * 100;
    return 0;
}

int curandGetProperty(int type, int *value) {
    if (!value) return 104;
    switch (type) {
        case 0: *value = 10; return 0;
        case 1: *value = FAKE_MINOR; return 0;
        case 2: *value = 0; return 0;
        default: return 104;
    }
}

int curandCreateGenerator(struct generator **generator, int type) {
    int runtime = 0;
    /* Reaches into cudart, as the real library does. */
    if (!generator || cudaRuntimeGetVersion(&runtime) != 0 || runtime / 1000 != 13) return 203;
    if (type != 161) return 103; /* only CURAND_RNG_PSEUDO_PHILOX4_32_10 */
    *generator = calloc(1, sizeof **generator);
    return *generator ? 0 : 102;
}

int curandSetPseudoRandomGeneratorSeed(struct generator *generator, unsigned long long seed) {
    if (!generator) return 101;
    generator->state = seed;
    return 0;
}

/* A 64-bit LCG's top 24 bits, in (0, 1]: deterministic, not Philox. */
int curandGenerateUniform(struct generator *generator, float *out, size_t n) {
    if (!generator) return 101;
    if (!out) return 104;
    for (size_t i = 0; i < n; ++i) {
        generator->state = generator->state * 6364136223846793005ULL + 1442695040888963407ULL;
        out[i] = (float)((generator->state >> 40) + 1) / 16777216.0f;
    }
    return 0;
}

int curandDestroyGenerator(struct generator *generator) {
    if (!generator) return 101;
    free(generator);
    return 0;
}
