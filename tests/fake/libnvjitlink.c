/* family-release: 13.5 (tests/family.rs: the release of its stubs) */
/* A fake nvJitLink for cushim's tests, built as libnvJitLink.so.<major>. Like
 * the real library it exports each function once per minor release up to
 * its own (__nvJitLinkCreate_13_0 ... __nvJitLinkCreate_13_<minor>), which the
 * header's inline wrappers call, and nvJitLinkVersion. Plain C types only.
 *
 * Knobs: FAKE_MAJOR, FAKE_MINOR (default 13.5; at most 13.5 is exported).
 */
#include <stddef.h>

#ifndef FAKE_MAJOR
#define FAKE_MAJOR 13
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR 5
#endif

int nvJitLinkVersion(unsigned *major, unsigned *minor) {
    if (!major || !minor) return 4; /* NVJITLINK_ERROR_INVALID_INPUT */
    *major = FAKE_MAJOR;
    *minor = FAKE_MINOR;
    return 0;
}

static int handle;

static int create(void **h, unsigned count, const char **options) {
    (void)count, (void)options;
    if (!h) return 4;
    *h = &handle;
    return 0;
}
static int destroy(void **h) {
    if (!h || *h != &handle) return 4;
    *h = NULL;
    return 0;
}
static int complete(void *h) { return h == &handle ? 0 : 4; }

/* The exports of one minor release of major 13. */
#define EXPORTS(MIN)                                                                                   \
    int __nvJitLinkCreate_13_##MIN(void **h, unsigned n, const char **o) { return create(h, n, o); } \
    int __nvJitLinkDestroy_13_##MIN(void **h) { return destroy(h); }                                 \
    int __nvJitLinkComplete_13_##MIN(void *h) { return complete(h); }

EXPORTS(0)
#if FAKE_MINOR >= 1
EXPORTS(1)
#endif
#if FAKE_MINOR >= 2
EXPORTS(2)
#endif
#if FAKE_MINOR >= 3
EXPORTS(3)
#endif
#if FAKE_MINOR >= 4
EXPORTS(4)
#endif
#if FAKE_MINOR >= 5
EXPORTS(5)
#endif
