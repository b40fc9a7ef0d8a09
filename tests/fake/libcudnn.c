/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuDNN 9 for cushim's tests, built as libcudnn.so.9: like the real
 * one, a small front that needs nothing at link time and opens its
 * sublibraries by bare name (dlopen) on its first call, and that aborts the
 * process when it cannot open libcudnn_graph.so.9 (the real one prints
 * "Invalid handle. Cannot load symbol ..."). By name, the loader searches
 * LD_LIBRARY_PATH before anything else (this fake has no run path): a
 * sublibrary already loaded under its soname wins over both. It lacks
 * cudnnBackendCreateDescriptor, which the header declares. Plain C types
 * only; no NVIDIA header.
 *
 * Knobs: FAKE_VERSION (what cudnnGetVersion answers; default 92801),
 * FAKE_CUDART (what cudnnGetCudartVersion answers; default 13000).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FAKE_VERSION
#define FAKE_VERSION 92801
#endif
#ifndef FAKE_CUDART
#define FAKE_CUDART 13000
#endif

/* The sublibraries' file names, and opening one by name: the DLLs of
 * cuDNN 9 for Windows (the Windows family test), libcudnn_*.so.9 elsewhere. */
#ifdef _WIN32
#include <windows.h>
#define GRAPH_FILE "cudnn_graph64_9.dll"
#define OPS_FILE "cudnn_ops64_9.dll"
static void *open_by_name(const char *name) { return (void *)LoadLibraryA(name); }
static void *symbol(void *h, const char *name) { return (void *)GetProcAddress((HMODULE)h, name); }
#else
#define _GNU_SOURCE
#include <dlfcn.h>
#define GRAPH_FILE "libcudnn_graph.so.9"
#define OPS_FILE "libcudnn_ops.so.9"
static void *open_by_name(const char *name) { return dlopen(name, RTLD_NOW | RTLD_GLOBAL); }
static void *symbol(void *h, const char *name) { return dlsym(h, name); }
#endif

static void *sublibrary(const char *name, const char *function) {
    void *h = open_by_name(name);
    if (!h) {
        fprintf(stderr, "Invalid handle. Cannot load symbol %s\n", function);
        abort();
    }
    return h;
}

static void *graph(const char *function) { return sublibrary(GRAPH_FILE, function); }

size_t cudnnGetVersion(void) {
    graph("cudnnGetVersion");
    return FAKE_VERSION;
}

size_t cudnnGetCudartVersion(void) {
    graph("cudnnGetCudartVersion");
    return FAKE_CUDART;
}

const char *cudnnGetErrorString(int status) {
    graph("cudnnGetErrorString");
    return status == 0 ? "CUDNN_STATUS_SUCCESS" : "CUDNN_STATUS_FAKE_ERROR";
}

static int handle;
/* Where the ops sublibrary that cudnnCreate opened by name lives. */
static const char *ops_file = "";

int cudnnCreate(void **h) {
    graph("cudnnCreate");
    void *ops = sublibrary(OPS_FILE, "cudnnCreate");
    const char *(*where)(void) = (const char *(*)(void))symbol(ops, "fake_sublibrary_file");
    if (!h || !where) return 2000; /* CUDNN_STATUS_BAD_PARAM */
    ops_file = where();
    *h = &handle;
    return 0;
}

int cudnnDestroy(void *h) {
    graph("cudnnDestroy");
    return h == &handle ? 0 : 2000;
}

/* Not cuDNN's: the file of the ops sublibrary cudnnCreate opened. */
const char *fake_cudnn_ops_file(void) { return ops_file; }
