	.text
	.file	"conv_avx2_u.c"
	.globl	conv_avx2_u                     # -- Begin function conv_avx2_u
	.p2align	4, 0x90
	.type	conv_avx2_u,@function
conv_avx2_u:                            # @conv_avx2_u
	.cfi_startproc
# %bb.0:
	testl	%edi, %edi
	jle	.LBB0_3
# %bb.1:
	movl	%edi, %eax
	addq	$60, %rsi
	xorl	%edi, %edi
	vxorps	%xmm0, %xmm0, %xmm0
	.p2align	4, 0x90
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	vmovups	-60(%rsi,%rdi,4), %ymm1
	vmovups	-56(%rsi,%rdi,4), %ymm2
	vmovups	-52(%rsi,%rdi,4), %ymm3
	vmovups	-48(%rsi,%rdi,4), %ymm4
	vfmadd132ps	(%rdx){1to8}, %ymm0, %ymm1 # ymm1 = (ymm1 * mem) + ymm0
	vfmadd231ps	4(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm2 * mem) + ymm1
	vfmadd231ps	8(%rdx){1to8}, %ymm3, %ymm1 # ymm1 = (ymm3 * mem) + ymm1
	vfmadd231ps	12(%rdx){1to8}, %ymm4, %ymm1 # ymm1 = (ymm4 * mem) + ymm1
	vmovups	-44(%rsi,%rdi,4), %ymm2
	vfmadd132ps	16(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-40(%rsi,%rdi,4), %ymm1
	vfmadd132ps	20(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-36(%rsi,%rdi,4), %ymm2
	vfmadd132ps	24(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-32(%rsi,%rdi,4), %ymm1
	vfmadd132ps	28(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-28(%rsi,%rdi,4), %ymm2
	vfmadd132ps	32(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-24(%rsi,%rdi,4), %ymm1
	vfmadd132ps	36(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-20(%rsi,%rdi,4), %ymm2
	vfmadd132ps	40(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-16(%rsi,%rdi,4), %ymm1
	vfmadd132ps	44(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-12(%rsi,%rdi,4), %ymm2
	vfmadd132ps	48(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-8(%rsi,%rdi,4), %ymm1
	vfmadd132ps	52(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-4(%rsi,%rdi,4), %ymm2
	vfmadd132ps	56(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	(%rsi,%rdi,4), %ymm1
	vfmadd132ps	60(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	%ymm1, (%rcx,%rdi,4)
	addq	$8, %rdi
	cmpq	%rax, %rdi
	jb	.LBB0_2
.LBB0_3:
	vzeroupper
	retq
.Lfunc_end0:
	.size	conv_avx2_u, .Lfunc_end0-conv_avx2_u
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
