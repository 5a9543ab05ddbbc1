/*
 * csr.c - triplets to CSR (sort rows by column, sum duplicates), memory
 * checks, row statistics, Matrix Market writer, enum names.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "matrix/matrix_int.h"

/*
 * The working-set limit (--max-memory): 0 means the default, 3/4 of
 * physical memory (the rest is left to the OS and the page cache).  One
 * process-wide setting, made by the CLI before anything is loaded.
 */
static uint64_t mem_limit_bytes;

void matrix_mem_limit_set(uint64_t bytes)
{
	mem_limit_bytes = bytes;
}

uint64_t matrix_mem_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);
	uint64_t phys;

	if (mem_limit_bytes)
		return mem_limit_bytes;
	if (pages <= 0 || psize <= 0)
		return UINT64_MAX;	/* unknown: let the allocator decide */
	phys = (uint64_t)pages * (uint64_t)psize;
	return phys / 4 * 3;
}

/* "512.0 KiB", "5.4 MiB", "11183.3 GiB" */
static const char *human_bytes(uint64_t b, char *buf, size_t n)
{
	if (b >= (UINT64_C(1) << 30))
		snprintf(buf, n, "%.1f GiB", (double)b / 1073741824.0);
	else if (b >= (UINT64_C(1) << 20))
		snprintf(buf, n, "%.1f MiB", (double)b / 1048576.0);
	else
		snprintf(buf, n, "%.1f KiB", (double)b / 1024.0);
	return buf;
}

int matrix_mem_check(uint64_t bytes, const char *what, struct ppr_err *err)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);
	uint64_t lim = matrix_mem_limit();
	double phys = pages > 0 && psize > 0
		? (double)pages * (double)psize / 1073741824.0 : 0.0;
	char need[32], have[32];

	if (bytes <= lim)
		return 0;
	human_bytes(bytes, need, sizeof(need));
	if (mem_limit_bytes)
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "%s needs %s but --max-memory is %s", what,
				   need, human_bytes(lim, have, sizeof(have)));
	return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
			   "%s needs %s but the machine has %.1f GiB of memory (limit 3/4 of it; --max-memory sets another)",
			   what, need, phys);
}

int matrix_coo_init(struct coo *t, uint64_t rows, uint64_t cols,
		    uint64_t stored, enum matrix_symmetry sym, uint64_t held,
		    const char *name, struct ppr_err *err)
{
	uint64_t cap, bytes;
	char what[600];

	memset(t, 0, sizeof(*t));
	if (rows > UINT32_MAX || cols > UINT32_MAX)
		return ppr_err_set(err, PPR_ERANGE, name, 0, 0,
				   "%" PRIu64 " x %" PRIu64 " matrix is too large: rows and columns must be below 2^32 (32-bit column indices)",
				   rows, cols);
	cap = stored;
	/*
	 * Peak: triplets (16 B) + CSR (12 B) per entry, or for symmetric
	 * kinds the stored CSR + its transpose + the expanded CSR (36 B).
	 */
	if (cap > (UINT64_MAX - 24 * (rows + 1)) / 36)
		goto too_big;
	bytes = cap * (sym == MATRIX_SYM_GENERAL ? 28 : 36) + 24 * (rows + 1);
	if (bytes > UINT64_MAX - held)
		goto too_big;
	bytes += held;
	snprintf(what, sizeof(what), "%s: %" PRIu64 " x %" PRIu64
		 " matrix with %" PRIu64 " entries", name, rows, cols,
		 sym == MATRIX_SYM_GENERAL ? cap : 2 * cap);
	if (matrix_mem_check(bytes, what, err))
		return PPR_ENOMEM;
	if (cap > SIZE_MAX / 8)
		goto too_big;
	t->rows = rows;
	t->cols = cols;
	t->cap = cap;
	t->sym = sym;
	t->i = xmalloc((size_t)(cap ? cap : 1) * sizeof(uint32_t));
	t->j = xmalloc((size_t)(cap ? cap : 1) * sizeof(uint32_t));
	t->v = xmalloc((size_t)(cap ? cap : 1) * sizeof(double));
	return 0;
too_big:
	return ppr_err_set(err, PPR_ERANGE, name, 0, 0,
			   "%" PRIu64 " entries: size overflows 64 bits", stored);
}

void matrix_coo_release(struct coo *t)
{
	free(t->i);
	free(t->j);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

struct colval {
	uint32_t c;
	double v;
};

static int colval_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct colval *)a)->c;
	uint32_t y = ((const struct colval *)b)->c;

	return (x > y) - (x < y);
}

/* Sort one row by column: insertion sort when short or nearly sorted. */
static void row_sort(uint32_t *c, double *v, uint64_t n,
		     struct colval **tmp, uint64_t *tmpcap)
{
	uint64_t k, m, inv = 0;

	for (k = 1; k < n; k++)
		if (c[k] < c[k - 1])
			inv++;
	if (!inv)
		return;
	if (n <= 48 || inv <= 4) {
		for (k = 1; k < n; k++) {
			uint32_t cc = c[k];
			double vv = v[k];

			m = k;
			while (m > 0 && c[m - 1] > cc) {
				c[m] = c[m - 1];
				v[m] = v[m - 1];
				m--;
			}
			c[m] = cc;
			v[m] = vv;
		}
		return;
	}
	if (*tmpcap < n) {
		free(*tmp);
		*tmp = xmalloc((size_t)n * sizeof(**tmp));
		*tmpcap = n;
	}
	for (k = 0; k < n; k++) {
		(*tmp)[k].c = c[k];
		(*tmp)[k].v = v[k];
	}
	/* qsort is not stable; duplicates are summed, so order is moot. */
	qsort(*tmp, (size_t)n, sizeof(**tmp), colval_cmp);
	for (k = 0; k < n; k++) {
		c[k] = (*tmp)[k].c;
		v[k] = (*tmp)[k].v;
	}
}

/*
 * out = S + mirror(S) for a square stored CSR S: off-diagonal (i,j) adds
 * (j,i) unless S stores (j,i) itself (then S's value is kept).
 */
static int expand(struct csr *s, enum matrix_symmetry sym,
		  struct ppr_err *err)
{
	uint64_t n = s->rows, i, k, w = 0, tn = 0;
	uint64_t *tp = NULL, *pos = NULL, *np = NULL;
	uint32_t *tc = NULL, *nc = NULL;
	double *tv = NULL, *nv = NULL;
	double sign = sym == MATRIX_SYM_SKEW ? -1.0 : 1.0;

	(void)err;
	/* Transpose of the off-diagonal part. */
	tp = xcalloc((size_t)n + 1, sizeof(uint64_t));
	for (i = 0; i < n; i++)
		for (k = s->row_ptr[i]; k < s->row_ptr[i + 1]; k++)
			if (s->col_idx[k] != i) {
				tp[s->col_idx[k] + 1]++;
				tn++;
			}
	for (i = 0; i < n; i++)
		tp[i + 1] += tp[i];
	tc = xmalloc((size_t)(tn ? tn : 1) * sizeof(uint32_t));
	tv = xmalloc((size_t)(tn ? tn : 1) * sizeof(double));
	pos = xmalloc(((size_t)n + 1) * sizeof(uint64_t));
	memcpy(pos, tp, ((size_t)n + 1) * sizeof(uint64_t));
	/* Rows visited in order: each transposed row comes out sorted. */
	for (i = 0; i < n; i++)
		for (k = s->row_ptr[i]; k < s->row_ptr[i + 1]; k++)
			if (s->col_idx[k] != i) {
				uint64_t q = pos[s->col_idx[k]]++;

				tc[q] = (uint32_t)i;
				tv[q] = sign * s->vals[k];
			}
	free(pos);
	np = xmalloc(((size_t)n + 1) * sizeof(uint64_t));
	nc = xmalloc((size_t)(s->nnz + tn ? s->nnz + tn : 1) * sizeof(uint32_t));
	nv = xmalloc((size_t)(s->nnz + tn ? s->nnz + tn : 1) * sizeof(double));
	for (i = 0; i < n; i++) {
		uint64_t a = s->row_ptr[i], ae = s->row_ptr[i + 1];
		uint64_t b = tp[i], be = tp[i + 1];

		np[i] = w;
		while (a < ae || b < be) {
			if (b >= be || (a < ae && s->col_idx[a] < tc[b])) {
				nc[w] = s->col_idx[a];
				nv[w++] = s->vals[a++];
			} else if (a >= ae || tc[b] < s->col_idx[a]) {
				nc[w] = tc[b];
				nv[w++] = tv[b++];
			} else {	/* both stored: keep the stored value */
				nc[w] = s->col_idx[a];
				nv[w++] = s->vals[a++];
				b++;
			}
		}
	}
	np[n] = w;
	free(tp);
	free(tc);
	free(tv);
	free(s->row_ptr);
	free(s->col_idx);
	free(s->vals);
	s->row_ptr = np;
	s->col_idx = nc;
	s->vals = nv;
	s->nnz = w;
	return 0;
}

int matrix_coo_to_csr(struct coo *t, struct csr *out, uint64_t *dups,
		      struct ppr_err *err)
{
	uint64_t rows = t->rows, cols = t->cols, n = t->n, r, k, w, d = 0;
	uint64_t *ptr = NULL, *pos = NULL;
	uint32_t *col = NULL;
	double *val = NULL;
	struct colval *tmp = NULL;
	uint64_t tmpcap = 0;

	(void)err;
	memset(out, 0, sizeof(*out));
	ptr = xcalloc((size_t)rows + 1, sizeof(uint64_t));
	for (k = 0; k < n; k++)
		ptr[t->i[k] + 1]++;
	for (r = 0; r < rows; r++)
		ptr[r + 1] += ptr[r];
	col = xmalloc((size_t)(n ? n : 1) * sizeof(uint32_t));
	val = xmalloc((size_t)(n ? n : 1) * sizeof(double));
	pos = xmalloc(((size_t)rows + 1) * sizeof(uint64_t));
	memcpy(pos, ptr, ((size_t)rows + 1) * sizeof(uint64_t));
	for (k = 0; k < n; k++) {
		uint64_t p = pos[t->i[k]]++;

		col[p] = t->j[k];
		val[p] = t->v[k];
	}
	free(pos);
	{
		enum matrix_symmetry sym = t->sym;

		matrix_coo_release(t);
		t->sym = sym;
	}
	/* Sort each row, then merge equal columns while compacting. */
	w = 0;
	for (r = 0; r < rows; r++) {
		uint64_t b = ptr[r], e = ptr[r + 1];

		row_sort(col + b, val + b, e - b, &tmp, &tmpcap);
		ptr[r] = w;
		for (k = b; k < e; k++) {
			if (k > b && col[k] == col[w - 1]) {
				val[w - 1] += val[k];
				d++;
				continue;
			}
			col[w] = col[k];
			val[w] = val[k];
			w++;
		}
	}
	ptr[rows] = w;
	free(tmp);
	if (w < n && w > 0) {
		col = xrealloc(col, (size_t)w * sizeof(uint32_t));
		val = xrealloc(val, (size_t)w * sizeof(double));
	}
	out->rows = rows;
	out->cols = cols;
	out->nnz = w;
	out->row_ptr = ptr;
	out->col_idx = col;
	out->vals = val;
	if (dups)
		*dups = d;
	if (t->sym != MATRIX_SYM_GENERAL)
		return expand(out, t->sym, err);
	return 0;
}

void matrix_csr_release(struct csr *a)
{
	if (!a)
		return;
	free(a->row_ptr);
	free(a->col_idx);
	free(a->vals);
	memset(a, 0, sizeof(*a));
}

uint64_t matrix_csr_count_zeros(const struct csr *a)
{
	uint64_t k, z = 0;

	for (k = 0; k < a->nnz; k++)
		if (a->vals[k] == 0.0)
			z++;
	return z;
}

void matrix_row_stats_compute(const struct csr *a,
			      struct matrix_row_stats *st)
{
	uint64_t r;
	double sum = 0.0, sq = 0.0;

	memset(st, 0, sizeof(*st));
	if (!a->rows)
		return;
	st->min = UINT64_MAX;
	for (r = 0; r < a->rows; r++) {
		uint64_t len = a->row_ptr[r + 1] - a->row_ptr[r];

		if (len < st->min)
			st->min = len;
		if (len > st->max)
			st->max = len;
		if (!len)
			st->empty_rows++;
		sum += (double)len;
	}
	st->mean = sum / (double)a->rows;
	for (r = 0; r < a->rows; r++) {
		double dl = (double)(a->row_ptr[r + 1] - a->row_ptr[r]) - st->mean;

		sq += dl * dl;
	}
	st->stddev = sqrt(sq / (double)a->rows);
}

int matrix_csr_write_mm(const struct csr *a, FILE *f, struct ppr_err *err)
{
	uint64_t r, k;

	fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n");
	fprintf(f, "%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", a->rows, a->cols,
		a->nnz);
	for (r = 0; r < a->rows; r++)
		for (k = a->row_ptr[r]; k < a->row_ptr[r + 1]; k++)
			fprintf(f, "%" PRIu64 " %" PRIu32 " %.17g\n", r + 1,
				a->col_idx[k] + 1, a->vals[k]);
	if (fflush(f) || ferror(f))
		return ppr_err_set(err, PPR_EIO, NULL, 0, 0,
				   "cannot write matrix market output");
	return 0;
}

const char *matrix_field_name(enum matrix_field f)
{
	switch (f) {
	case MATRIX_FIELD_REAL: return "real";
	case MATRIX_FIELD_INTEGER: return "integer";
	case MATRIX_FIELD_COMPLEX: return "complex";
	case MATRIX_FIELD_PATTERN: return "pattern";
	}
	return "?";
}

const char *matrix_symmetry_name(enum matrix_symmetry s)
{
	switch (s) {
	case MATRIX_SYM_GENERAL: return "general";
	case MATRIX_SYM_SYMMETRIC: return "symmetric";
	case MATRIX_SYM_SKEW: return "skew-symmetric";
	case MATRIX_SYM_HERMITIAN: return "hermitian";
	}
	return "?";
}

const char *matrix_format_name(enum matrix_format f)
{
	switch (f) {
	case MATRIX_FMT_NONE: return "none";
	case MATRIX_FMT_MM_COORD: return "matrix-market coordinate";
	case MATRIX_FMT_MM_ARRAY: return "matrix-market array";
	case MATRIX_FMT_RB: return "rutherford-boeing";
	case MATRIX_FMT_GEN: return "generator";
	}
	return "?";
}
