	.text
	.file	"conv_avx2_a.c"
	.globl	conv_avx2_a                     # -- Begin function conv_avx2_a
	.p2align	4, 0x90
	.type	conv_avx2_a,@function
conv_avx2_a:                            # @conv_avx2_a
	.cfi_startproc
# %bb.0:
	pushq	%r15
	.cfi_def_cfa_offset 16
	pushq	%r14
	.cfi_def_cfa_offset 24
	pushq	%r12
	.cfi_def_cfa_offset 32
	pushq	%rbx
	.cfi_def_cfa_offset 40
	.cfi_offset %rbx, -40
	.cfi_offset %r12, -32
	.cfi_offset %r14, -24
	.cfi_offset %r15, -16
	testl	%edi, %edi
	jle	.LBB0_3
# %bb.1:
	movl	%edi, %r8d
	xorl	%edi, %edi
	vxorps	%xmm0, %xmm0, %xmm0
	.p2align	4, 0x90
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	vbroadcastss	(%rdx), %ymm1
	movq	(%rsi), %r9
	vfmadd132ps	(%r9,%rdi,4), %ymm0, %ymm1 # ymm1 = (ymm1 * mem) + ymm0
	movq	8(%rsi), %r10
	vbroadcastss	4(%rdx), %ymm2
	vfmadd132ps	(%r10,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	movq	16(%rsi), %r11
	vbroadcastss	8(%rdx), %ymm1
	vfmadd132ps	(%r11,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	movq	24(%rsi), %r14
	vbroadcastss	12(%rdx), %ymm2
	vfmadd132ps	(%r14,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	movq	32(%rsi), %r15
	vbroadcastss	16(%rdx), %ymm1
	vfmadd132ps	(%r15,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	movq	40(%rsi), %r12
	vbroadcastss	20(%rdx), %ymm2
	vfmadd132ps	(%r12,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	movq	48(%rsi), %rbx
	vbroadcastss	24(%rdx), %ymm1
	vfmadd132ps	(%rbx,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	movq	56(%rsi), %rax
	vbroadcastss	28(%rdx), %ymm2
	vfmadd132ps	(%rax,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	32(%rdx), %ymm1
	vfmadd132ps	32(%r9,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	36(%rdx), %ymm2
	vfmadd132ps	32(%r10,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	40(%rdx), %ymm1
	vfmadd132ps	32(%r11,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	44(%rdx), %ymm2
	vfmadd132ps	32(%r14,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	48(%rdx), %ymm1
	vfmadd132ps	32(%r15,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	52(%rdx), %ymm2
	vfmadd132ps	32(%r12,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	56(%rdx), %ymm1
	vfmadd132ps	32(%rbx,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	60(%rdx), %ymm2
	vfmadd132ps	32(%rax,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovaps	%ymm2, (%rcx,%rdi,4)
	addq	$8, %rdi
	cmpq	%r8, %rdi
	jb	.LBB0_2
.LBB0_3:
	popq	%rbx
	.cfi_def_cfa_offset 32
	popq	%r12
	.cfi_def_cfa_offset 24
	popq	%r14
	.cfi_def_cfa_offset 16
	popq	%r15
	.cfi_def_cfa_offset 8
	vzeroupper
	retq
.Lfunc_end0:
	.size	conv_avx2_a, .Lfunc_end0-conv_avx2_a
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
