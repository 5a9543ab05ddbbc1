	.file	"conv_avx2_a.c"
	.text
	.p2align 4
	.globl	conv_avx2_a
	.type	conv_avx2_a, @function
conv_avx2_a:
.LFB6392:
	.cfi_startproc
	testl	%edi, %edi
	jle	.L8
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movl	%edi, %eax
	leaq	20(%rdx), %rdi
	leaq	36(%rdx), %r11
	leaq	40(%rdx), %r10
	leaq	44(%rdx), %r9
	vxorps	%xmm2, %xmm2, %xmm2
	decl	%eax
	leaq	48(%rdx), %r8
	shrl	$3, %eax
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	pushq	%r15
	.cfi_offset 15, -24
	leaq	4(%rdx), %r15
	incl	%eax
	pushq	%r14
	.cfi_offset 14, -32
	leaq	8(%rdx), %r14
	salq	$5, %rax
	pushq	%r13
	.cfi_offset 13, -40
	movq	%r10, %r13
	movq	%r8, %r10
	pushq	%r12
	.cfi_offset 12, -48
	movq	%rdx, %r12
	pushq	%rbx
	.cfi_offset 3, -56
	leaq	12(%rdx), %rbx
	andq	$-32, %rsp
	movq	%rbx, -48(%rsp)
	leaq	16(%rdx), %rbx
	movq	%rbx, -40(%rsp)
	leaq	24(%rdx), %rbx
	movq	%rdi, -32(%rsp)
	leaq	28(%rdx), %rdi
	movq	%rbx, -24(%rsp)
	leaq	32(%rdx), %rbx
	movq	%rdi, -16(%rsp)
	leaq	52(%rdx), %rdi
	leaq	56(%rdx), %rdx
	movq	%rdx, -56(%rsp)
	leaq	60(%r12), %rdx
	movq	%r15, -64(%rsp)
	movq	%rdx, %r8
	movq	%r11, %rdx
	movq	%r9, %r11
	movq	%rax, -8(%rsp)
	movq	%rdi, %r9
	xorl	%eax, %eax
	movq	%r14, %rdi
	movq	%rdx, %r14
	.p2align 4,,10
	.p2align 3
.L3:
	movq	(%rsi), %r15
	movq	-64(%rsp), %rdx
	vbroadcastss	(%r12), %ymm1
	vfmadd132ps	(%r15,%rax), %ymm2, %ymm1
	movq	8(%rsi), %r15
	vbroadcastss	(%rdx), %ymm0
	movq	(%rsi), %rdx
	vfmadd132ps	(%r15,%rax), %ymm1, %ymm0
	movq	16(%rsi), %r15
	vbroadcastss	(%rdi), %ymm1
	vfmadd132ps	(%r15,%rax), %ymm0, %ymm1
	movq	-48(%rsp), %r15
	vbroadcastss	(%r15), %ymm0
	movq	24(%rsi), %r15
	vfmadd132ps	(%r15,%rax), %ymm1, %ymm0
	movq	-40(%rsp), %r15
	vbroadcastss	(%r15), %ymm1
	movq	32(%rsi), %r15
	vfmadd132ps	(%r15,%rax), %ymm0, %ymm1
	movq	-32(%rsp), %r15
	vbroadcastss	(%r15), %ymm0
	movq	40(%rsi), %r15
	vfmadd132ps	(%r15,%rax), %ymm1, %ymm0
	movq	-24(%rsp), %r15
	vbroadcastss	(%r15), %ymm1
	movq	48(%rsi), %r15
	vfmadd132ps	(%r15,%rax), %ymm0, %ymm1
	movq	-16(%rsp), %r15
	vbroadcastss	(%r15), %ymm0
	movq	56(%rsi), %r15
	vfmadd132ps	(%r15,%rax), %ymm1, %ymm0
	movq	%rax, %r15
	addq	$32, %rax
	vbroadcastss	(%rbx), %ymm1
	vfmadd132ps	(%rdx,%rax), %ymm0, %ymm1
	movq	8(%rsi), %rdx
	vbroadcastss	(%r14), %ymm0
	vfmadd132ps	(%rdx,%rax), %ymm1, %ymm0
	movq	16(%rsi), %rdx
	vbroadcastss	0(%r13), %ymm1
	vfmadd132ps	(%rdx,%rax), %ymm0, %ymm1
	movq	24(%rsi), %rdx
	vbroadcastss	(%r11), %ymm0
	vfmadd132ps	(%rdx,%rax), %ymm1, %ymm0
	movq	32(%rsi), %rdx
	vbroadcastss	(%r10), %ymm1
	vfmadd132ps	(%rdx,%rax), %ymm0, %ymm1
	movq	40(%rsi), %rdx
	vbroadcastss	(%r9), %ymm0
	vfmadd132ps	(%rdx,%rax), %ymm1, %ymm0
	movq	-56(%rsp), %rdx
	vbroadcastss	(%rdx), %ymm1
	movq	48(%rsi), %rdx
	vfmadd132ps	(%rdx,%rax), %ymm0, %ymm1
	movq	56(%rsi), %rdx
	vbroadcastss	(%r8), %ymm0
	vfmadd132ps	(%rdx,%rax), %ymm1, %ymm0
	vmovaps	%ymm0, (%rcx,%r15)
	cmpq	%rax, -8(%rsp)
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
	.size	conv_avx2_a, .-conv_avx2_a
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
