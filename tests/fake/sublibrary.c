/* A fake sublibrary for cushim's tests (cuDNN 9's libcudnn_graph.so.9,
 * libcudnn_ops.so.9, ..., cuFile's libcufile_rdma.so.1): it only tells
 * which file it is. */
/* Private to this file, so that its address is this copy's. */
static const char anchor = 0;

#ifdef _WIN32
/* The Windows family test's DLLs (cuDNN's cudnn_graph64_9.dll, ...). */
#include <windows.h>

const char *fake_sublibrary_file(void) {
    static char file[MAX_PATH];
    HMODULE module = NULL;
    DWORD flags = GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT;
    if (!GetModuleHandleExA(flags, &anchor, &module) || GetModuleFileNameA(module, file, sizeof file) == 0)
        return "?";
    return file;
}
#else
#define _GNU_SOURCE
#include <dlfcn.h>

const char *fake_sublibrary_file(void) {
    Dl_info info;
    if (dladdr(&anchor, &info) == 0 || !info.dli_fname) return "?";
    return info.dli_fname;
}
#endif
