// cushim's C++ runtime: what every generated `<stem>_shim.cpp` calls into.
// Written by cushim beside the pairs, the same bytes for every library. Do not
// edit: regenerate.
//
// Compile `cushim_runtime.cpp` once per program, whatever the number of pairs,
// and link its object with theirs. A pair holds its library's description
// (one constant `cushim::LibraryInfo`), its function table and its stubs; the
// runtime opens the library, binds each stub on its first call and keeps every
// failure as a status and a message. Its entry points are C functions, hidden
// outside the module that links them: a C program links the objects with a C
// compiler and no C++ library.
#ifndef CUSHIM_RUNTIME_H
#define CUSHIM_RUNTIME_H

#include <atomic>
#include <cstddef>

#if defined(_WIN32)
#define CUSHIM_EXPORT
#define CUSHIM_HIDDEN
#else
#define CUSHIM_EXPORT __attribute__((visibility("default")))
#define CUSHIM_HIDDEN __attribute__((visibility("hidden")))
#endif

// A stub's slot, read on every call: one atomic load. Slots are plain `void *`
// so that their first values (the binders' addresses) are constant-initialized.
#if defined(__GNUC__) || defined(__clang__)
#define CUSHIM_SLOT(slot) __atomic_load_n(&(slot), __ATOMIC_ACQUIRE)
#else
#define CUSHIM_SLOT(slot) reinterpret_cast<const std::atomic<void *> &>(slot).load(std::memory_order_acquire)
#endif

namespace cushim {

// The state of a library or of one function; the values of every generated
// header's `cushim_<stem>_status` enum (a pair checks its own against these).
enum Status : int {
    status_ok = 0,
    status_library_not_found = 1,
    status_stub_library = 2,
    status_symbol_not_found = 3,
    status_too_old = 4,
    status_version_not_sufficient = 5,
    status_reentrant = 6,
    status_forked_during_load = 7,
    status_wrong_major = 8
};

// How a library's version function answers (`LibraryInfo::version_query`):
// the Rust runtime's `VersionQuery`, by the same names in the same order.
enum class VersionQuery : int {
    number,            // f(int *version): 1000 x major + 10 x minor
    major_minor,       // f(int *major, int *minor)
    text,              // f(char *text, unsigned length): "13.580.82"
    property,          // f(int property, int *value): the major (0), the minor (1)
    decimal,           // f(int *version): 10000 x major + 100 x minor + patch
    returned,          // size_t f(void), no status: 10000 x major + 100 x minor + patch
    api,               // f(uint32_t *version): an API number, not a release: no version read
    number_in_status,  // S f(int *version), S a struct of two ints, the code first
    absent             // no version function: the name is an export, never called
};

// One row of a pair's function table: what to bind.
struct Function {
    const char *name;       // the C name callers write
    const char *symbol;     // the export bound by exact name
    const char *proc_name;  // the name for the library's own lookup, or null
    unsigned version;       // the ABI version (1000 x major + 10 x minor; 0: unknown)
    int twin;               // the row of this function's per-thread variant, or -1
    bool per_thread;        // a per-thread variant itself
    bool elsewhere;         // a function of another system: no stub here
};

// Another C name of a function, and its symbol ("nvmlInit" -> "nvmlInit_v2");
// a pair's table of them ends with a null name.
struct Alias {
    const char *name;
    const char *symbol;
};

// One constant of the status type, for the functions that name a status
// without the library (cuGetErrorName, nvrtcGetErrorString).
struct StatusName {
    int code;
    const char *name;
};

// The codes of the library's status type that a stub answers with (the
// Rust runtime's `Codes`, in its order).
struct Codes {
    int library_not_found;
    int symbol_not_found;
    int stub_library;
    int too_old;
    int not_initialized;
    int success;
    int invalid_value;
};

struct LibraryInfo;

// What only the CUDA driver has: a lookup of functions by name and ABI
// version, and per-thread default-stream variants of some functions.
struct Driver {
    const char *proc_address_v2;  // null: bound by exact name (--resolve dlsym)
    const char *proc_address_v1;
    bool per_thread_by_default;
    const char *stream_var;
    const char *const *stream_on;  // null-terminated
    const char *const *stream_off;
    // Non-null (--resolve runtime-entry-point): the driver is never opened
    // here; this library (the CUDA runtime) is found by its own search and
    // hands the driver's functions out: by name and ABI version through its
    // cudaGetDriverEntryPointByVersion (12.5 and later), or else through the
    // cuGetProcAddress that its cudaGetDriverEntryPoint hands out.
    const LibraryInfo *runtime = nullptr;
};

// What one thread knows of one library: its latest failure. Zero-initialized.
struct Thread {
    int status;
    bool loading;  // this thread is opening the library now
    char message[8192];
    char warning[1024];  // the driver's stream-mode warning
};

// What one function became. Zero-initialized: unresolved.
struct FunctionState {
    std::atomic<void *> address;
    std::atomic<int> state;
    std::atomic<int> detail;  // what the library's lookup answered, for the message
};

constexpr std::size_t path_size = 4096;
constexpr std::size_t message_size = 8192;

// What one library became (the Rust runtime's `Library`). Zero-initialized:
// a pair's `cushim::Library` needs no constructor, so no static-init guard and
// nothing at exit.
struct Library {
    std::atomic<int> load_state;
    std::atomic<bool> override_held;
    std::atomic<bool> registered;
    std::atomic<unsigned> attempts;
    std::atomic<int> stream_mode;
    Library *next;  // the list of libraries a fork must check
    bool started;
    int status;
    unsigned version;
    void *handle;
    void *proc_v2;
    void *proc_v1;
    void *proc_by_version;    // the CUDA runtime's cudaGetDriverEntryPointByVersion
    const char *entry_point;  // what handed the driver out, or null: opened here
    char override_path[path_size];
    char path[path_size];
    char message[message_size];
    // Scratch of the search; only the loading thread writes it.
    char tried[message_size];
    char sites[8][path_size];
    char dirs[8][path_size];
    std::size_t dir_count;
    char exe[path_size];
};

// An object the library exports (not a function), as the pair defines it
// under its C name: the runtime copies the library's value into `storage`
// when it loads the library.
struct Variable {
    const char *name;
    void *storage;
    std::size_t size;
};

// One library, as its pair describes it: the Rust runtime's `LibraryInfo`,
// whose fields it has in the same order (cushim's table of them,
// src/runtime/fields.rs), less `proc_address`, `resolve` and `default_stream`
// (in `Driver`), and with the pair's own tables. Constant: the mutable parts
// are the objects it points to.
struct LibraryInfo {
    const int *abi;  // &CUSHIM_RUNTIME_ABI: a pair and a runtime of other shapes do not link
    const char *label;                   // "CUDA driver", "NVRTC": "... library not found"
    const char *short_name;              // "driver", "NVRTC": "... too old"
    const char *product;                 // "CUDA", "NVRTC": "needs ... 12.5"
    const char *install;                 // how to get it
    const char *override_var;            // the variable that names it by absolute path
    const char *const *names;            // file names, in order; null-terminated
    const char *version_function;
    VersionQuery version_query;
    bool has_stub;                       // a link-time stub answers the version function with codes.stub_library
    unsigned major;                      // the header's major, which the library must report (0: any)
    bool toolkit_search;                 // searched in pip wheels, conda and toolkits, not only by the system loader
    const char *const *wheel_dirs;       // below site-packages
    const char *const *toolkit_subdirs;  // below a toolkit's root, after lib64 and lib (bin, bin\\x64)
    const char *const *preload;          // loaded first from the same directory
    const char *const *required;         // must be in its directory: loaded after it, before any call
    const char *built_for;               // size_t f(void): the CUDA release it was built for, or null
    unsigned built_for_major;            // the header's CUDA major, which built_for must report
    const char *const *siblings;         // opened by name later: loaded after it from its directory, best effort
    const char *const *family;           // file names of the libraries installed beside it (same CUDA major)
    Codes codes;
    const Driver *abi_lookup;            // null for every library but the driver
    const Function *functions;
    std::size_t count;
    const Alias *aliases;
    const StatusName *statuses;
    std::size_t status_count;
    Library *state;
    FunctionState *states;
    void **slots;                        // the stubs' slots, or null (the linked mode has no stubs)
    Thread *(*thread)();
    const Variable *variables;           // the objects it exports that the pair defines, or null
    std::size_t variable_count;
};

// What a function that returns a value, not a status, returns without the
// library: zero, or a null pointer.
template <class T>
inline T zero() {
    return T();
}

}  // namespace cushim

