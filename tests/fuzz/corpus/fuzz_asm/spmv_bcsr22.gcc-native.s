	.file	"spmv_bcsr22.c"
	.text
	.p2align 4
	.globl	spmv_bcsr22
	.type	spmv_bcsr22, @function
spmv_bcsr22:
.LFB0:
	.cfi_startproc
	testl	%edi, %edi
	jle	.L11
	movslq	%edi, %rdi
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset 12, -16
	pushq	%rbp
	.cfi_def_cfa_offset 24
	.cfi_offset 6, -24
	pushq	%rbx
	.cfi_def_cfa_offset 32
	.cfi_offset 3, -32
	leaq	0(,%rdi,4), %r12
	xorl	%ebx, %ebx
	.p2align 4
	.p2align 3
.L5:
	movl	(%rsi,%rbx), %eax
	movl	4(%rsi,%rbx), %r11d
	cmpl	%r11d, %eax
	jge	.L6
	movslq	%eax, %rbp
	subl	%eax, %r11d
	vxorpd	%xmm3, %xmm3, %xmm3
	movq	%rbp, %rdi
	addq	%rbp, %r11
	leaq	(%rdx,%rbp,4), %r10
	salq	$5, %rdi
	salq	$5, %r11
	addq	%rcx, %rdi
	addq	%rcx, %r11
	.p2align 4
	.p2align 3
.L4:
	movl	(%r10), %eax
	vmovupd	(%rdi), %xmm5
	addq	$32, %rdi
	addq	$4, %r10
	vmovupd	-16(%rdi), %xmm6
	addl	%eax, %eax
	cltq
	vmovupd	(%r8,%rax,8), %xmm0
	vmovhpd	-16(%rdi), %xmm5, %xmm4
	vunpckhpd	%xmm6, %xmm5, %xmm1
	vpermilpd	$0, %xmm0, %xmm2
	vpermilpd	$3, %xmm0, %xmm0
	vmulpd	%xmm1, %xmm0, %xmm0
	vfmadd231pd	%xmm4, %xmm2, %xmm0
	vaddpd	%xmm0, %xmm3, %xmm3
	cmpq	%rdi, %r11
	jne	.L4
	vmovupd	%xmm3, (%r9,%rbx,4)
	addq	$4, %rbx
	cmpq	%rbx, %r12
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
	.p2align 4
	.p2align 3
.L6:
	.cfi_restore_state
	vxorpd	%xmm3, %xmm3, %xmm3
	vmovupd	%xmm3, (%r9,%rbx,4)
	addq	$4, %rbx
	cmpq	%rbx, %r12
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
