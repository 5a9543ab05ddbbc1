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
	leaq	4(%rdx), %rax
	decl	%edi
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	leaq	48(%rdx), %r11
	vmovq	%rax, %xmm7
	leaq	8(%rdx), %rax
	shrl	$3, %edi
	leaq	52(%rdx), %r10
	vmovq	%rax, %xmm6
	leaq	12(%rdx), %rax
	salq	$5, %rdi
	leaq	56(%rdx), %r9
	vmovq	%rax, %xmm5
	leaq	16(%rdx), %rax
	leaq	60(%rdx), %r8
	leaq	32(%rsi,%rdi), %rdi
	vmovq	%rax, %xmm4
	leaq	20(%rdx), %rax
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	vmovq	%r11, %xmm9
	vmovq	%rax, %xmm3
	leaq	24(%rdx), %rax
	pushq	%r15
	vmovq	%r10, %xmm10
	pushq	%r14
	.cfi_offset 15, -24
	.cfi_offset 14, -32
	leaq	28(%rdx), %r15
	pushq	%r13
	leaq	32(%rdx), %r14
	pushq	%r12
	.cfi_offset 13, -40
	.cfi_offset 12, -48
	leaq	36(%rdx), %r13
	pushq	%rbx
	.cfi_offset 3, -56
	leaq	40(%rdx), %r12
	leaq	44(%rdx), %rbx
	vmovq	%r9, %xmm11
	vmovq	%r8, %xmm12
	movq	%rdi, %r11
	vmovq	%rdx, %xmm13
	vxorps	%xmm1, %xmm1, %xmm1
	movq	%rax, %r10
	vmovdqa	%xmm6, %xmm8
	vmovq	%xmm3, %r9
	vmovq	%xmm4, %r8
	vmovq	%xmm7, %rdi
	vmovq	%xmm5, %rdx
	.p2align 4
	.p2align 3
.L3:
	vmovq	%xmm13, %rax
	vbroadcastss	(%rdi), %ymm2
	vbroadcastss	(%rdx), %ymm4
	addq	$32, %rsi
	vbroadcastss	(%rax), %ymm0
	vmovq	%xmm8, %rax
	vbroadcastss	(%r8), %ymm5
	addq	$32, %rcx
	vfmadd132ps	-32(%rsi), %ymm1, %ymm0
	vbroadcastss	(%rax), %ymm3
	vmovq	%xmm9, %rax
	vbroadcastss	(%r9), %ymm6
	vbroadcastss	(%r10), %ymm7
	vfmadd231ps	-28(%rsi), %ymm2, %ymm0
	vbroadcastss	(%r15), %ymm2
	vfmadd231ps	-24(%rsi), %ymm3, %ymm0
	vbroadcastss	(%r14), %ymm3
	vfmadd231ps	-20(%rsi), %ymm4, %ymm0
	vbroadcastss	0(%r13), %ymm4
	vfmadd231ps	-16(%rsi), %ymm5, %ymm0
	vbroadcastss	(%r12), %ymm5
	vfmadd231ps	-12(%rsi), %ymm6, %ymm0
	vbroadcastss	(%rbx), %ymm6
	vfmadd231ps	-8(%rsi), %ymm7, %ymm0
	vbroadcastss	(%rax), %ymm7
	vmovq	%xmm10, %rax
	vfmadd231ps	-4(%rsi), %ymm2, %ymm0
	vbroadcastss	(%rax), %ymm2
	vmovq	%xmm11, %rax
	vfmadd231ps	(%rsi), %ymm3, %ymm0
	vbroadcastss	(%rax), %ymm3
	vmovq	%xmm12, %rax
	vfmadd231ps	4(%rsi), %ymm4, %ymm0
	vbroadcastss	(%rax), %ymm4
	vfmadd231ps	8(%rsi), %ymm5, %ymm0
	vfmadd231ps	12(%rsi), %ymm6, %ymm0
	vfmadd231ps	16(%rsi), %ymm7, %ymm0
	vfmadd231ps	20(%rsi), %ymm2, %ymm0
	vfmadd231ps	24(%rsi), %ymm3, %ymm0
	vfmadd231ps	28(%rsi), %ymm4, %ymm0
	vmovups	%ymm0, -32(%rcx)
	cmpq	%rsi, %r11
	jne	.L3
	vzeroupper
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
