// cushim's C++ runtime: opens a library once, binds one stub on its first
// call, and keeps every failure as a status and a message. Written by cushim
// beside the pairs, the same bytes for every library. Do not edit: regenerate.
//
// Compile it once per program (C++17) and link its object with the pairs'.
// Everything it knows of a library comes from the pair's `cushim::LibraryInfo`
// (see cushim_runtime.h); nothing here is generated. Built without exceptions
// (a C program's build), it needs nothing from the C++ library.

#include "cushim_runtime.h"

#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>

#ifdef _WIN32
#include <windows.h>
// After windows.h: the owners and ACLs of a Python environment above the
// program (trust).
#include <aclapi.h>
#include <sddl.h>
#else
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#if defined(__linux__)
#include <link.h>
#endif
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#if defined(__GNUC__)
#define CUSHIM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CUSHIM_PRINTF(f, a)
#endif

extern "C" const int CUSHIM_RUNTIME_ABI = 10;

namespace {

using cushim::Function;
using cushim::FunctionState;
using cushim::Library;
using cushim::LibraryInfo;
using cushim::message_size;
using cushim::path_size;
using namespace cushim;  // the statuses

// What became of one function. `elsewhere` rows are never resolved.
enum FunctionOutcome : int { unresolved = 0, resolved, missing, too_old, version_not_sufficient };

using get_proc_v2 = int (*)(const char *, void **, int, unsigned long long, int *);
using get_proc_v1 = int (*)(const char *, void **, int, unsigned long long);
// The CUDA runtime's lookups of driver functions: by name and CUDA version
// (12.5 and later), and by name at the runtime's own release, with 3
// arguments (11.3 to 11.8) or 4, the 4th a status it writes (12.0 and later).
using by_version = int (*)(const char *, void **, unsigned, unsigned long long, int *);
using entry_point_3 = int (*)(const char *, void **, unsigned long long);
using entry_point_4 = int (*)(const char *, void **, unsigned long long, int *);

// printf into a fixed buffer, truncating.
void format(char *out, std::size_t size, const char *fmt, ...) CUSHIM_PRINTF(3, 4);
void format(char *out, std::size_t size, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(out, size, fmt, args);
    va_end(args);
}

// Appends to a fixed buffer, truncating.
void append(char *out, std::size_t size, const char *text) {
    std::size_t used = std::strlen(out);
    if (used + 1 < size) std::snprintf(out + used, size - used, "%s", text);
}

void note(const LibraryInfo &L, int status, const char *message) {
    cushim::Thread *t = L.thread();
    t->status = status;
    format(t->message, sizeof t->message, "%s", message);
}

