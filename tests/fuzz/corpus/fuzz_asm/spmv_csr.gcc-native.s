	.file	"spmv_csr.c"
	.text
	.p2align 4
	.globl	spmv_csr
	.type	spmv_csr, @function
spmv_csr:
.LFB0:
	.cfi_startproc
	testl	%edi, %edi
	jle	.L11
	movslq	%edi, %rdi
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset 3, -16
	xorl	%r11d, %r11d
	leaq	0(,%rdi,4), %rbx
	.p2align 4
	.p2align 3
.L5:
	movslq	(%rsi,%r11), %rax
	movl	4(%rsi,%r11), %r10d
	vxorpd	%xmm1, %xmm1, %xmm1
	cmpl	%r10d, %eax
	jge	.L3
	.p2align 4
	.p2align 3
.L4:
	movslq	(%rdx,%rax,4), %rdi
	vmovsd	(%r8,%rdi,8), %xmm0
	vmulsd	(%rcx,%rax,8), %xmm0, %xmm0
	incq	%rax
	vaddsd	%xmm0, %xmm1, %xmm1
	cmpl	%eax, %r10d
	jg	.L4
.L3:
	vmovsd	%xmm1, (%r9,%r11,2)
	addq	$4, %r11
	cmpq	%rbx, %r11
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
