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

