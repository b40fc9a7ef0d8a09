// The C++ runtime of the lazy stubs: opens the library once, binds one stub on
// its first call, and keeps every failure as a status and a message.
//
// This file is real source, with no template tag: cushim's tests compile it on
// its own, and the C++ emitter copies it verbatim into every generated
// `*_shim.cpp`. Before it, the generated file defines `cushim::settings` (what
// --resolve, --stream and the library's description chose); after it, the
// function table (`function_table()`, `function_count()`), one
// CUSHIM_DEFINE invocation per stub and the exported status API.

#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#ifdef _WIN32
#include <windows.h>
#else
#include <dirent.h>
#include <dlfcn.h>
#if defined(__linux__)
#include <link.h>
#endif
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

#if defined(_WIN32)
#define CUSHIM_EXPORT
#else
#define CUSHIM_EXPORT __attribute__((visibility("default")))
#endif

#if defined(__GNUC__)
#define CUSHIM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CUSHIM_PRINTF(f, a)
#endif

namespace {
namespace cushim {

template <class... T>
inline void ignore(T &&...) {}

// What a function that returns a value, not a status, returns without the
// library: zero, or a null pointer.
template <class T>
inline T zero() {
    return T();
}

// The state of the library or of one stub; the values of the generated
// header's `<api>_status` enum, which the generated file checks.
enum Status : int {
    status_ok = 0,
    status_library_not_found = 1,
    status_stub_library = 2,
    status_symbol_not_found = 3,
    status_driver_too_old = 4,
    status_version_not_sufficient = 5,
    status_reentrant = 6,
    status_forked_during_load = 7,
    status_wrong_major = 8
};

// What became of one stub.
// `elsewhere`: a function of another system (cuWGLGetDevice off Windows),
// which has no stub here and is never resolved.
enum State : int { unresolved, resolved, missing, too_old, version_not_sufficient, elsewhere };

// One row per stub: what to resolve, and what became of it.
struct Function {
    const char *name;       // the C name callers write
    const char *symbol;     // the export bound by exact name
    const char *proc_name;  // the base name for cuGetProcAddress
    unsigned version;       // ABI version from the PFN table (0: unknown)
    bool per_thread;        // a _ptds/_ptsz variant: bound with flag 2
    int twin;               // the row of this function's per-thread variant, or -1
    std::atomic<void *> address;
    std::atomic<int> state;
    std::atomic<int> detail;  // what cuGetProcAddress answered, for the message
};

// Defined after this file, by the generated table.
Function *function_table();
std::size_t function_count();

// Another C name of a function, and its symbol ("nvmlInit" -> "nvmlInit_v2");
// the generated table ends with a null name.
struct Alias {
    const char *name;
    const char *symbol;
};
const Alias *alias_table();

using get_proc_v2 = int (*)(const char *, void **, int, unsigned long long, int *);
using get_proc_v1 = int (*)(const char *, void **, int, unsigned long long);

// Fixed buffers rather than string objects: no template instantiation of ours
// leaks out of this file as a weak symbol.
constexpr std::size_t path_size = 4096;
constexpr std::size_t message_size = 8192;

// A lock for the rare writes of the override path; no std::mutex, so that
// the stubs need nothing from the C++ library (a C program links them with a
// C compiler).
class SpinLock {
    std::atomic<bool> held{false};

public:
    void lock() {
        while (held.exchange(true, std::memory_order_acquire)) {
        }
    }
    void unlock() { held.store(false, std::memory_order_release); }
};

// Constant-initialized and trivially destructible: no guard, no destructor at
// exit, so stubs keep working from atexit handlers and other threads at exit.
struct Library {
    SpinLock override_lock;
    char override_path[path_size] = {};
    bool started = false;
    void *handle = nullptr;
    Status status = status_library_not_found;
    char message[message_size] = {};
    std::atomic<unsigned> attempts{0};
    unsigned driver_version = 0;  // from the version function, read once
    char path[path_size] = {};    // the name or path the library was opened by
    get_proc_v2 proc_v2 = nullptr;
    get_proc_v1 proc_v1 = nullptr;
};

Library the_library;
// What a stub called from the driver's own initializer sees.
Library reentrant_library;

Library &library() { return the_library; }

thread_local Status last_status = status_ok;
thread_local char last_message[message_size];

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

void note(Status status, const char *message) {
    last_status = status;
    format(last_message, sizeof last_message, "%s", message);
}

bool is_absolute(const char *path) {
#ifdef _WIN32
    return path[0] != '\0' && path[1] == ':' && (path[2] == '\\' || path[2] == '/');
#else
    return path[0] == '/';
#endif
}

#ifdef _WIN32
void *open_one(const char *name, char *error, std::size_t size) {
    wchar_t wide[path_size];
    if (MultiByteToWideChar(CP_UTF8, 0, name, -1, wide, static_cast<int>(path_size)) == 0) {
        format(error, size, "the name is not valid UTF-8");
        return nullptr;
    }
    // Only the system directory: never the executable's or the current directory.
    // A bare name from the system directory only; an absolute path with its
    // own directory for its dependencies.
    DWORD flags = is_absolute(name) ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32
                                    : LOAD_LIBRARY_SEARCH_SYSTEM32;
    HMODULE h = LoadLibraryExW(wide, nullptr, flags);
    if (!h) format(error, size, "LoadLibraryExW failed with error %lu", static_cast<unsigned long>(GetLastError()));
    return reinterpret_cast<void *>(h);
}
void *find(void *handle, const char *symbol) {
    return reinterpret_cast<void *>(GetProcAddress(static_cast<HMODULE>(handle), symbol));
}
#else
void *open_one(const char *name, char *error, std::size_t size) {
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        format(error, size, "%s", e ? e : "dlopen failed");
    }
    return h;
}
void *find(void *handle, const char *symbol) { return dlsym(handle, symbol); }
#endif

// Reads the library version once, as the description says the version
// function answers: 1000 x major + 10 x minor, or 0 when it cannot tell.
// Returns what the function returned (or `no_answer` without one); NVIDIA's
// toolkit stub of the driver answers with the stub code, a real driver never.
constexpr int no_answer = -0x7fff;
int read_version(void *handle, unsigned &version) {
    version = 0;
    void *p = find(handle, settings::version_function);
    if (!p) return no_answer;
    int rc = no_answer;
    if (settings::version_query == 0) {
        int v = 0;
        rc = reinterpret_cast<int (*)(int *)>(p)(&v);
        if (rc == 0 && v > 0) version = static_cast<unsigned>(v);
    } else if (settings::version_query == 1) {
        int major = 0, minor = 0;
        rc = reinterpret_cast<int (*)(int *, int *)>(p)(&major, &minor);
        if (rc == 0 && major > 0 && major < 4000000)
            version = static_cast<unsigned>(major) * 1000u + static_cast<unsigned>(minor < 0 ? 0 : minor > 99 ? 99 : minor) * 10u;
    } else if (settings::version_query == 3) {
        int major = 0, minor = 0;
        rc = reinterpret_cast<int (*)(int, int *)>(p)(0, &major);
        if (rc == 0) rc = reinterpret_cast<int (*)(int, int *)>(p)(1, &minor);
        if (rc == 0 && major > 0 && major < 4000000)
            version = static_cast<unsigned>(major) * 1000u + static_cast<unsigned>(minor < 0 ? 0 : minor > 99 ? 99 : minor) * 10u;
    } else {
        char text[96] = {};
        rc = reinterpret_cast<int (*)(char *, unsigned)>(p)(text, 95);
        text[95] = '\0';
        unsigned major = 0;
        for (const char *c = text; *c >= '0' && *c <= '9' && major < 4000000; ++c) major = major * 10 + static_cast<unsigned>(*c - '0');
        if (rc == 0) version = major * 1000u;
    }
    return rc;
}

// Appends "`name` (why)" to the list of places tried.
void note_tried(char *tried, std::size_t size, const char *name, const char *why) {
    append(tried, size, tried[0] ? "; `" : "`");
    append(tried, size, name);
    append(tried, size, "` (");
    append(tried, size, why);
    append(tried, size, ")");
}

// Whether `path` was already tried (the same place reached by two steps).
bool was_tried(const char *tried, const char *path) {
    char quoted[path_size + 2];
    format(quoted, sizeof quoted, "`%s`", path);
    return std::strstr(tried, quoted) != nullptr;
}

bool file_exists(const char *path) {
#ifdef _WIN32
    return GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES;
#else
    return access(path, F_OK) == 0;
#endif
}

#ifdef _WIN32
constexpr char separator = '\\';
#else
constexpr char separator = '/';
#endif

// Adopts handle `h`, opened as `name`; true when the search is over (loaded,
// or found the stub). A library of another major than the header's is noted
// and the search goes on.
bool adopt(Library &lib, void *h, const char *name, char *tried, std::size_t tried_size) {
    unsigned version = 0;
    int rc = read_version(h, version);
    if (settings::has_stub && rc == settings::code_stub_library) {
        // Kept loaded but never used: a library is never unloaded.
        lib.status = status_stub_library;
        format(lib.message, sizeof lib.message,
               "`%s` is NVIDIA's stub library, not a %s (%s answered the stub code); remove the toolkit's "
               "lib64/stubs directory from LD_LIBRARY_PATH",
               name, settings::short_name, settings::version_function);
        return true;
    }
    if (settings::major != 0 && version != 0 && version / 1000 != settings::major) {
        char why[path_size + 256];
        format(why, sizeof why, "`%s` is %s %u.%u, but the header is for %s %u.x", name, settings::label,
               version / 1000, version % 1000 / 10, settings::product, settings::major);
        note_tried(tried, tried_size, name, why);
        if (lib.status != status_wrong_major) {
            lib.status = status_wrong_major;
            format(lib.message, sizeof lib.message, "%s; install the %u.x library", why, settings::major);
        }
        return false;
    }
    lib.driver_version = version;
    lib.handle = h;
    format(lib.path, sizeof lib.path, "%s", name);
    if (settings::proc_address_v2) lib.proc_v2 = reinterpret_cast<get_proc_v2>(find(h, settings::proc_address_v2));
    if (settings::proc_address_v1) lib.proc_v1 = reinterpret_cast<get_proc_v1>(find(h, settings::proc_address_v1));
    lib.status = status_ok;
    format(lib.message, sizeof lib.message, "loaded `%s`", name);
    return true;
}

// Tries one name or path (`named`: the override, opened as given); true
// when the search is over.
bool attempt(Library &lib, const char *name, char *tried, std::size_t tried_size, bool named = false) {
    if (is_absolute(name)) {
        if (!named && was_tried(tried, name)) return false;
        if (!named && !file_exists(name)) {
            note_tried(tried, tried_size, name, "no such file");
            return false;
        }
        // Dependencies first, from the same directory.
        const char *slash = std::strrchr(name, separator);
        for (const char *const *dep = settings::preload; *dep && slash; ++dep) {
            char dep_path[path_size];
            format(dep_path, sizeof dep_path, "%.*s%c%s", static_cast<int>(slash - name), name, separator, *dep);
            char error[1024] = {};
            lib.attempts.fetch_add(1, std::memory_order_relaxed);
            if (!open_one(dep_path, error, sizeof error)) {
                char why[path_size + 1100];
                format(why, sizeof why, "its dependency `%s` could not be loaded: %s", dep_path, error);
                note_tried(tried, tried_size, name, why);
                return false;
            }
        }
    }
    lib.attempts.fetch_add(1, std::memory_order_relaxed);
    char error[1024] = {};
    void *h = open_one(name, error, sizeof error);
    if (!h) {
        note_tried(tried, tried_size, name, error);
        return false;
    }
    return adopt(lib, h, name, tried, tried_size);
}

// Tries `dir` + separator + each library name.
bool attempt_in(Library &lib, const char *dir, char *tried, std::size_t tried_size) {
    for (const char *const *name = settings::library_names; *name; ++name) {
        char path[path_size];
        format(path, sizeof path, "%s%c%s", dir, separator, *name);
        if (attempt(lib, path, tried, tried_size)) return true;
    }
    return false;
}

// An environment variable's value when it is an absolute path, else null.
const char *absolute_env(const char *name) {
    const char *v = std::getenv(name);
    return v && is_absolute(v) ? v : nullptr;
}

// Whether `dir` is a Python environment (a venv's pyvenv.cfg, or conda's
// conda-meta): the only directories above the executable that are searched,
// so that a directory anyone can write to (/tmp) plants nothing.
[[maybe_unused]] bool is_python_environment(const char *dir) {
    char path[path_size];
    format(path, sizeof path, "%s%cpyvenv.cfg", dir, separator);
    if (file_exists(path)) return true;
    format(path, sizeof path, "%s%cconda-meta", dir, separator);
    return file_exists(path);
}

// Tries the wheel directories of each site-packages under `prefix`
// (lib/python3.*/site-packages, or Lib\site-packages).
bool attempt_prefix(Library &lib, const char *prefix, char *tried, std::size_t tried_size) {
    // Large, so static; only the loading thread is here.
    static char sites[8][path_size];
    std::size_t count = 0;
#ifdef _WIN32
    format(sites[count++], path_size, "%s\\Lib\\site-packages", prefix);
#else
    char lib_dir[path_size];
    format(lib_dir, sizeof lib_dir, "%s/lib", prefix);
    if (DIR *d = opendir(lib_dir)) {
        while (dirent *e = readdir(d)) {
            if (std::strncmp(e->d_name, "python3", 7) != 0 || count == 8) continue;
            format(sites[count], path_size, "%s/%s/site-packages", lib_dir, e->d_name);
            if (access(sites[count], F_OK) == 0) ++count;
        }
        closedir(d);
    }
    // Sorted, so that the order does not depend on the directory's.
    for (std::size_t i = 1; i < count; ++i)
        for (std::size_t j = i; j > 0 && std::strcmp(sites[j - 1], sites[j]) > 0; --j) {
            char swap[path_size];
            std::memcpy(swap, sites[j], path_size);
            std::memcpy(sites[j], sites[j - 1], path_size);
            std::memcpy(sites[j - 1], swap, path_size);
        }
#endif
    for (std::size_t i = 0; i < count; ++i) {
        for (const char *const *wheel = settings::wheel_dirs; *wheel; ++wheel) {
            char dir[path_size];
            format(dir, sizeof dir, "%s%c%s", sites[i], separator, *wheel);
            if (attempt_in(lib, dir, tried, tried_size)) return true;
        }
    }
    return false;
}

#if defined(__linux__)
// The directories of loaded members of the CUDA family of the header's major.
struct FamilyDirs {
    char dirs[8][path_size] = {};
    std::size_t count = 0;
};

int add_family_dir(dl_phdr_info *info, std::size_t, void *data) {
    FamilyDirs &found = *static_cast<FamilyDirs *>(data);
    const char *path = info->dlpi_name;
    if (!path || path[0] != '/' || found.count == 8) return 0;
    const char *file = std::strrchr(path, '/') + 1;
    char major[16];
    format(major, sizeof major, "%u", settings::major);
    for (const char *const *stem = settings::family; *stem; ++stem) {
        std::size_t n = std::strlen(*stem);
        if (std::strncmp(file, *stem, n) != 0) continue;
        const char *rest = file + n;
        std::size_t m = std::strlen(major);
        if (std::strncmp(rest, major, m) != 0 || (rest[m] != '\0' && rest[m] != '.')) continue;
        char dir[path_size];
        format(dir, sizeof dir, "%.*s", static_cast<int>(file - 1 - path), path);
        for (std::size_t i = 0; i < found.count; ++i)
            if (std::strcmp(found.dirs[i], dir) == 0) return 0;
        format(found.dirs[found.count++], path_size, "%s", dir);
        return 0;
    }
    return 0;
}
#endif

// The search for a library installed with a toolkit, conda or pip; the same
// order as the Rust runtime's `candidates`.
bool search_toolkit(Library &lib, char *tried, std::size_t tried_size) {
    // A copy already loaded.
    for (const char *const *name = settings::library_names; *name; ++name) {
#ifdef _WIN32
        HMODULE h = nullptr;
        wchar_t wide[path_size];
        if (MultiByteToWideChar(CP_UTF8, 0, *name, -1, wide, static_cast<int>(path_size)) != 0 &&
            GetModuleHandleExW(0, wide, &h) && h) {
            lib.attempts.fetch_add(1, std::memory_order_relaxed);
            if (adopt(lib, reinterpret_cast<void *>(h), *name, tried, tried_size)) return true;
        }
#else
        if (void *h = dlopen(*name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
            lib.attempts.fetch_add(1, std::memory_order_relaxed);
            if (adopt(lib, h, *name, tried, tried_size)) return true;
        }
#endif
    }
#if defined(__linux__)
    // Large, so static (constant-initialized: no guard, which a C program's
    // link lacks); only the loading thread is here.
    static FamilyDirs family;
    family.count = 0;
    dl_iterate_phdr(add_family_dir, &family);
    for (std::size_t i = 0; i < family.count; ++i)
        if (attempt_in(lib, family.dirs[i], tried, tried_size)) return true;
#endif
    // pip wheels: the virtual environment, conda's, and the prefixes above the executable.
    const char *const prefix_vars[] = {"VIRTUAL_ENV", "CONDA_PREFIX"};
    for (const char *var : prefix_vars)
        if (const char *prefix = absolute_env(var))
            if (attempt_prefix(lib, prefix, tried, tried_size)) return true;
#if defined(__linux__)
    static char exe[path_size];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        while (char *slash = std::strrchr(exe, '/')) {
            *slash = '\0';
            const char *prefix = exe[0] ? exe : "/";
            if (is_python_environment(prefix) && attempt_prefix(lib, prefix, tried, tried_size)) return true;
        }
    }
#endif
    if (const char *conda = absolute_env("CONDA_PREFIX")) {
        char dir[path_size];
        // conda keeps DLLs in Library\bin on Windows.
#ifdef _WIN32
        format(dir, sizeof dir, "%s\\Library\\bin", conda);
#else
        format(dir, sizeof dir, "%s%c%s", conda, separator, settings::lib_dir);
#endif
        if (attempt_in(lib, dir, tried, tried_size)) return true;
    }
    const char *roots[] = {absolute_env("CUDA_PATH"), absolute_env("CUDA_HOME"),
#ifdef _WIN32
                           nullptr};
    const char *subdirs[] = {"bin", "bin\\x64"};
#else
                           "/usr/local/cuda"};
    const char *subdirs[] = {"lib64", "lib"};
#endif
    for (const char *root : roots) {
        if (!root) continue;
        for (const char *sub : subdirs) {
            char dir[path_size];
            format(dir, sizeof dir, "%s%c%s", root, separator, sub);
            if (attempt_in(lib, dir, tried, tried_size)) return true;
        }
    }
    return false;
}

// What a value of the override variable asks for: 0 (unset or empty) to
// search, 1 to open it, -1 for a relative path, which is refused. The same
// rule as the Rust runtime's `library_override`.
int library_override(const char *value) {
    if (!value || !*value) return 0;
    return is_absolute(value) ? 1 : -1;
}

void open_library(Library &lib) {
    char chosen[path_size] = {};
    lib.override_lock.lock();
    lib.started = true;
    format(chosen, sizeof chosen, "%s", lib.override_path);
    lib.override_lock.unlock();
    if (!chosen[0]) {
        const char *env = std::getenv(settings::override_var);
        switch (library_override(env)) {
            case -1:
                format(lib.message, sizeof lib.message,
                       "%s=`%s` is not an absolute path; relative paths are refused", settings::override_var, env);
                return;
            case 1:
                format(chosen, sizeof chosen, "%s", env);
                break;
            default:
                break;
        }
    }
    static char tried[message_size];  // only the loading thread is here
    tried[0] = '\0';
    if (chosen[0]) {
        if (attempt(lib, chosen, tried, sizeof tried, true)) return;
    } else {
        if (settings::toolkit_search && search_toolkit(lib, tried, sizeof tried)) return;
        for (const char *const *name = settings::library_names; *name; ++name)
            if (attempt(lib, *name, tried, sizeof tried)) return;
    }
    if (lib.status == status_wrong_major) return;
    lib.status = status_library_not_found;
    char names[256] = {};
    for (const char *const *name = settings::library_names; *name; ++name) {
        append(names, sizeof names, names[0] ? "` or `" : "");
        append(names, sizeof names, *name);
    }
    format(lib.message, sizeof lib.message, "%s library not found; tried %s. %s, or set %s to the absolute path of `%s`",
           settings::label, tried, settings::install, settings::override_var, names);
}

// The library is loaded once and published through an atomic state, not
// std::call_once: a fork() while another thread is loading must not leave the
// child waiting forever for a thread it does not have.
constexpr int state_empty = 0, state_loading = 1, state_ready = 2, state_forked = 3;
std::atomic<int> load_state{state_empty};
thread_local bool loading_here = false;

#ifndef _WIN32
// In the child of such a fork the load can never finish; the child gets a
// status instead of a hang (a forked child cannot use CUDA anyway).
void forked_child() {
    int expected = state_loading;
    load_state.compare_exchange_strong(expected, state_forked);
}
#endif

Library &loaded() {
    Library &lib = library();
    for (unsigned spins = 0;; ++spins) {
        int state = load_state.load(std::memory_order_acquire);
        if (state == state_ready) return lib;
        if (state == state_forked) {
            // Only this thread exists in the child: nobody else writes `lib` here.
            lib.status = status_forked_during_load;
            format(lib.message, sizeof lib.message,
                   "this process was forked while another thread was loading the %s; the child cannot use it",
                   settings::label);
            load_state.store(state_ready, std::memory_order_release);
            return lib;
        }
        if (state == state_loading && loading_here) {
            // Called back from the driver's own initializer, on the loading thread.
            // Only the loading thread comes here, so only it writes this.
            reentrant_library.status = status_reentrant;
            format(reentrant_library.message, sizeof reentrant_library.message,
                   "a %s stub was called while the library was being loaded on the same thread", settings::label);
            return reentrant_library;
        }
        if (state == state_loading) {
#ifdef _WIN32
            SwitchToThread();
#else
            if (spins < 64) sched_yield(); else usleep(50);
#endif
            continue;
        }
#ifndef _WIN32
        static std::atomic<bool> watching{false};
        if (!watching.exchange(true, std::memory_order_acq_rel)) pthread_atfork(nullptr, nullptr, forked_child);
#endif
        if (load_state.compare_exchange_strong(state, state_loading, std::memory_order_acq_rel)) {
            loading_here = true;
#if defined(__cpp_exceptions) || defined(_CPPUNWIND)
            try {
                open_library(lib);
            } catch (...) {
                // The driver threw (from its initializer or its version
                // function) before anything was published: put the state back
                // so that the next call, on any thread, loads again. Compiled
                // without exceptions (a C program's build), nothing can throw here.
                loading_here = false;
                load_state.store(state_empty, std::memory_order_release);
                throw;
            }
#else
            open_library(lib);
#endif
            loading_here = false;
            load_state.store(state_ready, std::memory_order_release);
            return lib;
        }
    }
}

// The stream mode: unset, or a mode; locked once the first stub was bound.
constexpr int mode_unset = 0, mode_legacy = 1, mode_per_thread = 2, mode_locked = 0x10;
std::atomic<int> stream_mode{mode_unset};

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// Whether `value`, without surrounding ASCII whitespace, is one of `words`.
template <std::size_t N>
bool one_of(const char *value, const char *const (&words)[N]) {
    while (is_ascii_space(*value)) ++value;
    std::size_t length = std::strlen(value);
    while (length > 0 && is_ascii_space(value[length - 1])) --length;
    for (const char *word : words)
        if (std::strlen(word) == length && std::strncmp(value, word, length) == 0) return true;
    return false;
}

// The mode a value of the stream variable asks for; mode_unset for any other
// value. The same rule as the Rust runtime's `stream_mode_from_env`.
int stream_mode_from_env(const char *value) {
    if (!value) return mode_unset;
    if (one_of(value, settings::stream_on)) return mode_per_thread;
    if (one_of(value, settings::stream_off)) return mode_legacy;
    return mode_unset;
}

int initial_mode() {
    int mode = stream_mode_from_env(std::getenv(settings::stream_var));
    if (mode != mode_unset) return mode;
    return settings::per_thread_by_default ? mode_per_thread : mode_legacy;
}

// Fixes the mode at the first binding and returns it.
int lock_stream_mode() {
    int current = stream_mode.load(std::memory_order_acquire);
    for (;;) {
        if (current & mode_locked) return current & ~mode_locked;
        int mode = current == mode_unset ? initial_mode() : current;
        if (stream_mode.compare_exchange_weak(current, mode | mode_locked, std::memory_order_acq_rel))
            return mode;
    }
}

void note_failure(const Function &f) {
    char message[1024];
    const Library &lib = library();
    switch (f.state.load(std::memory_order_acquire)) {
        case too_old:
            format(message, sizeof message, "%s too old: `%s` needs %s %u.%u, %s is %u.%u", settings::short_name,
                   f.name, settings::product, f.version / 1000, f.version % 1000 / 10, settings::short_name,
                   lib.driver_version / 1000, lib.driver_version % 1000 / 10);
            note(status_driver_too_old, message);
            return;
        case version_not_sufficient:
            format(message, sizeof message,
                   "%s too old: cuGetProcAddress knows `%s` but not its %s %u.%u ABI (%s is %u.%u)",
                   settings::short_name, f.name, settings::product, f.version / 1000, f.version % 1000 / 10,
                   settings::short_name, lib.driver_version / 1000, lib.driver_version % 1000 / 10);
            note(status_version_not_sufficient, message);
            return;
        default:
            format(message, sizeof message,
                   "`%s`: the %s does not provide `%s` (%s %d); the %s is probably older than the header",
                   f.name, settings::short_name, f.symbol,
                   settings::use_proc_address && f.version && (lib.proc_v2 || lib.proc_v1)
                       ? "cuGetProcAddress answered"
                       : "dlsym, code",
                   f.detail.load(std::memory_order_relaxed), settings::short_name);
            note(status_symbol_not_found, message);
    }
}

// Finds the address for row `f` in the process's stream mode. Never calls
// the driver for a function whose ABI is newer than it, never passes NULL or
// flags 0 to cuGetProcAddress, and never retries with a lower version.
void *lookup(const Library &lib, Function &f, int &state) {
    const Function *target = &f;
    bool per_thread = f.per_thread;
    if (lock_stream_mode() == mode_per_thread && !per_thread && f.twin >= 0) {
        // The legacy name in per-thread mode binds the per-thread variant.
        target = &function_table()[f.twin];
        per_thread = true;
    }
    unsigned version = target->version;
    if (version != 0 && lib.driver_version != 0 && version > lib.driver_version) {
        state = too_old;
        return nullptr;
    }
    unsigned long long flags = per_thread ? 2u : 1u;
    void *p = nullptr;
    if (settings::use_proc_address && version != 0 && lib.proc_v2) {
        int status = 0;
        int rc = lib.proc_v2(target->proc_name, &p, static_cast<int>(version), flags, &status);
        if (rc == 0 && status == 0 && p) return p;
        state = rc == 0 && status == 2 ? version_not_sufficient : missing;
        f.detail.store(rc != 0 ? rc : status, std::memory_order_relaxed);
        return nullptr;
    }
    if (settings::use_proc_address && version != 0 && lib.proc_v1) {
        int rc = lib.proc_v1(target->proc_name, &p, static_cast<int>(version), flags);
        if (rc == 0 && p) return p;
        state = missing;
        f.detail.store(rc, std::memory_order_relaxed);
        return nullptr;
    }
    p = find(lib.handle, target->symbol);
    if (!p) state = missing;
    return p;
}

// The address of stub `index`, or nullptr with the reason noted.
void *resolve(std::size_t index) {
    Function &f = function_table()[index];
    int state = f.state.load(std::memory_order_acquire);
    if (state == resolved) return f.address.load(std::memory_order_relaxed);
    Library &lib = loaded();
    if (lib.status != status_ok) {
        note(lib.status, lib.message);
        return nullptr;
    }
    if (state == unresolved) {
        void *p = lookup(lib, f, state);
        if (p) {
            f.address.store(p, std::memory_order_relaxed);
            f.state.store(resolved, std::memory_order_release);
            return p;
        }
        f.state.store(state, std::memory_order_release);
    }
    note_failure(f);
    return nullptr;
}

// Whether the failure just noted holds for good; a call from inside the load
// does not, and must not leave the stub failing once the load is done.
[[maybe_unused]] bool failure_is_final() { return last_status != status_reentrant; }

// What a stub that cannot reach the driver returns; the reason is noted again
// so that every failed call can be asked why.
[[maybe_unused]] int absent(std::size_t index) {
    Library &lib = loaded();
    if (lib.status != status_ok) {
        note(lib.status, lib.message);
        if (lib.status == status_stub_library) return settings::code_stub_library;
        if (lib.status == status_forked_during_load) return settings::code_not_initialized;
        return settings::code_library_not_found;
    }
    const Function &f = function_table()[index];
    note_failure(f);
    int state = f.state.load(std::memory_order_acquire);
    return state == too_old || state == version_not_sufficient ? settings::code_driver_too_old
                                                               : settings::code_symbol_not_found;
}

// cuGetErrorName and cuGetErrorString keep answering without a driver, from
// the generated table of status constants.
struct StatusText {
    int code;
    const char *name;
    const char *text;
};

enum class Text { name, text };

// Stores the name or text of `code` in `*out`; false for an unknown code.
[[maybe_unused]] bool status_text(const StatusText *texts, std::size_t count, int code, const char **out,
                                  Text which) {
    for (std::size_t i = 0; i < count; ++i) {
        if (texts[i].code == code) {
            *out = which == Text::name ? texts[i].name : texts[i].text;
            return true;
        }
    }
    *out = nullptr;
    return false;
}

// The exported status API, by index into the table; the generated file wraps
// each under the header's own names.
[[maybe_unused]] Status function_status(const char *name) {
    for (const Alias *a = alias_table(); a->name; ++a)
        if (std::strcmp(a->name, name) == 0) name = a->symbol;
    for (std::size_t i = 0; i < function_count(); ++i) {
        const Function &f = function_table()[i];
        if (std::strcmp(f.name, name) == 0 || std::strcmp(f.symbol, name) == 0) {
            if (f.state.load(std::memory_order_relaxed) == elsewhere) break;
            if (resolve(i)) return status_ok;
            return last_status;
        }
    }
    char message[1024];
    format(message, sizeof message, "`%s` is not a function of this header on this system", name);
    note(status_symbol_not_found, message);
    return status_symbol_not_found;
}

[[maybe_unused]] int set_library_path(const char *absolute_path) {
    if (!absolute_path || !is_absolute(absolute_path)) return -1;
    Library &lib = library();
    int result = 0;
    lib.override_lock.lock();
    if (lib.started)
        result = -2;
    else if (std::strlen(absolute_path) >= sizeof lib.override_path)
        result = -1;
    else
        format(lib.override_path, sizeof lib.override_path, "%s", absolute_path);
    lib.override_lock.unlock();
    return result;
}

[[maybe_unused]] std::size_t resolve_all(const char **missing, std::size_t capacity) {
    if (loaded().status != status_ok) return static_cast<std::size_t>(-1);
    std::size_t count = 0;
    for (std::size_t i = 0; i < function_count(); ++i) {
        if (function_table()[i].state.load(std::memory_order_relaxed) == elsewhere) continue;
        if (resolve(i)) continue;
        if (missing && count < capacity) missing[count] = function_table()[i].symbol;
        ++count;
    }
    return count;
}

[[maybe_unused]] int set_stream_mode(int per_thread) {
    int mode = per_thread ? mode_per_thread : mode_legacy;
    int current = stream_mode.load(std::memory_order_acquire);
    while (!(current & mode_locked)) {
        if (stream_mode.compare_exchange_weak(current, mode, std::memory_order_acq_rel)) return 0;
    }
    char message[256];
    format(message, sizeof message, "the stream mode must be set before the first CUDA call; it stays %s",
           (current & ~mode_locked) == mode_per_thread ? "per-thread" : "legacy");
    note(status_ok, message);
    return -2;
}

[[maybe_unused]] int current_stream_mode() {
    int current = stream_mode.load(std::memory_order_acquire) & ~mode_locked;
    if (current == mode_unset) current = initial_mode();
    return current == mode_per_thread;
}

// Why the stream variable is ignored, or null: the same rule and words as
// the Rust runtime's `stream_mode_warning`.
[[maybe_unused]] const char *stream_mode_warning() {
    const char *value = std::getenv(settings::stream_var);
    if (!value || stream_mode_from_env(value) != mode_unset) return nullptr;
    char on[64] = {}, off[64] = {};
    for (const char *word : settings::stream_on) append(on, sizeof on, on[0] ? "/" : ""), append(on, sizeof on, word);
    for (const char *word : settings::stream_off) append(off, sizeof off, off[0] ? "/" : ""), append(off, sizeof off, word);
    static thread_local char warning[1024];
    format(warning, sizeof warning,
           "%s=`%s` is ignored: it is none of %s (per-thread) and %s (legacy); the %s default stream is used",
           settings::stream_var, value, on, off, settings::per_thread_by_default ? "per-thread" : "legacy");
    return warning;
}

[[maybe_unused]] unsigned driver_version() {
    Library &lib = loaded();
    return lib.status == status_ok ? lib.driver_version : 0u;
}

[[maybe_unused]] const char *library_path() {
    Library &lib = loaded();
    return lib.status == status_ok ? lib.path : nullptr;
}

[[maybe_unused]] unsigned library_open_attempts() { return library().attempts.load(std::memory_order_relaxed); }

}  // namespace cushim
}  // namespace

// One invocation per stub. The slot starts at a resolver that binds the symbol,
// patches the slot (with the driver's function, or with a stub that reports the
// failure) and forwards the call; from then on a call is one atomic load and one
// indirect call.
#define CUSHIM_DEFINE(RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)                    \
    static RET CUSHIM_CALL cushim_resolve_##SYMBOL PARAMS;                                          \
    static RET CUSHIM_CALL cushim_absent_##SYMBOL PARAMS {                                          \
        cushim::ignore ARGS;                                                                     \
        return ABSENT;                                                                           \
    }                                                                                            \
    static std::atomic<RET(CUSHIM_CALL *) PARAMS> cushim_slot_##SYMBOL{&cushim_resolve_##SYMBOL};  \
    static RET CUSHIM_CALL cushim_resolve_##SYMBOL PARAMS {                                         \
        RET(CUSHIM_CALL * call) PARAMS = &cushim_absent_##SYMBOL;                                   \
        if (void *p = cushim::resolve(INDEX)) call = reinterpret_cast<RET(CUSHIM_CALL *) PARAMS>(p); \
        if (call != &cushim_absent_##SYMBOL || cushim::failure_is_final())                       \
            cushim_slot_##SYMBOL.store(call, std::memory_order_release);                         \
        return call ARGS;                                                                        \
    }                                                                                            \
    CHECK(SYMBOL, RET, PARAMS)                                                                   \
    extern "C" CUSHIM_EXPORT RET CUSHIM_CALL EXPORT PARAMS {                                         \
        return cushim_slot_##SYMBOL.load(std::memory_order_acquire) ARGS;                        \
    }

// Twins (`_ptds`/`_ptsz`) are not declared by the header in legacy mode.
#define CUSHIM_UNCHECKED(SYMBOL, RET, PARAMS)
