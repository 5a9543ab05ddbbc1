	.text
	.file	"spmv_bcsr44.c"
	.section	.rodata.cst16,"aM",@progbits,16
	.p2align	4                               # -- Begin function spmv_bcsr44
.LCPI0_0:
	.quad	32                              # 0x20
	.quad	64                              # 0x40
.LCPI0_1:
	.long	1                               # 0x1
	.long	5                               # 0x5
	.long	9                               # 0x9
	.long	13                              # 0xd
.LCPI0_2:
	.long	2                               # 0x2
	.long	6                               # 0x6
	.long	10                              # 0xa
	.long	14                              # 0xe
.LCPI0_3:
	.long	3                               # 0x3
	.long	7                               # 0x7
	.long	11                              # 0xb
	.long	15                              # 0xf
	.text
	.globl	spmv_bcsr44
	.p2align	4, 0x90
	.type	spmv_bcsr44,@function
spmv_bcsr44:                            # @spmv_bcsr44
	.cfi_startproc
# %bb.0:
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	testl	%edi, %edi
	jle	.LBB0_6
# %bb.1:
	movl	%edi, %r10d
	movl	(%rsi), %eax
	xorl	%r15d, %r15d
	vmovdqa	.LCPI0_0(%rip), %xmm0           # xmm0 = [32,64]
	vmovapd	.LCPI0_1(%rip), %xmm1           # xmm1 = [1,5,9,13]
	vmovapd	.LCPI0_2(%rip), %xmm2           # xmm2 = [2,6,10,14]
	vmovapd	.LCPI0_3(%rip), %xmm3           # xmm3 = [3,7,11,15]
	jmp	.LBB0_2
	.p2align	4, 0x90
.LBB0_5:                                #   in Loop: Header=BB0_2 Depth=1
	shll	$2, %r15d
	vmovupd	%ymm4, (%r9,%r15,8)
	movl	%r14d, %eax
	movq	%r11, %r15
	cmpq	%r10, %r11
	je	.LBB0_6
.LBB0_2:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB0_4 Depth 2
	leaq	1(%r15), %r11
	movl	4(%rsi,%r15,4), %r14d
	vxorpd	%xmm4, %xmm4, %xmm4
	cmpl	%r14d, %eax
	jge	.LBB0_5
# %bb.3:                                #   in Loop: Header=BB0_2 Depth=1
	movslq	%r14d, %r12
	movslq	%eax, %rbp
	shll	$4, %eax
	vxorpd	%xmm4, %xmm4, %xmm4
	.p2align	4, 0x90
.LBB0_4:                                #   Parent Loop BB0_2 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	cltq
	movslq	(%rdx,%rbp,4), %rdi
	leaq	(%rcx,%rax,8), %rbx
	vpbroadcastq	%rbx, %xmm5
	vpaddq	%xmm0, %xmm5, %xmm6
	leaq	96(%rcx,%rax,8), %r13
	vpermq	$208, %ymm6, %ymm6              # ymm6 = ymm6[0,0,1,3]
	vpblendd	$3, %ymm5, %ymm6, %ymm5         # ymm5 = ymm5[0,1],ymm6[2,3,4,5,6,7]
	vpbroadcastq	%r13, %ymm6
	kxnorw	%k0, %k0, %k1
	shlq	$5, %rdi
	vxorpd	%xmm7, %xmm7, %xmm7
	vgatherdpd	(%rbx,%xmm1,8), %ymm7 {%k1}
	kxnorw	%k0, %k0, %k1
	vpblendd	$192, %ymm6, %ymm5, %ymm5       # ymm5 = ymm5[0,1,2,3,4,5],ymm6[6,7]
	vpxor	%xmm6, %xmm6, %xmm6
	vmulpd	8(%r8,%rdi){1to4}, %ymm7, %ymm7
	vgatherqpd	(,%ymm5), %ymm6 {%k1}
	vfmadd231pd	(%r8,%rdi){1to4}, %ymm6, %ymm7 # ymm7 = (ymm6 * mem) + ymm7
	kxnorw	%k0, %k0, %k1
	vxorpd	%xmm5, %xmm5, %xmm5
	vgatherdpd	(%rbx,%xmm2,8), %ymm5 {%k1}
	vfmadd132pd	16(%r8,%rdi){1to4}, %ymm7, %ymm5 # ymm5 = (ymm5 * mem) + ymm7
	kxnorw	%k0, %k0, %k1
	vxorpd	%xmm6, %xmm6, %xmm6
	vgatherdpd	(%rbx,%xmm3,8), %ymm6 {%k1}
	vfmadd132pd	24(%r8,%rdi){1to4}, %ymm5, %ymm6 # ymm6 = (ymm6 * mem) + ymm5
	vaddpd	%ymm6, %ymm4, %ymm4
	addq	$1, %rbp
	addl	$16, %eax
	cmpq	%rbp, %r12
	jne	.LBB0_4
	jmp	.LBB0_5
.LBB0_6:
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	vzeroupper
	retq
.Lfunc_end0:
	.size	spmv_bcsr44, .Lfunc_end0-spmv_bcsr44
	.cfi_endproc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
