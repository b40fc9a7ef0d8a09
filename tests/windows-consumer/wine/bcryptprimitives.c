/* Wine 8 (Debian 12) lacks bcryptprimitives.dll, whose ProcessPrng Rust's
 * standard library imports on Windows. This stand-in, placed beside the test
 * executable under Wine only, answers from RtlGenRandom. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    return SystemFunction036(data, (ULONG)length);
}
