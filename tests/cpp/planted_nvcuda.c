/* A planted nvcuda.dll: if any loader picks it up from the executable's or the
 * working directory, its DllMain writes the marker file named by the
 * CUSHIM_PLANT_MARKER environment variable, and its cuInit claims success. */
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

__declspec(dllexport) int cuInit(unsigned int flags) {
    (void)flags;
    return 0;
}

__declspec(dllexport) int cuDriverGetVersion(int *version) {
    *version = 13050;
    return 0;
}
