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
	vbroadcastss	(%rdx), %ymm1
	vfmadd132ps	-60(%rsi,%rdi,4), %ymm0, %ymm1 # ymm1 = (ymm1 * mem) + ymm0
	vbroadcastss	4(%rdx), %ymm2
	vfmadd132ps	-56(%rsi,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	8(%rdx), %ymm1
	vfmadd132ps	-52(%rsi,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	12(%rdx), %ymm2
	vfmadd132ps	-48(%rsi,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	16(%rdx), %ymm1
	vfmadd132ps	-44(%rsi,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	20(%rdx), %ymm2
	vfmadd132ps	-40(%rsi,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	24(%rdx), %ymm1
	vfmadd132ps	-36(%rsi,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	28(%rdx), %ymm2
	vfmadd132ps	-32(%rsi,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	32(%rdx), %ymm1
	vfmadd132ps	-28(%rsi,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	36(%rdx), %ymm2
	vfmadd132ps	-24(%rsi,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	40(%rdx), %ymm1
	vfmadd132ps	-20(%rsi,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	44(%rdx), %ymm2
	vfmadd132ps	-16(%rsi,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	48(%rdx), %ymm1
	vfmadd132ps	-12(%rsi,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	52(%rdx), %ymm2
	vfmadd132ps	-8(%rsi,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vbroadcastss	56(%rdx), %ymm1
	vfmadd132ps	-4(%rsi,%rdi,4), %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vbroadcastss	60(%rdx), %ymm2
	vfmadd132ps	(%rsi,%rdi,4), %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	%ymm2, (%rcx,%rdi,4)
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
