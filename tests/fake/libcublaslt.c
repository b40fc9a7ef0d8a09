/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuBLASLt for cushim's tests, built as libcublasLt.so.<major>: what
 * the fake cuBLAS needs (NEEDED), and a library of its own. Plain C types only.
 * Knobs: FAKE_MAJOR, FAKE_MINOR (default 13.1). */
#ifndef FAKE_MAJOR
#define FAKE_MAJOR 13
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR 1
#endif

int cublasLtGetProperty(int type, int *value) {
    if (!value) return 7;
    switch (type) {
        case 0: *value = FAKE_MAJOR; return 0;
        case 1: *value = FAKE_MINOR; return 0;
        case 2: *value = 0; return 0;
        default: return 7;
    }
}

static int handle;

int cublasLtCreate(void **h) {
    if (!h) return 7;
    *h = &handle;
    return 0;
}

int cublasLtDestroy(void *h) { return h == &handle ? 0 : 1; }
