# cushim's assembly stubs for x86-64 ELF (the System V ABI), as GCC and Clang
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

#@ landing defined(__CET__) && (__CET__ & 1)
# Where indirect branches must land on `endbr64` (-fcf-protection=branch),
# the export and the thunk start with one.
	endbr64

#@ stub
# One stub: the export jumps through its slot, which starts at the stub's
# thunk; the thunk hands the slot's address, tagged with the stub's answer,
# to the pair's binder.
.pushsection .text
.globl {EXPORT}
.type {EXPORT}, @function
.p2align 4
{EXPORT}:
{LANDING}
	jmp *{API}_slot_{SYMBOL}(%rip)
.size {EXPORT}, .-{EXPORT}
{API}_thunk_{SYMBOL}:
{LANDING}
	lea {API}_slot_{SYMBOL}+{ANSWER}(%rip), %r11
	jmp {API}_bind
.popsection

#@ binders
# The pair's binder, `<api>_bind`, entered from a thunk with the tagged
# slot address in r11, every argument register as the caller left it and
# the stack as at the export's entry. It saves the argument registers, asks
# cushim_runtime_bind for the row's address (the runtime stores it in the
# slot) and jumps there with the registers restored; without one, it returns
# cushim_runtime_answer's value (and a zero float). A failed binding leaves
# the slot at the thunk, so that every failed call notes why.
.pushsection .text
.p2align 4
{API}_bind:
	.cfi_startproc
	push %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	sub $208, %rsp
# The integer and vector argument registers, %rax (a variadic call's count
# of vector registers) and the tagged slot address; at 192, the code.
	mov %rdi, 0(%rsp)
	mov %rsi, 8(%rsp)
	mov %rdx, 16(%rsp)
	mov %rcx, 24(%rsp)
	mov %r8, 32(%rsp)
	mov %r9, 40(%rsp)
	mov %rax, 48(%rsp)
	mov %r11, 56(%rsp)
	movaps %xmm0, 64(%rsp)
	movaps %xmm1, 80(%rsp)
	movaps %xmm2, 96(%rsp)
	movaps %xmm3, 112(%rsp)
	movaps %xmm4, 128(%rsp)
	movaps %xmm5, 144(%rsp)
	movaps %xmm6, 160(%rsp)
	movaps %xmm7, 176(%rsp)
	movl $0, 192(%rsp)
# cushim_runtime_bind(description, row, &code): the row from the slot's
# address, its tag masked off.
	mov {API}_self(%rip), %rdi
	mov %r11, %rsi
	and $-8, %rsi
	lea {API}_slots(%rip), %rax
	sub %rax, %rsi
	shr $3, %rsi
	lea 192(%rsp), %rdx
	call cushim_runtime_bind
	test %rax, %rax
	jz 1f
# Bound: the function, with the registers as the caller left them.
	mov %rax, %r11
	mov 0(%rsp), %rdi
	mov 8(%rsp), %rsi
	mov 16(%rsp), %rdx
	mov 24(%rsp), %rcx
	mov 32(%rsp), %r8
	mov 40(%rsp), %r9
	mov 48(%rsp), %rax
	movaps 64(%rsp), %xmm0
	movaps 80(%rsp), %xmm1
	movaps 96(%rsp), %xmm2
	movaps 112(%rsp), %xmm3
	movaps 128(%rsp), %xmm4
	movaps 144(%rsp), %xmm5
	movaps 160(%rsp), %xmm6
	movaps 176(%rsp), %xmm7
	.cfi_remember_state
	leave
	.cfi_def_cfa %rsp, 8
	jmp *%r11
	.cfi_restore_state
# Not bound: cushim_runtime_answer(description, the tag, code, the saved
# registers).
1:
	mov {API}_self(%rip), %rdi
	mov 56(%rsp), %rsi
	and $7, %esi
	movl 192(%rsp), %edx
	mov %rsp, %rcx
	call cushim_runtime_answer
	pxor %xmm0, %xmm0
	leave
	.cfi_def_cfa %rsp, 8
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
