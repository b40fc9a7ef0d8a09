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

// The runtime's shape; a pair takes its address, so a pair and a runtime of
// other shapes fail to link instead of misreading each other.
#define CUSHIM_RUNTIME_ABI cushim_runtime_abi_10

extern "C" {

extern const int CUSHIM_RUNTIME_ABI CUSHIM_HIDDEN;

// The address of function `index`, bound now if it was not, and stored in its
// slot; or null, with the failure noted and `*code` set to the status a stub
// returns.
void *cushim_runtime_bind(const cushim::LibraryInfo *library, std::size_t index, int *code) CUSHIM_HIDDEN;

// The C status API of every pair, by description.
int cushim_runtime_load(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
int cushim_runtime_last_status(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
const char *cushim_runtime_last_message(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
int cushim_runtime_function_status(const cushim::LibraryInfo *library, const char *name) CUSHIM_HIDDEN;
int cushim_runtime_set_library_path(const cushim::LibraryInfo *library, const char *absolute_path) CUSHIM_HIDDEN;
std::size_t cushim_runtime_resolve_all(const cushim::LibraryInfo *library, const char **missing,
                                       std::size_t capacity) CUSHIM_HIDDEN;
unsigned cushim_runtime_library_version(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
const char *cushim_runtime_library_path(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
unsigned cushim_runtime_library_open_attempts(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;

// The driver's stream mode (a library without `driver` answers -1, 0, null).
int cushim_runtime_set_stream_mode(const cushim::LibraryInfo *library, int per_thread) CUSHIM_HIDDEN;
int cushim_runtime_stream_mode(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
const char *cushim_runtime_stream_mode_warning(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;

// Stores the C name of status `code` in `*out`; 1 when the code is known,
// else 0 (and `*out` null).
int cushim_runtime_status_name(const cushim::LibraryInfo *library, int code, const char **out) CUSHIM_HIDDEN;
// The C name of `code`, never null.
const char *cushim_runtime_returned_name(const cushim::LibraryInfo *library, int code) CUSHIM_HIDDEN;
// What an assembly stub returns when its binding failed, in the integer
// return register: by `answer` (CUSHIM_ANSWER_*), the runtime's `code`, zero,
// or a fallback's answer from the call's first two integer arguments
// (`args[0]`, `args[1]`).
unsigned long long cushim_runtime_answer(const cushim::LibraryInfo *library, unsigned answer, int code,
                                         const unsigned long long *args) CUSHIM_HIDDEN;

// The rules of the variables, for tests: the stream mode a value asks for (0
// none, 1 legacy, 2 per-thread) and what an override value asks for (0 search,
// 1 open it, -1 refused).
int cushim_runtime_stream_value(const cushim::LibraryInfo *library, const char *value) CUSHIM_HIDDEN;
int cushim_runtime_override_value(const char *value) CUSHIM_HIDDEN;

}  // extern "C"

// The binders run once per stub (and on every failed call): compiled
// unoptimized, which halves a pair's compile time and costs nothing on the
// hot path, which never enters them.
#if defined(__clang__)
#define CUSHIM_COLD __attribute__((cold, noinline, optnone))
#elif defined(__GNUC__)
#define CUSHIM_COLD __attribute__((cold, noinline, optimize("O0")))
#else
#define CUSHIM_COLD
#endif

// One invocation per stub, in a pair that defines `cushim_this` (its
// description), CUSHIM_SLOTS (its slot table) and CUSHIM_CALL. The slot starts at the
// binder, which asks the runtime for the address (the runtime stores it in
// the slot) and forwards the call, or answers ABSENT; from then on a call is
// one atomic load and one indirect call. A failed binding leaves the slot at
// the binder, so that every failed call notes why.
#define CUSHIM_STUB(RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)                       \
    typedef RET(CUSHIM_CALL *cushim_type_##SYMBOL) PARAMS;                                       \
    CUSHIM_COLD static RET CUSHIM_CALL cushim_bind_##SYMBOL PARAMS CUSHIM_BINDER_LABEL(SYMBOL);  \
    CUSHIM_COLD static RET CUSHIM_CALL cushim_bind_##SYMBOL PARAMS {                             \
        int cushim_code = 0;                                                                     \
        if (void *cushim_address = cushim_runtime_bind(&cushim_this, INDEX, &cushim_code))       \
            return reinterpret_cast<cushim_type_##SYMBOL>(cushim_address) ARGS;                  \
        return ABSENT;                                                                           \
    }                                                                                            \
    CHECK(SYMBOL, cushim_type_##SYMBOL)                                                          \
    extern "C" CUSHIM_EXPORT RET CUSHIM_CALL EXPORT PARAMS {                                     \
        return reinterpret_cast<cushim_type_##SYMBOL>(CUSHIM_SLOT(CUSHIM_SLOTS[INDEX])) ARGS;        \
    }

// A stub's first slot value: its binder.
#define CUSHIM_BINDER(SYMBOL) reinterpret_cast<void *>(&cushim_bind_##SYMBOL)

// Per-thread variants are not declared by the header in legacy mode: unchecked.
#define CUSHIM_UNCHECKED(SYMBOL, TYPE)
#define CUSHIM_UNCHECKED_ASM(SYMBOL, TYPE)
// An assembly stub's check: the header's declaration of SYMBOL (or the one of
// its overloads) has exactly the stub's type.
#define CUSHIM_CHECKED_ASM(SYMBOL, TYPE) [[maybe_unused]] constexpr TYPE cushim_check_##SYMBOL = &SYMBOL;

#define CUSHIM_STR_(X) #X
#define CUSHIM_STR(X) CUSHIM_STR_(X)

// Stubs in assembly where cushim has a trampoline for the platform (one
// section below per architecture and object format), with GCC or Clang
// (define CUSHIM_NO_ASM_STUBS to keep C++ stubs there too). A stub of a
// function that returns its status, an integer, a pointer or nothing is then
// one jump through its slot, which costs the compiler next to nothing;
// elsewhere, and for other functions, the stub is CUSHIM_STUB's C++. The pair
// defines CUSHIM_API (its C API's prefix, `cushim_cublas`), which names its
// assembly symbols: the slot table `<api>_slots` (each row
// `<api>_slot_<symbol>`), `<api>_self` (a pointer to `cushim_this`) and the
// binders below. A platform's section defines CUSHIM_ASM_STUBS,
// CUSHIM_ASM_LANDING (what an export and a thunk start with, as text),
// CUSHIM_FAST_STUB (one stub) and CUSHIM_ASM_BINDERS (the pair's binder).

// What an assembly stub answers without the library (its ANSWER), which its
// thunk adds to the slot's address (aligned to 8) for the binder: the
// runtime's code, zero, the returned C name of the status in the first
// argument (nvrtcGetErrorString), or that name stored through the second
// argument with the success or invalid-value code (cuGetErrorString).
// cushim_runtime_answer reads the same numbers.
#define CUSHIM_ANSWER_code 0
#define CUSHIM_ANSWER_zero 1
#define CUSHIM_ANSWER_name 2
#define CUSHIM_ANSWER_out_name 3

#if (defined(__GNUC__) || defined(__clang__)) && !defined(CUSHIM_NO_ASM_STUBS)
#if defined(__x86_64__) && !defined(__ILP32__) && defined(__ELF__)
// x86-64 ELF (cushim's src/runtime/cpp/arch/x86_64-elf.S).
#define CUSHIM_ASM_STUBS 1

// Where indirect branches must land on `endbr64` (-fcf-protection=branch),
// the export and the thunk start with one.
#if defined(__CET__) && (__CET__ & 1)
#define CUSHIM_ASM_LANDING "\tendbr64\n"
#else
#define CUSHIM_ASM_LANDING ""
#endif

// One stub: the export jumps through its slot, which starts at the stub's
// thunk; the thunk hands the slot's address, tagged with the stub's answer,
// to the pair's binder.
#define CUSHIM_FAST_STUB(ANSWER, RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)       \
    CUSHIM_SIGNATURE(RET, SYMBOL, PARAMS, CHECK)                                                \
    __asm__(".pushsection .text\n"                                                              \
            ".globl " CUSHIM_STR(EXPORT) "\n"                                                   \
            ".type " CUSHIM_STR(EXPORT) ", @function\n"                                         \
            ".p2align 4\n"                                                                      \
            CUSHIM_STR(EXPORT) ":\n"                                                            \
            CUSHIM_ASM_LANDING                                                                  \
            "\tjmp *" CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL "(%rip)\n"                        \
            ".size " CUSHIM_STR(EXPORT) ", .-" CUSHIM_STR(EXPORT) "\n"                          \
            CUSHIM_STR(CUSHIM_API) "_thunk_" #SYMBOL ":\n"                                      \
            CUSHIM_ASM_LANDING                                                                  \
            "\tlea " CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL "+" CUSHIM_STR(CUSHIM_ANSWER_##ANSWER) "(%rip), %r11\n" \
            "\tjmp " CUSHIM_STR(CUSHIM_API) "_bind\n"                                           \
            ".popsection\n");

// The pair's binder, `<api>_bind`, entered from a thunk with the tagged
// slot address in r11, every argument register as the caller left it and
// the stack as at the export's entry. It saves the argument registers, asks
// cushim_runtime_bind for the row's address (the runtime stores it in the
// slot) and jumps there with the registers restored; without one, it returns
// cushim_runtime_answer's value (and a zero float). A failed binding leaves
// the slot at the thunk, so that every failed call notes why.
#define CUSHIM_ASM_BINDERS                                                                      \
    __asm__(".pushsection .text\n"                                                              \
            ".p2align 4\n"                                                                      \
            CUSHIM_STR(CUSHIM_API) "_bind:\n"                                                   \
            "\t.cfi_startproc\n"                                                                \
            "\tpush %rbp\n"                                                                     \
            "\t.cfi_def_cfa_offset 16\n"                                                        \
            "\t.cfi_offset %rbp, -16\n"                                                         \
            "\tmov %rsp, %rbp\n"                                                                \
            "\t.cfi_def_cfa_register %rbp\n"                                                    \
            "\tsub $208, %rsp\n"                                                                \
            "\tmov %rdi, 0(%rsp)\n"                                                             \
            "\tmov %rsi, 8(%rsp)\n"                                                             \
            "\tmov %rdx, 16(%rsp)\n"                                                            \
            "\tmov %rcx, 24(%rsp)\n"                                                            \
            "\tmov %r8, 32(%rsp)\n"                                                             \
            "\tmov %r9, 40(%rsp)\n"                                                             \
            "\tmov %rax, 48(%rsp)\n"                                                            \
            "\tmov %r11, 56(%rsp)\n"                                                            \
            "\tmovaps %xmm0, 64(%rsp)\n"                                                        \
            "\tmovaps %xmm1, 80(%rsp)\n"                                                        \
            "\tmovaps %xmm2, 96(%rsp)\n"                                                        \
            "\tmovaps %xmm3, 112(%rsp)\n"                                                       \
            "\tmovaps %xmm4, 128(%rsp)\n"                                                       \
            "\tmovaps %xmm5, 144(%rsp)\n"                                                       \
            "\tmovaps %xmm6, 160(%rsp)\n"                                                       \
            "\tmovaps %xmm7, 176(%rsp)\n"                                                       \
            "\tmovl $0, 192(%rsp)\n"                                                            \
            "\tmov " CUSHIM_STR(CUSHIM_API) "_self(%rip), %rdi\n"                               \
            "\tmov %r11, %rsi\n"                                                                \
            "\tand $-8, %rsi\n"                                                                 \
            "\tlea " CUSHIM_STR(CUSHIM_API) "_slots(%rip), %rax\n"                              \
            "\tsub %rax, %rsi\n"                                                                \
            "\tshr $3, %rsi\n"                                                                  \
            "\tlea 192(%rsp), %rdx\n"                                                           \
            "\tcall cushim_runtime_bind\n"                                                      \
            "\ttest %rax, %rax\n"                                                               \
            "\tjz 1f\n"                                                                         \
            "\tmov %rax, %r11\n"                                                                \
            "\tmov 0(%rsp), %rdi\n"                                                             \
            "\tmov 8(%rsp), %rsi\n"                                                             \
            "\tmov 16(%rsp), %rdx\n"                                                            \
            "\tmov 24(%rsp), %rcx\n"                                                            \
            "\tmov 32(%rsp), %r8\n"                                                             \
            "\tmov 40(%rsp), %r9\n"                                                             \
            "\tmov 48(%rsp), %rax\n"                                                            \
            "\tmovaps 64(%rsp), %xmm0\n"                                                        \
            "\tmovaps 80(%rsp), %xmm1\n"                                                        \
            "\tmovaps 96(%rsp), %xmm2\n"                                                        \
            "\tmovaps 112(%rsp), %xmm3\n"                                                       \
            "\tmovaps 128(%rsp), %xmm4\n"                                                       \
            "\tmovaps 144(%rsp), %xmm5\n"                                                       \
            "\tmovaps 160(%rsp), %xmm6\n"                                                       \
            "\tmovaps 176(%rsp), %xmm7\n"                                                       \
            "\t.cfi_remember_state\n"                                                           \
            "\tleave\n"                                                                         \
            "\t.cfi_def_cfa %rsp, 8\n"                                                          \
            "\tjmp *%r11\n"                                                                     \
            "\t.cfi_restore_state\n"                                                            \
            "1:\n"                                                                              \
            "\tmov " CUSHIM_STR(CUSHIM_API) "_self(%rip), %rdi\n"                               \
            "\tmov 56(%rsp), %rsi\n"                                                            \
            "\tand $7, %esi\n"                                                                  \
            "\tmovl 192(%rsp), %edx\n"                                                          \
            "\tmov %rsp, %rcx\n"                                                                \
            "\tcall cushim_runtime_answer\n"                                                    \
            "\tpxor %xmm0, %xmm0\n"                                                             \
            "\tleave\n"                                                                         \
            "\t.cfi_def_cfa %rsp, 8\n"                                                          \
            "\tret\n"                                                                           \
            "\t.cfi_endproc\n"                                                                  \
            ".popsection\n");

// The slot table's start, in the data section: its symbol, then the rows.
#define CUSHIM_ASM_TABLE                                                                        \
    ".pushsection .data\n"                                                                      \
    ".p2align 3\n"                                                                              \
    ".globl " CUSHIM_STR(CUSHIM_API) "_slots\n"                                                 \
    ".hidden " CUSHIM_STR(CUSHIM_API) "_slots\n"                                                \
    CUSHIM_STR(CUSHIM_API) "_slots:\n"

// The slot table's end: back to the section before it.
#define CUSHIM_ASM_TABLE_END                                                                    \
    ".popsection\n"
#elif defined(__aarch64__) && !defined(__ILP32__) && defined(__ELF__)
// aarch64 ELF (cushim's src/runtime/cpp/arch/aarch64-elf.S).
#define CUSHIM_ASM_STUBS 1

// Where indirect branches must land on `bti` (-mbranch-protection=bti or
// standard), the export and the thunk start with `bti c`, which a call
// through a register and a jump through x16 or x17 may land on.
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define CUSHIM_ASM_LANDING "\tbti c\n"
#else
#define CUSHIM_ASM_LANDING ""
#endif

// One stub: the export loads its slot with acquire semantics (as the C++
// stubs do: the runtime stores a bound address with release semantics) and
// jumps there through x16, which a function that starts with `bti c` admits.
// The slot starts at the stub's thunk, which hands the slot's address, tagged
// with the stub's answer, to the pair's binder in x9.
#define CUSHIM_FAST_STUB(ANSWER, RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)       \
    CUSHIM_SIGNATURE(RET, SYMBOL, PARAMS, CHECK)                                                \
    __asm__(".pushsection .text\n"                                                              \
            ".globl " CUSHIM_STR(EXPORT) "\n"                                                   \
            ".type " CUSHIM_STR(EXPORT) ", %function\n"                                         \
            ".p2align 4\n"                                                                      \
            CUSHIM_STR(EXPORT) ":\n"                                                            \
            CUSHIM_ASM_LANDING                                                                  \
            "\tadrp x16, " CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL "\n"                         \
            "\tadd x16, x16, :lo12:" CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL "\n"               \
            "\tldar x16, [x16]\n"                                                               \
            "\tbr x16\n"                                                                        \
            ".size " CUSHIM_STR(EXPORT) ", .-" CUSHIM_STR(EXPORT) "\n"                          \
            CUSHIM_STR(CUSHIM_API) "_thunk_" #SYMBOL ":\n"                                      \
            CUSHIM_ASM_LANDING                                                                  \
            "\tadrp x9, " CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL "+" CUSHIM_STR(CUSHIM_ANSWER_##ANSWER) "\n" \
            "\tadd x9, x9, :lo12:" CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL "+" CUSHIM_STR(CUSHIM_ANSWER_##ANSWER) "\n" \
            "\tb " CUSHIM_STR(CUSHIM_API) "_bind\n"                                             \
            ".popsection\n");

// The pair's binder, `<api>_bind`, entered from a thunk with the tagged
// slot address in x9, every argument register as the caller left it and
// the stack as at the export's entry. It saves the argument registers, asks
// cushim_runtime_bind for the row's address (the runtime stores it in the
// slot) and jumps there with the registers restored; without one, it returns
// cushim_runtime_answer's value (and a zero float). A failed binding leaves
// the slot at the thunk, so that every failed call notes why. The return
// address it keeps on the stack is signed (`paciasp`, `autiasp`: no-ops
// where the processor lacks pointer authentication).
#define CUSHIM_ASM_BINDERS                                                                      \
    __asm__(".pushsection .text\n"                                                              \
            ".p2align 4\n"                                                                      \
            CUSHIM_STR(CUSHIM_API) "_bind:\n"                                                   \
            "\t.cfi_startproc\n"                                                                \
            "\thint #25 // paciasp\n"                                                           \
            "\t.cfi_negate_ra_state\n"                                                          \
            "\tstp x29, x30, [sp, #-240]!\n"                                                    \
            "\t.cfi_def_cfa_offset 240\n"                                                       \
            "\t.cfi_offset x29, -240\n"                                                         \
            "\t.cfi_offset x30, -232\n"                                                         \
            "\tmov x29, sp\n"                                                                   \
            "\tstp x0, x1, [sp, #16]\n"                                                         \
            "\tstp x2, x3, [sp, #32]\n"                                                         \
            "\tstp x4, x5, [sp, #48]\n"                                                         \
            "\tstp x6, x7, [sp, #64]\n"                                                         \
            "\tstp x8, x9, [sp, #80]\n"                                                         \
            "\tstp q0, q1, [sp, #96]\n"                                                         \
            "\tstp q2, q3, [sp, #128]\n"                                                        \
            "\tstp q4, q5, [sp, #160]\n"                                                        \
            "\tstp q6, q7, [sp, #192]\n"                                                        \
            "\tstr wzr, [sp, #224]\n"                                                           \
            "\tadrp x0, " CUSHIM_STR(CUSHIM_API) "_self\n"                                      \
            "\tldr x0, [x0, :lo12:" CUSHIM_STR(CUSHIM_API) "_self]\n"                           \
            "\tand x1, x9, #-8\n"                                                               \
            "\tadrp x2, " CUSHIM_STR(CUSHIM_API) "_slots\n"                                     \
            "\tadd x2, x2, :lo12:" CUSHIM_STR(CUSHIM_API) "_slots\n"                            \
            "\tsub x1, x1, x2\n"                                                                \
            "\tlsr x1, x1, #3\n"                                                                \
            "\tadd x2, sp, #224\n"                                                              \
            "\tbl cushim_runtime_bind\n"                                                        \
            "\tcbz x0, 1f\n"                                                                    \
            "\tmov x16, x0\n"                                                                   \
            "\tldp x0, x1, [sp, #16]\n"                                                         \
            "\tldp x2, x3, [sp, #32]\n"                                                         \
            "\tldp x4, x5, [sp, #48]\n"                                                         \
            "\tldp x6, x7, [sp, #64]\n"                                                         \
            "\tldr x8, [sp, #80]\n"                                                             \
            "\tldp q0, q1, [sp, #96]\n"                                                         \
            "\tldp q2, q3, [sp, #128]\n"                                                        \
            "\tldp q4, q5, [sp, #160]\n"                                                        \
            "\tldp q6, q7, [sp, #192]\n"                                                        \
            "\t.cfi_remember_state\n"                                                           \
            "\tldp x29, x30, [sp], #240\n"                                                      \
            "\t.cfi_restore x29\n"                                                              \
            "\t.cfi_restore x30\n"                                                              \
            "\t.cfi_def_cfa_offset 0\n"                                                         \
            "\thint #29 // autiasp\n"                                                           \
            "\t.cfi_negate_ra_state\n"                                                          \
            "\tbr x16\n"                                                                        \
            "\t.cfi_restore_state\n"                                                            \
            "1:\n"                                                                              \
            "\tadrp x0, " CUSHIM_STR(CUSHIM_API) "_self\n"                                      \
            "\tldr x0, [x0, :lo12:" CUSHIM_STR(CUSHIM_API) "_self]\n"                           \
            "\tldr x1, [sp, #88]\n"                                                             \
            "\tand x1, x1, #7\n"                                                                \
            "\tldr w2, [sp, #224]\n"                                                            \
            "\tadd x3, sp, #16\n"                                                               \
            "\tbl cushim_runtime_answer\n"                                                      \
            "\tmovi v0.2d, #0\n"                                                                \
            "\tldp x29, x30, [sp], #240\n"                                                      \
            "\t.cfi_restore x29\n"                                                              \
            "\t.cfi_restore x30\n"                                                              \
            "\t.cfi_def_cfa_offset 0\n"                                                         \
            "\thint #29 // autiasp\n"                                                           \
            "\t.cfi_negate_ra_state\n"                                                          \
            "\tret\n"                                                                           \
            "\t.cfi_endproc\n"                                                                  \
            ".popsection\n");

// The slot table's start, in the data section: its symbol, then the rows.
#define CUSHIM_ASM_TABLE                                                                        \
    ".pushsection .data\n"                                                                      \
    ".p2align 3\n"                                                                              \
    ".globl " CUSHIM_STR(CUSHIM_API) "_slots\n"                                                 \
    ".hidden " CUSHIM_STR(CUSHIM_API) "_slots\n"                                                \
    CUSHIM_STR(CUSHIM_API) "_slots:\n"

// The slot table's end: back to the section before it.
#define CUSHIM_ASM_TABLE_END                                                                    \
    ".popsection\n"
#elif defined(__x86_64__) && defined(_WIN32)
// x86-64 COFF (cushim's src/runtime/cpp/arch/x86_64-coff.S).
#define CUSHIM_ASM_STUBS 1

#define CUSHIM_ASM_LANDING ""

// One stub: the export jumps through its slot, which starts at the stub's
// thunk; the thunk hands the slot's address, tagged with the stub's answer,
// to the pair's binder. Neither moves the stack: Windows unwinds them as
// leaf functions, without unwind data.
#define CUSHIM_FAST_STUB(ANSWER, RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)       \
    CUSHIM_SIGNATURE(RET, SYMBOL, PARAMS, CHECK)                                                \
    __asm__(".text\n"                                                                           \
            ".globl " CUSHIM_STR(EXPORT) "\n"                                                   \
            ".def " CUSHIM_STR(EXPORT) "; .scl 2; .type 32; .endef\n"                           \
            ".p2align 4\n"                                                                      \
            CUSHIM_STR(EXPORT) ":\n"                                                            \
            "\tjmp *" CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL "(%rip)\n"                        \
            CUSHIM_STR(CUSHIM_API) "_thunk_" #SYMBOL ":\n"                                      \
            "\tlea " CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL "+" CUSHIM_STR(CUSHIM_ANSWER_##ANSWER) "(%rip), %r11\n" \
            "\tjmp " CUSHIM_STR(CUSHIM_API) "_bind\n");

// The pair's binder, `<api>_bind`, entered from a thunk with the tagged
// slot address in r11, every argument register as the caller left it and
// the stack as at the export's entry (the caller's arguments past the fourth
// above its shadow space, untouched here). It saves the argument registers,
// asks cushim_runtime_bind for the row's address (the runtime stores it in
// the slot) and jumps there with the registers and the stack restored;
// without one, it returns cushim_runtime_answer's value in rax (and a zero
// in xmm0). A failed binding leaves the slot at the thunk, so that every
// failed call notes why.
#define CUSHIM_ASM_BINDERS                                                                      \
    __asm__(".text\n"                                                                           \
            ".def " CUSHIM_STR(CUSHIM_API) "_bind; .scl 3; .type 32; .endef\n"                  \
            ".p2align 4\n"                                                                      \
            CUSHIM_STR(CUSHIM_API) "_bind:\n"                                                   \
            "\t.seh_proc " CUSHIM_STR(CUSHIM_API) "_bind\n"                                     \
            "\tsub $152, %rsp\n"                                                                \
            "\t.seh_stackalloc 152\n"                                                           \
            "\t.seh_endprologue\n"                                                              \
            "\tmov %rcx, 32(%rsp)\n"                                                            \
            "\tmov %rdx, 40(%rsp)\n"                                                            \
            "\tmov %r8, 48(%rsp)\n"                                                             \
            "\tmov %r9, 56(%rsp)\n"                                                             \
            "\tmov %r11, 64(%rsp)\n"                                                            \
            "\tmovl $0, 72(%rsp)\n"                                                             \
            "\tmovaps %xmm0, 80(%rsp)\n"                                                        \
            "\tmovaps %xmm1, 96(%rsp)\n"                                                        \
            "\tmovaps %xmm2, 112(%rsp)\n"                                                       \
            "\tmovaps %xmm3, 128(%rsp)\n"                                                       \
            "\tmov " CUSHIM_STR(CUSHIM_API) "_self(%rip), %rcx\n"                               \
            "\tmov %r11, %rdx\n"                                                                \
            "\tand $-8, %rdx\n"                                                                 \
            "\tlea " CUSHIM_STR(CUSHIM_API) "_slots(%rip), %rax\n"                              \
            "\tsub %rax, %rdx\n"                                                                \
            "\tshr $3, %rdx\n"                                                                  \
            "\tlea 72(%rsp), %r8\n"                                                             \
            "\tcall cushim_runtime_bind\n"                                                      \
            "\ttest %rax, %rax\n"                                                               \
            "\tjz 1f\n"                                                                         \
            "\tmov 32(%rsp), %rcx\n"                                                            \
            "\tmov 40(%rsp), %rdx\n"                                                            \
            "\tmov 48(%rsp), %r8\n"                                                             \
            "\tmov 56(%rsp), %r9\n"                                                             \
            "\tmovaps 80(%rsp), %xmm0\n"                                                        \
            "\tmovaps 96(%rsp), %xmm1\n"                                                        \
            "\tmovaps 112(%rsp), %xmm2\n"                                                       \
            "\tmovaps 128(%rsp), %xmm3\n"                                                       \
            "\tadd $152, %rsp\n"                                                                \
            "\trex.W jmp *%rax\n"                                                               \
            "1:\n"                                                                              \
            "\tmov " CUSHIM_STR(CUSHIM_API) "_self(%rip), %rcx\n"                               \
            "\tmov 64(%rsp), %rdx\n"                                                            \
            "\tand $7, %edx\n"                                                                  \
            "\tmovl 72(%rsp), %r8d\n"                                                           \
            "\tlea 32(%rsp), %r9\n"                                                             \
            "\tcall cushim_runtime_answer\n"                                                    \
            "\tpxor %xmm0, %xmm0\n"                                                             \
            "\tadd $152, %rsp\n"                                                                \
            "\tret\n"                                                                           \
            "\t.seh_endproc\n");

// The slot table's start, in the data section: its symbol, then the rows.
#define CUSHIM_ASM_TABLE                                                                        \
    ".data\n"                                                                                   \
    ".p2align 3\n"                                                                              \
    ".globl " CUSHIM_STR(CUSHIM_API) "_slots\n"                                                 \
    CUSHIM_STR(CUSHIM_API) "_slots:\n"

// The slot table's end: back to `.text`.
#define CUSHIM_ASM_TABLE_END                                                                    \
    ".text\n"
#endif
#endif

#ifdef CUSHIM_ASM_STUBS
// A C++ binder's name in the slot table.
#define CUSHIM_BINDER_LABEL(SYMBOL) __asm__(CUSHIM_STR(CUSHIM_API) "_cbind_" #SYMBOL) __attribute__((used))

// The check of an assembly stub's type against the header's prototype, in a
// pair that reads the header (CUSHIM_SIGNATURES_CHECKED); a pair whose stubs
// are all in assembly reads no header on such a platform, and checks nothing.
#define CUSHIM_SIGNATURE_CHECKED(RET, SYMBOL, PARAMS, CHECK) \
    typedef RET(CUSHIM_CALL *cushim_type_##SYMBOL) PARAMS;   \
    CHECK##_ASM(SYMBOL, cushim_type_##SYMBOL)
#define CUSHIM_SIGNATURE_UNCHECKED(RET, SYMBOL, PARAMS, CHECK)

// A row of the slot table (in the pair's one `__asm__` that lays it out):
// an assembly stub's thunk, a C++ stub's binder, or none.
#define CUSHIM_ASM_ROW(SYMBOL, FIRST) \
    CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL ": .quad " CUSHIM_STR(CUSHIM_API) "_" #FIRST "_" #SYMBOL "\n"
#define CUSHIM_ASM_NO_ROW(SYMBOL) CUSHIM_STR(CUSHIM_API) "_slot_" #SYMBOL ": .quad 0\n"
#if defined(_WIN32)
// On Windows, the pointer `__imp_<export>` to an export, which a program
// calls it through where the header declares it `__declspec(dllimport)` (an
// import library defines them; the pair, which replaces one, does too), in
// a pair's `__asm__` from CUSHIM_ASM_IMPORTS to CUSHIM_ASM_TABLE_END.
#define CUSHIM_ASM_IMPORTS ".section .rdata,\"dr\"\n.p2align 3\n"
#define CUSHIM_ASM_IMPORT(EXPORT) ".globl __imp_" #EXPORT "\n__imp_" #EXPORT ": .quad " #EXPORT "\n"
#endif
#else
#define CUSHIM_BINDER_LABEL(SYMBOL)
#define CUSHIM_FAST_STUB(ANSWER, RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK) \
    CUSHIM_STUB(RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)
#endif

#endif  // CUSHIM_RUNTIME_H
