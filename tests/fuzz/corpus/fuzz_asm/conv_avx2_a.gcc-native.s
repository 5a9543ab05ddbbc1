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
	leaq	4(%rdx), %rax
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	leaq	40(%rdx), %r11
	leaq	44(%rdx), %r10
	vmovq	%rax, %xmm16
	leaq	8(%rdx), %rax
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	pushq	%r15
	vmovq	%rax, %xmm15
	leaq	12(%rdx), %rax
	pushq	%r14
	pushq	%r13
	vmovq	%rax, %xmm14
	leaq	16(%rdx), %rax
	.cfi_offset 15, -24
	.cfi_offset 14, -32
	.cfi_offset 13, -40
	leal	-1(%rdi), %r13d
	pushq	%r12
	vmovq	%rax, %xmm13
	leaq	20(%rdx), %rax
	shrl	$3, %r13d
	pushq	%rbx
	vmovq	%rax, %xmm12
	leaq	24(%rdx), %rax
	incl	%r13d
	.cfi_offset 12, -48
	.cfi_offset 3, -56
	movq	%rdx, %r12
	vmovq	%rax, %xmm11
	leaq	28(%rdx), %rax
	movq	%rcx, %r15
	leaq	36(%rdx), %rbx
	vmovq	%rax, %xmm10
	leaq	48(%rdx), %r9
	leaq	32(%rdx), %rax
	leaq	52(%rdx), %r8
	leaq	56(%rdx), %rcx
	andq	$-32, %rsp
	leaq	60(%rdx), %rdx
	salq	$5, %r13
	vmovq	%rax, %xmm9
	vmovdqa	%xmm11, %xmm8
	movq	%r13, -8(%rsp)
	vmovq	%r12, %xmm11
	xorl	%eax, %eax
	vmovq	%xmm10, %r12
	vxorps	%xmm1, %xmm1, %xmm1
	vmovq	%r15, %xmm10
	vmovq	%rdx, %xmm17
	vmovq	%rcx, %xmm18
	vmovq	%r8, %xmm19
	vmovq	%r9, %xmm20
	vmovq	%r10, %xmm21
	vmovq	%r11, %xmm22
	vmovq	%rbx, %xmm23
	vmovq	%xmm16, %r15
	.p2align 4
	.p2align 3
.L3:
	movq	(%rsi), %r10
	vmovq	%xmm11, %rdx
	movq	8(%rsi), %r9
	vmovq	%xmm15, %rcx
	vbroadcastss	(%rdx), %ymm0
	vbroadcastss	(%r15), %ymm2
	vmovq	%xmm14, %rdi
	vmovq	%xmm9, %rbx
	movq	16(%rsi), %r8
	vbroadcastss	(%rcx), %ymm3
	movq	%rax, %r11
	movq	24(%rsi), %rcx
	vbroadcastss	(%rdi), %ymm4
	vmovq	%xmm13, %rdi
	vfmadd132ps	(%r10,%rax), %ymm1, %ymm0
	movq	32(%rsi), %rdx
	vbroadcastss	(%rdi), %ymm5
	movq	40(%rsi), %r14
	vmovq	%xmm12, %rdi
	vbroadcastss	(%rdi), %ymm6
	movq	48(%rsi), %r13
	vmovq	%xmm8, %rdi
	vbroadcastss	(%rdi), %ymm7
	movq	56(%rsi), %rdi
	vfmadd231ps	(%r9,%rax), %ymm2, %ymm0
	vbroadcastss	(%r12), %ymm2
	vfmadd231ps	(%r8,%rax), %ymm3, %ymm0
	vbroadcastss	(%rbx), %ymm3
	vmovq	%xmm23, %rbx
	vfmadd231ps	(%rcx,%rax), %ymm4, %ymm0
	vbroadcastss	(%rbx), %ymm4
	vmovq	%xmm22, %rbx
	vfmadd231ps	(%rdx,%rax), %ymm5, %ymm0
	vbroadcastss	(%rbx), %ymm5
	vmovq	%xmm21, %rbx
	vfmadd231ps	(%r14,%rax), %ymm6, %ymm0
	vbroadcastss	(%rbx), %ymm6
	vmovq	%xmm10, %rbx
	vfmadd231ps	0(%r13,%rax), %ymm7, %ymm0
	vfmadd231ps	(%rdi,%rax), %ymm2, %ymm0
	addq	$32, %rax
	vfmadd231ps	(%r10,%rax), %ymm3, %ymm0
	vfmadd231ps	(%r9,%rax), %ymm4, %ymm0
	vfmadd231ps	(%r8,%rax), %ymm5, %ymm0
	vfmadd231ps	(%rcx,%rax), %ymm6, %ymm0
	vmovq	%xmm20, %rcx
	vbroadcastss	(%rcx), %ymm7
	vmovq	%xmm17, %rcx
	vbroadcastss	(%rcx), %ymm4
	vfmadd231ps	(%rdx,%rax), %ymm7, %ymm0
	vmovq	%xmm19, %rdx
	vbroadcastss	(%rdx), %ymm2
	vmovq	%xmm18, %rdx
	vbroadcastss	(%rdx), %ymm3
	vfmadd231ps	(%r14,%rax), %ymm2, %ymm0
	vfmadd231ps	0(%r13,%rax), %ymm3, %ymm0
	vfmadd231ps	(%rdi,%rax), %ymm4, %ymm0
	vmovaps	%ymm0, (%rbx,%r11)
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
