/*
 * spmv_place_one.h - the native SpMV kernel bodies (CSR and the 64 BCSR
 * shapes) that spmv_place.c copies at four code placements
 * (place_copies.h's PLACE_BODY).
 *
 * No include guard on purpose: included once per copy.
 */
#include "kernels/spmv_csr_body.h"
#include "kernels/spmv_bcsr_all.h"
