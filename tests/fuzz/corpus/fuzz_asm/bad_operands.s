	addq	(%rax,%rbx,3), %rcx
	movq	$, %rax
	vaddpd	%ymm0
	movq	0x(%rip,,), %rax
