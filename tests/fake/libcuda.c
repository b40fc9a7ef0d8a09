/* A fake CUDA driver for cushim's tests, built by the tests as libcuda.so.1.
 * It stands in for NVIDIA's library the way a user's machine presents it: a
 * shared object opened with dlopen. It is written against plain C types so
 * that it needs no CUDA header.
 *
 * Knobs (preprocessor):
 *   FAKE_DRIVER_VERSION      what cuDriverGetVersion reports (default 13050)
 *   FAKE_PROC_ADDRESS        2: cuGetProcAddress_v2 and v1 (default, 12.x and
 *                            later); 1: only the 4-argument v1 (11.3 to 11.8);
 *                            0: neither (before 11.3)
 *   FAKE_OMIT_cuMemAlloc_v2  leave cuMemAlloc out: the _v2 export and both
 *                            table entries (the v1 export stays, as a trap)
 *   FAKE_STUB                behave like NVIDIA's toolkit stub: every call
 *                            answers CUDA_ERROR_STUB_LIBRARY (34)
 *   FAKE_LEAN                record nothing per call (for benchmarks)
 *   FAKE_SLOW_LOAD=ms        the library's initializer sleeps that long
 *   FAKE_REENTER             the initializer calls the program's own
 *                            cuDriverGetVersion (its stubs, if it exports them)
 *   FAKE_QUIRKS              cuGetProcAddress_v2 misbehaves the ways some
 *                            drivers do: success with a NULL pointer for
 *                            cuDeviceGetCount, 500 for cuDeviceGetName, and
 *                            VERSION_NOT_SUFFICIENT for cuDeviceGetUuid
 *
 * Test hooks: which function ran last, which symbol cuGetProcAddress bound
 * last, how often it was asked (per base name) and which flags it saw. The
 * fake aborts when cuGetProcAddress gets a NULL name or out-pointer, or flags
 * other than 1 and 2, because the real driver crashes or misbinds on those.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_DRIVER_VERSION
#define FAKE_DRIVER_VERSION 13050
#endif
#ifndef FAKE_PROC_ADDRESS
#define FAKE_PROC_ADDRESS 2
#endif

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, STUB_LIBRARY = 34, NOT_FOUND = 500 };

#ifdef FAKE_STUB
#define STUB_GUARD return STUB_LIBRARY
#else
#define STUB_GUARD (void)0
#endif

/* Every implemented function records itself here, except in the lean build
 * that benchmarks use (FAKE_LEAN), where a call costs a few instructions. */
static const char *_Atomic last_called = "";
#ifdef FAKE_LEAN
#define ENTER(name) STUB_GUARD
#else
#define ENTER(name)                                                   \
    do {                                                              \
        STUB_GUARD;                                                   \
        atomic_store_explicit(&last_called, name, memory_order_relaxed); \
    } while (0)
#endif

static atomic_int init_calls;
static atomic_int loads;
static const char *_Atomic last_bound = "";
static atomic_int proc_calls;
static atomic_uint flags_seen;

#ifdef FAKE_SLOW_LOAD
#include <unistd.h>
#endif

#ifdef FAKE_REENTER
#include <dlfcn.h>
#endif
static int reentry_result = -1;
int fake_reentry_result(void) { return reentry_result; }

__attribute__((constructor)) static void fake_loaded(void) {
#ifdef FAKE_SLOW_LOAD
    usleep(FAKE_SLOW_LOAD * 1000); /* a slow first use, to fork in the middle of */
#endif
#ifdef FAKE_REENTER
    /* An initializer that calls the program's "cuDriverGetVersion" reaches
     * the program's stubs, in the middle of their own load. */
    void *program = dlopen(NULL, RTLD_NOW);
    int (*f)(int *) = program ? (int (*)(int *))dlsym(program, "cuDriverGetVersion") : NULL;
    int version = 0;
    if (f) reentry_result = f(&version);
#endif
    atomic_fetch_add(&loads, 1);
}

int fake_load_count(void) { return atomic_load(&loads); }
int fake_init_calls(void) { return atomic_load(&init_calls); }
const char *fake_last_called(void) { return atomic_load(&last_called); }
const char *fake_last_bound(void) { return atomic_load(&last_bound); }
int fake_proc_calls(void) { return atomic_load(&proc_calls); }
unsigned fake_flags_seen(void) { return atomic_load(&flags_seen); }

CUresult cuInit(unsigned int flags) {
    ENTER("cuInit");
    atomic_fetch_add(&init_calls, 1);
    return flags == 0 ? OK : INVALID_VALUE;
}

CUresult cuDriverGetVersion(int *version) {
    ENTER("cuDriverGetVersion");
    if (!version) return INVALID_VALUE;
    *version = FAKE_DRIVER_VERSION;
    return OK;
}

CUresult cuDeviceGetCount(int *count) {
    ENTER("cuDeviceGetCount");
    if (!count) return INVALID_VALUE;
    *count = 2;
    return OK;
}

CUresult cuDeviceGetName(char *name, int len, int dev) {
    ENTER("cuDeviceGetName");
    if (!name || len <= 0) return INVALID_VALUE;
    snprintf(name, (size_t)len, "Fake GPU %d", dev);
    return OK;
}

struct uuid16 { char bytes[16]; };

CUresult cuDeviceGetUuid_v2(struct uuid16 *uuid, int dev) {
    ENTER("cuDeviceGetUuid_v2");
    if (!uuid) return INVALID_VALUE;
    for (int i = 0; i < 16; i++) uuid->bytes[i] = (char)(i * 3 + dev);
    return OK;
}

/* The 9.2 ABI of cuDeviceGetUuid, for merged modules that keep old variants. */
CUresult cuDeviceGetUuid(struct uuid16 *uuid, int dev) {
    ENTER("cuDeviceGetUuid");
    if (!uuid) return INVALID_VALUE;
    memset(uuid->bytes, dev, sizeof uuid->bytes);
    return OK;
}

#ifndef FAKE_OMIT_cuMemAlloc_v2
CUresult cuMemAlloc_v2(unsigned long long *dptr, size_t bytesize) {
    ENTER("cuMemAlloc_v2");
    if (!dptr || bytesize == 0) return INVALID_VALUE;
    *dptr = 0x7f0000000000ULL + bytesize;
    return OK;
}
#endif

/* The 32-bit v1 ABI under the unversioned name, as old drivers export it. A
 * loader that binds `cuMemAlloc` instead of `cuMemAlloc_v2` lands here. */
CUresult cuMemAlloc(unsigned int *dptr, unsigned int bytesize) {
    ENTER("cuMemAlloc");
    (void)bytesize;
    if (dptr) *dptr = 0xdead;
    return OK;
}

static uint64_t copy_sum(const void *src, size_t n) {
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) sum += ((const unsigned char *)src)[i];
    return sum;
}

CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t n) {
    ENTER("cuMemcpyHtoD_v2");
    if (!src || dst == 0) return INVALID_VALUE;
    (void)copy_sum(src, n);
    return OK;
}

CUresult cuMemcpyHtoD_v2_ptds(unsigned long long dst, const void *src, size_t n) {
    ENTER("cuMemcpyHtoD_v2_ptds");
    if (!src || dst == 0) return INVALID_VALUE;
    (void)copy_sum(src, n);
    return OK;
}

CUresult cuStreamQuery(void *stream) {
    ENTER("cuStreamQuery");
    (void)stream;
    return OK;
}

CUresult cuStreamQuery_ptsz(void *stream) {
    ENTER("cuStreamQuery_ptsz");
    (void)stream;
    return OK;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
    ENTER("cuGetErrorName");
    if (!name) return INVALID_VALUE;
    *name = error == 0 ? "CUDA_SUCCESS" : error == 2 ? "CUDA_ERROR_OUT_OF_MEMORY" : "CUDA_ERROR_UNKNOWN";
    return OK;
}

/* Says where it came from, so tests can tell the driver from a fallback. */
CUresult cuGetErrorString(CUresult error, const char **text) {
    ENTER("cuGetErrorString");
    if (!text) return INVALID_VALUE;
    *text = error == 2 ? "fake driver: out of memory" : "fake driver: some error";
    return OK;
}

/* cuCtxCreate_v4 takes a struct pointer; the fake reads its fields back. */
struct exec_affinity { int type; int sm_count; };
struct ctx_create_params { struct exec_affinity *affinity; int num_affinity; void *cig; };

CUresult cuCtxCreate_v4(void **pctx, struct ctx_create_params *params, unsigned int flags, int dev) {
    ENTER("cuCtxCreate_v4");
    if (!pctx) return INVALID_VALUE;
    uintptr_t tag = 0x1000u + flags * 16u + (unsigned)dev;
    if (params && params->num_affinity > 0 && params->affinity)
        tag += (uintptr_t)params->affinity[0].sm_count << 20;
    *pctx = (void *)tag;
    return OK;
}

/* The 11.4 ABI of cuCtxCreate. */
CUresult cuCtxCreate_v3(void **pctx, void *params, int num_params, unsigned int flags, int dev) {
    ENTER("cuCtxCreate_v3");
    (void)params;
    if (!pctx) return INVALID_VALUE;
    *pctx = (void *)(uintptr_t)(0x3000u + flags * 16u + (unsigned)dev + (unsigned)num_params);
    return OK;
}

/* A call that fails, to tell driver failures from loading failures. */
CUresult cuCtxSynchronize(void) {
    ENTER("cuCtxSynchronize");
    return 201; /* CUDA_ERROR_INVALID_CONTEXT */
}

/* The profiler and interop headers' functions (cudaProfiler.h, cudaGL.h,
 * cudaVDPAU.h, cudaEGL.h), each with its legacy v1 export where the real
 * library has one: a shim that bound the v1 symbol would call the wrong ABI. */
CUresult cuProfilerStart(void) { ENTER("cuProfilerStart"); return OK; }
CUresult cuProfilerStop(void) { ENTER("cuProfilerStop"); return OK; }

CUresult cuGLGetDevices_v2(unsigned int *count, int *devices, unsigned int size, int list) {
    ENTER("cuGLGetDevices_v2");
    (void)devices, (void)size, (void)list;
    if (count) *count = 1;
    return OK;
}
CUresult cuGLGetDevices(unsigned int *count, int *devices, unsigned int size, int list) {
    ENTER("cuGLGetDevices");
    (void)count, (void)devices, (void)size, (void)list;
    return OK;
}

CUresult cuGLMapBufferObject_v2(unsigned long long *dptr, size_t *size, unsigned int buffer) {
    ENTER("cuGLMapBufferObject_v2");
    if (dptr) *dptr = 0x9000u + buffer;
    if (size) *size = 64;
    return OK;
}
CUresult cuGLMapBufferObject_v2_ptds(unsigned long long *dptr, size_t *size, unsigned int buffer) {
    ENTER("cuGLMapBufferObject_v2_ptds");
    if (dptr) *dptr = 0x9000u + buffer;
    if (size) *size = 64;
    return OK;
}
CUresult cuGLMapBufferObject(unsigned int *dptr, unsigned int *size, unsigned int buffer) {
    ENTER("cuGLMapBufferObject");
    (void)dptr, (void)size, (void)buffer;
    return OK;
}

CUresult cuVDPAUCtxCreate_v2(void **pctx, unsigned int flags, int dev, uint32_t vdp, void *get_proc) {
    ENTER("cuVDPAUCtxCreate_v2");
    (void)vdp, (void)get_proc;
    if (pctx) *pctx = (void *)(uintptr_t)(0x5000u + flags * 16u + (unsigned)dev);
    return OK;
}
CUresult cuVDPAUCtxCreate(void **pctx, unsigned int flags, int dev, uint32_t vdp, void *get_proc) {
    ENTER("cuVDPAUCtxCreate");
    (void)pctx, (void)flags, (void)dev, (void)vdp, (void)get_proc;
    return OK;
}

CUresult cuGraphicsEGLRegisterImage(void **resource, void *image, unsigned int flags) {
    ENTER("cuGraphicsEGLRegisterImage");
    (void)image;
    if (resource) *resource = (void *)(uintptr_t)(0x6000u + flags);
    return OK;
}

/* Calls with many arguments, for the stubs' binders: each answers a code made
 * from every argument, so that an argument the binder lost, or moved, shows.
 * cuLaunchKernel's eleven (seven on the stack on Windows, five on x86-64
 * System V): the sum of each, as an integer, times its position. */
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra) {
    ENTER("cuLaunchKernel");
    uintptr_t sum = (uintptr_t)f + 2u * gx + 3u * gy + 4u * gz + 5u * bx + 6u * by + 7u * bz + 8u * shared +
                    9u * (uintptr_t)stream + 10u * (uintptr_t)params + 11u * (uintptr_t)extra;
    return (CUresult)sum;
}

/* Two floats after a pointer (xmm1 and xmm2 on Windows, xmm0 and xmm1 on
 * x86-64 System V): the pointer plus 1000 times sixteen times the first plus
 * sixteen times the second. */
CUresult cuTexRefSetMipmapLevelClamp(void *texref, float min, float max) {
    ENTER("cuTexRefSetMipmapLevelClamp");
    return (CUresult)((uintptr_t)texref + 1000 * (int)(min * 16) + (int)(max * 16));
}

/* What cuGetProcAddress knows: base name, ABI version, per-thread or not, and
 * the function. */
struct entry {
    const char *base;
    int version;
    int per_thread;
    const char *symbol;
    void *fn;
};

#define ENTRY(base, version, per_thread, fn) {base, version, per_thread, #fn, (void *)fn}
static const struct entry table[] = {
    ENTRY("cuInit", 2000, 0, cuInit),
    ENTRY("cuDriverGetVersion", 2020, 0, cuDriverGetVersion),
    ENTRY("cuDeviceGetCount", 2000, 0, cuDeviceGetCount),
    ENTRY("cuDeviceGetName", 2000, 0, cuDeviceGetName),
    ENTRY("cuDeviceGetUuid", 9020, 0, cuDeviceGetUuid),
    ENTRY("cuDeviceGetUuid", 11040, 0, cuDeviceGetUuid_v2),
#ifndef FAKE_OMIT_cuMemAlloc_v2
    ENTRY("cuMemAlloc", 2000, 0, cuMemAlloc),
    ENTRY("cuMemAlloc", 3020, 0, cuMemAlloc_v2),
#endif
    ENTRY("cuMemcpyHtoD", 3020, 0, cuMemcpyHtoD_v2),
    ENTRY("cuMemcpyHtoD", 7000, 1, cuMemcpyHtoD_v2_ptds),
    ENTRY("cuStreamQuery", 2000, 0, cuStreamQuery),
    ENTRY("cuStreamQuery", 7000, 1, cuStreamQuery_ptsz),
    ENTRY("cuGetErrorName", 6000, 0, cuGetErrorName),
    ENTRY("cuGetErrorString", 6000, 0, cuGetErrorString),
    ENTRY("cuCtxCreate", 11040, 0, cuCtxCreate_v3),
    ENTRY("cuCtxCreate", 12050, 0, cuCtxCreate_v4),
    ENTRY("cuCtxSynchronize", 2000, 0, cuCtxSynchronize),
    ENTRY("cuProfilerStart", 4000, 0, cuProfilerStart),
    ENTRY("cuProfilerStop", 4000, 0, cuProfilerStop),
    ENTRY("cuGLGetDevices", 3000, 0, cuGLGetDevices),
    ENTRY("cuGLGetDevices", 6050, 0, cuGLGetDevices_v2),
    ENTRY("cuGLMapBufferObject", 2000, 0, cuGLMapBufferObject),
    ENTRY("cuGLMapBufferObject", 3020, 0, cuGLMapBufferObject_v2),
    ENTRY("cuGLMapBufferObject", 7000, 1, cuGLMapBufferObject_v2_ptds),
    ENTRY("cuVDPAUCtxCreate", 3000, 0, cuVDPAUCtxCreate),
    ENTRY("cuVDPAUCtxCreate", 3020, 0, cuVDPAUCtxCreate_v2),
    ENTRY("cuGraphicsEGLRegisterImage", 7000, 0, cuGraphicsEGLRegisterImage),
    ENTRY("cuLaunchKernel", 4000, 0, cuLaunchKernel),
    ENTRY("cuTexRefSetMipmapLevelClamp", 5000, 0, cuTexRefSetMipmapLevelClamp),
};

/* Per base name (the first table entry of that base): how often
 * cuGetProcAddress was asked for it. Unknown names are not counted. */
#define ENTRIES (sizeof table / sizeof table[0])
static atomic_int asked[ENTRIES];

static int first_entry(const char *base) {
    for (size_t i = 0; i < ENTRIES; i++)
        if (strcmp(table[i].base, base) == 0) return (int)i;
    return -1;
}

int fake_proc_calls_for(const char *base) {
    int i = first_entry(base);
    return i < 0 ? 0 : atomic_load(&asked[i]);
}

static void count_ask(const char *base) {
    int i = first_entry(base);
    if (i >= 0) atomic_fetch_add(&asked[i], 1);
}

enum { FOUND = 0, SYMBOL_NOT_FOUND = 1, VERSION_NOT_SUFFICIENT = 2 };

/* The driver's choice: the newest variant not newer than `version`, per-thread
 * ones first when flags ask for them. */
__attribute__((unused)) static int lookup(const char *symbol, void **pfn, int version, unsigned long long flags) {
    if (!symbol || !pfn) abort();
    if (flags != 1 && flags != 2) abort();
#if defined(__x86_64__)
    /* Change the vector argument registers, as a real driver's lookup may: a
     * binder must restore them. */
    __asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n\tpcmpeqd %%xmm1, %%xmm1\n\t"
                     "pcmpeqd %%xmm2, %%xmm2\n\tpcmpeqd %%xmm3, %%xmm3" ::: "xmm0", "xmm1", "xmm2", "xmm3");
#endif
    atomic_fetch_or(&flags_seen, (unsigned)flags);
    atomic_fetch_add(&proc_calls, 1);
    count_ask(symbol);
    *pfn = NULL;
    const struct entry *best = NULL;
    int known = 0;
    for (int pass = flags == 2 ? 1 : 0; pass >= 0 && !best; pass--) {
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
            const struct entry *e = &table[i];
            if (strcmp(e->base, symbol) != 0) continue;
            known = 1;
            if (e->per_thread != pass || e->version > version) continue;
            if (!best || e->version > best->version) best = e;
        }
    }
    if (!best) return known ? VERSION_NOT_SUFFICIENT : SYMBOL_NOT_FOUND;
    atomic_store(&last_bound, best->symbol);
    *pfn = best->fn;
    return FOUND;
}

#if FAKE_PROC_ADDRESS >= 2
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, unsigned long long flags, int *status) {
    STUB_GUARD;
    if (version > FAKE_DRIVER_VERSION) return INVALID_VALUE;
    int found = lookup(symbol, pfn, version, flags);
#ifdef FAKE_QUIRKS
    if (strcmp(symbol, "cuDeviceGetCount") == 0) {
        *pfn = NULL;
        found = FOUND;
    } else if (strcmp(symbol, "cuDeviceGetName") == 0) {
        *pfn = NULL;
        return NOT_FOUND;
    } else if (strcmp(symbol, "cuDeviceGetUuid") == 0) {
        *pfn = NULL;
        found = VERSION_NOT_SUFFICIENT;
    }
#endif
    if (status) *status = found;
    return OK;
}
#endif

#if FAKE_PROC_ADDRESS >= 1
CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags) {
    STUB_GUARD;
    if (version > FAKE_DRIVER_VERSION) return INVALID_VALUE;
    return lookup(symbol, pfn, version, flags) == FOUND ? OK : NOT_FOUND;
}
#endif
