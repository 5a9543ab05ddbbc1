	.text
	.file	"fft_radix2.c"
	.globl	fft_stage                       # -- Begin function fft_stage
	.p2align	4, 0x90
	.type	fft_stage,@function
fft_stage:                              # @fft_stage
	.cfi_startproc
# %bb.0:
	testl	%edi, %edi
	jle	.LBB0_3
# %bb.1:
	movl	%edi, %r9d
	leaq	(%rsi,%r9,8), %r10
	leaq	(%rdx,%r9,8), %rax
	xorl	%edi, %edi
	.p2align	4, 0x90
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	vmovsd	(%r10,%rdi,8), %xmm0            # xmm0 = mem[0],zero
	vmovsd	(%rcx,%rdi,8), %xmm1            # xmm1 = mem[0],zero
	vmovsd	(%rax,%rdi,8), %xmm2            # xmm2 = mem[0],zero
	vmovsd	(%r8,%rdi,8), %xmm3             # xmm3 = mem[0],zero
	vmulsd	%xmm2, %xmm3, %xmm4
	vfmsub231sd	%xmm1, %xmm0, %xmm4     # xmm4 = (xmm0 * xmm1) - xmm4
	vmulsd	%xmm2, %xmm1, %xmm1
	vfmadd231sd	%xmm3, %xmm0, %xmm1     # xmm1 = (xmm0 * xmm3) + xmm1
	vmovsd	(%rsi,%rdi,8), %xmm0            # xmm0 = mem[0],zero
	vsubsd	%xmm4, %xmm0, %xmm0
	vmovsd	%xmm0, (%r10,%rdi,8)
	vmovsd	(%rdx,%rdi,8), %xmm0            # xmm0 = mem[0],zero
	vsubsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, (%rax,%rdi,8)
	vaddsd	(%rsi,%rdi,8), %xmm4, %xmm0
	vmovsd	%xmm0, (%rsi,%rdi,8)
	vaddsd	(%rdx,%rdi,8), %xmm1, %xmm0
	vmovsd	%xmm0, (%rdx,%rdi,8)
	addq	$1, %rdi
	cmpq	%rdi, %r9
	jne	.LBB0_2
.LBB0_3:
	retq
.Lfunc_end0:
	.size	fft_stage, .Lfunc_end0-fft_stage
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
