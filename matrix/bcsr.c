/*
 * bcsr.c - BCSR r x c from CSR, and block counts / fill ratios.
 *
 * Blocks are aligned at 0: entry (i,j) lies in block (i/r, j/c).  A block
 * is stored when it holds at least one CSR entry (explicit zeros count:
 * they are entries).  Partial edge blocks count as full r*c blocks.
 *
 * Counting without building: for one block-row I, every entry marks
 * stamp[J] = I+1; an entry whose J is not yet stamped opens a new block.
 * All 8 block widths are counted in the same sweep over a block row, so
 * the 64 shapes cost 8 sweeps over the nonzeros (one per block height).
 */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "matrix/matrix_int.h"

double matrix_fill_ratio(uint64_t nblocks, unsigned r, unsigned c,
			 uint64_t nnz)
{
	if (!nnz)
		return 0.0;
	return (double)nblocks * (double)r * (double)c / (double)nnz;
}

uint64_t matrix_fill_count(const struct csr *a, unsigned r, unsigned c)
{
	uint64_t bcols = (a->cols + c - 1) / c, I, n = 0;
	uint32_t *stamp;

	if (r < 1 || c < 1)
		return 0;
	stamp = xcalloc((size_t)bcols + 1, sizeof(uint32_t));
	for (I = 0; I * r < a->rows; I++) {
		uint64_t i0 = I * r, i1 = i0 + r, k;
		uint32_t s = (uint32_t)(I + 1);

		if (i1 > a->rows)
			i1 = a->rows;
		for (k = a->row_ptr[i0]; k < a->row_ptr[i1]; k++) {
			uint32_t J = a->col_idx[k] / c;

			if (stamp[J] != s) {
				stamp[J] = s;
				n++;
			}
		}
	}
	free(stamp);
	return n;
}

void matrix_fill_count_all(const struct csr *a,
			   uint64_t nblocks[MATRIX_MAX_BLOCK][MATRIX_MAX_BLOCK])
{
	uint32_t *stamp[MATRIX_MAX_BLOCK];
	uint64_t bc[MATRIX_MAX_BLOCK];
	unsigned r, c;

	for (c = 1; c <= MATRIX_MAX_BLOCK; c++) {
		bc[c - 1] = (a->cols + c - 1) / c;
		stamp[c - 1] = xmalloc(((size_t)bc[c - 1] + 1) * sizeof(uint32_t));
	}
	for (r = 1; r <= MATRIX_MAX_BLOCK; r++) {
		uint64_t cnt[MATRIX_MAX_BLOCK] = { 0 }, I;

		for (c = 0; c < MATRIX_MAX_BLOCK; c++)
			memset(stamp[c], 0, ((size_t)bc[c] + 1) * sizeof(uint32_t));
		for (I = 0; I * r < a->rows; I++) {
			uint64_t i0 = I * r, i1 = i0 + r, k, b, e;
			uint32_t s = (uint32_t)(I + 1);

			if (i1 > a->rows)
				i1 = a->rows;
			b = a->row_ptr[i0];
			e = a->row_ptr[i1];
			if (b == e)
				continue;
			/* Width 1 (J = j) and the others separately, so the
			 * compiler sees constant divisors. */
#define PPR_FILL_COL(C) do { \
	uint32_t *st_ = stamp[(C) - 1]; \
	uint64_t n_ = 0; \
	for (k = b; k < e; k++) { \
		uint32_t J_ = a->col_idx[k] / (C); \
		if (st_[J_] != s) { \
			st_[J_] = s; \
			n_++; \
		} \
	} \
	cnt[(C) - 1] += n_; \
} while (0)
			PPR_FILL_COL(1);
			PPR_FILL_COL(2);
			PPR_FILL_COL(3);
			PPR_FILL_COL(4);
			PPR_FILL_COL(5);
			PPR_FILL_COL(6);
			PPR_FILL_COL(7);
			PPR_FILL_COL(8);
#undef PPR_FILL_COL
		}
		for (c = 0; c < MATRIX_MAX_BLOCK; c++)
			nblocks[r - 1][c] = cnt[c];
	}
	for (c = 0; c < MATRIX_MAX_BLOCK; c++)
		free(stamp[c]);
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

int matrix_bcsr_build(const struct csr *a, unsigned r, unsigned c,
		      struct bcsr *out, struct ppr_err *err)
{
	uint64_t nb, I, bcols, vals_n, w = 0;
	uint64_t *slot = NULL;
	uint32_t *stamp = NULL;

	memset(out, 0, sizeof(*out));
	if (r < 1 || r > MATRIX_MAX_BLOCK || c < 1 || c > MATRIX_MAX_BLOCK)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "block shape %ux%u: r and c must be in 1..%d",
				   r, c, MATRIX_MAX_BLOCK);
	nb = matrix_fill_count(a, r, c);
	if (nb > UINT64_MAX / (r * c) / sizeof(double))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "bcsr %ux%u: size overflows 64 bits", r, c);
	vals_n = nb * r * c;
	if (matrix_mem_check(vals_n * sizeof(double) + nb * 4, "bcsr values",
			     err))
		return PPR_ENOMEM;
	bcols = (a->cols + c - 1) / c;
	out->r = r;
	out->c = c;
	out->rows = a->rows;
	out->cols = a->cols;
	out->brows = (a->rows + r - 1) / r;
	out->bcols = bcols;
	out->nblocks = nb;
	out->nnz = a->nnz;
	out->brow_ptr = xmalloc(((size_t)out->brows + 1) * sizeof(uint64_t));
	out->bcol_idx = xmalloc((size_t)(nb ? nb : 1) * sizeof(uint32_t));
	out->vals = xcalloc((size_t)(vals_n ? vals_n : 1), sizeof(double));
	stamp = xcalloc((size_t)bcols + 1, sizeof(uint32_t));
	slot = xmalloc(((size_t)bcols + 1) * sizeof(uint64_t));
	for (I = 0; I < out->brows; I++) {
		uint64_t i0 = I * r, i1 = i0 + r, k, i, first = w;
		uint32_t s = (uint32_t)(I + 1);

		if (i1 > a->rows)
			i1 = a->rows;
		out->brow_ptr[I] = w;
		for (k = a->row_ptr[i0]; k < a->row_ptr[i1]; k++) {
			uint32_t J = a->col_idx[k] / c;

			if (stamp[J] != s) {
				stamp[J] = s;
				out->bcol_idx[w++] = J;
			}
		}
		/* Block columns in increasing order within the block row. */
		if (r > 1 && w - first > 1)
			qsort(out->bcol_idx + first, (size_t)(w - first),
			      sizeof(uint32_t), u32_cmp);
		for (k = first; k < w; k++)
			slot[out->bcol_idx[k]] = k;
		for (i = i0; i < i1; i++)
			for (k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
				uint32_t j = a->col_idx[k];
				uint64_t b = slot[j / c];

				out->vals[b * r * c + (i - i0) * c + j % c] +=
					a->vals[k];
			}
	}
	out->brow_ptr[out->brows] = w;
	free(stamp);
	free(slot);
	return 0;
}

void matrix_bcsr_release(struct bcsr *b)
{
	if (!b)
		return;
	free(b->brow_ptr);
	free(b->bcol_idx);
	free(b->vals);
	memset(b, 0, sizeof(*b));
}
