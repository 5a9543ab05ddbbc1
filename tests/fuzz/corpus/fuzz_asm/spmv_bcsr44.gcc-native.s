	.file	"spmv_bcsr44.c"
	.text
	.p2align 4
	.globl	spmv_bcsr44
	.type	spmv_bcsr44, @function
spmv_bcsr44:
.LFB0:
	.cfi_startproc
	testl	%edi, %edi
	jle	.L11
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movslq	%edi, %rdi
	movq	%rsi, %r11
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	leaq	0(,%rdi,4), %r10
	pushq	%r13
	xorl	%edi, %edi
	pushq	%r12
	.cfi_offset 13, -24
	.cfi_offset 12, -32
	movq	%rcx, %r12
	pushq	%rbx
	.cfi_offset 3, -40
	movq	%rdx, %rbx
	.p2align 4
	.p2align 3
.L5:
	movl	(%r11,%rdi), %edx
	movl	4(%r11,%rdi), %esi
	cmpl	%esi, %edx
	jge	.L6
	movslq	%edx, %r13
	movl	%edx, %eax
	subl	%edx, %esi
	vxorpd	%xmm7, %xmm7, %xmm7
	sall	$4, %eax
	addq	%r13, %rsi
	leaq	(%rbx,%r13,4), %rcx
	cltq
	salq	$7, %rsi
	leaq	(%r12,%rax,8), %rax
	addq	%r12, %rsi
	.p2align 4
	.p2align 3
.L4:
	vmovsd	64(%rax), %xmm0
	movl	(%rcx), %edx
	subq	$-128, %rax
	addq	$4, %rcx
	sall	$2, %edx
	movslq	%edx, %rdx
	vmovupd	(%r8,%rdx,8), %ymm1
	vmovhpd	-32(%rax), %xmm0, %xmm2
	vmovsd	-128(%rax), %xmm0
	vpermpd	$170, %ymm1, %ymm4
	vpermpd	$255, %ymm1, %ymm3
	vbroadcastsd	%xmm1, %ymm5
	vpermpd	$85, %ymm1, %ymm1
	vmovhpd	-96(%rax), %xmm0, %xmm0
	vinsertf128	$0x1, %xmm2, %ymm0, %ymm2
	vmovsd	-56(%rax), %xmm0
	vmovhpd	-24(%rax), %xmm0, %xmm6
	vmovsd	-120(%rax), %xmm0
	vmovhpd	-88(%rax), %xmm0, %xmm0
	vinsertf128	$0x1, %xmm6, %ymm0, %ymm0
	vmovsd	-112(%rax), %xmm6
	vmulpd	%ymm1, %ymm0, %ymm0
	vfmadd132pd	%ymm2, %ymm0, %ymm5
	vmovapd	%ymm5, %ymm1
	vmovsd	-48(%rax), %xmm5
	vmovhpd	-80(%rax), %xmm6, %xmm0
	vmovhpd	-16(%rax), %xmm5, %xmm2
	vinsertf128	$0x1, %xmm2, %ymm0, %ymm0
	vfmadd231pd	%ymm0, %ymm4, %ymm1
	vmovsd	-40(%rax), %xmm4
	vmovhpd	-8(%rax), %xmm4, %xmm2
	vmovsd	-104(%rax), %xmm4
	vmovhpd	-72(%rax), %xmm4, %xmm0
	vinsertf128	$0x1, %xmm2, %ymm0, %ymm0
	vfmadd132pd	%ymm3, %ymm1, %ymm0
	vaddpd	%ymm0, %ymm7, %ymm7
	cmpq	%rax, %rsi
	jne	.L4
	vmovupd	%ymm7, (%r9,%rdi,8)
	addq	$4, %rdi
	cmpq	%rdi, %r10
	jne	.L5
.L15:
	vzeroupper
	popq	%rbx
	popq	%r12
	popq	%r13
	popq	%rbp
	.cfi_remember_state
	.cfi_def_cfa 7, 8
	ret
	.p2align 4
	.p2align 3
.L6:
	.cfi_restore_state
	vxorpd	%xmm7, %xmm7, %xmm7
	vmovupd	%ymm7, (%r9,%rdi,8)
	addq	$4, %rdi
	cmpq	%rdi, %r10
	jne	.L5
	jmp	.L15
.L11:
	.cfi_def_cfa 7, 8
	.cfi_restore 3
	.cfi_restore 6
	.cfi_restore 12
	.cfi_restore 13
	ret
	.cfi_endproc
.LFE0:
	.size	spmv_bcsr44, .-spmv_bcsr44
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
