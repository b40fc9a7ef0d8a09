# cushim's assembly stubs for aarch64 ELF (AAPCS64, LP64), as GCC and Clang
# assemble them. cushim_runtime.h holds them as macros (src/runtime/cpp/arch.rs
# writes them): each block, from its `#@` line to the next, is one macro, its
# lines C string literals, its `#` lines after the `#@` line the macro's
# comment. Lines that start with `#` elsewhere are not copied. Placeholders:
#   {API}      the pair's C API prefix (CUSHIM_API: `cushim_cublas`), which
#              names its slot table `{API}_slots`, each row `{API}_slot_<symbol>`,
#              and `{API}_self`, a pointer to the pair's description
#   {EXPORT}   the exported function
#   {SYMBOL}   the function's symbol, which names its slot and its thunk
#   {ANSWER}   what the stub answers without the library (CUSHIM_ANSWER_*)
#   {LANDING}  on a line of its own: the landing block's instruction where
#              the build asks for it, else nothing
# x16 and x17 are the registers that AAPCS64 lets a veneer or a trampoline
# clobber; x9 to x15 hold nothing a callee must keep or read.

#@ landing defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
# Where indirect branches must land on `bti` (-mbranch-protection=bti or
# standard), the export and the thunk start with `bti c`, which a call
# through a register and a jump through x16 or x17 may land on.
	bti c

#@ stub
# One stub: the export loads its slot with acquire semantics (as the C++
# stubs do: the runtime stores a bound address with release semantics) and
# jumps there through x16, which a function that starts with `bti c` admits.
# The slot starts at the stub's thunk, which hands the slot's address, tagged
# with the stub's answer, to the pair's binder in x9.
.pushsection .text
.globl {EXPORT}
.type {EXPORT}, %function
.p2align 4
{EXPORT}:
{LANDING}
	adrp x16, {API}_slot_{SYMBOL}
	add x16, x16, :lo12:{API}_slot_{SYMBOL}
	ldar x16, [x16]
	br x16
.size {EXPORT}, .-{EXPORT}
{API}_thunk_{SYMBOL}:
{LANDING}
	adrp x9, {API}_slot_{SYMBOL}+{ANSWER}
	add x9, x9, :lo12:{API}_slot_{SYMBOL}+{ANSWER}
	b {API}_bind
.popsection

#@ binders
# The pair's binder, `<api>_bind`, entered from a thunk with the tagged
# slot address in x9, every argument register as the caller left it and
# the stack as at the export's entry. It saves the argument registers, asks
# cushim_runtime_bind for the row's address (the runtime stores it in the
# slot) and jumps there with the registers restored; without one, it returns
# cushim_runtime_answer's value (and a zero float). A failed binding leaves
# the slot at the thunk, so that every failed call notes why. The return
# address it keeps on the stack is signed (`paciasp`, `autiasp`: no-ops
# where the processor lacks pointer authentication).
.pushsection .text
.p2align 4
{API}_bind:
	.cfi_startproc
	hint #25 // paciasp
	.cfi_negate_ra_state
	stp x29, x30, [sp, #-240]!
	.cfi_def_cfa_offset 240
	.cfi_offset x29, -240
	.cfi_offset x30, -232
	mov x29, sp
# At 16 the integer argument registers, the indirect result's address (x8)
# and the tagged slot address; at 96 the vector argument registers, whole;
# at 224, the code.
	stp x0, x1, [sp, #16]
	stp x2, x3, [sp, #32]
	stp x4, x5, [sp, #48]
	stp x6, x7, [sp, #64]
	stp x8, x9, [sp, #80]
	stp q0, q1, [sp, #96]
	stp q2, q3, [sp, #128]
	stp q4, q5, [sp, #160]
	stp q6, q7, [sp, #192]
	str wzr, [sp, #224]
# cushim_runtime_bind(description, row, &code): the row from the slot's
# address, its tag masked off.
	adrp x0, {API}_self
	ldr x0, [x0, :lo12:{API}_self]
	and x1, x9, #-8
	adrp x2, {API}_slots
	add x2, x2, :lo12:{API}_slots
	sub x1, x1, x2
	lsr x1, x1, #3
	add x2, sp, #224
	bl cushim_runtime_bind
	cbz x0, 1f
# Bound: the function, with the registers as the caller left them.
	mov x16, x0
	ldp x0, x1, [sp, #16]
	ldp x2, x3, [sp, #32]
	ldp x4, x5, [sp, #48]
	ldp x6, x7, [sp, #64]
	ldr x8, [sp, #80]
	ldp q0, q1, [sp, #96]
	ldp q2, q3, [sp, #128]
	ldp q4, q5, [sp, #160]
	ldp q6, q7, [sp, #192]
	.cfi_remember_state
	ldp x29, x30, [sp], #240
	.cfi_restore x29
	.cfi_restore x30
	.cfi_def_cfa_offset 0
	hint #29 // autiasp
	.cfi_negate_ra_state
	br x16
	.cfi_restore_state
# Not bound: cushim_runtime_answer(description, the tag, code, the saved
# registers).
1:
	adrp x0, {API}_self
	ldr x0, [x0, :lo12:{API}_self]
	ldr x1, [sp, #88]
	and x1, x1, #7
	ldr w2, [sp, #224]
	add x3, sp, #16
	bl cushim_runtime_answer
	movi v0.2d, #0
	ldp x29, x30, [sp], #240
	.cfi_restore x29
	.cfi_restore x30
	.cfi_def_cfa_offset 0
	hint #29 // autiasp
	.cfi_negate_ra_state
	ret
	.cfi_endproc
.popsection

#@ table
# The slot table's start, in the data section: its symbol, then the rows.
.pushsection .data
.p2align 3
.globl {API}_slots
.hidden {API}_slots
{API}_slots:

#@ table_end
# The slot table's end: back to the section before it.
.popsection
