	.text
	.globl	f
f:
.L3:
	vmovupd	(%rdi,%rax,8), %ymm0
	vfmadd231pd	(%rsi,%rax,8), %ymm1, %ymm0
	vmovupd	%ymm0, (%rdx,%rax,8)
	addq	$4, %rax
	cmpq	%rcx, %rax
	jne	.L3
	ret
