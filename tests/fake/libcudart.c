/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake CUDA runtime for cushim's tests, built as libcudart.so.<major>: a
 * member of the CUDA family that a program loaded itself, whose directory
 * the search for its siblings (NVRTC, nvJitLink, ...) then looks in; a
 * runtime module's library, with a few functions over host memory; and, with
 * FAKE_DRIVER, the runtime that hands out the driver's functions to a driver
 * module generated with `--resolve runtime-entry-point`.
 *
 * Knobs (preprocessor):
 *   FAKE_VERSION=n        what cudaRuntimeGetVersion reports (default 13050)
 *   FAKE_DRIVER="path"    the fake driver (tests/fake/libcuda.c) to hand out,
 *                         opened by this absolute path on the first entry-point
 *                         call, as NVIDIA's runtime opens libcuda.so.1 itself.
 *                         Without it the runtime has no entry points at all.
 *                         With it, the entry points of FAKE_VERSION's release:
 *                           11.3 to 11.8: cudaGetDriverEntryPoint(symbol,
 *                             &pfn, flags), 3 arguments;
 *                           12.0 to 12.4: cudaGetDriverEntryPoint(symbol,
 *                             &pfn, flags, &driverStatus), 4 arguments;
 *                           12.5 and later: that one, and
 *                             cudaGetDriverEntryPointByVersion(symbol, &pfn,
 *                             cudaVersion, flags, &driverStatus).
 *                         They ask the driver's cuGetProcAddress_v2 as NVIDIA's
 *                         runtime does: at cudaVersion, or at FAKE_VERSION for
 *                         cudaGetDriverEntryPoint (whose answer for
 *                         "cuGetProcAddress" is the driver's v2 from 12.0 on,
 *                         v1 before). The driver's choice of per-thread
 *                         variants (flag 2) applies.
 *   FAKE_NO_BY_VERSION    leave cudaGetDriverEntryPointByVersion out (a 12.5 or
 *                         later runtime then looks like a 12.0 to 12.4 one)
 *   FAKE_NULL_SUCCESS     a missing symbol comes back as success with a NULL
 *                         pointer and status 0 (instead of status 1, "symbol
 *                         not found")
 *   FAKE_NO_DRIVER        cudaRuntimeGetVersion answers 35
 *                         (cudaErrorInsufficientDriver) and reports nothing,
 *                         as 11.8's does on a machine without a driver
 *
 * The entry points abort on a NULL name or out-pointer, on flags other than 1
 * (cudaEnableLegacyStream) and 2 (cudaEnablePerThreadDefaultStream), and, in
 * the 4-argument forms, on a NULL or misaligned status pointer: NVIDIA's
 * runtime writes the status there (a 3-argument call of the 4-argument form
 * hands it whatever the register holds). Test hooks count the calls and keep
 * the last version and name asked for.
 */
#include <stddef.h>

#ifndef FAKE_VERSION
#define FAKE_VERSION 13050
#endif

int cudaRuntimeGetVersion(int *version) {
    if (!version) return 1;
#ifdef FAKE_NO_DRIVER
    return 35;
#else
    *version = FAKE_VERSION;
    return 0;
#endif
}

/* cudaMemcpyAsync and its per-thread twin: each says which one ran. */
static const char *last_copy = "none";

const char *fake_last_copy(void) { return last_copy; }

int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, void *stream) {
    (void)dst, (void)src, (void)count, (void)kind, (void)stream;
    last_copy = "cudaMemcpyAsync";
    return 0;
}

int cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind, void *stream) {
    (void)dst, (void)src, (void)count, (void)kind, (void)stream;
    last_copy = "cudaMemcpyAsync_ptsz";
    return 0;
}

/* Device memory is host memory here: enough for a program to allocate,
 * fill, copy and free through the stubs. */
#include <stdlib.h>
#include <string.h>

int cudaMalloc(void **ptr, size_t size) {
    if (!ptr) return 1; /* cudaErrorInvalidValue */
    *ptr = malloc(size ? size : 1);
    return *ptr ? 0 : 2; /* cudaErrorMemoryAllocation */
}

int cudaFree(void *ptr) {
    free(ptr);
    return 0;
}

int cudaMemset(void *ptr, int value, size_t count) {
    if (!ptr) return 1;
    memset(ptr, value, count);
    return 0;
}

int cudaMemcpy(void *dst, const void *src, size_t count, int kind) {
    if (!dst || !src || kind < 0 || kind > 4) return 1;
    memcpy(dst, src, count);
    return 0;
}

int cudaGetDeviceCount(int *count) {
    if (!count) return 1;
    *count = 1;
    return 0;
}

/* 13.x's plain export (12.x's plain one has the old struct): the name is
 * the struct's first member. */
int cudaGetDeviceProperties(char *prop, int device) {
    if (!prop || device != 0) return 101; /* cudaErrorInvalidDevice */
    strcpy(prop, "fake device");
    return 0;
}

/* The entry points that nvcc's host code calls by itself, for
 * tests/compiled.rs: each prints what it got ("got: ..."), as
 * tests/fake/cudart_compiled.cpp prints what it sent ("sent: ..."), in the
 * same words. The fat binary's handle is an object of the fake's own; a
 * pushed launch configuration comes back from the next pop. */
#include <stdio.h>

typedef struct {
    unsigned x, y, z;
} fake_dim3;

static void *fake_module[1];
static fake_dim3 pushed_grid, pushed_block;
static size_t pushed_shared;
static void *pushed_stream;

void **__cudaRegisterFatBinary(void *fat_binary) {
    printf("got: __cudaRegisterFatBinary(%p) = %p\n", fat_binary, (void *)fake_module);
    return fake_module;
}

void __cudaRegisterFatBinaryEnd(void **handle) {
    printf("got: __cudaRegisterFatBinaryEnd(%p)\n", (void *)handle);
}

void __cudaUnregisterFatBinary(void **handle) {
    printf("got: __cudaUnregisterFatBinary(%p)\n", (void *)handle);
}

void __cudaRegisterFunction(void **handle, const char *host_function, char *device_function,
                            const char *device_name, int thread_limit, void *tid, void *bid,
                            void *block, void *grid, int *warp_size) {
    printf("got: __cudaRegisterFunction(%p, %p, %s, %s, %d, %p, %p, %p, %p, %p)\n",
           (void *)handle, (const void *)host_function, device_function, device_name,
           thread_limit, tid, bid, block, grid, (void *)warp_size);
}

void __cudaRegisterVar(void **handle, char *host_variable, char *device_address,
                       const char *device_name, int ext, size_t size, int constant, int global) {
    printf("got: __cudaRegisterVar(%p, %p, %s, %s, %d, %zu, %d, %d)\n", (void *)handle,
           (void *)host_variable, device_address, device_name, ext, size, constant, global);
}

void __cudaRegisterManagedVar(void **handle, void **host_pointer, char *device_address,
                              const char *device_name, int ext, size_t size, int constant,
                              int global) {
    printf("got: __cudaRegisterManagedVar(%p, %p, %s, %s, %d, %zu, %d, %d)\n", (void *)handle,
           (void *)host_pointer, device_address, device_name, ext, size, constant, global);
}

char __cudaInitModule(void **handle) {
    printf("got: __cudaInitModule(%p) = 1\n", (void *)handle);
    return 1;
}

unsigned __cudaPushCallConfiguration(fake_dim3 grid, fake_dim3 block, size_t shared, void *stream) {
    pushed_grid = grid, pushed_block = block, pushed_shared = shared, pushed_stream = stream;
    printf("got: __cudaPushCallConfiguration(%u %u %u, %u %u %u, %zu, %p) = 0\n", grid.x, grid.y,
           grid.z, block.x, block.y, block.z, shared, stream);
    return 0;
}

int __cudaPopCallConfiguration(fake_dim3 *grid, fake_dim3 *block, size_t *shared, void *stream) {
    if (!grid || !block || !shared || !stream) return 1; /* cudaErrorInvalidValue */
    *grid = pushed_grid, *block = pushed_block, *shared = pushed_shared;
    *(void **)stream = pushed_stream;
    printf("got: __cudaPopCallConfiguration() = 0: %u %u %u, %u %u %u, %zu, %p\n", grid->x,
           grid->y, grid->z, block->x, block->y, block->z, *shared, pushed_stream);
    return 0;
}

#ifdef FAKE_DRIVER
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cudaError_t values. */
enum { SUCCESS = 0, INVALID_VALUE = 1, INSUFFICIENT_DRIVER = 35 };

static atomic_int by_version_calls;
static atomic_int entry_point_calls;
static atomic_int last_version;
static atomic_uint flags_seen;
static const char *_Atomic last_symbol = "";

int fake_cudart_by_version_calls(void) { return atomic_load(&by_version_calls); }
int fake_cudart_entry_point_calls(void) { return atomic_load(&entry_point_calls); }
int fake_cudart_last_version(void) { return atomic_load(&last_version); }
unsigned fake_cudart_flags_seen(void) { return atomic_load(&flags_seen); }
const char *fake_cudart_last_symbol(void) { return atomic_load(&last_symbol); }

typedef int (*get_proc_v2)(const char *, void **, int, unsigned long long, int *);

/* The driver, opened once by its absolute path (never unloaded). */
static void *driver(void) {
    static void *_Atomic handle;
    void *h = atomic_load(&handle);
    if (!h) {
        h = dlopen(FAKE_DRIVER, RTLD_NOW | RTLD_LOCAL);
        atomic_store(&handle, h);
    }
    return h;
}

static void check(const char *symbol, void **pfn, unsigned long long flags) {
    if (!symbol || !pfn) abort();
    if (flags != 1 && flags != 2) abort();
    atomic_fetch_or(&flags_seen, (unsigned)flags);
    atomic_store(&last_symbol, symbol);
}

__attribute__((unused)) static void check_status(int *status) {
    if (!status || ((uintptr_t)status % sizeof(int)) != 0) abort();
}

/* What NVIDIA's runtime does: the driver's cuGetProcAddress_v2 at `version`. */
static int ask(const char *symbol, void **pfn, int version, unsigned long long flags, int *status) {
    *pfn = NULL;
    int found = 1;
    void *h = driver();
    get_proc_v2 lookup = h ? (get_proc_v2)dlsym(h, "cuGetProcAddress_v2") : NULL;
    if (!lookup) {
        if (status) *status = found;
        return INSUFFICIENT_DRIVER;
    }
    atomic_store(&last_version, version);
    if (lookup(symbol, pfn, version, flags, &found) != 0) {
        *pfn = NULL;
        if (status) *status = 1;
        return INVALID_VALUE;
    }
#ifdef FAKE_NULL_SUCCESS
    if (!*pfn) found = 0;
#endif
    if (status) *status = found;
    return SUCCESS;
}

/* cudaGetDriverEntryPoint at the runtime's own release. The driver's lookup
 * itself is one of the functions it hands out, at that release's ABI. */
__attribute__((unused)) static int entry_point(const char *symbol, void **pfn, unsigned long long flags, int *status) {
    check(symbol, pfn, flags);
    atomic_fetch_add(&entry_point_calls, 1);
    if (strcmp(symbol, "cuGetProcAddress") == 0) {
        void *h = driver();
        *pfn = h ? dlsym(h, FAKE_VERSION >= 12000 ? "cuGetProcAddress_v2" : "cuGetProcAddress") : NULL;
        atomic_store(&last_version, FAKE_VERSION);
        if (status) *status = *pfn ? 0 : 1;
        return h ? SUCCESS : INSUFFICIENT_DRIVER;
    }
    return ask(symbol, pfn, FAKE_VERSION, flags, status);
}

#if FAKE_VERSION >= 12000
int cudaGetDriverEntryPoint(const char *symbol, void **pfn, unsigned long long flags, int *status) {
    check_status(status);
    return entry_point(symbol, pfn, flags, status);
}
#elif FAKE_VERSION >= 11030
int cudaGetDriverEntryPoint(const char *symbol, void **pfn, unsigned long long flags) {
    return entry_point(symbol, pfn, flags, NULL);
}
#endif

#if FAKE_VERSION >= 12050 && !defined(FAKE_NO_BY_VERSION)
int cudaGetDriverEntryPointByVersion(const char *symbol, void **pfn, unsigned int version,
                                     unsigned long long flags, int *status) {
    check(symbol, pfn, flags);
    check_status(status);
    atomic_fetch_add(&by_version_calls, 1);
    return ask(symbol, pfn, (int)version, flags, status);
}
#endif
#endif
