/*
 * bcsr.c - BCSR r x c from CSR, and block counts / fill ratios.
 *
 * Blocks are aligned at 0: entry (i,j) lies in block (i/r, j/c).  A block
 * is stored when it holds at least one CSR entry (explicit zeros count:
 * they are entries).  Partial edge blocks count as full r*c blocks.
 *
 * Counting one shape without building: for one block-row I, every entry
 * marks stamp[J] = I+1; an entry whose J is not yet stamped opens a new
 * block.  All 64 shapes: see matrix_fill_count_all() (merge, no stamps).
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

/*
 * All 64 shapes.  For a block height r, the r sorted rows of a block row
 * are merged into one sorted column sequence (r <= 8 heads, linear min);
 * for each width c the blocks of that block row are the runs of equal
 * j/c along it.  Streaming only: no stamp arrays over the columns, so
 * scattered column patterns cost no cache misses.
 */
void matrix_fill_count_all(const struct csr *a,
			   uint64_t nblocks[MATRIX_MAX_BLOCK][MATRIX_MAX_BLOCK])
{
	uint64_t maxbr = 0, I, i;
	uint32_t *m;
	unsigned r, c;

	/* Longest block row over all heights bounds the merge buffer. */
	for (r = 2; r <= MATRIX_MAX_BLOCK; r++)
		for (I = 0; I * r < a->rows; I++) {
			uint64_t i1 = (I + 1) * r;

			if (i1 > a->rows)
				i1 = a->rows;
			if (a->row_ptr[i1] - a->row_ptr[I * r] > maxbr)
				maxbr = a->row_ptr[i1] - a->row_ptr[I * r];
		}
	m = xmalloc((size_t)(maxbr ? maxbr : 1) * sizeof(uint32_t));
	for (r = 1; r <= MATRIX_MAX_BLOCK; r++) {
		uint64_t cnt[MATRIX_MAX_BLOCK] = { 0 };

		for (I = 0; I * r < a->rows; I++) {
			uint64_t i0 = I * r, i1 = i0 + r, n = 0;
			const uint32_t *seq;

			if (i1 > a->rows)
				i1 = a->rows;
			if (a->row_ptr[i1] == a->row_ptr[i0])
				continue;
			if (r == 1) {
				seq = a->col_idx + a->row_ptr[i0];
				n = a->row_ptr[i0 + 1] - a->row_ptr[i0];
			} else {
				uint64_t h[MATRIX_MAX_BLOCK] = { 0 };
				uint64_t e[MATRIX_MAX_BLOCK] = { 0 };
				unsigned nh = 0, k;

				for (i = i0; i < i1; i++)
					if (a->row_ptr[i] < a->row_ptr[i + 1]) {
						h[nh] = a->row_ptr[i];
						e[nh++] = a->row_ptr[i + 1];
					}
				while (nh > 1) {
					unsigned best = 0;
					uint32_t v = a->col_idx[h[0]];

					for (k = 1; k < nh; k++)
						if (a->col_idx[h[k]] < v) {
							v = a->col_idx[h[k]];
							best = k;
						}
					m[n++] = v;
					if (++h[best] == e[best]) {
						h[best] = h[nh - 1];
						e[best] = e[nh - 1];
						nh--;
					}
				}
				while (h[0] < e[0])
					m[n++] = a->col_idx[h[0]++];
				seq = m;
			}
			/* Constant divisors: one loop per width. */
#define PPR_FILL_RUNS(C) do { \
	uint32_t prev_ = seq[0] / (C); \
	uint64_t k_, n_ = 1; \
	for (k_ = 1; k_ < n; k_++) { \
		uint32_t J_ = seq[k_] / (C); \
		n_ += J_ != prev_; \
		prev_ = J_; \
	} \
	cnt[(C) - 1] += n_; \
} while (0)
			PPR_FILL_RUNS(1);
			PPR_FILL_RUNS(2);
			PPR_FILL_RUNS(3);
			PPR_FILL_RUNS(4);
			PPR_FILL_RUNS(5);
			PPR_FILL_RUNS(6);
			PPR_FILL_RUNS(7);
			PPR_FILL_RUNS(8);
#undef PPR_FILL_RUNS
		}
		for (c = 0; c < MATRIX_MAX_BLOCK; c++)
			nblocks[r - 1][c] = cnt[c];
	}
	free(m);
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
