	.file	"conv_scalar.c"
	.text
	.p2align 4
	.globl	conv_scalar
	.type	conv_scalar, @function
conv_scalar:
.LFB0:
	.cfi_startproc
	testl	%edi, %edi
	jle	.L31
	leal	-1(%rdi), %r10d
	movq	%rsi, %r8
	movq	%rdx, %rax
	movl	%edi, %r9d
	movslq	%edi, %rsi
	cmpl	$2, %r10d
	jbe	.L3
	leaq	(%rcx,%rsi,4), %rdx
	leaq	64(%rax), %r11
	cmpq	%rdx, %rax
	setnb	%dl
	cmpq	%r11, %rcx
	setnb	%r11b
	orb	%r11b, %dl
	je	.L3
	leaq	4(%r8), %r11
	movq	%rcx, %rdx
	subq	%r11, %rdx
	cmpq	$84, %rdx
	jbe	.L3
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	andq	$-32, %rsp
	cmpl	$6, %r10d
	jbe	.L12
	vbroadcastss	56(%rax), %ymm1
	vbroadcastss	(%rax), %ymm15
	movq	%r8, %rdx
	movq	%rcx, %rsi
	vbroadcastss	60(%rax), %ymm0
	shrl	$3, %r9d
	vbroadcastss	4(%rax), %ymm14
	salq	$5, %r9
	vbroadcastss	8(%rax), %ymm13
	vbroadcastss	12(%rax), %ymm12
	vmovaps	%ymm1, -64(%rsp)
	vbroadcastss	16(%rax), %ymm11
	vbroadcastss	20(%rax), %ymm10
	addq	%r8, %r9
	vmovaps	%ymm0, -32(%rsp)
	vbroadcastss	24(%rax), %ymm9
	vbroadcastss	28(%rax), %ymm8
	vbroadcastss	32(%rax), %ymm7
	vbroadcastss	36(%rax), %ymm6
	vbroadcastss	40(%rax), %ymm5
	vbroadcastss	44(%rax), %ymm4
	vbroadcastss	48(%rax), %ymm3
	vbroadcastss	52(%rax), %ymm2
	.p2align 4,,10
	.p2align 3
.L5:
	vxorps	%xmm0, %xmm0, %xmm0
	vfmadd231ps	(%rdx), %ymm15, %ymm0
	addq	$32, %rdx
	addq	$32, %rsi
	vfmadd231ps	-28(%rdx), %ymm14, %ymm0
	vmovaps	-64(%rsp), %ymm1
	vfmadd231ps	-24(%rdx), %ymm13, %ymm0
	vfmadd231ps	-20(%rdx), %ymm12, %ymm0
	vfmadd231ps	-16(%rdx), %ymm11, %ymm0
	vfmadd231ps	-12(%rdx), %ymm10, %ymm0
	vfmadd231ps	-8(%rdx), %ymm9, %ymm0
	vfmadd231ps	-4(%rdx), %ymm8, %ymm0
	vfmadd231ps	(%rdx), %ymm7, %ymm0
	vfmadd231ps	4(%rdx), %ymm6, %ymm0
	vfmadd231ps	8(%rdx), %ymm5, %ymm0
	vfmadd231ps	12(%rdx), %ymm4, %ymm0
	vfmadd231ps	16(%rdx), %ymm3, %ymm0
	vfmadd231ps	20(%rdx), %ymm2, %ymm0
	vfmadd231ps	24(%rdx), %ymm1, %ymm0
	vmovaps	-32(%rsp), %ymm1
	vfmadd231ps	28(%rdx), %ymm1, %ymm0
	vmovups	%ymm0, -32(%rsi)
	cmpq	%rdx, %r9
	jne	.L5
	movl	%edi, %esi
	andl	$-8, %esi
	movl	%esi, %edx
	cmpl	%esi, %edi
	je	.L27
	movl	%edi, %r9d
	subl	%esi, %r9d
	leal	-1(%r9), %r10d
	cmpl	$2, %r10d
	jbe	.L35
	vzeroupper
.L4:
	vbroadcastss	60(%rax), %xmm15
	vbroadcastss	(%rax), %xmm14
	vbroadcastss	4(%rax), %xmm13
	vbroadcastss	8(%rax), %xmm12
	vmovaps	%xmm15, -32(%rsp)
	vxorps	%xmm15, %xmm15, %xmm15
	vfmadd132ps	(%r8,%rdx,4), %xmm15, %xmm14
	vbroadcastss	12(%rax), %xmm11
	vfmadd132ps	4(%r8,%rdx,4), %xmm14, %xmm13
	vbroadcastss	16(%rax), %xmm10
	vfmadd132ps	8(%r8,%rdx,4), %xmm13, %xmm12
	vbroadcastss	20(%rax), %xmm9
	vfmadd132ps	12(%r8,%rdx,4), %xmm12, %xmm11
	vbroadcastss	24(%rax), %xmm8
	vfmadd132ps	16(%r8,%rdx,4), %xmm11, %xmm10
	vbroadcastss	28(%rax), %xmm7
	vfmadd132ps	20(%r8,%rdx,4), %xmm10, %xmm9
	vbroadcastss	32(%rax), %xmm6
	vfmadd132ps	24(%r8,%rdx,4), %xmm9, %xmm8
	vbroadcastss	36(%rax), %xmm5
	vfmadd132ps	28(%r8,%rdx,4), %xmm8, %xmm7
	vbroadcastss	40(%rax), %xmm4
	vfmadd132ps	32(%r8,%rdx,4), %xmm7, %xmm6
	vbroadcastss	44(%rax), %xmm3
	vfmadd132ps	36(%r8,%rdx,4), %xmm6, %xmm5
	vbroadcastss	48(%rax), %xmm2
	vfmadd132ps	40(%r8,%rdx,4), %xmm5, %xmm4
	vbroadcastss	52(%rax), %xmm1
	vfmadd132ps	44(%r8,%rdx,4), %xmm4, %xmm3
	vbroadcastss	56(%rax), %xmm0
	vfmadd132ps	48(%r8,%rdx,4), %xmm3, %xmm2
	vfmadd132ps	52(%r8,%rdx,4), %xmm2, %xmm1
	vfmadd132ps	56(%r8,%rdx,4), %xmm1, %xmm0
	vmovaps	-32(%rsp), %xmm15
	vfmadd231ps	60(%r8,%rdx,4), %xmm15, %xmm0
	vmovups	%xmm0, (%rcx,%rdx,4)
	movl	%r9d, %edx
	andl	$-4, %edx
	addl	%edx, %esi
	andl	$3, %r9d
	je	.L29
.L7:
	movslq	%esi, %rsi
	vxorps	%xmm1, %xmm1, %xmm1
	leaq	(%r8,%rsi,4), %rdx
	.p2align 4,,10
	.p2align 3
.L9:
	vmovss	(%rdx), %xmm0
	vfmadd132ss	(%rax), %xmm1, %xmm0
	addq	$4, %rdx
	vmovss	(%rdx), %xmm5
	vfmadd231ss	4(%rax), %xmm5, %xmm0
	vmovss	4(%rdx), %xmm6
	vfmadd231ss	8(%rax), %xmm6, %xmm0
	vmovss	8(%rdx), %xmm7
	vfmadd231ss	12(%rax), %xmm7, %xmm0
	vmovss	12(%rdx), %xmm5
	vfmadd231ss	16(%rax), %xmm5, %xmm0
	vmovss	16(%rdx), %xmm6
	vfmadd231ss	20(%rax), %xmm6, %xmm0
	vmovss	20(%rdx), %xmm7
	vfmadd231ss	24(%rax), %xmm7, %xmm0
	vmovss	24(%rdx), %xmm2
	vfmadd231ss	28(%rax), %xmm2, %xmm0
	vmovss	28(%rdx), %xmm3
	vfmadd231ss	32(%rax), %xmm3, %xmm0
	vmovss	32(%rdx), %xmm4
	vfmadd231ss	36(%rax), %xmm4, %xmm0
	vmovss	36(%rdx), %xmm5
	vfmadd231ss	40(%rax), %xmm5, %xmm0
	vmovss	40(%rdx), %xmm6
	vfmadd231ss	44(%rax), %xmm6, %xmm0
	vmovss	44(%rdx), %xmm7
	vfmadd231ss	48(%rax), %xmm7, %xmm0
	vmovss	48(%rdx), %xmm2
	vfmadd231ss	52(%rax), %xmm2, %xmm0
	vmovss	52(%rdx), %xmm3
	vfmadd231ss	56(%rax), %xmm3, %xmm0
	vmovss	56(%rdx), %xmm4
	vfmadd231ss	60(%rax), %xmm4, %xmm0
	vmovss	%xmm0, (%rcx,%rsi,4)
	incq	%rsi
	cmpl	%esi, %edi
	jg	.L9
.L29:
	leave
	.cfi_def_cfa 7, 8
	ret
.L3:
	.cfi_restore 6
	movq	%r8, %rdx
	leaq	(%r8,%rsi,4), %rsi
	vxorps	%xmm1, %xmm1, %xmm1
	.p2align 4,,10
	.p2align 3
.L10:
	vmovss	(%rax), %xmm0
	vfmadd132ss	(%rdx), %xmm1, %xmm0
	addq	$4, %rdx
	addq	$4, %rcx
	vmovss	4(%rax), %xmm2
	vfmadd231ss	(%rdx), %xmm2, %xmm0
	vmovss	8(%rax), %xmm3
	vfmadd231ss	4(%rdx), %xmm3, %xmm0
	vmovss	12(%rax), %xmm4
	vfmadd231ss	8(%rdx), %xmm4, %xmm0
	vmovss	16(%rax), %xmm5
	vfmadd231ss	12(%rdx), %xmm5, %xmm0
	vmovss	20(%rax), %xmm6
	vfmadd231ss	16(%rdx), %xmm6, %xmm0
	vmovss	24(%rax), %xmm7
	vfmadd231ss	20(%rdx), %xmm7, %xmm0
	vmovss	28(%rax), %xmm2
	vfmadd231ss	24(%rdx), %xmm2, %xmm0
	vmovss	32(%rax), %xmm3
	vfmadd231ss	28(%rdx), %xmm3, %xmm0
	vmovss	36(%rax), %xmm4
	vfmadd231ss	32(%rdx), %xmm4, %xmm0
	vmovss	40(%rax), %xmm5
	vfmadd231ss	36(%rdx), %xmm5, %xmm0
	vmovss	44(%rax), %xmm6
	vfmadd231ss	40(%rdx), %xmm6, %xmm0
	vmovss	48(%rax), %xmm7
	vfmadd231ss	44(%rdx), %xmm7, %xmm0
	vmovss	52(%rax), %xmm2
	vfmadd231ss	48(%rdx), %xmm2, %xmm0
	vmovss	56(%rax), %xmm3
	vfmadd231ss	52(%rdx), %xmm3, %xmm0
	vmovss	60(%rax), %xmm4
	vfmadd231ss	56(%rdx), %xmm4, %xmm0
	vmovss	%xmm0, -4(%rcx)
	cmpq	%rdx, %rsi
	jne	.L10
	ret
.L31:
	ret
.L12:
	.cfi_def_cfa 6, 16
	.cfi_offset 6, -16
	xorl	%edx, %edx
	xorl	%esi, %esi
	jmp	.L4
.L27:
	vzeroupper
	leave
	.cfi