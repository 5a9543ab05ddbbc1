# kernels.mk - per-file flags of kernels/ (included by the top Makefile).
# The AVX2 convolution is the only file built for AVX2 + FMA; it runs only
# after a runtime CPU check (kernel_cpu_has_avx2).
KERNELS_ARCH := $(shell uname -m)
ifneq ($(filter x86_64 i686 i386,$(KERNELS_ARCH)),)
$(BUILD)/kernels/conv_avx2.o: private CFLAGS += -mavx2 -mfma
endif
# The benchmark's straightforward reference CSR is compiled -O3
# -march=native (only the bench file; the library stays portable).
$(BUILD)/bench/bench_kernels: private CFLAGS += -march=native
