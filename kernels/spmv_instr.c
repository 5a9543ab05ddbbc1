/*
 * spmv_instr.c - the instrumented SpMV kernels (CSR and the 64 BCSR
 * shapes), from the same bodies as the native ones in spmv.c.  A file of
 * its own so the two halves compile in parallel.
 */
#include "kernels/kernels_int.h"

#define KERN_INSTRUMENTED 1
#include "kernels/kern_hooks.h"
#include "kernels/spmv_csr_body.h"
#include "kernels/spmv_bcsr_all.h"
#undef KERN_INSTRUMENTED
