// The Windows test program, cross-compiled with mingw-w64 and run under Wine.
// No NVIDIA driver is installed there; a planted nvcuda.dll sits in the
// executable's directory and in the working directory. The stubs must report
// "library not found" and must never load the planted DLL. With the argument
// `fake`, the fake driver is named by CUSHIM_CUDA_LIBRARY and every argument
// of a call must reach it.
#include <cuda.h>
#include <windows.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "cuda_shim.h"
#include "nccl_shim.h"

// Calls that take many arguments, the vector registers among them, as the
// fake driver (tests/fake/libcuda.c) answers them: a code made from every
// argument. Each is made twice: through the binder, then the bound slot.
// Without a driver each answers 303.
static bool many_arguments(int expect_launch, int expect_clamp) {
    bool ok = true;
    for (int call = 0; call < 2; call++) {
        CUfunction f = reinterpret_cast<CUfunction>(std::uintptr_t{0x1000});
        CUstream stream = reinterpret_cast<CUstream>(std::uintptr_t{0x20});
        void **params = reinterpret_cast<void **>(std::uintptr_t{0x40});
        void **extra = reinterpret_cast<void **>(std::uintptr_t{0x80});
        CUresult launch = cuLaunchKernel(f, 2, 3, 5, 7, 11, 13, 17, stream, params, extra);
        CUtexref texref = reinterpret_cast<CUtexref>(std::uintptr_t{0x300});
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        CUresult clamp = cuTexRefSetMipmapLevelClamp(texref, 1.5f, 2.25f);
#pragma GCC diagnostic pop
        std::printf("call %d: cuLaunchKernel -> %d (expected %d), cuTexRefSetMipmapLevelClamp -> %d (expected %d)\n",
                    call, static_cast<int>(launch), expect_launch, static_cast<int>(clamp), expect_clamp);
        ok = ok && static_cast<int>(launch) == expect_launch && static_cast<int>(clamp) == expect_clamp;
    }
    return ok;
}

int main(int argc, char **argv) {
    if (argc > 1 && std::strcmp(argv[1], "fake") == 0) {
        // With the fake driver (CUSHIM_CUDA_LIBRARY names it).
        CUresult rc = cuInit(0);
        std::printf("cuInit -> %d\n", static_cast<int>(rc));
        const int launch = 0x1000 + 2 * 2 + 3 * 3 + 4 * 5 + 5 * 7 + 6 * 11 + 7 * 13 + 8 * 17 + 9 * 0x20 +
                           10 * 0x40 + 11 * 0x80;
        const int clamp = 0x300 + 1000 * 24 + 36;
        bool ok = rc == CUDA_SUCCESS && many_arguments(launch, clamp);
        std::printf("%s\n", ok ? "ok: fake" : "FAILED");
        return ok ? 0 : 1;
    }
    const char *marker = argc > 1 ? argv[1] : "";
    CUresult rc = cuInit(0);
    cushim_cuda_status status = cushim_cuda_last_status();
    std::printf("cuInit -> %d, status %d: %s\n", static_cast<int>(rc), static_cast<int>(status),
                cushim_cuda_last_message());
    bool ok = rc == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED && status == CUSHIM_CUDA_LIBRARY_NOT_FOUND &&
              std::strstr(cushim_cuda_last_message(), "nvcuda.dll") != nullptr;
    if (GetModuleHandleA("nvcuda.dll") != nullptr) {
        std::printf("a module named nvcuda.dll is loaded\n");
        ok = false;
    }
    if (GetFileAttributesA(marker) != INVALID_FILE_ATTRIBUTES) {
        std::printf("the planted DLL ran: %s exists\n", marker);
        ok = false;
    }
    const char *text = nullptr;
    ok = ok && cuGetErrorName(CUDA_ERROR_NO_DEVICE, &text) == CUDA_SUCCESS && std::strcmp(text, "CUDA_ERROR_NO_DEVICE") == 0;
    ok = many_arguments(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, CUDA_ERROR_SHARED_OBJECT_INIT_FAILED) && ok;
    // NCCL has no Windows library, and says so.
    cushim_nccl_status nccl = cushim_nccl_load();
    std::printf("nccl: %d: %s\n", static_cast<int>(nccl), cushim_nccl_last_message());
    ok = ok && nccl == CUSHIM_NCCL_LIBRARY_NOT_FOUND;
    // Control: the default search order does find the planted DLL, so the
    // checks above could have failed.
    HMODULE control = LoadLibraryA("nvcuda.dll");
    bool planted_works = control != nullptr && GetFileAttributesA(marker) != INVALID_FILE_ATTRIBUTES;
    std::printf("control: LoadLibraryA(\"nvcuda.dll\") %s the planted DLL\n", planted_works ? "loads" : "does not load");
    ok = ok && planted_works;
    std::printf("%s\n", ok ? "ok: windows" : "FAILED");
    return ok ? 0 : 1;
}
