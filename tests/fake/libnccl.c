/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake NCCL 2 for cushim's tests, built as libnccl.so.2. The real library
 * exports each function as pncclX and, as its weak alias, ncclX; this fake
 * exports ncclGroupStart alone (no pncclGroupStart), so that only a loader
 * that binds the ncclX names can call it. It lacks ncclCommShrink, which the
 * header declares. One rank, and device memory is host memory. Plain C types
 * only; no NVIDIA header.
 *
 * Knobs: FAKE_VERSION (what ncclGetVersion answers; default 23203).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_VERSION
#define FAKE_VERSION 23203
#endif

int pncclGetVersion(int *version) {
    if (!version) return 4; /* ncclInvalidArgument */
    *version = FAKE_VERSION;
    return 0;
}
int ncclGetVersion(int *version) __attribute__((weak, alias("pncclGetVersion")));

const char *pncclGetErrorString(int result) { return result == 0 ? "no error" : "fake error"; }
const char *ncclGetErrorString(int result) __attribute__((weak, alias("pncclGetErrorString")));

struct comm {
    int rank;
};

int pncclCommInitAll(struct comm **comms, int ndev, const int *devlist) {
    (void)devlist;
    if (!comms || ndev != 1) return 4;
    comms[0] = calloc(1, sizeof **comms);
    return comms[0] ? 0 : 2;
}
int ncclCommInitAll(struct comm **comms, int ndev, const int *devlist)
    __attribute__((weak, alias("pncclCommInitAll")));

int pncclCommDestroy(struct comm *comm) {
    if (!comm) return 4;
    free(comm);
    return 0;
}
int ncclCommDestroy(struct comm *comm) __attribute__((weak, alias("pncclCommDestroy")));

/* One rank: the sum is the input. Only ncclFloat (7) and ncclSum (0). */
int pncclAllReduce(const void *send, void *recv, size_t count, int datatype, int op, struct comm *comm,
                   void *stream) {
    (void)stream;
    if (!comm || datatype != 7 || op != 0) return 4;
    memmove(recv, send, count * sizeof(float));
    return 0;
}
int ncclAllReduce(const void *send, void *recv, size_t count, int datatype, int op, struct comm *comm,
                  void *stream) __attribute__((weak, alias("pncclAllReduce")));

static int depth;

int ncclGroupStart(void) {
    ++depth;
    return 0;
}

int pncclGroupEnd(void) { return depth-- > 0 ? 0 : 5; /* ncclInvalidUsage */ }
int ncclGroupEnd(void) __attribute__((weak, alias("pncclGroupEnd")));
