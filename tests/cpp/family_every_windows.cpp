// The Windows family test's C++ program (tests/family_windows.rs, built with
// mingw-w64 and run under Wine): every library of cushim's registry but the
// driver through the committed CUDA 13.5 pairs, `present LIB...` and
// `absent LIB...` as tests/cpp/family.cpp runs them. A library with a
// Windows file runs its own calls (tests/fake/<name>.cpp); one without only
// says what its stubs answer. dlopen and dlsym, which those calls use to
// reach a fake's extra exports, are LoadLibrary and GetProcAddress here.
#include <windows.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
            std::exit(1);                                             \
        }                                                             \
    } while (0)

#define RTLD_NOW 0
#define RTLD_LOCAL 0
#define RTLD_GLOBAL 0
#define RTLD_NOLOAD 1

// RTLD_NOLOAD: only a module already loaded, by its path or name.
static void *dlopen(const char *file, int flags) {
    HMODULE module = (flags & RTLD_NOLOAD) ? GetModuleHandleA(file) : LoadLibraryA(file);
    return reinterpret_cast<void *>(module);
}

static void *dlsym(void *module, const char *name) {
    return reinterpret_cast<void *>(GetProcAddress(static_cast<HMODULE>(module), name));
}

// Each library's pair header, its scenarios where it has a Windows file, and
// `which`, `present` and `absent` over them: written by
// tests/family_windows.rs from the registry.
#include "libraries.h"

int main(int argc, char **argv) {
    CHECK(argc >= 2);
    const char *scenario = argv[1];
    if (std::strcmp(scenario, "present") == 0) {
        for (int i = 2; i < argc; ++i) present(argv[i]);
    } else if (std::strcmp(scenario, "absent") == 0) {
        for (int i = 2; i < argc; ++i) absent(argv[i]);
    } else {
        std::fprintf(stderr, "unknown scenario %s\n", scenario);
        return 2;
    }
    std::printf("ok: %s\n", scenario);
    return 0;
}
