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
 *
 * nvrtcGetTileIRSize is left out: a library older than the header lacks a
 * function, and only that function may fail.
 */
#include <stddef.h>
#ifdef FAKE_MARKER
#include <stdio.h>
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

int nvrtcCompileProgram(void *prog, int count, const char *const *options) {
    (void)count, (void)options;
    return prog == &program ? 0 : 5; /* NVRTC_ERROR_INVALID_PROGRAM */
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
