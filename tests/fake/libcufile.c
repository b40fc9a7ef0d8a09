/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuFile for cushim's tests, built as libcufile.so.0. Its status is
 * a struct of two ints returned by value, the code first, as cuFile's
 * CUfileError_t. It exports both cuFileDriverClose (the old export, which
 * answers CU_FILE_INTERNAL_ERROR here so that a caller of it shows) and
 * cuFileDriverClose_v2, which the header's macro names. It opens
 * libcufile_rdma.so.1 by bare name on cuFileDriverOpen, as the real one
 * does, and has no run path: by name, the loader takes a copy already
 * loaded, else LD_LIBRARY_PATH's. It lacks cuFileBufRegister, which the
 * header declares. Plain C types only; no NVIDIA header.
 *
 * Knobs: FAKE_VERSION (what cuFileGetVersion answers; default 1150, cuFile 1.15).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <sys/types.h>

#ifndef FAKE_VERSION
#define FAKE_VERSION 1150
#endif

typedef struct {
    int err;
    int cu_err;
} status_t;

static status_t answer(int err) {
    status_t s = {err, 0};
    return s;
}

status_t cuFileGetVersion(int *version) {
    if (!version) return answer(5022); /* CU_FILE_INVALID_VALUE */
    *version = FAKE_VERSION;
    return answer(0);
}

/* Where libcufile_rdma.so.1 came from, for fake_rdma_file. */
static char rdma_file[4096];

status_t cuFileDriverOpen(void) {
    void *h = dlopen("libcufile_rdma.so.1", RTLD_NOW);
    const char *(*file)(void) = h ? (const char *(*)(void))dlsym(h, "fake_sublibrary_file") : NULL;
    snprintf(rdma_file, sizeof rdma_file, "%s", file ? file() : "none");
    return answer(0);
}

const char *fake_rdma_file(void) { return rdma_file; }

status_t cuFileDriverClose(void) { return answer(5030); }
status_t cuFileDriverClose_v2(void) { return answer(0); }

/* Reads `size` bytes of 7 into the buffer, as if from the file. */
ssize_t cuFileRead(void *fh, void *buffer, size_t size, off_t file_offset, off_t buffer_offset) {
    (void)fh;
    (void)file_offset;
    unsigned char *out = (unsigned char *)buffer + buffer_offset;
    for (size_t i = 0; i < size; i++) out[i] = 7;
    return (ssize_t)size;
}
