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
