/* The library behind tests/aarch64/registers.h, built as a fake
 * libcuda.so.1 with tests/fake/libcuda.c. It does not read registers.h: it
 * defines cuProbeIndirect as the function its callers call. */
#include "fold.h"

/* Loaded by a stub's first call, from inside the binder: the library's
 * initializer leaves every register that a call may change changed, as any
 * function may, so that the binder's saving of the arguments shows. */
__attribute__((constructor)) static void clobber(void) {
#if defined(__aarch64__)
#define V(n) "movi v" #n ".16b, #0xa5\n"
#define X(n) "mov x" #n ", #0xa5a5\n"
    __asm__ volatile(V(0) V(1) V(2) V(3) V(4) V(5) V(6) V(7) V(16) V(17) V(18) V(19) V(20) V(21) V(22) V(23)
                         V(24) V(25) V(26) V(27) V(28) V(29) V(30) V(31) X(0) X(1) X(2) X(3) X(4) X(5) X(6)
                             X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17)
                     :
                     :
                     : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v17", "v18", "v19", "v20",
                       "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "x0", "x1",
                       "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15",
                       "x16", "x17", "memory");
#elif defined(__x86_64__)
#define V(n) "pcmpeqd %%xmm" #n ", %%xmm" #n "\n"
#define X(r) "mov $0xa5a5, %%" #r "\n"
    __asm__ volatile(V(0) V(1) V(2) V(3) V(4) V(5) V(6) V(7) V(8) V(9) V(10) V(11) V(12) V(13) V(14) V(15)
                         X(rax) X(rcx) X(rdx) X(rsi) X(rdi) X(r8) X(r9) X(r10) X(r11)
                     :
                     :
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
                       "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "rax", "rcx", "rdx", "rsi", "rdi", "r8",
                       "r9", "r10", "r11", "memory");
#endif
}

int cuProbeIntegers(unsigned long long *sum, int a1, unsigned a2, long long a3, short a4, char a5,
                    unsigned long long a6, int a7, long long a8, unsigned a9, long long a10) {
    int64_t v[] = {a1, a2, a3, a4, a5, (int64_t)a6, a7, a8, a9, a10};
    *sum = fold_integers(v, 10);
    return 0;
}

/* Answers its last argument, an integer after ten floating-point ones. */
int cuProbeFloats(double *sum, double d0, float f1, double d2, float f3, double d4, float f5, double d6,
                  float f7, double d8, float f9, int last) {
    double v[] = {d0, f1, d2, f3, d4, f5, d6, f7, d8, f9};
    *sum = fold_floats(v, 10);
    return last;
}

int cuProbeMixed(double *sum, long long a1, double d1, long long a2, double d2, long long a3, double d3,
                 long long a4, double d4, long long a5, double d5, long long a6, double d6, long long a7,
                 double d7, long long a8, double d8, double d9) {
    int64_t a[] = {a1, a2, a3, a4, a5, a6, a7, a8};
    double d[] = {d1, d2, d3, d4, d5, d6, d7, d8, d9};
    *sum = (double)(fold_integers(a, 8) % 1000003u) + fold_floats(d, 9);
    return 0;
}

/* Declared as returning a status, defined as returning a struct that does
 * not fit in registers: its caller passes where to put it in x8 (aarch64),
 * or as a hidden first argument (x86-64). */
struct big cuProbeIndirect(int a1) {
    struct big b = {{a1, a1 * 2LL, a1 * 3LL, a1 * 4LL}};
    return b;
}
