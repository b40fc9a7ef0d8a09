/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuSPARSE for cushim's tests, built as libcusparse.so.<major> and
 * linked against the fake libnvJitLink.so.13 (NEEDED, with no run path), as
 * CUDA 12's is: loading it by path works only when nvJitLink was loaded
 * first from the same directory. It lacks cusparseXgebsr2csr, which the
 * header declares, as the real one lacks 37 functions. Plain C types only;
 * no NVIDIA header.
 *
 * Knobs: FAKE_MAJOR, FAKE_MINOR (what cusparseGetProperty reports; default
 * 12.6, CUDA 13's cuSPARSE).
 */
#ifndef FAKE_MAJOR
#define FAKE_MAJOR 12
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR 6
#endif

int nvJitLinkVersion(unsigned *major, unsigned *minor);

static int handle;

int cusparseGetProperty(int type, int *value) {
    if (!value) return 3; /* CUSPARSE_STATUS_INVALID_VALUE */
    switch (type) {
        case 0: *value = FAKE_MAJOR; return 0;
        case 1: *value = FAKE_MINOR; return 0;
        case 2: *value = 0; return 0;
        default: return 3;
    }
}

int cusparseCreate(void **h) {
    unsigned major = 0, minor = 0;
    /* Reaches into nvJitLink, as the real library does. */
    if (!h || nvJitLinkVersion(&major, &minor) != 0 || major != 13) return 1;
    *h = &handle;
    return 0;
}

int cusparseDestroy(void *h) { return h == &handle ? 0 : 1; }

const char *cusparseGetErrorString(int status) { return status == 0 ? "fake: success" : "fake: other"; }
