	.text
	.file	"conv_scalar.c"
	.globl	conv_scalar                     # -- Begin function conv_scalar
	.p2align	4, 0x90
	.type	conv_scalar,@function
conv_scalar:                            # @conv_scalar
	.cfi_startproc
# %bb.0:
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	testl	%edi, %edi
	jle	.LBB0_16
# %bb.1:
	movl	%edi, %r8d
	cmpl	$8, %edi
	jae	.LBB0_3
# %bb.2:
	xorl	%eax, %eax
	jmp	.LBB0_14
.LBB0_3:
	leaq	(%rcx,%r8,4), %r10
	leaq	(%rsi,%r8,4), %rax
	addq	$60, %rax
	cmpq	%rcx, %rax
	seta	%r11b
	leaq	64(%rdx), %rax
	cmpq	%rsi, %r10
	seta	%bl
	cmpq	%rcx, %rax
	seta	%r9b
	cmpq	%rdx, %r10
	seta	%r10b
	xorl	%eax, %eax
	testb	%bl, %r11b
	jne	.LBB0_14
# %bb.4:
	andb	%r10b, %r9b
	jne	.LBB0_14
# %bb.5:
	cmpl	$16, %edi
	jae	.LBB0_7
# %bb.6:
	xorl	%eax, %eax
.LBB0_11:
	movq	%rax, %rdi
	movl	%r8d, %eax
	andl	$-8, %eax
	leaq	60(%rsi), %r9
	vxorps	%xmm0, %xmm0, %xmm0
	.p2align	4, 0x90
.LBB0_12:                               # =>This Inner Loop Header: Depth=1
	vmovups	-60(%r9,%rdi,4), %ymm1
	vmovups	-56(%r9,%rdi,4), %ymm2
	vmovups	-52(%r9,%rdi,4), %ymm3
	vmovups	-48(%r9,%rdi,4), %ymm4
	vfmadd132ps	(%rdx){1to8}, %ymm0, %ymm1 # ymm1 = (ymm1 * mem) + ymm0
	vfmadd231ps	4(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm2 * mem) + ymm1
	vfmadd231ps	8(%rdx){1to8}, %ymm3, %ymm1 # ymm1 = (ymm3 * mem) + ymm1
	vfmadd231ps	12(%rdx){1to8}, %ymm4, %ymm1 # ymm1 = (ymm4 * mem) + ymm1
	vmovups	-44(%r9,%rdi,4), %ymm2
	vfmadd132ps	16(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-40(%r9,%rdi,4), %ymm1
	vfmadd132ps	20(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-36(%r9,%rdi,4), %ymm2
	vfmadd132ps	24(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-32(%r9,%rdi,4), %ymm1
	vfmadd132ps	28(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-28(%r9,%rdi,4), %ymm2
	vfmadd132ps	32(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-24(%r9,%rdi,4), %ymm1
	vfmadd132ps	36(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-20(%r9,%rdi,4), %ymm2
	vfmadd132ps	40(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-16(%r9,%rdi,4), %ymm1
	vfmadd132ps	44(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-12(%r9,%rdi,4), %ymm2
	vfmadd132ps	48(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	-8(%r9,%rdi,4), %ymm1
	vfmadd132ps	52(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	-4(%r9,%rdi,4), %ymm2
	vfmadd132ps	56(%rdx){1to8}, %ymm1, %ymm2 # ymm2 = (ymm2 * mem) + ymm1
	vmovups	(%r9,%rdi,4), %ymm1
	vfmadd132ps	60(%rdx){1to8}, %ymm2, %ymm1 # ymm1 = (ymm1 * mem) + ymm2
	vmovups	%ymm1, (%rcx,%rdi,4)
	addq	$8, %rdi
	cmpq	%rdi, %rax
	jne	.LBB0_12
# %bb.13:
	cmpq	%r8, %rax
	jne	.LBB0_14
	jmp	.LBB0_16
.LBB0_7:
	movl	%r8d, %eax
	andl	$-16, %eax
	vbroadcastss	(%rdx), %zmm0
	vbroadcastss	4(%rdx), %zmm1
	vbroadcastss	8(%rdx), %zmm2
	vbroadcastss	12(%rdx), %zmm3
	vbroadcastss	16(%rdx), %zmm4
	vbroadcastss	20(%rdx), %zmm5
	vbroadcastss	24(%rdx), %zmm6
	vbroadcastss	28(%rdx), %zmm7
	vbroadcastss	32(%rdx), %zmm8
	vbroadcastss	36(%rdx), %zmm9
	vbroadcastss	40(%rdx), %zmm10
	vbroadcastss	44(%rdx), %zmm11
	vbroadcastss	48(%rdx), %zmm12
	vbroadcastss	52(%rdx), %zmm13
	vbroadcastss	56(%rdx), %zmm14
	vbroadcastss	60(%rdx), %zmm15
	leaq	(,%r8,4), %r9
	andq	$-64, %r9
	xorl	%edi, %edi
	vxorps	%xmm16, %xmm16, %xmm16
	.p2align	4, 0x90
.LBB0_8:                                # =>This Inner Loop Header: Depth=1
	vmovups	(%rsi,%rdi), %zmm17
	vfmadd132ps	%zmm0, %zmm16, %zmm17   # zmm17 = (zmm17 * zmm0) + zmm16
	vfmadd231ps	4(%rsi,%rdi), %zmm1, %zmm17 # zmm17 = (zmm1 * mem) + zmm17
	vfmadd231ps	8(%rsi,%rdi), %zmm2, %zmm17 # zmm17 = (zmm2 * mem) + zmm17
	vfmadd231ps	12(%rsi,%rdi), %zmm3, %zmm17 # zmm17 = (zmm3 * mem) + zmm17
	vfmadd231ps	16(%rsi,%rdi), %zmm4, %zmm17 # zmm17 = (zmm4 * mem) + zmm17
	vfmadd231ps	20(%rsi,%rdi), %zmm5, %zmm17 # zmm17 = (zmm5 * mem) + zmm17
	vfmadd231ps	24(%rsi,%rdi), %zmm6, %zmm17 # zmm17 = (zmm6 * mem) + zmm17
	vfmadd231ps	28(%rsi,%rdi), %zmm7, %zmm17 # zmm17 = (zmm7 * mem) + zmm17
	vfmadd231ps	32(%rsi,%rdi), %zmm8, %zmm17 # zmm17 = (zmm8 * mem) + zmm17
	vfmadd231ps	36(%rsi,%rdi), %zmm9, %zmm17 # zmm17 = (zmm9 * mem) + zmm17
	vfmadd231ps	40(%rsi,%rdi), %zmm10, %zmm17 # zmm17 = (zmm10 * mem) + zmm17
	vfmadd231ps	44(%rsi,%rdi), %zmm11, %zmm17 # zmm17 = (zmm11 * mem) + zmm17
	vfmadd231ps	48(%rsi,%rdi), %zmm12, %zmm17 # zmm17 = (zmm12 * mem) + zmm17
	vfmadd231ps	52(%rsi,%rdi), %zmm13, %zmm17 # zmm17 = (zmm13 * mem) + zmm17
	vfmadd231ps	56(%rsi,%rdi), %zmm14, %zmm17 # zmm17 = (zmm14 * mem) + zmm17
	vfmadd231ps	60(%rsi,%rdi), %zmm15, %zmm17 # zmm17 = (zmm15 * mem) + zmm17
	vmovups	%zmm17, (%rcx,%rdi)
	addq	$64, %rdi
	cmpq	%rdi, %r9
	jne	.LBB0_8
# %bb.9:
	cmpq	%r8, %rax
	je	.LBB0_16
# %bb.10:
	testb	$8, %r8b
	jne	.LBB0_11
.LBB0_14:
	vxorps	%xmm0, %xmm0, %xmm0
	.p2align	4, 0x90
.LBB0_15:                               # =>This Inner Loop Header: Depth=1
	vmovss	(%rsi,%rax,4), %xmm1            # xmm1 = mem[0],zero,zero,zero
	vmovss	4(%rsi,%rax,4), %xmm2           # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	(%rdx), %xmm0, %xmm1    # xmm1 = (xmm1 * mem) + xmm0
	vfmadd231ss	4(%rdx), %xmm2, %xmm1   # xmm1 = (xmm2 * mem) + xmm1
	vmovss	8(%rsi,%rax,4), %xmm2           # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	8(%rdx), %xmm1, %xmm2   # xmm2 = (xmm2 * mem) + xmm1
	vmovss	12(%rsi,%rax,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	12(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	16(%rsi,%rax,4), %xmm2          # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	16(%rdx), %xmm1, %xmm2  # xmm2 = (xmm2 * mem) + xmm1
	vmovss	20(%rsi,%rax,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	20(%rdx), %xmm2, %xmm1  # xmm1 = (xmm1 * mem) + xmm2
	vmovss	24(%rsi,%rax,4), %xmm2          # xmm2 = mem[0],zero,zero,zero
	vfmadd132ss	24(%rdx), %xmm1, %xmm2  # xmm2 = (xmm2 * mem) + xmm1
	vmovss	28(%rsi,%rax,4), %xmm1          # xmm1 = mem[0],zero,zero,zero
	vfmadd132ss	28(%rdx), %xmm2, %