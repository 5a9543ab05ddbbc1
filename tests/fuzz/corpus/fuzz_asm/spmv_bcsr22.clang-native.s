	.text
	.file	"spmv_bcsr22.c"
	.globl	spmv_bcsr22                     # -- Begin function spmv_bcsr22
	.p2align	4, 0x90
	.type	spmv_bcsr22,@function
spmv_bcsr22:                            # @spmv_bcsr22
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
	shlq	$4, %r15
	vmovsd	%xmm1, (%r9,%r15)
	vmovsd	%xmm0, 8(%r9,%r15)
	movl	%r14d, %eax
	movq	%r11, %r15
	cmpq	%r10, %r11
	je	.LBB0_6
.LBB0_2:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB0_4 Depth 2
	leaq	1(%r15), %r11
	movl	4(%rsi,%r15,4), %r14d
	vxorpd	%xmm1, %xmm1, %xmm1
	vxorpd	%xmm0, %xmm0, %xmm0
	cmpl	%r14d, %eax
	jge	.LBB0_5
# %bb.3:                                #   in Loop: Header=BB0_2 Depth=1
	movslq	%r14d, %rbx
	movslq	%eax, %rbp
	shll	$2, %eax
	vxorpd	%xmm0, %xmm0, %xmm0
	vxorpd	%xmm1, %xmm1, %xmm1
	.p2align	4, 0x90
.LBB0_4:                                #   Parent Loop BB0_2 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	cltq
	movslq	(%rdx,%rbp,4), %rdi
	shlq	$4, %rdi
	vmovsd	8(%r8,%rdi), %xmm2              # xmm2 = mem[0],zero
	vmulsd	8(%rcx,%rax,8), %xmm2, %xmm3
	vmovsd	(%r8,%rdi), %xmm4               # xmm4 = mem[0],zero
	vfmadd231sd	(%rcx,%rax,8), %xmm4, %xmm3 # xmm3 = (xmm4 * mem) + xmm3
	vaddsd	%xmm3, %xmm1, %xmm1
	vmulsd	24(%rcx,%rax,8), %xmm2, %xmm2
	vfmadd231sd	16(%rcx,%rax,8), %xmm4, %xmm2 # xmm2 = (xmm4 * mem) + xmm2
	vaddsd	%xmm2, %xmm0, %xmm0
	addq	$1, %rbp
	addl	$4, %eax
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
	retq
.Lfunc_end0:
	.size	spmv_bcsr22, .Lfunc_end0-spmv_bcsr22
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
