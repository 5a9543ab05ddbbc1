	.file	"conv_avx2_u.c"
	.text
	.p2align 4
	.globl	conv_avx2_u
	.type	conv_avx2_u, @function
conv_avx2_u:
.LFB6392:
	.cfi_startproc
	testl	%edi, %edi
	jle	.L8
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movq	%rsi, %rax
	movq	%rdx, %rsi
	movq	%rcx, %rdx
	leaq	40(%rsi), %rcx
	leaq	24(%rsi), %r11
	vxorps	%xmm2, %xmm2, %xmm2
	decl	%edi
	shrl	$3, %edi
	leaq	28(%rsi), %r10
	leaq	32(%rsi), %r9
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	pushq	%r15
	salq	$5, %rdi
	.cfi_offset 15, -24
	leaq	4(%rsi), %r15
	pushq	%r14
	leaq	36(%rsi), %r8
	.cfi_offset 14, -32
	leaq	8(%rsi), %r14
	pushq	%r13
	leaq	32(%rax,%rdi), %rdi
	.cfi_offset 13, -40
	leaq	12(%rsi), %r13
	pushq	%r12
	.cfi_offset 12, -48
	leaq	16(%rsi), %r12
	pushq	%rbx
	.cfi_offset 3, -56
	leaq	20(%rsi), %rbx
	andq	$-32, %rsp
	movq	%rcx, -8(%rsp)
	leaq	44(%rsi), %rcx
	movq	%rcx, -16(%rsp)
	leaq	48(%rsi), %rcx
	movq	%rcx, -24(%rsp)
	leaq	52(%rsi), %rcx
	movq	%rcx, -32(%rsp)
	leaq	56(%rsi), %rcx
	movq	%rcx, -40(%rsp)
	leaq	60(%rsi), %rcx
	movq	%rcx, -48(%rsp)
	.p2align 4,,10
	.p2align 3
.L3:
	vbroadcastss	(%rsi), %ymm1
	vfmadd132ps	(%rax), %ymm2, %ymm1
	addq	$32, %rax
	addq	$32, %rdx
	vbroadcastss	(%r15), %ymm0
	vfmadd132ps	-28(%rax), %ymm1, %ymm0
	vbroadcastss	(%r14), %ymm1
	vfmadd132ps	-24(%rax), %ymm0, %ymm1
	vbroadcastss	0(%r13), %ymm0
	vfmadd132ps	-20(%rax), %ymm1, %ymm0
	vbroadcastss	(%r12), %ymm1
	vfmadd132ps	-16(%rax), %ymm0, %ymm1
	vbroadcastss	(%rbx), %ymm0
	vfmadd132ps	-12(%rax), %ymm1, %ymm0
	vbroadcastss	(%r11), %ymm1
	vfmadd132ps	-8(%rax), %ymm0, %ymm1
	movq	-8(%rsp), %rcx
	vbroadcastss	(%r10), %ymm0
	vfmadd132ps	-4(%rax), %ymm1, %ymm0
	vbroadcastss	(%r9), %ymm1
	vfmadd132ps	(%rax), %ymm0, %ymm1
	vbroadcastss	(%r8), %ymm0
	vfmadd132ps	4(%rax), %ymm1, %ymm0
	vbroadcastss	(%rcx), %ymm1
	movq	-16(%rsp), %rcx
	vfmadd132ps	8(%rax), %ymm0, %ymm1
	vbroadcastss	(%rcx), %ymm0
	movq	-24(%rsp), %rcx
	vfmadd132ps	12(%rax), %ymm1, %ymm0
	vbroadcastss	(%rcx), %ymm1
	movq	-32(%rsp), %rcx
	vfmadd132ps	16(%rax), %ymm0, %ymm1
	vbroadcastss	(%rcx), %ymm0
	vfmadd132ps	20(%rax), %ymm1, %ymm0
	movq	-40(%rsp), %rcx
	vbroadcastss	(%rcx), %ymm1
	movq	-48(%rsp), %rcx
	vfmadd132ps	24(%rax), %ymm0, %ymm1
	vbroadcastss	(%rcx), %ymm0
	vfmadd132ps	28(%rax), %ymm1, %ymm0
	vmovups	%ymm0, -32(%rdx)
	cmpq	%rax, %rdi
	jne	.L3
	vzeroupper
	leaq	-40(%rbp), %rsp
	popq	%rbx
	popq	%r12
	popq	%r13
	popq	%r14
	popq	%r15
	popq	%rbp
	.cfi_def_cfa 7, 8
	ret
.L8:
	.cfi_restore 3
	.cfi_restore 6
	.cfi_restore 12
	.cfi_restore 13
	.cfi_restore 14
	.cfi_restore 15
	ret
	.cfi_endproc
.LFE6392:
	.size	conv_avx2_u, .-conv_avx2_u
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
