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
// runtime's code, zero, the returned name or text of the status in the first
// argument (nvrtcGetErrorString), or that name or text stored through the
// second argument with the success or invalid-value code
// (cuGetErrorString). cushim_runtime_answer reads the same numbers.
#define CUSHIM_ANSWER_code 0
#define CUSHIM_ANSWER_zero 1
#define CUSHIM_ANSWER_name 2
#define CUSHIM_ANSWER_text 3
#define CUSHIM_ANSWER_out_name 4
#define CUSHIM_ANSWER_out_text 5

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
#else
#define CUSHIM_BINDER_LABEL(SYMBOL)
#define CUSHIM_FAST_STUB(ANSWER, RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK) \
    CUSHIM_STUB(RET, SYMBOL, EXPORT, INDEX, PARAMS, ARGS, ABSENT, CHECK)
#endif

#endif  // CUSHIM_RUNTIME_H
