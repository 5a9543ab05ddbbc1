	.text
	.file	"conv_scalar.c"
	.section	.rodata.cst32,"aM",@progbits,32
	.p2align	5                               # -- Begin function conv_scalar
.LCPI0_0:
	.zero	32
	.text
	.globl	conv_scalar
	.p2align	4, 0x90
	.type	conv_scalar,@function
conv_scalar:                            # @conv_scalar
	.cfi_startproc
# %bb.0:
	testl	%edi, %edi
	jle	.LBB0_10
# %bb.1:
	movl	%edi, %r9d
	cmpl	$8, %edi
	jae	.LBB0_3
# %bb.2:
	xorl	%edi, %edi
	jmp	.LBB0_8
.LBB0_3:
	leaq	(%rcx,%r9,4), %rdi
	leaq	(%rsi,%r9,4), %rax
	addq	$60, %rax
	cmpq	%rcx, %rax
	seta	%r10b
	leaq	64(%rdx), %rax
	cmpq	%rsi, %rdi
	seta	%r11b
	cmpq	%rcx, %rax
	seta	%al
	cmpq	%rdx, %rdi
	seta	%r8b
	xorl	%edi, %edi
	testb	%r11b, %r10b
	jne	.LBB0_8
# %bb.4:
	andb	%r8b, %al
	jne	.LBB0_8
# %bb.5:
	movl	%r9d, %edi
	andl	$-8, %edi
	vbroadcastss	(%rdx), %ymm0
	vmovups	%ymm0, -40(%rsp)                # 32-byte Spill
	vbroadcastss	4(%rdx), %ymm0
	vmovups	%ymm0, -72(%rsp)                # 32-byte Spill
	vbroadcastss	8(%rdx), %ymm2
	vbroadcastss	12(%rdx), %ymm3
	vbroadcastss	16(%rdx), %ymm4
	vbroadcastss	20(%rdx), %ymm5
	vbroadcastss	24(%rdx), %ymm6
	vbroadcastss	28(%rdx), %ymm7
	vbroadcastss	32(%rdx), %ymm8
	vbroadcastss	36(%rdx), %ymm9
	vbroadcastss	40(%rdx), %ymm10
	vbroadcastss	44(%rdx), %ymm11
	vbroadcastss	48(%rdx), %ymm12
	vbroadcastss	52(%rdx), %ymm13
	vbroadcastss	56(%rdx), %ymm14
	vbroadcastss	60(%rdx), %ymm15
	leaq	(,%r9,4), %r8
	andq	$-32, %r8
	xorl	%eax, %eax
	.p2align	4, 0x90
.LBB0_6:                                # =>This Inner Loop Header: Depth=1
	vmovups	(%rsi,%rax), %ymm0
	vxorps	%xmm1, %xmm1, %xmm1
	vfmadd132ps	-40(%rsp), %ymm1, %ymm0 # 32-byte Folded Reload
                                        # ymm0 = (ymm0 * mem) + ymm1
	vmovups	-72(%rsp), %ymm1                # 32-byte Reload
	vfmadd231ps	4(%rsi,%rax), %ymm1, %ymm0 # ymm0 = (ymm1 * mem) + ymm0
	vfmadd231ps	8(%rsi,%rax), %ymm2, %ymm0 # ymm0 = (ymm2 * mem) + ymm0
	vfmadd231ps	12(%rsi,%rax), %ymm3, %ymm0 # ymm0 = (ymm3 * mem) + ymm0
	vfmadd231ps	16(%rsi,%rax), %ymm4, %ymm0 # ymm0 = (ymm4 * mem) + ymm0
	vfmadd231ps	20(%rsi,%rax), %ymm5, %ymm0 # ymm0 = (ymm5 * mem) + ymm0
	vfmadd231ps	24(%rsi,%rax), %ymm6, %ymm0 # ymm0 = (ymm6 * mem) + ymm0
	vfmadd231ps	28(%rsi,%rax), %ymm7, %ymm0 # ymm0 = (ymm7 * mem) + ymm0
	vfmadd231ps	32(%rsi,%rax), %ymm8, %ymm0 # ymm0 = (ymm8 * mem) + ymm0
	vfmadd231ps	36(%rsi,%rax), %ymm9, %ymm0 # ymm0 = (ymm9 * mem) + ymm0
	vfmadd231ps	40(%rsi,%rax), %ymm10, %ymm0 # ymm0 = (ymm10 * mem) + ymm0
	vfmadd231ps	44(%rsi,%rax), %ymm11, %ymm0 # ymm0 = (ymm11 * mem) + ymm0
	vfmadd231ps	48(%rsi,%rax), %ymm12, %ymm0 # ymm0 = (ymm12 * mem) + ymm0
	vfmadd231ps	52(%rsi,%rax), %ymm13, %ymm0 # ymm0 = (ymm13 * mem) + ymm0
	vfmadd231ps	56(%rsi,%rax), %ymm14, %ymm0 # ymm0 = (ymm14 * mem) + ymm0
	vfmadd231ps	60(%rsi,%rax), %ymm15, %ymm0 # ymm0 = (ymm15 * mem) + ymm0
	vmovups	%ymm0, (%rcx,%rax)
	addq	$32, %rax
	cmpq	%rax, %r8
	jne	.LBB0_6
# %bb.7:
	cmpq	%r9, %rdi
	je	.LBB0_10
.LBB0_8:
	vxorps	%xmm0, %xmm0, %xmm0
	.p2align	4, 0x90
.LBB0_9:                                # =>This Inner Loop Header: Depth=1
	vmovss	(%rsi,%rdi,4), %xmm1            # xmm1 = mem[0],zero,zero,zero
	vmovss	4(%rsi,%rdi,4), %xmm2           # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	(%rdx), %xmm0, %xmm1    # xmm1 = (xmm1 * mem) + xmm0
	vfmadd231ss	4(%rdx), %xmm2, %xmm1   # xmm1 = (xmm2 * mem) + xmm1
	vmovss	8(%rsi,%rdi,4), %xmm2           # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	8(%rdx), %xmm1, %xmm2   # xmm2 = (xmm2 * mem) + xmm1
	vmovss	12(%rsi,%rdi,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	12(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	16(%rsi,%rdi,4), %xmm2          # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	16(%rdx), %xmm1, %xmm2  # xmm2 = (xmm2 * mem) + xmm1
	vmovss	20(%rsi,%rdi,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	20(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	24(%rsi,%rdi,4), %xmm2          # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	24(%rdx), %xmm1, %xmm2  # xmm2 = (xmm2 * mem) + xmm1
	vmovss	28(%rsi,%rdi,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	28(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	32(%rsi,%rdi,4), %xmm2          # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	32(%rdx), %xmm1, %xmm2  # xmm2 = (xmm2 * mem) + xmm1
	vmovss	36(%rsi,%rdi,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	36(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	40(%rsi,%rdi,4), %xmm2          # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	40(%rdx), %xmm1, %xmm2  # xmm2 = (xmm2 * mem) + xmm1
	vmovss	44(%rsi,%rdi,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	44(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	48(%rsi,%rdi,4), %xmm2          # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	48(%rdx), %xmm1, %xmm2  # xmm2 = (xmm2 * mem) + xmm1
	vmovss	52(%rsi,%rdi,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	52(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	56(%rsi,%rdi,4), %xmm2          # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	56(%rdx), %xmm1, %xmm2  # xmm2 = (xmm2 * mem) + xmm1
	vmovss	60(%rsi,%rdi,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	60(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	%xmm1, (%rcx,%rdi,4)
	leaq	1(%rdi), %rax
	movq	%rax, %rdi
	cmpq	%rax, %r9
	jne	.LBB0_9
.LBB0_10:
	vzeroupper
	retq
.Lfunc_end0:
	.size	conv_scalar, .Lfunc_end0-conv_scalar
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
