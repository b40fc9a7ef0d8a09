/* A planted DLL: if a loader picks it up from the executable's or the
 * working directory, its DllMain writes the marker file named by the
 * CUSHIM_PLANT_MARKER environment variable. Built as nvcuda.dll
 * (-DPLANT_NVCUDA: cuInit claims success) or nvrtc64_130_0.dll
 * (-DPLANT_NVRTC: nvrtcVersion answers 13.9). */
#include <windows.h>

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved) {
    (void)instance;
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH) {
        char path[MAX_PATH];
        DWORD n = GetEnvironmentVariableA("CUSHIM_PLANT_MARKER", path, sizeof path);
        if (n > 0 && n < sizeof path) {
            HANDLE f = CreateFileA(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
            if (f != INVALID_HANDLE_VALUE) CloseHandle(f);
        }
    }
    return TRUE;
}

#ifdef PLANT_NVCUDA
__declspec(dllexport) int cuInit(unsigned int flags) {
    (void)flags;
    return 0;
}

__declspec(dllexport) int cuDriverGetVersion(int *version) {
    *version = 13050;
    return 0;
}
#endif

#ifdef PLANT_NVRTC
__declspec(dllexport) int nvrtcVersion(int *major, int *minor) {
    *major = 13;
    *minor = 9;
    return 0;
}
#endif
