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

// The spin lock of the override path: no std::mutex, so that the runtime
// needs nothing from the C++ library.
void lock(Library &s) {
    while (s.override_held.exchange(true, std::memory_order_acquire)) {
    }
}
void unlock(Library &s) { s.override_held.store(false, std::memory_order_release); }

bool is_absolute(const char *path) {
#ifdef _WIN32
    return path[0] != '\0' && path[1] == ':' && (path[2] == '\\' || path[2] == '/');
#else
    return path[0] == '/';
#endif
}

// Opening a library runs its initializers (and its dependencies') inside
// the platform's loader. An exception thrown there cannot be recovered
// from: glibc's loader lock stays held, so the next dlopen or dlclose on any
// other thread would block forever (the same thread's would go on). So no
// exception leaves open_one: it is noexcept, and the loader is called
// through a pointer the compiler cannot see into, because glibc declares
// dlopen itself nothrow, which would let the compiler drop the check; an
// initializer's throw ends the process with std::terminate, at the throw.
// (Built without exceptions, as for a C program, the runtime has no say: the
// exception passes through it to whatever the program does with it.)
#ifdef _WIN32
void *open_one(const char *name, char *error, std::size_t size) noexcept {
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
constexpr char separator = '\\';
constexpr const char *lib_dir = "bin";
#else
void *(*const volatile loader_open)(const char *, int) = dlopen;

void *open_one(const char *name, char *error, std::size_t size) noexcept {
    void *h = loader_open(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        format(error, size, "%s", e ? e : "dlopen failed");
    }
    return h;
}
void *find(void *handle, const char *symbol) { return dlsym(handle, symbol); }
constexpr char separator = '/';
constexpr const char *lib_dir = "lib";
#endif

// 1000 x major + 10 x minor, the minor kept to two digits.
unsigned version_of(int major, int minor) {
    return static_cast<unsigned>(major) * 1000u + static_cast<unsigned>(minor < 0 ? 0 : minor > 99 ? 99 : minor) * 10u;
}

// Reads the library version once, as the description says the version
// function answers: 1000 x major + 10 x minor, or 0 when it cannot tell.
// Returns what the function returned (or `no_answer` without one); NVIDIA's
// toolkit stub of the driver answers with the stub code, a real driver never.
constexpr int no_answer = -0x7fff;
int read_version_at(const LibraryInfo &L, void *p, unsigned &version);
int read_version(const LibraryInfo &L, void *handle, unsigned &version) {
    version = 0;
    void *p = find(handle, L.version_function);
    if (!p) return no_answer;
    return read_version_at(L, p, version);
}

// The same, for the version function at `p`.
int read_version_at(const LibraryInfo &L, void *p, unsigned &version) {
    version = 0;
    int rc = no_answer;
    if (L.version_query == VersionQuery::number) {
        int v = 0;
        rc = reinterpret_cast<int (*)(int *)>(p)(&v);
        if (rc == 0 && v > 0) version = static_cast<unsigned>(v);
    } else if (L.version_query == VersionQuery::number_in_status) {
        struct CodePair {
            int code;
            int other;
        };
        int v = 0;
        rc = reinterpret_cast<CodePair (*)(int *)>(p)(&v).code;
        if (rc == 0 && v > 0) version = static_cast<unsigned>(v);
    } else if (L.version_query == VersionQuery::major_minor) {
        int major = 0, minor = 0;
        rc = reinterpret_cast<int (*)(int *, int *)>(p)(&major, &minor);
        if (rc == 0 && major > 0 && major < 4000000) version = version_of(major, minor);
    } else if (L.version_query == VersionQuery::property) {
        int major = 0, minor = 0;
        rc = reinterpret_cast<int (*)(int, int *)>(p)(0, &major);
        if (rc == 0) rc = reinterpret_cast<int (*)(int, int *)>(p)(1, &minor);
        if (rc == 0 && major > 0 && major < 4000000) version = version_of(major, minor);
    } else if (L.version_query == VersionQuery::absent) {
        return no_answer;
    } else if (L.version_query == VersionQuery::api) {
        unsigned v = 0;
        rc = reinterpret_cast<int (*)(unsigned *)>(p)(&v);
    } else if (L.version_query == VersionQuery::decimal || L.version_query == VersionQuery::returned) {
        unsigned long long v = 0;
        if (L.version_query == VersionQuery::returned) {
            v = reinterpret_cast<std::size_t (*)()>(p)();
            rc = 0;
        } else {
            int n = 0;
            rc = reinterpret_cast<int (*)(int *)>(p)(&n);
            if (n > 0) v = static_cast<unsigned long long>(n);
        }
        if (rc == 0 && v / 10000 > 0 && v / 10000 < 4000000)
            version = version_of(static_cast<int>(v / 10000), static_cast<int>(v / 100 % 100));
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

// What is checked of a candidate file before the platform's loader sees it
// (the Rust runtime's `file` module: the same checks, in the same words).
// The loader trusts what it maps: a FIFO named like the library blocks the
// open forever, a truncated library dies of SIGBUS inside dlopen when a
// segment past the end of the file is touched, and glibc answers "No such
// file or directory" for a library built for another machine. So only a
// regular file is opened, without blocking, and its header must be for this
// build (ELF: class, byte order, type, machine, and every loaded segment
// inside the file; Windows: the PE header, machine, a DLL, every section
// inside the file).

unsigned long long add_saturating(unsigned long long a, unsigned long long b) {
    return a > ULLONG_MAX - b ? ULLONG_MAX : a + b;
}

// "truncated: WHAT ends at byte N, but the file has M bytes".
bool truncated(char *why, std::size_t size, const char *what, unsigned long long end, unsigned long long length) {
    format(why, size, "truncated: %s ends at byte %llu, but the file has %llu bytes", what, end, length);
    return false;
}

#ifdef _WIN32
using file_handle = HANDLE;

// Reads `n` bytes at `offset`; the caller checked that they lie inside the file.
bool read_at(file_handle f, unsigned long long offset, void *buffer, std::size_t n, char *why, std::size_t size) {
    char *p = static_cast<char *>(buffer);
    while (n > 0) {
        OVERLAPPED at = {};
        at.Offset = static_cast<DWORD>(offset);
        at.OffsetHigh = static_cast<DWORD>(offset >> 32);
        DWORD got = 0;
        DWORD want = n > 0x10000000 ? 0x10000000 : static_cast<DWORD>(n);
        if (!ReadFile(f, p, want, &got, &at) || got == 0) {
            format(why, size, "cannot be read: error %lu", static_cast<unsigned long>(GetLastError()));
            return false;
        }
        p += got;
        n -= got;
        offset += got;
    }
    return true;
}

unsigned read_u16(const unsigned char *b) { return b[0] | static_cast<unsigned>(b[1]) << 8; }
unsigned long read_u32(const unsigned char *b) {
    return b[0] | static_cast<unsigned long>(b[1]) << 8 | static_cast<unsigned long>(b[2]) << 16 |
           static_cast<unsigned long>(b[3]) << 24;
}

#if defined(_M_X64) || defined(__x86_64__)
constexpr unsigned this_machine = 0x8664;
#elif defined(_M_ARM64) || defined(__aarch64__)
constexpr unsigned this_machine = 0xaa64;
#elif defined(_M_IX86) || defined(__i386__)
constexpr unsigned this_machine = 0x14c;
#else
constexpr unsigned this_machine = 0;
#endif

// "0x8664 (x86-64)": a PE machine number, with its name when known.
void machine_name(char *out, std::size_t size, unsigned m) {
    const char *name = m == 0x14c ? "x86" : m == 0x8664 ? "x86-64" : m == 0xaa64 ? "ARM64" : m == 0x1c4 ? "ARMv7" : nullptr;
    if (name)
        format(out, size, "%#x (%s)", m, name);
    else
        format(out, size, "%#x", m);
}

// The DOS and PE headers, and every section's place in the file.
bool check_header(file_handle f, unsigned long long length, char *why, std::size_t size) {
    unsigned char dos[64] = {};
    std::size_t have = length < sizeof dos ? static_cast<std::size_t>(length) : sizeof dos;
    if (!read_at(f, 0, dos, have, why, size)) return false;
    if (have < 2 || dos[0] != 'M' || dos[1] != 'Z') {
        format(why, size, "not a Windows DLL (it does not start with `MZ`)");
        return false;
    }
    if (length < sizeof dos) return truncated(why, size, "its DOS header", sizeof dos, length);
    unsigned long long pe = read_u32(dos + 0x3c);
    // The signature, the file header (20 bytes) and the optional header's magic.
    unsigned char h[26];
    if (add_saturating(pe, sizeof h) > length)
        return truncated(why, size, "its PE header", add_saturating(pe, sizeof h), length);
    if (!read_at(f, pe, h, sizeof h, why, size)) return false;
    if (std::memcmp(h, "PE\0\0", 4) != 0) {
        format(why, size, "not a Windows DLL (no PE signature)");
        return false;
    }
    unsigned machine = read_u16(h + 4);
    if (this_machine != 0 && machine != this_machine) {
        char found[64], wanted[64];
        machine_name(found, sizeof found, machine);
        machine_name(wanted, sizeof wanted, this_machine);
        format(why, size, "a DLL for machine %s, but this program is for %s", found, wanted);
        return false;
    }
    unsigned long long sections = read_u16(h + 6);
    unsigned long long optional = read_u16(h + 20);
    if ((read_u16(h + 22) & 0x2000) == 0) {
        format(why, size, "a Windows program, not a DLL");
        return false;
    }
    constexpr unsigned bits = sizeof(void *) * 8;
    unsigned magic = read_u16(h + 24);
    unsigned found_bits = magic == 0x10b ? 32 : magic == 0x20b ? 64 : 0;
    if (found_bits != bits) {
        if (found_bits == 0)
            format(why, size, "a malformed DLL (optional header magic %#x)", magic);
        else
            format(why, size, "a %u-bit DLL, but this program is %u-bit", found_bits, bits);
        return false;
    }
    unsigned long long table = pe + 24 + optional;
    if (table + sections * 40 > length) return truncated(why, size, "its section table", table + sections * 40, length);
    for (unsigned long long i = 0; i < sections; ++i) {
        unsigned char section[40];
        if (!read_at(f, table + i * 40, section, sizeof section, why, size)) return false;
        unsigned long long raw = read_u32(section + 16);
        unsigned long long end = raw + read_u32(section + 20);
        if (raw != 0 && end > length) return truncated(why, size, "a section", end, length);
    }
    return true;
}

// Whether the file at `path` can be handed to the loader; else what is
// wrong with it, in `why`.
bool check_file(const char *path, char *why, std::size_t size) {
    wchar_t wide[path_size];
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) == 0) {
        format(why, size, "cannot be examined: the name is not valid UTF-8");
        return false;
    }
    DWORD attributes = GetFileAttributesW(wide);
    if (attributes == INVALID_FILE_ATTRIBUTES) {
        format(why, size, "cannot be examined: error %lu", static_cast<unsigned long>(GetLastError()));
        return false;
    }
    if (attributes & FILE_ATTRIBUTE_DIRECTORY) {
        format(why, size, "not a regular file (a directory)");
        return false;
    }
    HANDLE f = CreateFileW(wide, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (f == INVALID_HANDLE_VALUE) {
        format(why, size, "cannot be read: error %lu", static_cast<unsigned long>(GetLastError()));
        return false;
    }
    LARGE_INTEGER length = {};
    bool ok = false;
    if (GetFileType(f) != FILE_TYPE_DISK)
        format(why, size, "not a regular file (not a file)");
    else if (!GetFileSizeEx(f, &length))
        format(why, size, "cannot be examined: error %lu", static_cast<unsigned long>(GetLastError()));
    else
        ok = check_header(f, static_cast<unsigned long long>(length.QuadPart), why, size);
    CloseHandle(f);
    return ok;
}
#else
// Reads `n` bytes at `offset`; the caller checked that they lie inside the file.
bool read_at(int fd, unsigned long long offset, void *buffer, std::size_t n, char *why, std::size_t size) {
    char *p = static_cast<char *>(buffer);
    while (n > 0) {
        ssize_t got = pread(fd, p, n, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            format(why, size, "cannot be read: %s", got < 0 ? std::strerror(errno) : "it ended early");
            return false;
        }
        p += got;
        n -= static_cast<std::size_t>(got);
        offset += static_cast<unsigned long long>(got);
    }
    return true;
}

// What a file that is not a regular file is.
const char *file_kind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISDIR(mode)) return "a directory";
    return "not a file";
}

#if defined(__linux__)
// The ELF machine of this build (e_machine), 0 where unknown here.
#if defined(__x86_64__)
constexpr unsigned this_machine = 62;
#elif defined(__aarch64__)
constexpr unsigned this_machine = 183;
#elif defined(__i386__)
constexpr unsigned this_machine = 3;
#elif defined(__arm__)
constexpr unsigned this_machine = 40;
#elif defined(__powerpc64__)
constexpr unsigned this_machine = 21;
#elif defined(__powerpc__)
constexpr unsigned this_machine = 20;
#elif defined(__riscv) && __riscv_xlen == 64
constexpr unsigned this_machine = 243;
#elif defined(__s390x__)
constexpr unsigned this_machine = 22;
#elif defined(__loongarch64)
constexpr unsigned this_machine = 258;
#else
constexpr unsigned this_machine = 0;
#endif

// "62 (x86-64)": an ELF machine number, with its name when known.
void machine_name(char *out, std::size_t size, unsigned m) {
    const char *name = nullptr;
    switch (m) {
        case 3: name = "x86"; break;
        case 20: name = "PowerPC"; break;
        case 21: name = "PowerPC64"; break;
        case 22: name = "S/390"; break;
        case 40: name = "ARM"; break;
        case 62: name = "x86-64"; break;
        case 183: name = "AArch64"; break;
        case 243: name = "RISC-V"; break;
        case 258: name = "LoongArch"; break;
        default: break;
    }
    if (name)
        format(out, size, "%u (%s)", m, name);
    else
        format(out, size, "%u", m);
}

// The ELF header, the program headers, and every loadable segment's place
// in the file (what glibc maps; a part past the end is a SIGBUS).
bool check_header(int fd, unsigned long long length, char *why, std::size_t size) {
    constexpr unsigned bits = sizeof(void *) * 8;
    ElfW(Ehdr) h;
    std::memset(&h, 0, sizeof h);
    std::size_t have = length < sizeof h ? static_cast<std::size_t>(length) : sizeof h;
    if (!read_at(fd, 0, &h, have, why, size)) return false;
    if (have < 4 || std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) {
        format(why, size, "not an ELF file (it does not start with the ELF magic number)");
        return false;
    }
    if (length < sizeof h) return truncated(why, size, "its ELF header", sizeof h, length);
    unsigned char cls = h.e_ident[EI_CLASS];
    unsigned found_bits = cls == ELFCLASS32 ? 32 : cls == ELFCLASS64 ? 64 : 0;
    if (found_bits != bits) {
        if (found_bits == 0)
            format(why, size, "an ELF file of unknown class %u", static_cast<unsigned>(cls));
        else
            format(why, size, "a %u-bit ELF file, but this program is %u-bit", found_bits, bits);
        return false;
    }
    bool little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    if (h.e_ident[EI_DATA] != (little ? ELFDATA2LSB : ELFDATA2MSB)) {
        format(why, size, "an ELF file of the other byte order, but this program is %s-endian", little ? "little" : "big");
        return false;
    }
    if (h.e_type != ET_DYN) {
        format(why, size, "an ELF file of type %u, not a shared library (type 3)", static_cast<unsigned>(h.e_type));
        return false;
    }
    if (this_machine != 0 && h.e_machine != this_machine) {
        char found[64], wanted[64];
        machine_name(found, sizeof found, h.e_machine);
        machine_name(wanted, sizeof wanted, this_machine);
        format(why, size, "an ELF file for machine %s, but this program is for %s", found, wanted);
        return false;
    }
    if (h.e_phnum > 0 && h.e_phentsize < sizeof(ElfW(Phdr))) {
        format(why, size, "a malformed ELF file (program headers of %u bytes)", static_cast<unsigned>(h.e_phentsize));
        return false;
    }
    unsigned long long table = static_cast<unsigned long long>(h.e_phentsize) * h.e_phnum;
    unsigned long long end = add_saturating(h.e_phoff, table);
    if (end > length) return truncated(why, size, "its program header table", end, length);
    for (unsigned i = 0; i < h.e_phnum; ++i) {
        ElfW(Phdr) p;
        if (!read_at(fd, h.e_phoff + static_cast<unsigned long long>(i) * h.e_phentsize, &p, sizeof p, why, size))
            return false;
        if (p.p_type != PT_LOAD) continue;  // only PT_LOAD segments are mapped from the file
        end = add_saturating(p.p_offset, p.p_filesz);
        if (end > length) return truncated(why, size, "a loadable segment", end, length);
    }
    return true;
}
#else
// Elsewhere (macOS), the regular-file check only.
bool check_header(int, unsigned long long, char *, std::size_t) { return true; }
#endif

// Whether the file at `path` can be handed to the loader; else what is
// wrong with it, in `why`.
bool check_file(const char *path, char *why, std::size_t size) {
    struct stat st;
    if (stat(path, &st) != 0) {
        format(why, size, "cannot be examined: %s", std::strerror(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        format(why, size, "not a regular file (%s)", file_kind(st.st_mode));
        return false;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        format(why, size, "cannot be read: %s", std::strerror(errno));
        return false;
    }
    // The file opened may not be the one examined: look again.
    bool ok = false;
    if (fstat(fd, &st) != 0)
        format(why, size, "cannot be examined: %s", std::strerror(errno));
    else if (!S_ISREG(st.st_mode))
        format(why, size, "not a regular file (%s)", file_kind(st.st_mode));
    else
        ok = check_header(fd, static_cast<unsigned long long>(st.st_size), why, size);
    close(fd);
    return ok;
}
#endif

#if defined(__linux__) || defined(_WIN32)
// Whether a Python environment found above the program may supply a library
// (the Rust runtime's `trust` module: the same rule, in the same words):
// OpenSSH's StrictModes rule. Nobody named that directory (unlike
// VIRTUAL_ENV, CONDA_PREFIX or LD_LIBRARY_PATH, which the user sets), so a
// pyvenv.cfg or conda-meta planted in a directory that others can write
// (/tmp, or C:\ where any user may create a folder) must not bring a library
// into this process. Each of these must be owned safely (`owned_safely`):
// - the environment's directory and its marker files;
// - every directory from the environment down to the program, and down to
//   the library, and the library itself;
// - where links lead the library out of the environment, the file it
//   resolves to, and every directory above that up to the root, which may
//   let others add entries but nothing more (`owned_safely_above`).
// On Linux a path is owned safely when it belongs to root or to this
// process's effective user and neither its group nor others may write it;
// on Windows when it belongs to this process's user, SYSTEM, Administrators
// or TrustedInstaller and its DACL grants write access to none but those.

#ifdef _WIN32
// The rule on Windows, from a path's owner and DACL (OpenSSH for Windows
// holds its configuration files to a rule of this kind). A path is owned
// safely when its owner is trusted (`trusted`), it has a DACL (a NULL DACL
// lets everyone do anything), and no ACE of that DACL that applies to the
// path itself (inherit-only ones are for its children, which carry their own
// copy) allows anyone else a right of `write_rights`. Deny ACEs are not
// weighed: an allowed right is refused even where a deny ACE would take it
// back.
#if defined(_MSC_VER)
#pragma comment(lib, "advapi32")
#endif

// The rights refused to anyone but the trusted: writing or appending to a
// file, adding entries to a directory (the same bits), removing or renaming
// the path or an entry of the directory, changing its DACL or its owner, the
// generic rights that hold those, and FILE_WRITE_ATTRIBUTES, so as not to
// rely on which of these rights a file system asks for before it turns a
// directory into a link (a reparse point). Reading, executing, and writing
// extended attributes (which the loader does not read) are not.
constexpr DWORD write_rights = FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_ATTRIBUTES | FILE_DELETE_CHILD |
                               DELETE | WRITE_DAC | WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL;
// What a directory above a library outside its environment may let others
// do: add entries (C:\ lets every user create a folder), which replaces none
// of the entries on the way to the library.
constexpr DWORD add_rights = FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY;
// TrustedInstaller's SID (NT SERVICE\TrustedInstaller), which owns the
// system's own files.
constexpr const char *trusted_installer = "S-1-5-80-956008885-3544635353-1863223574-2197271163-1917906458";
// Who alone may write an environment, as a refusal says.
constexpr const char *trusted_writers = "this user, SYSTEM, Administrators or TrustedInstaller";

// `sid` as S-1-..., into `out`.
void sid_text(PSID sid, char *out, std::size_t size) {
    char *text = nullptr;
    if (!ConvertSidToStringSidA(sid, &text)) {
        format(out, size, "an unreadable SID");
        return;
    }
    format(out, size, "%s", text);
    LocalFree(text);
}

// `sid` as S-1-..., with the name of the groups that ACLs most often open to
// others: "Everyone (S-1-1-0)".
void sid_named(PSID sid, char *out, std::size_t size) {
    char text[256];
    sid_text(sid, text, sizeof text);
    const WELL_KNOWN_SID_TYPE kinds[] = {WinWorldSid, WinAuthenticatedUserSid, WinBuiltinUsersSid};
    const char *const names[] = {"Everyone", "Authenticated Users", "Users"};
    for (std::size_t i = 0; i < 3; ++i) {
        if (IsWellKnownSid(sid, kinds[i])) {
            format(out, size, "%s (%s)", names[i], text);
            return;
        }
    }
    format(out, size, "%s", text);
}

// Whether `sid` is this process's user (`me`), SYSTEM, Administrators or
// TrustedInstaller.
bool trusted(PSID sid, PSID me) {
    if (EqualSid(sid, me) || IsWellKnownSid(sid, WinLocalSystemSid) || IsWellKnownSid(sid, WinBuiltinAdministratorsSid))
        return true;
    char text[256];
    sid_text(sid, text, sizeof text);
    return std::strcmp(text, trusted_installer) == 0;
}

// Whether `path` passes the rule with `refused` rights for the others; else
// why not, in `why`.
bool owned_safely_against(const char *path, DWORD refused, char *why, std::size_t size) {
    wchar_t wide[path_size];
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) == 0) {
        format(why, size, "`%s` cannot be examined: the name is not valid UTF-8", path);
        return false;
    }
    PSID owner = nullptr;
    PACL dacl = nullptr;
    PSECURITY_DESCRIPTOR descriptor = nullptr;
    DWORD rc = GetNamedSecurityInfoW(wide, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
                                     &owner, nullptr, &dacl, nullptr, &descriptor);
    if (rc != ERROR_SUCCESS) {
        format(why, size, "`%s` cannot be examined: error %lu", path, static_cast<unsigned long>(rc));
        return false;
    }
    // This process's user, as its token tells.
    alignas(8) unsigned char user[512];
    HANDLE token = nullptr;
    DWORD got = 0;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        format(why, size, "this process's user is unknown: error %lu", static_cast<unsigned long>(GetLastError()));
        LocalFree(descriptor);
        return false;
    }
    BOOL known = GetTokenInformation(token, TokenUser, user, sizeof user, &got);
    DWORD error = GetLastError();
    CloseHandle(token);
    if (!known) {
        format(why, size, "this process's user is unknown: error %lu", static_cast<unsigned long>(error));
        LocalFree(descriptor);
        return false;
    }
    PSID me = reinterpret_cast<TOKEN_USER *>(user)->User.Sid;
    bool ok = true;
    char who[256], mine[256];
    if (!trusted(owner, me)) {
        sid_named(owner, who, sizeof who);
        sid_text(me, mine, sizeof mine);
        format(why, size,
               "`%s` is owned by %s, neither this process's user (%s), SYSTEM, Administrators nor TrustedInstaller",
               path, who, mine);
        ok = false;
    } else if (!dacl) {
        format(why, size, "`%s` has no DACL, which lets everyone write it", path);
        ok = false;
    }
    for (DWORD i = 0; ok && dacl && i < dacl->AceCount; ++i) {
        void *ace = nullptr;
        if (!GetAce(dacl, i, &ace)) continue;
        // Every ACE starts with its header, then (of the allowing types) its
        // 32-bit mask; the object kinds (5, 11) then have 32-bit flags and
        // one 16-byte GUID per flag set, and every allowing ACE then its SID.
        const unsigned char *bytes = static_cast<const unsigned char *>(ace);
        ACE_HEADER header;
        std::memcpy(&header, bytes, sizeof header);
        if (header.AceFlags & INHERIT_ONLY_ACE) continue;
        DWORD mask, flags;
        std::memcpy(&mask, bytes + 4, sizeof mask);
        std::size_t sid_at;
        if (header.AceType == 0 || header.AceType == 9) {
            sid_at = 8;
        } else if (header.AceType == 5 || header.AceType == 11) {
            std::memcpy(&flags, bytes + 8, sizeof flags);
            sid_at = 12 + 16 * (flags & 1) + 16 * (flags >> 1 & 1);
        } else {
            continue;
        }
        PSID sid = const_cast<unsigned char *>(bytes + sid_at);
        if ((mask & refused) != 0 && !trusted(sid, me)) {
            sid_named(sid, who, sizeof who);
            format(why, size, "`%s` is writable by %s (access mask 0x%08lx)", path, who,
                   static_cast<unsigned long>(mask));
            ok = false;
        }
    }
    LocalFree(descriptor);
    return ok;
}

// Whether `path` (followed through links) is owned safely; else why not, in
// `why`.
bool owned_safely(const char *path, char *why, std::size_t size) {
    return owned_safely_against(path, write_rights, why, size);
}

// `owned_safely` for a directory above a library that links lead out of its
// environment, which may also let others add entries.
bool owned_safely_above(const char *dir, char *why, std::size_t size) {
    return owned_safely_against(dir, write_rights & ~add_rights, why, size);
}

// The program's own path, into `path`; else why not, in `why`.
bool program_path(char *path, std::size_t length, char *why, std::size_t size) {
    wchar_t wide[path_size];
    DWORD n = GetModuleFileNameW(nullptr, wide, static_cast<DWORD>(path_size));
    if (n == 0 || n >= path_size ||
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, path, static_cast<int>(length), nullptr, nullptr) == 0) {
        format(why, size, "the program's own path is unknown: error %lu", static_cast<unsigned long>(GetLastError()));
        return false;
    }
    return true;
}

// Where `path` leads through links (\\?\C:\...), into `real`; else why not,
// in `why`.
bool resolve(const char *path, char *real, std::size_t length, char *why, std::size_t size) {
    wchar_t wide[path_size], final_path[path_size];
    HANDLE h = INVALID_HANDLE_VALUE;
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) != 0)
        h = CreateFileW(wide, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    DWORD n = 0;
    if (h != INVALID_HANDLE_VALUE) {
        n = GetFinalPathNameByHandleW(h, final_path, static_cast<DWORD>(path_size), VOLUME_NAME_DOS);
        CloseHandle(h);
    }
    if (n == 0 || n >= path_size ||
        WideCharToMultiByte(CP_UTF8, 0, final_path, -1, real, static_cast<int>(length), nullptr, nullptr) == 0) {
        format(why, size, "`%s` cannot be resolved: error %lu", path, static_cast<unsigned long>(GetLastError()));
        return false;
    }
    return true;
}

// The length of the root that `path` starts with: 3 for C:\, 7 for \\?\C:\.
std::size_t root_length(const char *path) { return std::strncmp(path, "\\\\?\\", 4) == 0 ? 7 : 3; }

// Whether `path` exists, a link itself counted.
bool exists_unfollowed(const char *path) {
    wchar_t wide[path_size];
    return MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) != 0 &&
           GetFileAttributesW(wide) != INVALID_FILE_ATTRIBUTES;
}
#else
// Who alone may write an environment, as a refusal says.
constexpr const char *trusted_writers = "root or this user";

// Whether `path` (followed through links) belongs to root or this user and
// neither its group nor others may write it; else why not, in `why`.
bool owned_safely(const char *path, char *why, std::size_t size) {
    struct stat st;
    if (stat(path, &st) != 0) {
        format(why, size, "`%s` cannot be examined: %s", path, std::strerror(errno));
        return false;
    }
    uid_t me = geteuid();
    if (st.st_uid != 0 && st.st_uid != me) {
        format(why, size, "`%s` is owned by uid %lu, neither root nor this process's user (uid %lu)", path,
               static_cast<unsigned long>(st.st_uid), static_cast<unsigned long>(me));
        return false;
    }
    bool group = (st.st_mode & S_IWGRP) != 0, others = (st.st_mode & S_IWOTH) != 0;
    if (!group && !others) return true;
    format(why, size, "`%s` is writable by %s (mode %04o)", path,
           group && others ? "group and others" : group ? "its group" : "others",
           static_cast<unsigned>(st.st_mode & 07777));
    return false;
}

// `owned_safely` for a directory above a library that links lead out of its
// environment. A directory like /tmp (root's, others may write, sticky) is
// fine: no one but an entry's owner can rename or remove it, and the entry
// below it is checked in turn.
bool owned_safely_above(const char *dir, char *why, std::size_t size) {
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0 && st.st_uid == 0) return true;
    return owned_safely(dir, why, size);
}

// The program's own path, into `path`; else why not, in `why`.
bool program_path(char *path, std::size_t length, char *why, std::size_t size) {
    ssize_t n = readlink("/proc/self/exe", path, length - 1);
    if (n <= 0) {
        format(why, size, "the program's own path is unknown: %s", std::strerror(errno));
        return false;
    }
    path[n] = '\0';
    return true;
}

// Where `path` leads through links, into `real` (of path_size bytes at
// least); else why not, in `why`.
bool resolve(const char *path, char *real, std::size_t, char *why, std::size_t size) {
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) {
        format(why, size, "`%s` cannot be resolved: %s", path, std::strerror(errno));
        return false;
    }
    format(real, path_size, "%s", resolved);
    return true;
}

// The length of the root that `path` starts with (/).
std::size_t root_length(const char *) { return 1; }

// Whether `path` exists, a link itself counted.
bool exists_unfollowed(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}
#endif

// Checks `from` and each path below it on the way to `to`, `to` included.
bool owned_safely_down(const char *from, const char *to, char *why, std::size_t size) {
    std::size_t n = std::strlen(from);
    while (n > root_length(from) && from[n - 1] == separator) --n;
    bool inside = std::strncmp(from, to, n) == 0 && (to[n] == '\0' || to[n] == separator || from[n - 1] == separator);
    if (!inside) {
        format(why, size, "`%s` is not inside `%s`", to, from);
        return false;
    }
    char path[path_size];
    format(path, sizeof path, "%.*s", static_cast<int>(n), from);
    if (!owned_safely(path, why, size)) return false;
    std::size_t length = std::strlen(to);
    for (std::size_t i = n + 1; i <= length; ++i) {
        if (i < length && to[i] != separator) continue;
        if (to[i - 1] == separator) continue;  // "//", or a trailing separator
        format(path, sizeof path, "%.*s", static_cast<int>(i), to);
        if (!owned_safely(path, why, size)) return false;
    }
    return true;
}

// Whether the environment at `root`, found above the program, may supply
// `library` (a file below it); else why not, naming the path at fault.
bool environment_above(const char *root, const char *library, char *why, std::size_t size) {
    const char *const markers[] = {"pyvenv.cfg", "conda-meta"};
    char path[path_size];
    for (const char *marker : markers) {
        format(path, sizeof path, "%s%c%s", root, separator, marker);
        if (exists_unfollowed(path) && !owned_safely(path, why, size)) return false;
    }
    if (!program_path(path, sizeof path, why, size)) return false;
    if (char *slash = std::strrchr(path, separator))
        *(static_cast<std::size_t>(slash - path) + 1 == root_length(path) ? slash + 1 : slash) = '\0';
    if (!owned_safely_down(root, path, why, size)) return false;
    if (!owned_safely_down(root, library, why, size)) return false;
    char real[path_size], real_root[path_size];
    if (!resolve(library, real, sizeof real, why, size) || !resolve(root, real_root, sizeof real_root, why, size))
        return false;
    std::size_t r = std::strlen(real_root);
    if (std::strncmp(real, real_root, r) == 0 &&
        (real[r] == '\0' || real[r] == separator || real_root[r - 1] == separator))
        return owned_safely_down(real_root, real, why, size);
    // Out of the environment: the file, then every directory above it.
    if (!owned_safely(real, why, size)) return false;
    std::size_t top = root_length(real);
    while (std::strlen(real) > top) {
        char *slash = std::strrchr(real, separator);
        if (!slash) return true;
        *(static_cast<std::size_t>(slash - real) + 1 == top ? slash + 1 : slash) = '\0';
        if (!owned_safely_above(real, why, size)) return false;
    }
    return true;
}

// Whether a candidate in `environment`, found above the executable, may not
// be used; then why, in `why`.
bool refuse_environment(const char *environment, const char *path, char *why, std::size_t size) {
    format(why, size, "not used: ");
    std::size_t used = std::strlen(why);
    if (environment_above(environment, path, why + used, size - used)) return false;
    append(why, size, ", but a Python environment above the program is searched only if ");
    append(why, size, trusted_writers);
    append(why, size,
           " alone can write it, its marker and every directory down to the library and to the program (remove the "
           "others' write access, or name the environment with VIRTUAL_ENV or CONDA_PREFIX)");
    return true;
}
#else
bool refuse_environment(const char *environment, const char *, char *why, std::size_t size) {
    format(why, size, "not used: `%s` was found above the program, which is not searched on this system", environment);
    return true;
}
#endif

// The file of the library opened as `name` (handle `h`): the path itself,
// or where the platform's loader found a bare name (the file that holds the
// version function). False, with `name` in `file`, when it cannot tell.
bool library_file(const LibraryInfo &L, void *h, const char *name, char *file, std::size_t size) {
    format(file, size, "%s", name);
    if (is_absolute(name)) return true;
#ifdef _WIN32
    (void)L;
    wchar_t wide[path_size];
    DWORD n = GetModuleFileNameW(static_cast<HMODULE>(h), wide, static_cast<DWORD>(path_size));
    char utf8[path_size];
    if (n == 0 || n >= path_size ||
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, utf8, static_cast<int>(sizeof utf8), nullptr, nullptr) == 0 ||
        !is_absolute(utf8))
        return false;
    format(file, size, "%s", utf8);
#else
    Dl_info info;
    void *p = find(h, L.version_function);
    if (!p || dladdr(p, &info) == 0 || !info.dli_fname || !is_absolute(info.dli_fname)) return false;
    format(file, size, "%s", info.dli_fname);
#endif
    return true;
}

// Loads the library at `path`, beside the library (a sibling or one it
// requires), checked as the library was, and keeps it loaded (the Rust
// runtime's `load_sibling`). False, with the reason in `why`, when it is
// absent, refused or cannot be opened.
bool load_beside(const LibraryInfo &L, const char *path, const char *environment, char *why, std::size_t size) {
    if (!file_exists(path)) {
        format(why, size, "no such file");
        return false;
    }
    if (environment && refuse_environment(environment, path, why, size)) return false;
    if (!check_file(path, why, size)) return false;
    L.state->attempts.fetch_add(1, std::memory_order_relaxed);
    return open_one(path, why, size) != nullptr;  // never unloaded
}

// Loads the libraries that the library opens by bare name while it runs
// (NVRTC's libnvrtc-builtins.so.13.0) from `dir`, its own directory, after
// it: its own open of the name then finds the copy already loaded (by its
// soname; on Windows, its module name) instead of failing, or of taking
// another install's. `{minor}` in a name is the minor `version` reports.
// Best effort, unlike the preload: one that is absent, unusable or refused
// is skipped and the library stays usable. Each is checked as the library
// was (the Rust runtime's `load_siblings`, whose record `cushim doctor`
// shows).
void load_siblings(const LibraryInfo &L, unsigned version, const char *dir, const char *environment) {
    char minor[16];
    format(minor, sizeof minor, "%u", version % 1000 / 10);
    for (const char *const *sibling = L.siblings; *sibling; ++sibling) {
        char name[path_size];
        const char *mark = std::strstr(*sibling, "{minor}");
        if (mark && version == 0) continue;  // the name cannot be known
        if (mark)
            format(name, sizeof name, "%.*s%s%s", static_cast<int>(mark - *sibling), *sibling, minor, mark + 7);
        else
            format(name, sizeof name, "%s", *sibling);
        char path[path_size];
        format(path, sizeof path, "%s%c%s", dir, separator, name);
        char why[path_size + 2048] = {};
        load_beside(L, path, environment, why, sizeof why);
    }
}

// Ends a search without a library: the status, and the message that lists
// what was tried.
void not_found(const LibraryInfo &L) {
    Library &s = *L.state;
    s.status = status_library_not_found;
    if (!*L.names) {
        // cuFile on Windows: no file name to search for.
#ifdef _WIN32
        const char *system = "Windows";
#else
        const char *system = "this system";
#endif
        format(s.message, sizeof s.message, "%s has no library for %s; set %s to the absolute path of one to use it",
               L.label, system, L.override_var);
        return;
    }
    char names[256] = {};
    for (const char *const *name = L.names; *name; ++name) {
        append(names, sizeof names, names[0] ? "` or `" : "");
        append(names, sizeof names, *name);
    }
    format(s.message, sizeof s.message, "%s library not found; tried %s. %s, or set %s to the absolute path of `%s`",
           L.label, s.tried, L.install, L.override_var, names);
}

// What a copy needs before anything of it is called (the Rust runtime's
// `admit`): the libraries it requires, loaded from its own directory, and,
// where its file does not tell, the CUDA release it was built for. 0 to use
// it; 1, noted as tried, to go on searching; 2 to stop the search: a copy of
// another release was refused after the libraries it requires were loaded,
// which stay loaded and which any later copy would open by name.
int admit(const LibraryInfo &L, void *h, const char *name, const char *file, bool known, const char *environment) {
    Library &s = *L.state;
    char why[path_size * 2 + 2048];
    const char *slash = std::strrchr(file, separator);
    for (const char *const *req = L.required; *req; ++req) {
        if (!known || !slash) {
            format(why, sizeof why, "its directory is unknown, and it needs `%s` from there", *req);
            note_tried(s.tried, sizeof s.tried, name, why);
            return 1;
        }
        char path[path_size];
        format(path, sizeof path, "%.*s%c%s", static_cast<int>(slash - file), file, separator, *req);
        char error[path_size + 1024] = {};
        if (!load_beside(L, path, environment, error, sizeof error)) {
            format(why, sizeof why,
                   "it needs `%s` beside it, which cannot be loaded (%s); the %s would stop the process on its "
                   "first call without it",
                   path, error, L.label);
            note_tried(s.tried, sizeof s.tried, name, why);
            return 1;
        }
    }
    if (L.built_for) {
        void *p = find(h, L.built_for);
        if (!p) {
            format(why, sizeof why, "it does not export `%s`, which tells the CUDA release it was built for",
                   L.built_for);
            note_tried(s.tried, sizeof s.tried, name, why);
            return 1;
        }
        std::size_t built = reinterpret_cast<std::size_t (*)()>(p)();
        if (built != 0 && built / 1000 != L.built_for_major) {
            format(why, sizeof why, "it was built for CUDA %u.%u (its `%s`), but the header is for CUDA %u.x",
                   static_cast<unsigned>(built / 1000), static_cast<unsigned>(built % 1000 / 10), L.built_for,
                   L.built_for_major);
            if (!L.required[0]) {
                note_tried(s.tried, sizeof s.tried, name, why);
                return 1;
            }
            append(why, sizeof why, "; `");
            for (const char *const *req = L.required; *req; ++req) {
                if (req != L.required) append(why, sizeof why, "`, `");
                append(why, sizeof why, *req);
            }
            append(why, sizeof why, "` from its directory stay loaded, so no other copy is tried (name the right one with ");
            append(why, sizeof why, L.override_var);
            append(why, sizeof why, ")");
            note_tried(s.tried, sizeof s.tried, name, why);
            return 2;
        }
    }
    return 0;
}

// Adopts handle `h`, opened as `name`; true when the search is over (loaded,
// or found the stub). A library of another major than the header's, or one
// without its version function (unless the override named it), is noted and
// the search goes on. A library kept gets its siblings from its directory
// (`environment`: it was found in a Python environment above the executable,
// whose rule they must pass too).
bool adopt(const LibraryInfo &L, void *h, const char *name, bool named, const char *environment = nullptr) {
    Library &s = *L.state;
    if (!named && !find(h, L.version_function)) {
        // Kept loaded but never used: a library is never unloaded.
        char why[256];
        format(why, sizeof why, "it does not export `%s`, which every %s has", L.version_function, L.label);
        note_tried(s.tried, sizeof s.tried, name, why);
        return false;
    }
    // The file: the path opened, or where the system loader found a bare name.
    char file[path_size];
    bool known = library_file(L, h, name, file, sizeof file);
    switch (admit(L, h, name, file, known, environment)) {
        case 0:
            break;
        case 1:
            return false;
        default:
            // The search is over: not found, with this copy's reason last.
            not_found(L);
            return true;
    }
    unsigned version = 0;
    int rc = read_version(L, h, version);
    if (L.has_stub && rc == L.codes.stub_library) {
        // Kept loaded but never used: a library is never unloaded.
        s.status = status_stub_library;
        format(s.message, sizeof s.message,
               "`%s` is NVIDIA's stub library, not a %s (%s answered the stub code); remove the toolkit's "
               "lib64/stubs directory from LD_LIBRARY_PATH",
               name, L.short_name, L.version_function);
        return true;
    }
    if (L.major != 0 && version != 0 && version / 1000 != L.major) {
        char why[path_size + 256];
        format(why, sizeof why, "`%s` is %s %u.%u, but the header is for %s %u.x", file, L.label, version / 1000,
               version % 1000 / 10, L.product, L.major);
        note_tried(s.tried, sizeof s.tried, name, why);
        if (s.status != status_wrong_major) {
            s.status = status_wrong_major;
            format(s.message, sizeof s.message, "%s; install the %u.x library", why, L.major);
        }
        return false;
    }
    s.version = version;
    s.handle = h;
    format(s.path, sizeof s.path, "%s", name);
    if (L.abi_lookup && L.abi_lookup->proc_address_v2) s.proc_v2 = find(h, L.abi_lookup->proc_address_v2);
    if (L.abi_lookup && L.abi_lookup->proc_address_v1) s.proc_v1 = find(h, L.abi_lookup->proc_address_v1);
    s.status = status_ok;
    format(s.message, sizeof s.message, "loaded `%s`", name);
    // The objects it exports, into the pair's definitions of them.
    for (std::size_t i = 0; i < L.variable_count; ++i) {
        if (void *object = find(h, L.variables[i].name))
            std::memcpy(L.variables[i].storage, object, L.variables[i].size);
    }
    // Its siblings, from its directory.
    char *slash = std::strrchr(file, separator);
    if (L.siblings[0] && known && slash) {
        *slash = '\0';
        load_siblings(L, version, file, environment);
    }
    return true;
}

// Tries one name or path (`named`: the override, opened as given, after the
// checks that keep a file from hanging or crashing the loader; `environment`:
// a path in a Python environment found above the executable); true when the
// search is over.
bool attempt(const LibraryInfo &L, const char *name, bool named = false, const char *environment = nullptr) {
    Library &s = *L.state;
    if (is_absolute(name)) {
        if (!named && was_tried(s.tried, name)) return false;
        bool exists = file_exists(name);
        if (!named && !exists) {
            note_tried(s.tried, sizeof s.tried, name, "no such file");
            return false;
        }
        char why[path_size + 2048];
        if (environment && refuse_environment(environment, name, why, sizeof why)) {
            note_tried(s.tried, sizeof s.tried, name, why);
            return false;
        }
        if (exists && !check_file(name, why, sizeof why)) {
            note_tried(s.tried, sizeof s.tried, name, why);
            return false;
        }
        // Dependencies first, from the same directory where it has them,
        // each checked as the library is; one absent there is left to the
        // library's own run path.
        const char *slash = std::strrchr(name, separator);
        for (const char *const *dep = L.preload; *dep && slash; ++dep) {
            char dep_path[path_size];
            format(dep_path, sizeof dep_path, "%.*s%c%s", static_cast<int>(slash - name), name, separator, *dep);
            if (!file_exists(dep_path)) continue;
            // The reason follows this prefix in `why`.
            format(why, sizeof why, "its dependency `%s` could not be loaded: ", dep_path);
            std::size_t used = std::strlen(why);
            char *error = why + used;
            std::size_t room = sizeof why - used;
            bool dep_usable = true;
            if (!check_file(dep_path, error, room))
                dep_usable = false;
            else if (environment && refuse_environment(environment, dep_path, error, room))
                dep_usable = false;
            if (dep_usable) {
                s.attempts.fetch_add(1, std::memory_order_relaxed);
                dep_usable = open_one(dep_path, error, room) != nullptr;
            }
            if (!dep_usable) {
                note_tried(s.tried, sizeof s.tried, name, why);
                return false;
            }
        }
    }
    s.attempts.fetch_add(1, std::memory_order_relaxed);
    char error[1024] = {};
    void *h = open_one(name, error, sizeof error);
    if (!h) {
        note_tried(s.tried, sizeof s.tried, name, error);
        return false;
    }
    return adopt(L, h, name, named, environment);
}

// Tries `dir` + separator + each library name (`environment`: found above
// the executable).
bool attempt_in(const LibraryInfo &L, const char *dir, const char *environment = nullptr) {
    for (const char *const *name = L.names; *name; ++name) {
        char path[path_size];
        format(path, sizeof path, "%s%c%s", dir, separator, *name);
        if (attempt(L, path, false, environment)) return true;
    }
    return false;
}

// An environment variable's value when it is an absolute path, else null.
const char *absolute_env(const char *name) {
    const char *v = std::getenv(name);
    return v && is_absolute(v) ? v : nullptr;
}

#if defined(__linux__) || defined(_WIN32)
// Whether `dir` is a Python environment (a venv's pyvenv.cfg, or conda's
// conda-meta): the only directories above the executable that are searched,
// and of those only the ones nobody else can write (`environment_above`).
bool is_python_environment(const char *dir) {
    char path[path_size];
#ifdef _WIN32
    wchar_t wide[path_size];
    DWORD attributes = INVALID_FILE_ATTRIBUTES;
    format(path, sizeof path, "%s%cpyvenv.cfg", dir, separator);
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) != 0)
        attributes = GetFileAttributesW(wide);
    if (attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY)) return true;
    format(path, sizeof path, "%s%cconda-meta", dir, separator);
    attributes = INVALID_FILE_ATTRIBUTES;
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) != 0)
        attributes = GetFileAttributesW(wide);
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
#else
    struct stat st;
    format(path, sizeof path, "%s%cpyvenv.cfg", dir, separator);
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return true;
    format(path, sizeof path, "%s%cconda-meta", dir, separator);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
#endif
}
#endif

// Tries the wheel directories of each site-packages under `prefix`
// (lib/python3.*/site-packages, or Lib\site-packages); `environment`: the
// prefix was found above the executable.
bool attempt_prefix(const LibraryInfo &L, const char *prefix, const char *environment = nullptr) {
    Library &s = *L.state;
    std::size_t count = 0;
#ifdef _WIN32
    format(s.sites[count++], path_size, "%s\\Lib\\site-packages", prefix);
#else
    char dir_path[path_size];
    format(dir_path, sizeof dir_path, "%s/lib", prefix);
    if (DIR *d = opendir(dir_path)) {
        while (dirent *e = readdir(d)) {
            if (std::strncmp(e->d_name, "python3", 7) != 0 || count == 8) continue;
            format(s.sites[count], path_size, "%s/%s/site-packages", dir_path, e->d_name);
            if (access(s.sites[count], F_OK) == 0) ++count;
        }
        closedir(d);
    }
    // Sorted, so that the order does not depend on the directory's.
    for (std::size_t i = 1; i < count; ++i)
        for (std::size_t j = i; j > 0 && std::strcmp(s.sites[j - 1], s.sites[j]) > 0; --j) {
            char swap[path_size];
            std::memcpy(swap, s.sites[j], path_size);
            std::memcpy(s.sites[j], s.sites[j - 1], path_size);
            std::memcpy(s.sites[j - 1], swap, path_size);
        }
#endif
    for (std::size_t i = 0; i < count; ++i) {
        for (const char *const *wheel = L.wheel_dirs; *wheel; ++wheel) {
            char dir[path_size];
            format(dir, sizeof dir, "%s%c%s", s.sites[i], separator, *wheel);
            if (attempt_in(L, dir, environment)) return true;
        }
    }
    return false;
}

#if defined(__linux__)
// Collects the directories of loaded members of the CUDA family of the
// header's major into the state's `dirs`.
int add_family_dir(dl_phdr_info *info, std::size_t, void *data) {
    const LibraryInfo &L = *static_cast<const LibraryInfo *>(data);
    Library &s = *L.state;
    const char *path = info->dlpi_name;
    if (!path || path[0] != '/' || s.dir_count == 8) return 0;
    const char *file = std::strrchr(path, '/') + 1;
    // The name itself, or a longer version of it (`libcudart.so.13.0.96`).
    for (const char *const *name = L.family; *name; ++name) {
        std::size_t n = std::strlen(*name);
        if (std::strncmp(file, *name, n) != 0 || (file[n] != '\0' && file[n] != '.')) continue;
        char dir[path_size];
        format(dir, sizeof dir, "%.*s", static_cast<int>(file - 1 - path), path);
        for (std::size_t i = 0; i < s.dir_count; ++i)
            if (std::strcmp(s.dirs[i], dir) == 0) return 0;
        format(s.dirs[s.dir_count++], path_size, "%s", dir);
        return 0;
    }
    return 0;
}
#endif

// A copy already loaded in the process was loaded by someone else, by path
// (cuBLAS's loader loads cuBLASLt from its own directory): its file, not the
// bare name that found it, is where it came from, and the system loader
// would not find that name. The same as the Rust runtime's `Loaded::path`.
void adopted_loaded_copy(const LibraryInfo &L, void *h, const char *name) {
    Library &s = *L.state;
    char file[path_size];
    if (s.status == status_ok && library_file(L, h, name, file, sizeof file)) format(s.path, sizeof s.path, "%s", file);
}

// The search for a library installed with a toolkit, conda or pip; the same
// order as the Rust runtime's `candidates`, NVIDIA's own finder's
// (cuda-pathfinder): a copy already loaded, pip wheels, conda, then the
// system loader (LD_LIBRARY_PATH, which is how users choose a copy, and the
// loader cache), and only then the toolkit directories.
bool search_toolkit(const LibraryInfo &L) {
    Library &s = *L.state;
    // A copy already loaded.
    for (const char *const *name = L.names; *name; ++name) {
#ifdef _WIN32
        HMODULE h = nullptr;
        wchar_t wide[path_size];
        if (MultiByteToWideChar(CP_UTF8, 0, *name, -1, wide, static_cast<int>(path_size)) != 0 &&
            GetModuleHandleExW(0, wide, &h) && h) {
            s.attempts.fetch_add(1, std::memory_order_relaxed);
            if (adopt(L, reinterpret_cast<void *>(h), *name, false)) {
                adopted_loaded_copy(L, reinterpret_cast<void *>(h), *name);
                return true;
            }
        }
#else
        if (void *h = dlopen(*name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
            s.attempts.fetch_add(1, std::memory_order_relaxed);
            if (adopt(L, h, *name, false)) {
                adopted_loaded_copy(L, h, *name);
                return true;
            }
        }
#endif
    }
#if defined(__linux__)
    s.dir_count = 0;
    dl_iterate_phdr(add_family_dir, const_cast<LibraryInfo *>(&L));
    for (std::size_t i = 0; i < s.dir_count; ++i)
        if (attempt_in(L, s.dirs[i])) return true;
#endif
    // pip wheels: the virtual environment, conda's, and (on Linux and
    // Windows) the Python environments above the executable that nobody else
    // can write (owners and modes on Linux, owners and ACLs on Windows, where
    // any user may create C:\conda-meta). A program in venv/bin (Windows:
    // venv\Scripts) finds its environment's wheels.
    const char *const prefix_vars[] = {"VIRTUAL_ENV", "CONDA_PREFIX"};
    for (const char *var : prefix_vars)
        if (const char *prefix = absolute_env(var))
            if (attempt_prefix(L, prefix)) return true;
#if defined(__linux__) || defined(_WIN32)
    char unused[256];
    if (program_path(s.exe, sizeof s.exe, unused, sizeof unused)) {
        while (char *slash = std::strrchr(s.exe, separator)) {
            *slash = '\0';
            // At the root, / (or C:\), its separator is kept.
#ifdef _WIN32
            bool at_root = s.exe[0] != '\0' && s.exe[1] == ':' && s.exe[2] == '\0';
#else
            bool at_root = s.exe[0] == '\0';
#endif
            char root[8];
            if (at_root) format(root, sizeof root, "%s%c", s.exe, separator);
            const char *prefix = at_root ? root : s.exe;
            if (is_python_environment(prefix) && attempt_prefix(L, prefix, prefix)) return true;
        }
    }
#endif
    if (const char *conda = absolute_env("CONDA_PREFIX")) {
        char dir[path_size];
        // conda keeps DLLs in Library\bin on Windows.
#ifdef _WIN32
        format(dir, sizeof dir, "%s\\Library\\bin", conda);
#else
        format(dir, sizeof dir, "%s%c%s", conda, separator, lib_dir);
#endif
        if (attempt_in(L, dir)) return true;
    }
    for (const char *const *name = L.names; *name; ++name)
        if (attempt(L, *name)) return true;
    const char *roots[] = {absolute_env("CUDA_HOME"), absolute_env("CUDA_PATH"),
#ifdef _WIN32
                           nullptr};
    const char *subdirs[] = {"bin", "bin\\x64"};
#else
                           "/usr/local/cuda"};
    // After lib64 and lib, the directories of the architecture this program
    // is built for below targets/ (SBSA's or Jetson's for aarch64), which
    // lib64 usually links to, but not in a toolkit unpacked from an archive.
    const char *subdirs[] = {"lib64", "lib",
#if defined(__linux__) && defined(__x86_64__)
                             "targets/x86_64-linux/lib",
#elif defined(__linux__) && defined(__aarch64__)
                             "targets/sbsa-linux/lib", "targets/aarch64-linux/lib",
#elif defined(__linux__) && defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
                             "targets/ppc64le-linux/lib",
#endif
    };
#endif
    for (const char *root : roots) {
        if (!root) continue;
        for (const char *sub : subdirs) {
            char dir[path_size];
            format(dir, sizeof dir, "%s%c%s", root, separator, sub);
            if (attempt_in(L, dir)) return true;
        }
        for (const char *const *sub = L.toolkit_subdirs; *sub; ++sub) {
            char dir[path_size];
            format(dir, sizeof dir, "%s%c%s", root, separator, *sub);
            if (attempt_in(L, dir)) return true;
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

// Opens the library by its own search: the file the override names, or
// else the places searched.
void open_library(const LibraryInfo &L) {
    Library &s = *L.state;
    s.status = status_library_not_found;
    char chosen[path_size] = {};
    lock(s);
    s.started = true;
    format(chosen, sizeof chosen, "%s", s.override_path);
    unlock(s);
    if (!chosen[0]) {
        const char *env = std::getenv(L.override_var);
        switch (library_override(env)) {
            case -1:
                format(s.message, sizeof s.message, "%s=`%s` is not an absolute path; relative paths are refused",
                       L.override_var, env);
                return;
            case 1:
                format(chosen, sizeof chosen, "%s", env);
                break;
            default:
                break;
        }
    }
    s.tried[0] = '\0';
    if (chosen[0]) {
        if (attempt(L, chosen, true)) return;
    } else {
        if (L.toolkit_search) {
            if (search_toolkit(L)) return;
        } else {
            // Installed with the driver: the system loader only.
            for (const char *const *name = L.names; *name; ++name)
                if (attempt(L, *name)) return;
        }
    }
    if (s.status == status_wrong_major) return;
    not_found(L);
}

// The ABI version of the driver's version function (cuDriverGetVersion, one
// ABI since CUDA 2.2), asked for to learn the driver's version.
constexpr unsigned version_function_abi = 2020;

// Notes why the driver could not be taken from the runtime `R` (at `path`).
void no_entry(const LibraryInfo &L, const LibraryInfo &R, const char *path, const char *why) {
    Library &s = *L.state;
    s.status = status_library_not_found;
    format(s.message, sizeof s.message, "the %s at `%s` did not hand out the %s (%s). %s", R.label, path, L.label, why,
           L.install);
}

// The driver `L` as the CUDA runtime `R` hands it out (--resolve
// runtime-entry-point): `R` was found by its own search (a copy already
// loaded first), and `r` is its state (null: a stub was called while it was
// being loaded on the same thread); the driver is never opened here. From a runtime with
// cudaGetDriverEntryPointByVersion (12.5 and later) each function is asked
// for at its ABI version. An older runtime's cudaGetDriverEntryPoint hands out
// each function at the ABI of the runtime's own release, which need not be the
// header's (a 12.2 runtime hands out cuCtxCreate_v3 for `cuCtxCreate`, which a
// 12.9 header binds to cuCtxCreate_v2), so it is asked for the driver's own
// lookup only (cuGetProcAddress, at that release's ABI: v2 from 12.0 on),
// which every function is then bound through. Its arguments follow the
// runtime's version: 3 before 12.0, 4 from 12.0 on; never the 3-argument call
// into a 12.x runtime, which would write its status through garbage.
void open_through(const LibraryInfo &L, const LibraryInfo &R, const Library *r) {
    Library &s = *L.state;
    if (!r || r->status != status_ok) {
        s.status = status_library_not_found;
        format(s.message, sizeof s.message,
               "the %s is reached only through the %s (`--resolve runtime-entry-point`), which could not be used: %s",
               L.label, R.label, r ? r->message : "a stub was called while it was being loaded on the same thread");
        return;
    }
    char runtime[path_size];
    if (!library_file(R, r->handle, r->path, runtime, sizeof runtime)) format(runtime, sizeof runtime, "%s", r->path);
    char why[1024];
    if (void *f = find(r->handle, "cudaGetDriverEntryPointByVersion")) {
        s.proc_by_version = f;
        s.entry_point = "cudaGetDriverEntryPointByVersion";
    } else {
        void *entry = find(r->handle, "cudaGetDriverEntryPoint");
        // A runtime that did not report its version (11.8's answers
        // cudaErrorInsufficientDriver without a driver) is told by the major
        // its file name carries: 11 (whose entry point, where it has one, is
        // 11.3's or later), or 12 and later.
        unsigned version = r->version != 0 ? r->version : R.major == 11 ? 11030u : R.major >= 12 ? R.major * 1000u : 0u;
        const char *name = L.abi_lookup->proc_address_v1;
        if (!entry) {
            no_entry(L, R, runtime,
                     "it exports neither `cudaGetDriverEntryPointByVersion` (12.5 and later) nor "
                     "`cudaGetDriverEntryPoint` (11.3 and later)");
            return;
        }
        if (version < 11030) {
            if (version == 0)
                format(why, sizeof why,
                       "it lacks `cudaGetDriverEntryPointByVersion`, and its version, which tells the arguments of "
                       "its `cudaGetDriverEntryPoint`, is unknown");
            else
                format(why, sizeof why, "it is %s %u.%u, whose `cudaGetDriverEntryPoint` is not known (11.3 and later have one)",
                       R.label, version / 1000, version % 1000 / 10);
            no_entry(L, R, runtime, why);
            return;
        }
        if (!name) {
            no_entry(L, R, runtime, "the library has no lookup by ABI version to ask its `cudaGetDriverEntryPoint` for");
            return;
        }
        void *proc = nullptr;
        int status = 0;
        bool four = version >= 12000;
        int rc = four ? reinterpret_cast<entry_point_4>(entry)(name, &proc, 1u, &status)
                      : reinterpret_cast<entry_point_3>(entry)(name, &proc, 1u);
        if (rc != 0 || status != 0 || !proc) {
            format(why, sizeof why, "its %d-argument `cudaGetDriverEntryPoint` answered %d, status %d, %s for `%s`",
                   four ? 4 : 3, rc, status, proc ? "an address" : "no address", name);
            no_entry(L, R, runtime, why);
            return;
        }
        (four ? s.proc_v2 : s.proc_v1) = proc;
        s.entry_point = "cudaGetDriverEntryPoint";
    }
    // The driver's version, through the lookup just found.
    void *p = nullptr;
    int status = 0, rc = 0;
    const char *function = L.version_function;
    if (s.proc_by_version)
        rc = reinterpret_cast<by_version>(s.proc_by_version)(function, &p, version_function_abi, 1u, &status);
    else if (s.proc_v2)
        rc = reinterpret_cast<get_proc_v2>(s.proc_v2)(function, &p, static_cast<int>(version_function_abi), 1u, &status);
    else
        rc = reinterpret_cast<get_proc_v1>(s.proc_v1)(function, &p, static_cast<int>(version_function_abi), 1u);
    if (rc != 0 || status != 0 || !p) {
        format(why, sizeof why, "%s did not hand out `%s`: it answered %d, status %d", s.entry_point, function, rc,
               status);
        s.proc_by_version = s.proc_v2 = s.proc_v1 = nullptr;
        no_entry(L, R, runtime, why);
        return;
    }
    unsigned version = 0;
    rc = read_version_at(L, p, version);
    // The file the driver's functions live in, as the platform's loader tells.
    char file[path_size];
#ifdef _WIN32
    HMODULE module = nullptr;
    wchar_t wide[path_size];
    DWORD n = 0;
    if (GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                           reinterpret_cast<LPCWSTR>(p), &module))
        n = GetModuleFileNameW(module, wide, static_cast<DWORD>(path_size));
    if (n == 0 || n >= path_size ||
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, file, static_cast<int>(sizeof file), nullptr, nullptr) == 0)
        format(file, sizeof file, "the %s behind `%s`", L.label, runtime);
#else
    Dl_info info;
    if (dladdr(p, &info) != 0 && info.dli_fname && is_absolute(info.dli_fname))
        format(file, sizeof file, "%s", info.dli_fname);
    else
        format(file, sizeof file, "the %s behind `%s`", L.label, runtime);
#endif
    if (L.has_stub && rc == L.codes.stub_library) {
        s.proc_by_version = s.proc_v2 = s.proc_v1 = nullptr;
        s.status = status_stub_library;
        format(s.message, sizeof s.message,
               "`%s` is NVIDIA's stub library, not a %s (%s answered the stub code); remove the toolkit's "
               "lib64/stubs directory from LD_LIBRARY_PATH",
               file, L.short_name, L.version_function);
        return;
    }
    s.version = version;
    s.handle = r->handle;
    format(s.path, sizeof s.path, "%s", file);
    s.status = status_ok;
    format(s.message, sizeof s.message, "loaded `%s` through the %s at `%s` (%s)", file, R.label, runtime,
           s.entry_point);
}

// A library is loaded once and published through an atomic state, not
// std::call_once: a fork() while another thread is loading must not leave the
// child waiting forever for a thread it does not have.
constexpr int state_empty = 0, state_loading = 1, state_ready = 2, state_forked = 3;

#ifndef _WIN32
// Every library that started loading, for the fork handler.
std::atomic<Library *> loading_libraries{nullptr};

// In the child of such a fork the load can never finish; the child gets a
// status instead of a hang (a forked child cannot use CUDA anyway).
void forked_child() {
    for (Library *s = loading_libraries.load(std::memory_order_acquire); s; s = s->next) {
        int expected = state_loading;
        s->load_state.compare_exchange_strong(expected, state_forked);
    }
}

void watch_forks(Library &s) {
    static std::atomic<bool> watching{false};
    if (!watching.exchange(true, std::memory_order_acq_rel)) pthread_atfork(nullptr, nullptr, forked_child);
    if (s.registered.exchange(true, std::memory_order_acq_rel)) return;
    Library *head = loading_libraries.load(std::memory_order_acquire);
    do {
        s.next = head;
    } while (!loading_libraries.compare_exchange_weak(head, &s, std::memory_order_acq_rel));
}
#endif

Library *loaded(const LibraryInfo &L);

// Opens the library on the loading thread: the driver from the CUDA runtime
// that hands it out (--resolve runtime-entry-point), the runtime loaded
// first, or else by its own search.
void load(const LibraryInfo &L) {
    if (L.abi_lookup && L.abi_lookup->runtime)
        open_through(L, *L.abi_lookup->runtime, loaded(*L.abi_lookup->runtime));
    else
        open_library(L);
}

// The loaded library, or null (with the reentrant status noted) when called
// back from the library's own initializer on the loading thread.
Library *loaded(const LibraryInfo &L) {
    Library &s = *L.state;
    for (unsigned spins = 0;; ++spins) {
        int state = s.load_state.load(std::memory_order_acquire);
        if (state == state_ready) return &s;
        if (state == state_forked) {
            // Only this thread exists in the child: nobody else writes `s` here.
            s.status = status_forked_during_load;
            format(s.message, sizeof s.message,
                   "this process was forked while another thread was loading the %s; the child cannot use it",
                   L.label);
            s.load_state.store(state_ready, std::memory_order_release);
            return &s;
        }
        cushim::Thread *thread = L.thread();
        if (state == state_loading && thread->loading) {
            char message[256];
            format(message, sizeof message, "a %s stub was called while the library was being loaded on the same thread",
                   L.label);
            note(L, status_reentrant, message);
            return nullptr;
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
        watch_forks(s);
#endif
        if (s.load_state.compare_exchange_strong(state, state_loading, std::memory_order_acq_rel)) {
            thread->loading = true;
#if defined(__cpp_exceptions) || defined(_CPPUNWIND)
            try {
                load(L);
            } catch (...) {
                // The library threw (from its initializer or its version
                // function) before anything was published: put the state back
                // so that the next call, on any thread, loads again. Compiled
                // without exceptions (a C program's build), nothing can throw here.
                thread->loading = false;
                s.load_state.store(state_empty, std::memory_order_release);
                throw;
            }
#else
            load(L);
#endif
            thread->loading = false;
            s.load_state.store(state_ready, std::memory_order_release);
            return &s;
        }
    }
}

// The stream mode: unset, or a mode; locked once the first stub was bound.
constexpr int mode_unset = 0, mode_legacy = 1, mode_per_thread = 2, mode_locked = 0x10;

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// Whether `value`, without surrounding ASCII whitespace, is one of `words`.
bool one_of(const char *value, const char *const *words) {
    while (is_ascii_space(*value)) ++value;
    std::size_t length = std::strlen(value);
    while (length > 0 && is_ascii_space(value[length - 1])) --length;
    for (; *words; ++words)
        if (std::strlen(*words) == length && std::strncmp(value, *words, length) == 0) return true;
    return false;
}

// The mode a value of the stream variable asks for; mode_unset for any other
// value. The same rule as the Rust runtime's `stream_mode_from_env`.
int stream_mode_from_env(const cushim::Driver &d, const char *value) {
    if (!value) return mode_unset;
    if (one_of(value, d.stream_on)) return mode_per_thread;
    if (one_of(value, d.stream_off)) return mode_legacy;
    return mode_unset;
}

int initial_mode(const cushim::Driver &d) {
    int mode = stream_mode_from_env(d, std::getenv(d.stream_var));
    if (mode != mode_unset) return mode;
    return d.per_thread_by_default ? mode_per_thread : mode_legacy;
}

// Fixes the mode at the first binding and returns it.
int lock_stream_mode(const LibraryInfo &L) {
    std::atomic<int> &stream_mode = L.state->stream_mode;
    int current = stream_mode.load(std::memory_order_acquire);
    for (;;) {
        if (current & mode_locked) return current & ~mode_locked;
        int mode = current == mode_unset ? initial_mode(*L.abi_lookup) : current;
        if (stream_mode.compare_exchange_weak(current, mode | mode_locked, std::memory_order_acq_rel)) return mode;
    }
}

void note_failure(const LibraryInfo &L, std::size_t index) {
    const Function &f = L.functions[index];
    const FunctionState &fs = L.states[index];
    const Library &s = *L.state;
    char message[1024];
    switch (fs.state.load(std::memory_order_acquire)) {
        case too_old:
            format(message, sizeof message, "%s too old: `%s` needs %s %u.%u, %s is %u.%u", L.short_name, f.name,
                   L.product, f.version / 1000, f.version % 1000 / 10, L.short_name, s.version / 1000,
                   s.version % 1000 / 10);
            note(L, status_too_old, message);
            return;
        case version_not_sufficient:
            format(message, sizeof message, "%s too old: %s knows `%s` but not its %s %u.%u ABI (%s is %u.%u)",
                   L.short_name, L.abi_lookup->proc_address_v1, f.name, L.product, f.version / 1000,
                   f.version % 1000 / 10, L.short_name, s.version / 1000, s.version % 1000 / 10);
            note(L, status_version_not_sufficient, message);
            return;
        default: {
            char how[128] = "dlsym, code";
            if (L.abi_lookup && f.version && s.proc_by_version)
                format(how, sizeof how, "%s answered", s.entry_point);
            else if (L.abi_lookup && f.version && (s.proc_v2 || s.proc_v1))
                format(how, sizeof how, "%s answered", L.abi_lookup->proc_address_v1);
            else if (s.entry_point)
                format(how, sizeof how, "no ABI version to ask %s for, code", s.entry_point);
            format(message, sizeof message,
                   "`%s`: the %s does not provide `%s` (%s %d); the %s is older than the header, or does not export every function the header declares", f.name,
                   L.short_name, f.symbol, how, fs.detail.load(std::memory_order_relaxed), L.short_name);
            note(L, status_symbol_not_found, message);
        }
    }
}

// Finds the address for row `index` in the process's stream mode. Never calls
// the library for a function whose ABI is newer than it, never passes NULL or
// flags 0 to its lookup, and never retries with a lower version.
void *lookup(const LibraryInfo &L, std::size_t index, int &state) {
    const Library &s = *L.state;
    const Function *target = &L.functions[index];
    bool per_thread = target->per_thread;
    if (L.abi_lookup && lock_stream_mode(L) == mode_per_thread && !per_thread && target->twin >= 0) {
        // The legacy name in per-thread mode binds the per-thread variant.
        target = &L.functions[target->twin];
        per_thread = true;
    }
    unsigned version = target->version;
    if (version != 0 && s.version != 0 && version > s.version) {
        state = too_old;
        return nullptr;
    }
    unsigned long long flags = per_thread ? 2u : 1u;
    void *p = nullptr;
    if (version != 0 && s.proc_v2) {
        int status = 0;
        int rc = reinterpret_cast<get_proc_v2>(s.proc_v2)(target->proc_name, &p, static_cast<int>(version), flags,
                                                         &status);
        if (rc == 0 && status == 0 && p) return p;
        state = rc == 0 && status == 2 ? version_not_sufficient : missing;
        L.states[index].detail.store(rc != 0 ? rc : status, std::memory_order_relaxed);
        return nullptr;
    }
    if (version != 0 && s.proc_v1) {
        int rc = reinterpret_cast<get_proc_v1>(s.proc_v1)(target->proc_name, &p, static_cast<int>(version), flags);
        if (rc == 0 && p) return p;
        state = missing;
        L.states[index].detail.store(rc, std::memory_order_relaxed);
        return nullptr;
    }
    if (version != 0 && s.proc_by_version) {
        int status = 0;
        int rc = reinterpret_cast<by_version>(s.proc_by_version)(target->proc_name, &p, version, flags, &status);
        if (rc == 0 && status == 0 && p) return p;
        state = status == 2 ? version_not_sufficient : missing;
        L.states[index].detail.store(rc != 0 ? rc : status, std::memory_order_relaxed);
        return nullptr;
    }
    if (s.entry_point) {
        // Reached through the runtime: its handle is never searched for the
        // driver's exports, and a function without an ABI version cannot be asked for.
        state = missing;
        return nullptr;
    }
    p = find(s.handle, target->symbol);
    if (!p) state = missing;
    return p;
}

// The code a stub returns for the failure just noted.
int failure_code(const LibraryInfo &L, const Library *s, std::size_t index) {
    if (!s) return L.codes.library_not_found;  // reentrant
    if (s->status != status_ok) {
        if (s->status == status_stub_library) return L.codes.stub_library;
        if (s->status == status_forked_during_load) return L.codes.not_initialized;
        return L.codes.library_not_found;
    }
    int state = L.states[index].state.load(std::memory_order_acquire);
    return state == too_old || state == version_not_sufficient ? L.codes.too_old : L.codes.symbol_not_found;
}

// The loaded library, or null with the reason noted for this thread's
// last_status and last_message (a library that could not be loaded, or a
// call back from its own initializer).
Library *usable(const LibraryInfo &L) {
    Library *s = loaded(L);
    if (s && s->status != status_ok) {
        note(L, s->status, s->message);
        return nullptr;
    }
    return s;
}

// The address of row `index`, or null with the reason noted.
void *resolve(const LibraryInfo &L, std::size_t index, int *code) {
    FunctionState &fs = L.states[index];
    int state = fs.state.load(std::memory_order_acquire);
    if (state == resolved) return fs.address.load(std::memory_order_relaxed);
    Library *s = loaded(L);
    if (!s || s->status != status_ok) {
        if (s) note(L, s->status, s->message);
        if (code) *code = failure_code(L, s, index);
        return nullptr;
    }
    if (state == unresolved) {
        void *p = lookup(L, index, state);
        if (p) {
            fs.address.store(p, std::memory_order_relaxed);
            fs.state.store(resolved, std::memory_order_release);
            return p;
        }
        fs.state.store(state, std::memory_order_release);
    }
    note_failure(L, index);
    if (code) *code = failure_code(L, s, index);
    return nullptr;
}

void store_slot(void **slot, void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(slot, p, __ATOMIC_RELEASE);
#else
    reinterpret_cast<std::atomic<void *> *>(slot)->store(p, std::memory_order_release);
#endif
}

}  // namespace

extern "C" {

// Kept whole under link-time optimization: assembly binders call it by name.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((used))
#endif
void *cushim_runtime_bind(const LibraryInfo *L, std::size_t index, int *code) {
    void *p = resolve(*L, index, code);
    if (p && L->slots) store_slot(&L->slots[index], p);
    return p;
}

int cushim_runtime_load(const LibraryInfo *L) {
    Library *s = usable(*L);
    return s ? status_ok : L->thread()->status;
}

int cushim_runtime_last_status(const LibraryInfo *L) { return L->thread()->status; }

const char *cushim_runtime_last_message(const LibraryInfo *L) { return L->thread()->message; }

int cushim_runtime_function_status(const LibraryInfo *L, const char *name) {
    for (const cushim::Alias *a = L->aliases; a->name; ++a)
        if (std::strcmp(a->name, name) == 0) name = a->symbol;
    for (std::size_t i = 0; i < L->count; ++i) {
        const Function &f = L->functions[i];
        if (std::strcmp(f.name, name) == 0 || std::strcmp(f.symbol, name) == 0) {
            if (f.elsewhere) break;
            if (cushim_runtime_bind(L, i, nullptr)) return status_ok;
            return L->thread()->status;
        }
    }
    char message[1024];
    format(message, sizeof message, "`%s` is not a function of this header on this system", name);
    note(*L, status_symbol_not_found, message);
    return status_symbol_not_found;
}

int cushim_runtime_set_library_path(const LibraryInfo *L, const char *absolute_path) {
    if (!absolute_path || !is_absolute(absolute_path)) return -1;
    Library &s = *L->state;
    int result = 0;
    lock(s);
    if (s.started)
        result = -2;
    else if (std::strlen(absolute_path) >= sizeof s.override_path)
        result = -1;
    else
        format(s.override_path, sizeof s.override_path, "%s", absolute_path);
    unlock(s);
    return result;
}

std::size_t cushim_runtime_resolve_all(const LibraryInfo *L, const char **missing, std::size_t capacity) {
    if (!usable(*L)) return static_cast<std::size_t>(-1);
    std::size_t count = 0;
    for (std::size_t i = 0; i < L->count; ++i) {
        if (L->functions[i].elsewhere) continue;
        if (cushim_runtime_bind(L, i, nullptr)) continue;
        if (missing && count < capacity) missing[count] = L->functions[i].symbol;
        ++count;
    }
    return count;
}

unsigned cushim_runtime_library_version(const LibraryInfo *L) {
    Library *s = usable(*L);
    return s ? s->version : 0u;
}

const char *cushim_runtime_library_path(const LibraryInfo *L) {
    Library *s = usable(*L);
    return s ? s->path : nullptr;
}

unsigned cushim_runtime_library_open_attempts(const LibraryInfo *L) {
    unsigned attempts = L->state->attempts.load(std::memory_order_relaxed);
    // Reached through the CUDA runtime: the loader's calls were the runtime's search.
    if (L->abi_lookup && L->abi_lookup->runtime) attempts += L->abi_lookup->runtime->state->attempts.load(std::memory_order_relaxed);
    return attempts;
}

int cushim_runtime_set_stream_mode(const LibraryInfo *L, int per_thread) {
    if (!L->abi_lookup) return -1;
    std::atomic<int> &stream_mode = L->state->stream_mode;
    int mode = per_thread ? mode_per_thread : mode_legacy;
    int current = stream_mode.load(std::memory_order_acquire);
    while (!(current & mode_locked)) {
        if (stream_mode.compare_exchange_weak(current, mode, std::memory_order_acq_rel)) return 0;
    }
    char message[256];
    format(message, sizeof message, "the stream mode must be set before the first CUDA call; it stays %s",
           (current & ~mode_locked) == mode_per_thread ? "per-thread" : "legacy");
    note(*L, status_ok, message);
    return -2;
}

int cushim_runtime_stream_mode(const LibraryInfo *L) {
    if (!L->abi_lookup) return 0;
    int current = L->state->stream_mode.load(std::memory_order_acquire) & ~mode_locked;
    if (current == mode_unset) current = initial_mode(*L->abi_lookup);
    return current == mode_per_thread;
}

// Why the stream variable is ignored, or null: the same rule and words as
// the Rust runtime's `stream_mode_warning`.
const char *cushim_runtime_stream_mode_warning(const LibraryInfo *L) {
    if (!L->abi_lookup) return nullptr;
    const cushim::Driver &d = *L->abi_lookup;
    const char *value = std::getenv(d.stream_var);
    if (!value || stream_mode_from_env(d, value) != mode_unset) return nullptr;
    char on[64] = {}, off[64] = {};
    for (const char *const *word = d.stream_on; *word; ++word)
        append(on, sizeof on, on[0] ? "/" : ""), append(on, sizeof on, *word);
    for (const char *const *word = d.stream_off; *word; ++word)
        append(off, sizeof off, off[0] ? "/" : ""), append(off, sizeof off, *word);
    char *warning = L->thread()->warning;
    format(warning, sizeof L->thread()->warning,
           "%s=`%s` is ignored: it is none of %s (per-thread) and %s (legacy); the %s default stream is used",
           d.stream_var, value, on, off, d.per_thread_by_default ? "per-thread" : "legacy");
    return warning;
}

int cushim_runtime_status_name(const LibraryInfo *L, int code, const char **out) {
    if (!out) return 0;
    for (std::size_t i = 0; i < L->status_count; ++i) {
        if (L->statuses[i].code == code) {
            *out = L->statuses[i].name;
            return 1;
        }
    }
    *out = nullptr;
    return 0;
}

const char *cushim_runtime_returned_name(const LibraryInfo *L, int code) {
    const char *out = nullptr;
    if (cushim_runtime_status_name(L, code, &out)) return out;
    return "unrecognized status";
}

unsigned long long cushim_runtime_answer(const LibraryInfo *L, unsigned answer, int code,
                                         const unsigned long long *args) {
    // A status is a 32-bit enum: the register's upper half stays zero, as
    // the C++ stubs' return of it leaves it.
    auto status = [](int value) { return static_cast<unsigned long long>(static_cast<unsigned>(value)); };
    const int argument = static_cast<int>(args[0]);
    switch (answer) {
    case CUSHIM_ANSWER_code:
        return status(code);
    case CUSHIM_ANSWER_name:
        return reinterpret_cast<std::uintptr_t>(cushim_runtime_returned_name(L, argument));
    case CUSHIM_ANSWER_out_name: {
        const char **out = reinterpret_cast<const char **>(static_cast<std::uintptr_t>(args[1]));
        int known = cushim_runtime_status_name(L, argument, out);
        return status(known ? L->codes.success : L->codes.invalid_value);
    }
    default: // CUSHIM_ANSWER_zero
        return 0;
    }
}

int cushim_runtime_stream_value(const LibraryInfo *L, const char *value) {
    return L->abi_lookup ? stream_mode_from_env(*L->abi_lookup, value) : mode_unset;
}

int cushim_runtime_override_value(const char *value) { return library_override(value); }

}  // extern "C"
