	.file	"spmv_bcsr22.c"
	.text
	.p2align 4
	.globl	spmv_bcsr22
	.type	spmv_bcsr22, @function
spmv_bcsr22:
.LFB0:
	.cfi_startproc
	movslq	%edi, %rax
	testl	%eax, %eax
	jle	.L11
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset 12, -16
	movq	%rsi, %r10
	movq	%rdx, %r11
	xorl	%edi, %edi
	pushq	%rbp
	.cfi_def_cfa_offset 24
	.cfi_offset 6, -24
	movq	%r9, %rbp
	leaq	0(,%rax,4), %r9
	pushq	%rbx
	.cfi_def_cfa_offset 32
	.cfi_offset 3, -32
	movq	%rcx, %rbx
	.p2align 4,,10
	.p2align 3
.L5:
	movl	(%r10,%rdi), %eax
	movl	4(%r10,%rdi), %esi
	cmpl	%esi, %eax
	jge	.L6
	movslq	%eax, %r12
	subl	%eax, %esi
	vxorpd	%xmm3, %xmm3, %xmm3
	movq	%r12, %rdx
	addq	%r12, %rsi
	leaq	(%r11,%r12,4), %rcx
	salq	$5, %rdx
	salq	$5, %rsi
	addq	%rbx, %rdx
	addq	%rbx, %rsi
	.p2align 4,,10
	.p2align 3
.L4:
	movl	(%rcx), %eax
	vmovupd	(%rdx), %xmm5
	addq	$32, %rdx
	addq	$4, %rcx
	vmovupd	-16(%rdx), %xmm6
	addl	%eax, %eax
	vmovhpd	-16(%rdx), %xmm5, %xmm4
	cltq
	vunpckhpd	%xmm6, %xmm5, %xmm1
	vmovupd	(%r8,%rax,8), %xmm0
	vpermilpd	$0, %xmm0, %xmm2
	vpermilpd	$3, %xmm0, %xmm0
	vmulpd	%xmm1, %xmm0, %xmm0
	vfmadd231pd	%xmm4, %xmm2, %xmm0
	vaddpd	%xmm0, %xmm3, %xmm3
	cmpq	%rdx, %rsi
	jne	.L4
	vmovupd	%xmm3, 0(%rbp,%rdi,4)
	addq	$4, %rdi
	cmpq	%rdi, %r9
	jne	.L5
.L15:
	popq	%rbx
	.cfi_remember_state
	.cfi_def_cfa_offset 24
	popq	%rbp
	.cfi_def_cfa_offset 16
	popq	%r12
	.cfi_def_cfa_offset 8
	ret
	.p2align 4,,10
	.p2align 3
.L6:
	.cfi_restore_state
	vxorpd	%xmm3, %xmm3, %xmm3
	vmovupd	%xmm3, 0(%rbp,%rdi,4)
	addq	$4, %rdi
	cmpq	%rdi, %r9
	jne	.L5
	jmp	.L15
.L11:
	.cfi_def_cfa_offset 8
	.cfi_restore 3
	.cfi_restore 6
	.cfi_restore 12
	ret
	.cfi_endproc
.LFE0:
	.size	spmv_bcsr22, .-spmv_bcsr22
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
