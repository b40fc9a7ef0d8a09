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

