/* family-release: 13.5 (tests/family.rs: the release of its stubs) */
/* A fake NVRTC for cushim's tests, built as libnvrtc.so.<major> in the
 * directory layouts users install it in (pip wheels, conda, a toolkit). It
 * is written against plain C types and needs no NVIDIA header.
 *
 * Knobs (preprocessor):
 *   FAKE_MAJOR, FAKE_MINOR  what nvrtcVersion reports (default 13.5); the
 *                           tests give each copy its own, so that a program
 *                           can tell which copy it loaded
 *   FAKE_MARKER="path"      an initializer that creates that file: a test
 *                           tells whether the library was ever loaded
 *   FAKE_NO_VERSION         leave nvrtcVersion out (a library that is no
 *                           NVRTC, or a broken one)
 *   FAKE_BUILTINS           nvrtcCompileProgram opens its builtins by bare
 *                           name, as the real one does
 *                           (libnvrtc-builtins.so.<major>.<minor>, Windows
 *                           nvrtc-builtins64_<major><minor>.dll), and fails
 *                           with NVRTC_ERROR_BUILTIN_OPERATION_FAILURE without
 *                           them; the program log says which file it got, or
 *                           the loader's error (tests/fake/libnvrtc-builtins.c)
 *
 * nvrtcGetTileIRSize is left out: a library older than the header lacks a
 * function, and only that function may fail.
 */
#if defined(FAKE_BUILTINS) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* dladdr */
#endif
#include <stddef.h>
#if defined(FAKE_MARKER) || defined(FAKE_BUILTINS)
#include <stdio.h>
#endif
#ifdef FAKE_BUILTINS
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif
#endif

#ifndef FAKE_MAJOR
#define FAKE_MAJOR 13
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR 5
#endif

#ifdef FAKE_MARKER
__attribute__((constructor)) static void loaded(void) {
    FILE *f = fopen(FAKE_MARKER, "w");
    if (f) fclose(f);
}
#endif

#ifndef FAKE_NO_VERSION
int nvrtcVersion(int *major, int *minor) {
    if (!major || !minor) return 3; /* NVRTC_ERROR_INVALID_INPUT */
    *major = FAKE_MAJOR;
    *minor = FAKE_MINOR;
    return 0;
}
#endif

const char *nvrtcGetErrorString(int result) { return result == 0 ? "fake: success" : "fake: failure"; }

static int program;

int nvrtcCreateProgram(void **prog, const char *src, const char *name, int headers, const char *const *sources,
                       const char *const *names) {
    (void)name, (void)headers, (void)sources, (void)names;
    if (!prog || !src) return 3;
    *prog = &program;
    return 0;
}

/* What the last compile says: the builtins' file, or why there is none. */
static char program_log[4096];

#ifdef FAKE_BUILTINS
#define FAKE_TEXT(x) #x
#define FAKE_TEXT_OF(x) FAKE_TEXT(x)
/* Opens the builtins by bare name, as NVRTC does when it compiles; 1 when
 * they load, with the file in the log. */
static int open_builtins(void) {
#ifdef _WIN32
    const char *name = "nvrtc-builtins64_" FAKE_TEXT_OF(FAKE_MAJOR) FAKE_TEXT_OF(FAKE_MINOR) ".dll";
    HMODULE h = LoadLibraryA(name);
    if (!h) {
        snprintf(program_log, sizeof program_log, "failed to open %s", name);
        return 0;
    }
    char path[1024];
    DWORD n = GetModuleFileNameA(h, path, sizeof path);
    path[n < sizeof path ? n : sizeof path - 1] = '\0';
    snprintf(program_log, sizeof program_log, "builtins %s", path);
#else
    const char *name = "libnvrtc-builtins.so." FAKE_TEXT_OF(FAKE_MAJOR) "." FAKE_TEXT_OF(FAKE_MINOR);
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(program_log, sizeof program_log, "failed to open %s: %s", name, e ? e : "?");
        return 0;
    }
    void *f = dlsym(h, "fake_builtins");
    Dl_info info;
    if (!f || !dladdr(f, &info) || !info.dli_fname) {
        snprintf(program_log, sizeof program_log, "%s is not the builtins", name);
        return 0;
    }
    snprintf(program_log, sizeof program_log, "builtins %s", info.dli_fname);
#endif
    return 1;
}
#endif

int nvrtcCompileProgram(void *prog, int count, const char *const *options) {
    (void)count, (void)options;
    if (prog != &program) return 5; /* NVRTC_ERROR_INVALID_PROGRAM */
#ifdef FAKE_BUILTINS
    if (!open_builtins()) return 7; /* NVRTC_ERROR_BUILTIN_OPERATION_FAILURE */
#endif
    return 0;
}

int nvrtcGetProgramLogSize(void *prog, size_t *size) {
    if (prog != &program || !size) return 5;
    size_t n = 0;
    while (program_log[n]) ++n;
    *size = n + 1;
    return 0;
}

int nvrtcGetProgramLog(void *prog, char *log) {
    if (prog != &program || !log) return 5;
    size_t n = 0;
    do log[n] = program_log[n];
    while (program_log[n++]);
    return 0;
}

int nvrtcGetPTXSize(void *prog, size_t *size) {
    if (prog != &program || !size) return 5;
    *size = 42;
    return 0;
}

int nvrtcDestroyProgram(void **prog) {
    if (!prog || *prog != &program) return 5;
    *prog = NULL;
    return 0;
}
