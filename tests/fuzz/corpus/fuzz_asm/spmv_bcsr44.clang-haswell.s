	.text
	.file	"spmv_bcsr44.c"
	.globl	spmv_bcsr44                     # -- Begin function spmv_bcsr44
	.p2align	4, 0x90
	.type	spmv_bcsr44,@function
spmv_bcsr44:                            # @spmv_bcsr44
	.cfi_startproc
# %bb.0:
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%rbx
	.cfi_def_cfa_offset 40
	.cfi_offset %rbx, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	testl	%edi, %edi
	jle	.LBB0_6
# %bb.1:
	movl	%edi, %r10d
	movl	(%rsi), %eax
	xorl	%r15d, %r15d
	jmp	.LBB0_2
	.p2align	4, 0x90
.LBB0_5:                                #   in Loop: Header=BB0_2 Depth=1
	shll	$2, %r15d
	vmovupd	%ymm0, (%r9,%r15,8)
	movl	%r14d, %eax
	movq	%r11, %r15
	cmpq	%r10, %r11
	je	.LBB0_6
.LBB0_2:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB0_4 Depth 2
	leaq	1(%r15), %r11
	movl	4(%rsi,%r15,4), %r14d
	vxorpd	%xmm0, %xmm0, %xmm0
	cmpl	%r14d, %eax
	jge	.LBB0_5
# %bb.3:                                #   in Loop: Header=BB0_2 Depth=1
	movslq	%r14d, %rbx
	movslq	%eax, %rbp
	shll	$4, %eax
	vxorpd	%xmm0, %xmm0, %xmm0
	.p2align	4, 0x90
.LBB0_4:                                #   Parent Loop BB0_2 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	cltq
	movslq	(%rdx,%rbp,4), %rdi
	shlq	$5, %rdi
	vbroadcastsd	8(%r8,%rdi), %ymm1
	vmovsd	72(%rcx,%rax,8), %xmm2          # xmm2 = mem[0],zero
	vmovhpd	104(%rcx,%rax,8), %xmm2, %xmm2  # xmm2 = xmm2[0],mem[0]
	vmovsd	(%rcx,%rax,8), %xmm3            # xmm3 = mem[0],zero
	vmovsd	8(%rcx,%rax,8), %xmm4           # xmm4 = mem[0],zero
	vmovsd	16(%rcx,%rax,8), %xmm5          # xmm5 = mem[0],zero
	vmovsd	24(%rcx,%rax,8), %xmm6          # xmm6 = mem[0],zero
	vmovhpd	40(%rcx,%rax,8), %xmm4, %xmm4   # xmm4 = xmm4[0],mem[0]
	vinsertf128	$1, %xmm2, %ymm4, %ymm2
	vmovsd	64(%rcx,%rax,8), %xmm4          # xmm4 = mem[0],zero
	vmovhpd	96(%rcx,%rax,8), %xmm4, %xmm4   # xmm4 = xmm4[0],mem[0]
	vmovhpd	32(%rcx,%rax,8), %xmm3, %xmm3   # xmm3 = xmm3[0],mem[0]
	vmulpd	%ymm2, %ymm1, %ymm1
	vinsertf128	$1, %xmm4, %ymm3, %ymm2
	vbroadcastsd	(%r8,%rdi), %ymm3
	vmovsd	80(%rcx,%rax,8), %xmm4          # xmm4 = mem[0],zero
	vmovhpd	112(%rcx,%rax,8), %xmm4, %xmm4  # xmm4 = xmm4[0],mem[0]
	vmovhpd	48(%rcx,%rax,8), %xmm5, %xmm5   # xmm5 = xmm5[0],mem[0]
	vfmadd213pd	%ymm1, %ymm2, %ymm3     # ymm3 = (ymm2 * ymm3) + ymm1
	vinsertf128	$1, %xmm4, %ymm5, %ymm1
	vbroadcastsd	16(%r8,%rdi), %ymm2
	vmovsd	88(%rcx,%rax,8), %xmm4          # xmm4 = mem[0],zero
	vmovhpd	120(%rcx,%rax,8), %xmm4, %xmm4  # xmm4 = xmm4[0],mem[0]
	vmovhpd	56(%rcx,%rax,8), %xmm6, %xmm5   # xmm5 = xmm6[0],mem[0]
	vfmadd213pd	%ymm3, %ymm1, %ymm2     # ymm2 = (ymm1 * ymm2) + ymm3
	vinsertf128	$1, %xmm4, %ymm5, %ymm1
	vbroadcastsd	24(%r8,%rdi), %ymm3
	vfmadd213pd	%ymm2, %ymm1, %ymm3     # ymm3 = (ymm1 * ymm3) + ymm2
	vaddpd	%ymm3, %ymm0, %ymm0
	incq	%rbp
	addl	$16, %eax
	cmpq	%rbp, %rbx
	jne	.LBB0_4
	jmp	.LBB0_5
.LBB0_6:
	popq	%rbx
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	vzeroupper
	retq
.Lfunc_end0:
	.size	spmv_bcsr44, .Lfunc_end0-spmv_bcsr44
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
