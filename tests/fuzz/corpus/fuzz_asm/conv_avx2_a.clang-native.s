	.text
	.file	"conv_avx2_a.c"
	.globl	conv_avx2_a                     # -- Begin function conv_avx2_a
	.p2align	4, 0x90
	.type	conv_avx2_a,@function
conv_avx2_a:                            # @conv_avx2_a
	.cfi_startproc
# %bb.0:
	testl	%edi, %edi
	jle	.LBB0_3
# %bb.1:
	movl	%edi, %r8d
	xorl	%edi, %edi
	vxorps	%xmm0, %xmm0, %xmm0
	.p2align	4, 0x90
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	movq	(%rsi), %rax
	movq	8(%rsi), %r9
	vmovaps	(%rax,%rdi,4), %ymm1
	vmovaps	32(%rax,%rdi,4), %ymm2
	vfmadd132ps	(%rdx){1to8}, %ymm0, %ymm1 # ymm1 = (ymm1 * mem) + ymm0
	vmovaps	(%r9,%rdi,4), %ymm3
	vmovaps	32(%r9,%rdi,4), %ymm4
	vfmadd132ps	4(%rdx){1to8}, %ymm1, %ymm3 # ymm3 = (ymm3 * mem) + ymm1
	movq	16(%rsi), %rax
	vmovaps	(%rax,%rdi,4), %ymm1
	vmovaps	32(%rax,%rdi,4), %ymm5
	vfmadd132ps	8(%rdx){1to8}, %ymm3, %ymm1 # ymm1 = (ymm1 * mem) + ymm3
	movq	24(%rsi), %rax
	vmovaps	(%rax,%rdi,4), %ymm3
	vmovaps	32(%rax,%rdi,4), %ymm6
	vfmadd132ps	12(%rdx){1to8}, %ymm1, %ymm3 # ymm3 = (ymm3 * mem) + ymm1
	movq	32(%rsi), %rax
	vmovaps	(%rax,%rdi,4), %ymm1
	vfmadd132ps	16(%rdx){1to8}, %ymm3, %ymm1 # ymm1 = (ymm1 * mem) + ymm3
	vmovaps	32(%rax,%rdi,4), %ymm3
	movq	40(%rsi), %rax
	vmovaps	(%rax,%rdi,4), %ymm7
	vmovaps	32(%rax,%rdi,4), %ymm8
	vfmadd132ps	20(%rdx){1to8}, %ymm1, %ymm7 # ymm7 = (ymm7 * mem) + ymm1
	movq	48(%rsi), %rax
	vmovaps	(%rax,%rdi,4), %ymm1
	vmovaps	32(%rax,%rdi,4), %ymm9
	vfmadd132ps	24(%rdx){1to8}, %ymm7, %ymm1 # ymm1 = (ymm1 * mem) + ymm7
	movq	56(%rsi), %rax
	vmovaps	(%rax,%rdi,4), %ymm7
	vmovaps	32(%rax,%rdi,4), %ymm10
	vfmadd132ps	28(%rdx){1to8}, %ymm1, %ymm7 # ymm7 = (ymm7 * mem) + ymm1
	vfmadd231ps	32(%rdx){1to8}, %ymm2, %ymm7 # ymm7 = (ymm2 * mem) + ymm7
	vfmadd231ps	36(%rdx){1to8}, %ymm4, %ymm7 # ymm7 = (ymm4 * mem) + ymm7
	vfmadd231ps	40(%rdx){1to8}, %ymm5, %ymm7 # ymm7 = (ymm5 * mem) + ymm7
	vfmadd231ps	44(%rdx){1to8}, %ymm6, %ymm7 # ymm7 = (ymm6 * mem) + ymm7
	vfmadd231ps	48(%rdx){1to8}, %ymm3, %ymm7 # ymm7 = (ymm3 * mem) + ymm7
	vfmadd231ps	52(%rdx){1to8}, %ymm8, %ymm7 # ymm7 = (ymm8 * mem) + ymm7
	vfmadd231ps	56(%rdx){1to8}, %ymm9, %ymm7 # ymm7 = (ymm9 * mem) + ymm7
	vfmadd231ps	60(%rdx){1to8}, %ymm10, %ymm7 # ymm7 = (ymm10 * mem) + ymm7
	vmovaps	%ymm7, (%rcx,%rdi,4)
	addq	$8, %rdi
	cmpq	%r8, %rdi
	jb	.LBB0_2
.LBB0_3:
	vzeroupper
	retq
.Lfunc_end0:
	.size	conv_avx2_a, .Lfunc_end0-conv_avx2_a
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
