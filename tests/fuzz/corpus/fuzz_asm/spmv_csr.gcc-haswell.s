	.file	"spmv_csr.c"
	.text
	.p2align 4
	.globl	spmv_csr
	.type	spmv_csr, @function
spmv_csr:
.LFB0:
	.cfi_startproc
	movslq	%edi, %rax
	testl	%eax, %eax
	jle	.L11
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset 3, -16
	movq	%rsi, %r11
	movq	%rcx, %rdi
	movq	%rdx, %rsi
	leaq	0(,%rax,4), %rbx
	xorl	%r10d, %r10d
	.p2align 4,,10
	.p2align 3
.L5:
	movslq	(%r11,%r10), %rax
	movl	4(%r11,%r10), %ecx
	vxorpd	%xmm0, %xmm0, %xmm0
	cmpl	%ecx, %eax
	jge	.L3
	.p2align 4,,10
	.p2align 3
.L4:
	movslq	(%rsi,%rax,4), %rdx
	vmovsd	(%rdi,%rax,8), %xmm1
	incq	%rax
	vfmadd231sd	(%r8,%rdx,8), %xmm1, %xmm0
	cmpl	%eax, %ecx
	jg	.L4
.L3:
	vmovsd	%xmm0, (%r9,%r10,2)
	addq	$4, %r10
	cmpq	%rbx, %r10
	jne	.L5
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
.L11:
	.cfi_restore 3
	ret
	.cfi_endproc
.LFE0:
	.size	spmv_csr, .-spmv_csr
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
