# cushim's assembly stubs for 64-bit Windows (x86-64 COFF, the Microsoft x64
# calling convention), as MinGW's GCC and Clang assemble them. The blocks and
# placeholders are those of x86_64-elf.S. COFF's assembler has no
# `.pushsection`, `.popsection` or `.previous`: every block ends in `.text`,
# where GCC emits file-scope assembly (first, before its own sections).
# Windows has no indirect-branch landing instruction (no landing block).

#@ stub
# One stub: the export jumps through its slot, which starts at the stub's
# thunk; the thunk hands the slot's address, tagged with the stub's answer,
# to the pair's binder. Neither moves the stack: Windows unwinds them as
# leaf functions, without unwind data.
.text
.globl {EXPORT}
.def {EXPORT}; .scl 2; .type 32; .endef
.p2align 4
{EXPORT}:
	jmp *{API}_slot_{SYMBOL}(%rip)
{API}_thunk_{SYMBOL}:
	lea {API}_slot_{SYMBOL}+{ANSWER}(%rip), %r11
	jmp {API}_bind

#@ binders
# The pair's binder, `<api>_bind`, entered from a thunk with the tagged
# slot address in r11, every argument register as the caller left it and
# the stack as at the export's entry (the caller's arguments past the fourth
# above its shadow space, untouched here). It saves the argument registers,
# asks cushim_runtime_bind for the row's address (the runtime stores it in
# the slot) and jumps there with the registers and the stack restored;
# without one, it returns cushim_runtime_answer's value in rax (and a zero
# in xmm0). A failed binding leaves the slot at the thunk, so that every
# failed call notes why.
.text
.def {API}_bind; .scl 3; .type 32; .endef
.p2align 4
{API}_bind:
	.seh_proc {API}_bind
# 152 bytes: the stack is 16-byte aligned at the calls below. At 0, the
# callee's shadow space; at 32, the integer argument registers in order (the
# saved registers cushim_runtime_answer reads); at 64, the tagged slot
# address; at 72, the code; at 80, the vector argument registers.
	sub $152, %rsp
	.seh_stackalloc 152
	.seh_endprologue
	mov %rcx, 32(%rsp)
	mov %rdx, 40(%rsp)
	mov %r8, 48(%rsp)
	mov %r9, 56(%rsp)
	mov %r11, 64(%rsp)
	movl $0, 72(%rsp)
	movaps %xmm0, 80(%rsp)
	movaps %xmm1, 96(%rsp)
	movaps %xmm2, 112(%rsp)
	movaps %xmm3, 128(%rsp)
# cushim_runtime_bind(description, row, &code): the row from the slot's
# address, its tag masked off.
	mov {API}_self(%rip), %rcx
	mov %r11, %rdx
	and $-8, %rdx
	lea {API}_slots(%rip), %rax
	sub %rax, %rdx
	shr $3, %rdx
	lea 72(%rsp), %r8
	call cushim_runtime_bind
	test %rax, %rax
	jz 1f
# Bound: the function, with the registers and the stack as the caller left
# them.
	mov 32(%rsp), %rcx
	mov 40(%rsp), %rdx
	mov 48(%rsp), %r8
	mov 56(%rsp), %r9
	movaps 80(%rsp), %xmm0
	movaps 96(%rsp), %xmm1
	movaps 112(%rsp), %xmm2
	movaps 128(%rsp), %xmm3
	add $152, %rsp
# With REX.W, as Windows' unwinder recognizes an epilogue's indirect jump.
	rex.W jmp *%rax
# Not bound: cushim_runtime_answer(description, the tag, code, the saved
# registers).
1:
	mov {API}_self(%rip), %rcx
	mov 64(%rsp), %rdx
	and $7, %edx
	movl 72(%rsp), %r8d
	lea 32(%rsp), %r9
	call cushim_runtime_answer
	pxor %xmm0, %xmm0
	add $152, %rsp
	ret
	.seh_endproc

#@ table
# The slot table's start, in the data section: its symbol, then the rows.
.data
.p2align 3
.globl {API}_slots
{API}_slots:

#@ table_end
# The slot table's end: back to `.text`.
.text
