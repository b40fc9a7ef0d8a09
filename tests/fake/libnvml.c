/* family-release: 13.5 (tests/family.rs: the release of its stubs) */
/* A fake NVML for cushim's tests, built as libnvidia-ml.so.1. It exports
 * the versioned functions the header binds (nvmlInit_v2) next to the old
 * unversioned ones (nvmlInit), which answer 999, a code NVML never uses: a
 * program that reaches them was bound to the wrong ABI. Plain C types only.
 *
 * Knobs: FAKE_NVML_VERSION, the text nvmlSystemGetNVMLVersion reports
 * (default "13.580.82").
 */
#include <stdio.h>

#ifndef FAKE_NVML_VERSION
#define FAKE_NVML_VERSION "13.580.82"
#endif

static int initialized;

int nvmlInit_v2(void) {
    initialized = 1;
    return 0;
}
int nvmlInit(void) { return 999; }

int nvmlShutdown(void) {
    if (!initialized) return 1; /* NVML_ERROR_UNINITIALIZED */
    initialized = 0;
    return 0;
}

int nvmlSystemGetNVMLVersion(char *version, unsigned length) {
    if (!version || length < 2) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
    snprintf(version, length, "%s", FAKE_NVML_VERSION);
    return 0;
}

const char *nvmlErrorString(int result) { return result == 0 ? "fake: success" : "fake: failure"; }

int nvmlDeviceGetCount_v2(unsigned *count) {
    if (!initialized) return 1;
    if (!count) return 2;
    *count = 1;
    return 0;
}
int nvmlDeviceGetCount(unsigned *count) {
    (void)count;
    return 999;
}
