/* Calls one function of registers.h through its stub, twice: the first call
 * runs the pair's binder (which loads the library, whose initializer changes
 * every register a call may change), the second jumps through the bound
 * slot. Each must reach the library with every argument as passed, in
 * registers and on the stack. Run as `PROGRAM integers|floats|mixed|indirect`
 * against the library, one function per process (each first call loads it),
 * or `PROGRAM no-library` without it (every stub answers 303 and writes
 * nothing). Prints "ok: <scenario>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registers.h"
#include "fold.h"

static int failed;

#define EXPECT(cond)                                                                \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);     \
            failed = 1;                                                             \
        }                                                                           \
    } while (0)

static void integers(void) {
    for (int call = 0; call < 2; call++) {
        unsigned long long isum = 0;
        const int64_t ints[] = {-123456789, 0xdeadbeefu, 0x123456789abcdef0LL, -1234, 'z',
                                (int64_t)0xfedcba9876543210ULL, -7, INT64_MIN + 5, 4000000000u, 42};
        EXPECT(cuProbeIntegers(&isum, -123456789, 0xdeadbeefu, 0x123456789abcdef0LL, -1234, 'z',
                               0xfedcba9876543210ULL, -7, INT64_MIN + 5, 4000000000u, 42) == CUDA_SUCCESS);
        EXPECT(isum == fold_integers(ints, 10));
    }
}

static void floats(void) {
    for (int call = 0; call < 2; call++) {
        double fsum = 0;
        const double values[] = {1.5, -2.25, 3.125, 4.5, -5.75, 6.0625, 7.25, -8.5, 9.875, 10.5};
        CUresult rc = cuProbeFloats(&fsum, 1.5, -2.25f, 3.125, 4.5f, -5.75, 6.0625f, 7.25, -8.5f, 9.875, 10.5f, 77);
        EXPECT(rc == (CUresult)77);
        EXPECT(fsum == fold_floats(values, 10));
    }
}

static void mixed(void) {
    for (int call = 0; call < 2; call++) {
        double msum = 0;
        const int64_t mints[] = {-1, 2, -3, 0x7fffffffffffLL, 5, -6, 7, 0x0123456789LL};
        const double mfloats[] = {0.5, -1.5, 2.5, -3.5, 4.5, -5.5, 6.5, -7.5, 8.5};
        EXPECT(cuProbeMixed(&msum, -1, 0.5, 2, -1.5, -3, 2.5, 0x7fffffffffffLL, -3.5, 5, 4.5, -6, -5.5, 7, 6.5,
                            0x0123456789LL, -7.5, 8.5) == CUDA_SUCCESS);
        EXPECT(msum == (double)(fold_integers(mints, 8) % 1000003u) + fold_floats(mfloats, 9));
    }
}

static void indirect(void) {
    for (int call = 0; call < 2; call++) {
        /* The library defines it as returning a struct: called as such. */
        struct big (*indirect)(int) = (struct big (*)(int))(void (*)(void))cuProbeIndirect;
        struct big b = indirect(1000 + call);
        EXPECT(b.v[0] == 1000 + call && b.v[1] == 2 * (1000 + call) && b.v[2] == 3 * (1000 + call) &&
               b.v[3] == 4 * (1000 + call));
    }
}

static void no_library(void) {
    for (int call = 0; call < 2; call++) {
        unsigned long long isum = 5;
        EXPECT(cuProbeIntegers(&isum, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
        EXPECT(isum == 5);
        double fsum = 5;
        EXPECT(cuProbeFloats(&fsum, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
        EXPECT(fsum == 5);
    }
}

int main(int argc, char **argv) {
    const char *scenario = argc > 1 ? argv[1] : "";
    if (strcmp(scenario, "integers") == 0)
        integers();
    else if (strcmp(scenario, "floats") == 0)
        floats();
    else if (strcmp(scenario, "mixed") == 0)
        mixed();
    else if (strcmp(scenario, "indirect") == 0)
        indirect();
    else if (strcmp(scenario, "no-library") == 0)
        no_library();
    else {
        fprintf(stderr, "unknown scenario `%s`\n", scenario);
        return 2;
    }
    if (failed) return 1;
    printf("ok: %s\n", scenario);
    return 0;
}
