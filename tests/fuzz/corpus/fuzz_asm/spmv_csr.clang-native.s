	.text
	.file	"spmv_csr.c"
	.globl	spmv_csr                        # -- Begin function spmv_csr
	.p2align	4, 0x90
	.type	spmv_csr,@function
spmv_csr:                               # @spmv_csr
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
	jle	.LBB0_7
# %bb.1:
	movl	%edi, %r10d
	movl	(%rsi), %r14d
	xorl	%r11d, %r11d
	jmp	.LBB0_2
	.p2align	4, 0x90
.LBB0_6:                                #   in Loop: Header=BB0_2 Depth=1
	vmovsd	%xmm0, (%r9,%r15,8)
	cmpq	%r10, %r11
	je	.LBB0_7
.LBB0_2:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB0_4 Depth 2
                                        #     Child Loop BB0_8 Depth 2
	movq	%r11, %r15
	movl	%r14d, %ebp
	addq	$1, %r11
	movl	4(%rsi,%r15,4), %r14d
	vxorpd	%xmm0, %xmm0, %xmm0
	cmpl	%r14d, %ebp
	jge	.LBB0_6
# %bb.3:                                #   in Loop: Header=BB0_2 Depth=1
	movslq	%r14d, %rbx
	movslq	%ebp, %rdi
	movl	%r14d, %eax
	subl	%ebp, %eax
	movq	%rdi, %r12
	notq	%r12
	addq	%rbx, %r12
	vxorpd	%xmm0, %xmm0, %xmm0
	andq	$3, %rax
	je	.LBB0_5
	.p2align	4, 0x90
.LBB0_4:                                #   Parent Loop BB0_2 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	vmovsd	(%rcx,%rdi,8), %xmm1            # xmm1 = mem[0],zero
	movslq	(%rdx,%rdi,4), %rbp
	vfmadd231sd	(%r8,%rbp,8), %xmm1, %xmm0 # xmm0 = (xmm1 * mem) + xmm0
	addq	$1, %rdi
	addq	$-1, %rax
	jne	.LBB0_4
.LBB0_5:                                #   in Loop: Header=BB0_2 Depth=1
	cmpq	$3, %r12
	jb	.LBB0_6
	.p2align	4, 0x90
.LBB0_8:                                #   Parent Loop BB0_2 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	movslq	(%rdx,%rdi,4), %rax
	vmovsd	(%rcx,%rdi,8), %xmm1            # xmm1 = mem[0],zero
	vmovsd	8(%rcx,%rdi,8), %xmm2           # xmm2 = mem[0],zero
	vfmadd132sd	(%r8,%rax,8), %xmm0, %xmm1 # xmm1 = (xmm1 * mem) + xmm0
	movslq	4(%rdx,%rdi,4), %rax
	vfmadd231sd	(%r8,%rax,8), %xmm2, %xmm1 # xmm1 = (xmm2 * mem) + xmm1
	vmovsd	16(%rcx,%rdi,8), %xmm2          # xmm2 = mem[0],zero
	movslq	8(%rdx,%rdi,4), %rax
	vfmadd132sd	(%r8,%rax,8), %xmm1, %xmm2 # xmm2 = (xmm2 * mem) + xmm1
	vmovsd	24(%rcx,%rdi,8), %xmm0          # xmm0 = mem[0],zero
	movslq	12(%rdx,%rdi,4), %rax
	vfmadd132sd	(%r8,%rax,8), %xmm2, %xmm0 # xmm0 = (xmm0 * mem) + xmm2
	addq	$4, %rdi
	cmpq	%rdi, %rbx
	jne	.LBB0_8
	jmp	.LBB0_6
.LBB0_7:
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
	.size	spmv_csr, .Lfunc_end0-spmv_csr
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
