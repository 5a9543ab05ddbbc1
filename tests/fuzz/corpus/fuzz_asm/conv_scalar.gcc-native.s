	.file	"conv_scalar.c"
	.text
	.p2align 4
	.globl	conv_scalar
	.type	conv_scalar, @function
conv_scalar:
.LFB0:
	.cfi_startproc
	movq	%rsi, %rax
	movq	%rcx, %rsi
	testl	%edi, %edi
	jle	.L29
	leal	-1(%rdi), %r10d
	movl	%edi, %r9d
	movslq	%edi, %r8
	cmpl	$6, %r10d
	jbe	.L3
	leaq	(%rcx,%r8,4), %rcx
	leaq	64(%rdx), %r11
	cmpq	%rcx, %rdx
	setnb	%cl
	cmpq	%r11, %rsi
	setnb	%r11b
	orb	%r11b, %cl
	je	.L3
	leaq	4(%rax), %r11
	movq	%rsi, %rcx
	subq	%r11, %rcx
	cmpq	$116, %rcx
	jbe	.L3
	cmpl	$14, %r10d
	jbe	.L12
	vbroadcastss	(%rdx), %zmm17
	vbroadcastss	4(%rdx), %zmm16
	shrl	$4, %r9d
	movq	%rax, %rcx
	vbroadcastss	8(%rdx), %zmm15
	vbroadcastss	12(%rdx), %zmm14
	salq	$6, %r9
	movq	%rsi, %r8
	vbroadcastss	16(%rdx), %zmm13
	vbroadcastss	20(%rdx), %zmm12
	addq	%rax, %r9
	vxorps	%xmm1, %xmm1, %xmm1
	vbroadcastss	24(%rdx), %zmm11
	vbroadcastss	28(%rdx), %zmm10
	vbroadcastss	32(%rdx), %zmm9
	vbroadcastss	36(%rdx), %zmm8
	vbroadcastss	40(%rdx), %zmm7
	vbroadcastss	44(%rdx), %zmm6
	vbroadcastss	48(%rdx), %zmm5
	vbroadcastss	52(%rdx), %zmm4
	vbroadcastss	56(%rdx), %zmm3
	vbroadcastss	60(%rdx), %zmm2
	.p2align 4
	.p2align 3
.L5:
	vmovaps	%zmm17, %zmm0
	addq	$64, %rcx
	vfmadd132ps	-64(%rcx), %zmm1, %zmm0
	addq	$64, %r8
	vfmadd231ps	-60(%rcx), %zmm16, %zmm0
	vfmadd231ps	-56(%rcx), %zmm15, %zmm0
	vfmadd231ps	-52(%rcx), %zmm14, %zmm0
	vfmadd231ps	-48(%rcx), %zmm13, %zmm0
	vfmadd231ps	-44(%rcx), %zmm12, %zmm0
	vfmadd231ps	-40(%rcx), %zmm11, %zmm0
	vfmadd231ps	-36(%rcx), %zmm10, %zmm0
	vfmadd231ps	-32(%rcx), %zmm9, %zmm0
	vfmadd231ps	-28(%rcx), %zmm8, %zmm0
	vfmadd231ps	-24(%rcx), %zmm7, %zmm0
	vfmadd231ps	-20(%rcx), %zmm6, %zmm0
	vfmadd231ps	-16(%rcx), %zmm5, %zmm0
	vfmadd231ps	-12(%rcx), %zmm4, %zmm0
	vfmadd231ps	-8(%rcx), %zmm3, %zmm0
	vfmadd231ps	-4(%rcx), %zmm2, %zmm0
	vmovups	%zmm0, -64(%r8)
	cmpq	%rcx, %r9
	jne	.L5
	movl	%edi, %ecx
	andl	$-16, %ecx
	movl	%ecx, %r8d
	cmpl	%ecx, %edi
	je	.L28
	movl	%edi, %r9d
	subl	%ecx, %r9d
	leal	-1(%r9), %r10d
	cmpl	$6, %r10d
	jbe	.L7
.L4:
	vbroadcastss	(%rdx), %ymm1
	vxorps	%xmm0, %xmm0, %xmm0
	vfmadd231ps	(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	4(%rdx), %ymm1
	vfmadd231ps	4(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	8(%rdx), %ymm1
	vfmadd231ps	8(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	12(%rdx), %ymm1
	vfmadd231ps	12(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	16(%rdx), %ymm1
	vfmadd231ps	16(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	20(%rdx), %ymm1
	vfmadd231ps	20(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	24(%rdx), %ymm1
	vfmadd231ps	24(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	28(%rdx), %ymm1
	vfmadd231ps	28(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	32(%rdx), %ymm1
	vfmadd231ps	32(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	36(%rdx), %ymm1
	vfmadd231ps	36(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	40(%rdx), %ymm1
	vfmadd231ps	40(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	44(%rdx), %ymm1
	vfmadd231ps	44(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	48(%rdx), %ymm1
	vfmadd231ps	48(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	52(%rdx), %ymm1
	vfmadd231ps	52(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	56(%rdx), %ymm1
	vfmadd231ps	56(%rax,%r8,4), %ymm1, %ymm0
	vbroadcastss	60(%rdx), %ymm1
	vfmadd231ps	60(%rax,%r8,4), %ymm1, %ymm0
	vmovups	%ymm0, (%rsi,%r8,4)
	movl	%r9d, %r8d
	andl	$-8, %r8d
	addl	%r8d, %ecx
	andl	$7, %r9d
	je	.L28
.L7:
	movslq	%ecx, %rcx
	vxorps	%xmm1, %xmm1, %xmm1
	leaq	(%rax,%rcx,4), %rax
	.p2align 4
	.p2align 3
.L9:
	vmovss	(%rax), %xmm0
	vmovss	4(%rax), %xmm5
	addq	$4, %rax
	vfmadd132ss	(%rdx), %xmm1, %xmm0
	vmovss	4(%rax), %xmm6
	vmovss	8(%rax), %xmm7
	vmovss	24(%rax), %xmm2
	vmovss	28(%rax), %xmm3
	vmovss	32(%rax), %xmm4
	vfmadd231ss	4(%rdx), %xmm5, %xmm0
	vmovss	12(%rax), %xmm5
	vfmadd231ss	8(%rdx), %xmm6, %xmm0
	vmovss	16(%rax), %xmm6
	vfmadd231ss	12(%rdx), %xmm7, %xmm0
	vmovss	20(%rax), %xmm7
	vfmadd231ss	16(%rdx), %xmm5, %xmm0
	vmovss	36(%rax), %xmm5
	vfmadd231ss	20(%rdx), %xmm6, %xmm0
	vmovss	40(%rax), %xmm6
	vfmadd231ss	24(%rdx), %xmm7, %xmm0
	vmovss	44(%rax), %xmm7
	vfmadd231ss	28(%rdx), %xmm2, %xmm0
	vmovss	48(%rax), %xmm2
	vfmadd231ss	32(%rdx), %xmm3, %xmm0
	vmovss	52(%rax), %xmm3
	vfmadd231ss	36(%rdx), %xmm4, %xmm0
	vmovss	56(%rax), %xmm4
	vfmadd231ss	40(%rdx), %xmm5, %xmm0
	vfmadd231ss	44(%rdx), %xmm6, %xmm0
	vfmadd231ss	48(%rdx), %xmm7, %xmm0
	vfmadd231ss	52(%rdx), %xmm2, %xmm0
	vfmadd231ss	56(%rdx), %xmm3, %xmm0
	vfmadd231ss	60(%rdx), %xmm4, %xmm0
	vmovss	%xmm0, (%rsi,%rcx,4)
	incq	%rcx
	cmpl	%ecx, %edi
	jg	.L9
.L28:
	vzeroupper
.L29:
	ret
.L3:
	movq	%rax, %rcx
	vxorps	%xmm1, %xmm1, %xmm1
	leaq	(%rax,%r8,4), %rax
	.p2align 4
	.p2align 3
.L10:
	vmovss	(%rdx), %xmm0
	vmovss	4(%rdx), %xmm2
	addq	$4, %rcx
	addq	$4, %rsi
	vfmadd132ss	-4(%rcx), %xmm1, %xmm0
	vmovss	8(%rdx), %xmm3
	vmovss	12(%rdx), %xmm4
	vmovss	16(%rdx), %xmm5
	vmovss	20(%rdx), %xmm6
	vmovss	24(%rdx), %xmm7
	vfmadd231ss	(%rcx), %xmm2, %xmm0
	vmovss	28(%rdx), %xmm2
	vfmadd231ss	4(%rcx), %xmm3, %xmm0
	vmovss	32(%rdx), %xmm3
	vfmadd231ss	8(%rcx), %xmm4, %xmm0
	vmovss	36(%rdx), %xmm4
	vfmadd231ss	12(%rcx), %xmm5, %xmm0
	vmovss	40(%rdx), %xmm5
	vfmadd231ss	16(%rcx), %xmm6, %xmm0
	vmovss	44(%rdx), %xmm6
	vfmadd231ss	20(%rcx), %xmm7, %xmm0
	vmovss	48(%rdx), %xmm7
	vfmadd231ss	24(%rcx), %xmm2, %xmm0
	vmovss	52(%rdx), %xmm2
	vfmadd231ss	28(%rcx), %xmm3, %xmm0
	vmovss	56(%rdx), %xmm3
	vfmadd231ss	32(%rcx), %xmm4, %xmm0
	vmovss	60(%rdx), %xmm4
	vfmadd231ss	36(%rcx), %xmm5, %xmm0
	vfmadd231ss	40(%rcx), %xmm6, %xmm0
	vfmadd231ss	44(%rcx), %xmm7, %xmm0
	vfmadd231ss	48(%rcx), %xmm2, %xmm0
	vfmadd231ss	52(%rcx), %xmm3, %xmm0
	vfmadd231ss	56(%rcx), %xmm4, %xmm0
	vmovss	%xmm0, -4(%rsi)
	cmpq	%rcx, %rax
	jne	.L10
	ret
.L12:
	xorl	%r8d, %r8d
	xorl	%ecx, %ecx
	jmp	.L4
	.cfi_endproc
.LFE0:
	.size	conv_scalar, .-conv_scalar
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
