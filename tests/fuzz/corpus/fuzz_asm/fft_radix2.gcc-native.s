	.file	"fft_radix2.c"
	.text
	.p2align 4
	.globl	fft_stage
	.type	fft_stage, @function
fft_stage:
.LFB0:
	.cfi_startproc
	testl	%edi, %edi
	jle	.L5
	movslq	%edi, %rdi
	xorl	%eax, %eax
	salq	$3, %rdi
	leaq	(%rsi,%rdi), %r10
	leaq	(%rdx,%rdi), %r9
	.p2align 4
	.p2align 3
.L3:
	vmovsd	(%r9,%rax), %xmm4
	vmovsd	(%r8,%rax), %xmm3
	vmovsd	(%r10,%rax), %xmm0
	vmovsd	(%rcx,%rax), %xmm2
	vmulsd	%xmm3, %xmm4, %xmm1
	vfmsub231sd	%xmm2, %xmm0, %xmm1
	vmulsd	%xmm4, %xmm2, %xmm2
	vfmadd132sd	%xmm3, %xmm2, %xmm0
	vmovsd	(%rsi,%rax), %xmm2
	vsubsd	%xmm1, %xmm2, %xmm2
	vmovsd	%xmm2, (%r10,%rax)
	vmovsd	(%rdx,%rax), %xmm2
	vsubsd	%xmm0, %xmm2, %xmm2
	vmovsd	%xmm2, (%r9,%rax)
	vaddsd	(%rsi,%rax), %xmm1, %xmm1
	vmovsd	%xmm1, (%rsi,%rax)
	vaddsd	(%rdx,%rax), %xmm0, %xmm0
	vmovsd	%xmm0, (%rdx,%rax)
	addq	$8, %rax
	cmpq	%rax, %rdi
	jne	.L3
.L5:
	ret
	.cfi_endproc
.LFE0:
	.size	fft_stage, .-fft_stage
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
