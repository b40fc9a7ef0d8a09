/* cushim test header: functions whose arguments fill every argument register
 * of the platform's C calling convention and then the stack, so that a test
 * sees whether a stub's first call (its binder) hands each one on unchanged.
 * Written for cushim's tests; it imitates the shape of a driver header. */
#include "../../headers/fixtures/common/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** \brief Eleven integer arguments: more than any convention passes in registers. */
CUresult CUDAAPI cuProbeIntegers(unsigned long long *sum, int a1, unsigned a2, long long a3, short a4, char a5,
                                 unsigned long long a6, int a7, long long a8, unsigned a9, long long a10);
/** \brief Ten floating-point arguments and an integer after them. */
CUresult CUDAAPI cuProbeFloats(double *sum, double d0, float f1, double d2, float f3, double d4, float f5,
                               double d6, float f7, double d8, float f9, int last);
/** \brief Integers and floating-point arguments, interleaved, past the registers of both. */
CUresult CUDAAPI cuProbeMixed(double *sum, long long a1, double d1, long long a2, double d2, long long a3,
                              double d3, long long a4, double d4, long long a5, double d5, long long a6,
                              double d6, long long a7, double d7, long long a8, double d8, double d9);
/** \brief Called as a function that returns a 32-byte struct (its address in
 * the indirect-result register): the library defines it that way. */
CUresult CUDAAPI cuProbeIndirect(int a1);

#ifdef __cplusplus
}
#endif
