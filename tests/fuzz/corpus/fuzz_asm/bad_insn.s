	frobnicate %rax, %rbx
