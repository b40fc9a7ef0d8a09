// The Windows test program, cross-compiled with mingw-w64 and run under Wine.
// No NVIDIA driver is installed there; a planted nvcuda.dll sits in the
// executable's directory and in the working directory. The stubs must report
// "library not found" and must never load the planted DLL.
#include <cuda.h>
#include <windows.h>

#include <cstdio>
#include <cstring>

#include "cuda_shim.h"

int main(int argc, char **argv) {
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
    // Control: the default search order does find the planted DLL, so the
    // checks above could have failed.
    HMODULE control = LoadLibraryA("nvcuda.dll");
    bool planted_works = control != nullptr && GetFileAttributesA(marker) != INVALID_FILE_ATTRIBUTES;
    std::printf("control: LoadLibraryA(\"nvcuda.dll\") %s the planted DLL\n", planted_works ? "loads" : "does not load");
    ok = ok && planted_works;
    std::printf("%s\n", ok ? "ok: windows" : "FAILED");
    return ok ? 0 : 1;
}
