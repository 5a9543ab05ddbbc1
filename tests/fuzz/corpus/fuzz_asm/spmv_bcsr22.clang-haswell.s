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
	pushq	%r12
	.cfi_def_cfa_offset 40
	pushq	%rbx
	.cfi_def_cfa_offset 48
	.cfi_offset %rbx, -48
	.cfi_offset %r12, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	testl	%edi, %edi
	jle	.LBB0_9
# %bb.1:
	movl	%edi, %r10d
	movl	(%rsi), %r14d
	xorl	%r11d, %r11d
	vxorpd	%xmm0, %xmm0, %xmm0
	jmp	.LBB0_2
	.p2align	4, 0x90
.LBB0_8:                                #   in Loop: Header=BB0_2 Depth=1
	shlq	$4, %r15
	vmovsd	%xmm2, (%r9,%r15)
	vmovsd	%xmm1, 8(%r9,%r15)
	cmpq	%r10, %r11
	je	.LBB0_9
.LBB0_2:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB0_7 Depth 2
	movq	%r11, %r15
	movl	%r14d, %edi
	incq	%r11
	movl	4(%rsi,%r15,4), %r14d
	vxorpd	%xmm2, %xmm2, %xmm2
	vxorpd	%xmm1, %xmm1, %xmm1
	cmpl	%r14d, %edi
	jge	.LBB0_8
# %bb.3:                                #   in Loop: Header=BB0_2 Depth=1
	movslq	%edi, %rbp
	movl	%r14d, %eax
	subl	%edi, %eax
	vxorpd	%xmm1, %xmm1, %xmm1
	movq	%rbp, %rbx
	vxorpd	%xmm2, %xmm2, %xmm2
	testb	$1, %al
	je	.LBB0_5
# %bb.4:                                #   in Loop: Header=BB0_2 Depth=1
	shll	$2, %edi
	movslq	%edi, %rax
	movslq	(%rdx,%rbp,4), %rdi
	shlq	$4, %rdi
	vmovsd	(%r8,%rdi), %xmm1               # xmm1 = mem[0],zero
	vmovsd	8(%r8,%rdi), %xmm3              # xmm3 = mem[0],zero
	vmulsd	8(%rcx,%rax,8), %xmm3, %xmm2
	vfmadd231sd	(%rcx,%rax,8), %xmm1, %xmm2 # xmm2 = (xmm1 * mem) + xmm2
	vaddsd	%xmm0, %xmm2, %xmm2
	vmulsd	24(%rcx,%rax,8), %xmm3, %xmm3
	vfmadd231sd	16(%rcx,%rax,8), %xmm1, %xmm3 # xmm3 = (xmm1 * mem) + xmm3
	vaddsd	%xmm0, %xmm3, %xmm1
	leaq	1(%rbp), %rbx
.LBB0_5:                                #   in Loop: Header=BB0_2 Depth=1
	movslq	%r14d, %r12
	notq	%rbp
	addq	%r12, %rbp
	je	.LBB0_8
# %bb.6:                                #   in Loop: Header=BB0_2 Depth=1
	leal	(,%rbx,4), %ebp
	.p2align	4, 0x90
.LBB0_7:                                #   Parent Loop BB0_2 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	movslq	%ebp, %rbp
	movslq	(%rdx,%rbx,4), %rax
	shlq	$4, %rax
	vmovsd	8(%r8,%rax), %xmm3              # xmm3 = mem[0],zero
	vmulsd	8(%rcx,%rbp,8), %xmm3, %xmm4
	vmovsd	(%r8,%rax), %xmm5               # xmm5 = mem[0],zero
	vfmadd231sd	(%rcx,%rbp,8), %xmm5, %xmm4 # xmm4 = (xmm5 * mem) + xmm4
	vaddsd	%xmm4, %xmm2, %xmm2
	vmulsd	24(%rcx,%rbp,8), %xmm3, %xmm3
	vfmadd231sd	16(%rcx,%rbp,8), %xmm5, %xmm3 # xmm3 = (xmm5 * mem) + xmm3
	vaddsd	%xmm3, %xmm1, %xmm1
	leal	4(%rbp), %eax
	cltq
	movslq	4(%rdx,%rbx,4), %rdi
	shlq	$4, %rdi
	vmovsd	8(%r8,%rdi), %xmm3              # xmm3 = mem[0],zero
	vmulsd	8(%rcx,%rax,8), %xmm3, %xmm4
	vmovsd	(%r8,%rdi), %xmm5               # xmm5 = mem[0],zero
	vfmadd231sd	(%rcx,%rax,8), %xmm5, %xmm4 # xmm4 = (xmm5 * mem) + xmm4
	vaddsd	%xmm4, %xmm2, %xmm2
	vmulsd	24(%rcx,%rax,8), %xmm3, %xmm3
	vfmadd231sd	16(%rcx,%rax,8), %xmm5, %xmm3 # xmm3 = (xmm5 * mem) + xmm3
	vaddsd	%xmm3, %xmm1, %xmm1
	addq	$2, %rbx
	addl	$8, %ebp
	cmpq	%rbx, %r12
	jne	.LBB0_7
	jmp	.LBB0_8
.LBB0_9:
	popq	%rbx
	.cfi_def_cfa_offset 40
	popq	%r12
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
