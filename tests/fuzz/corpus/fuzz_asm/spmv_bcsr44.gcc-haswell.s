	.file	"spmv_bcsr44.c"
	.text
	.p2align 4
	.globl	spmv_bcsr44
	.type	spmv_bcsr44, @function
spmv_bcsr44:
.LFB0:
	.cfi_startproc
	movslq	%edi, %rax
	testl	%eax, %eax
	jle	.L11
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movq	%rsi, %r10
	movq	%rdx, %r11
	xorl	%edi, %edi
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	pushq	%r13
	pushq	%r12
	.cfi_offset 13, -24
	.cfi_offset 12, -32
	movq	%r9, %r12
	leaq	0(,%rax,4), %r9
	pushq	%rbx
	.cfi_offset 3, -40
	movq	%rcx, %rbx
	.p2align 4,,10
	.p2align 3
.L5:
	movl	(%r10,%rdi), %edx
	movl	4(%r10,%rdi), %esi
	cmpl	%esi, %edx
	jge	.L6
	movslq	%edx, %r13
	subl	%edx, %esi
	vxorpd	%xmm4, %xmm4, %xmm4
	movq	%r13, %rax
	addq	%r13, %rsi
	leaq	(%r11,%r13,4), %rcx
	salq	$7, %rax
	salq	$7, %rsi
	addq	%rbx, %rax
	addq	%rbx, %rsi
	.p2align 4,,10
	.p2align 3
.L4:
	movl	(%rcx), %edx
	vmovsd	64(%rax), %xmm0
	subq	$-128, %rax
	addq	$4, %rcx
	vmovsd	-128(%rax), %xmm2
	vmovsd	-56(%rax), %xmm7
	vmovhpd	-32(%rax), %xmm0, %xmm0
	sall	$2, %edx
	vmovhpd	-96(%rax), %xmm2, %xmm2
	movslq	%edx, %rdx
	vmovhpd	-24(%rax), %xmm7, %xmm7
	vinsertf128	$0x1, %xmm0, %ymm2, %ymm2
	vmovsd	-120(%rax), %xmm0
	vmovupd	(%r8,%rdx,8), %ymm1
	vmovhpd	-88(%rax), %xmm0, %xmm0
	vpermpd	$170, %ymm1, %ymm5
	vpermpd	$255, %ymm1, %ymm3
	vbroadcastsd	%xmm1, %ymm6
	vinsertf128	$0x1, %xmm7, %ymm0, %ymm0
	vpermpd	$85, %ymm1, %ymm1
	vmovsd	-48(%rax), %xmm7
	vmulpd	%ymm1, %ymm0, %ymm0
	vfmadd132pd	%ymm2, %ymm0, %ymm6
	vmovhpd	-16(%rax), %xmm7, %xmm2
	vmovapd	%ymm6, %ymm1
	vmovsd	-112(%rax), %xmm6
	vmovhpd	-80(%rax), %xmm6, %xmm0
	vinsertf128	$0x1, %xmm2, %ymm0, %ymm0
	vfmadd231pd	%ymm0, %ymm5, %ymm1
	vmovsd	-40(%rax), %xmm5
	vmovhpd	-8(%rax), %xmm5, %xmm2
	vmovsd	-104(%rax), %xmm5
	vmovhpd	-72(%rax), %xmm5, %xmm0
	vinsertf128	$0x1, %xmm2, %ymm0, %ymm0
	vfmadd132pd	%ymm3, %ymm1, %ymm0
	vaddpd	%ymm0, %ymm4, %ymm4
	cmpq	%rax, %rsi
	jne	.L4
	vmovupd	%ymm4, (%r12,%rdi,8)
	addq	$4, %rdi
	cmpq	%rdi, %r9
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
	.p2align 4,,10
	.p2align 3
.L6:
	.cfi_restore_state
	vxorpd	%xmm4, %xmm4, %xmm4
	vmovupd	%ymm4, (%r12,%rdi,8)
	addq	$4, %rdi
	cmpq	%rdi, %r9
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
