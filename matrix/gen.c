/*
 * gen.c - matrix generators, "gen:NAME:key=value,...".  All build CSR
 * directly (rows sorted, no duplicates) with memory proportional to nnz,
 * and are deterministic: the same spec gives the same matrix bit for bit.
 *
 *   laplace2d:n=N        5-point stencil on an N x N grid, natural order;
 *                        4 on the diagonal, -1 off it; 5N^2 - 4N nonzeros
 *   laplace3d:n=N        7-point stencil on N^3; 6 / -1; 7N^3 - 6N^2
 *   fem3d:n=N,dof=K      N^3 nodes, node p couples with the (up to) 27
 *                        nodes of its 3x3x3 neighbourhood, each coupling a
 *                        dense K x K block; row = node*K + component;
 *                        K^2 (3N-2)^3 nonzeros; symmetric, diagonally
 *                        dominant (diagonal 54K, off-diagonal in
 *                        [-1.5, -1])
 *   banded:n=N,bw=B      all |i-j| <= B; diagonal 2B+2, off-diagonal -1;
 *                        N(2B+1) - B(B+1) nonzeros
 *   random:n=N,per_row=K[,seed=S][,cols=C]   K distinct uniform columns
 *                        per row (Floyd's sampling: no re-draw loop, no
 *                        duplicates), values uniform in (0,1]; N*K
 *                        nonzeros; seed defaults to 1; N rows and C
 *                        columns (default N: square), so the x vector
 *                        can be smaller than the matrix streams
 *   rmat:scale=S[,edge_factor=E][,seed=S]   R-MAT (Chakrabarti, Zhan,
 *                        Faloutsos 2004) with the Graph500 parameters
 *                        a=0.57 b=0.19 c=0.19 (d=0.05); 2^S rows, E*2^S
 *                        generated directed edges (E defaults to 16, as in
 *                        Graph500), duplicates merged with their count as
 *                        the value; no vertex permutation and no noise
 *
 * Random numbers: splitmix64 (Steele, Lea, Flood 2014), seeded with
 * the seed; "x % n" for ranges (bias below n / 2^64, negligible).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "matrix/matrix_int.h"

#define GEN_MAXKEYS 4

struct kv {
	const char *key;
	uint64_t val;
	int set;
};

static uint64_t sm64(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Uniform double in (0, 1]. */
static double sm64_unit(uint64_t *s)
{
	return (double)((sm64(s) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

int matrix_spec_is_gen(const char *s)
{
	return s && !strncmp(s, "gen:", 4);
}

/* Parse "k=v,k=v" against the allowed keys. */
static int parse_params(const char *spec, const char *name, const char *p,
			struct kv *kv, int nkv, struct ppr_err *err)
{
	while (*p) {
		const char *eq = strchr(p, '='), *comma = strchr(p, ',');
		size_t klen;
		int k;
		uint64_t v = 0;
		const char *q;

		if (!comma)
			comma = p + strlen(p);
		if (!eq || eq > comma)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "generator '%s': parameter '%.*s' must be key=value",
					   spec, (int)(comma - p), p);
		klen = (size_t)(eq - p);
		for (k = 0; k < nkv; k++)
			if (strlen(kv[k].key) == klen &&
			    !strncmp(kv[k].key, p, klen))
				break;
		if (k == nkv) {
			char keys[128] = "";
			int m;

			for (m = 0; m < nkv; m++)
				snprintf(keys + strlen(keys),
					 sizeof(keys) - strlen(keys), "%s%s",
					 m ? ", " : "", kv[m].key);
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "generator '%s': unknown parameter '%.*s' for %s (known: %s)",
					   spec, (int)klen, p, name, keys);
		}
		if (kv[k].set)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "generator '%s': parameter '%s' given twice",
					   spec, kv[k].key);
		q = eq + 1;
		if (q == comma || matrix_parse_u64(&q, comma, &v) || q != comma)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "generator '%s': %s='%.*s' is not a non-negative integer",
					   spec, kv[k].key, (int)(comma - eq - 1),
					   eq + 1);
		kv[k].val = v;
		kv[k].set = 1;
		p = *comma ? comma + 1 : comma;
	}
	return 0;
}

static int need(const char *spec, struct kv *kv, int nkv,
		struct ppr_err *err)
{
	int k;

	for (k = 0; k < nkv; k++)
		if (!kv[k].set)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "generator '%s': missing parameter '%s'",
					   spec, kv[k].key);
	return 0;
}

/* Multiply with overflow check. */
static int mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return 0;
	*out = a * b;
	return 1;
}

static int alloc_csr(const char *spec, uint64_t rows, uint64_t cols,
		     uint64_t nnz, struct csr *a, struct ppr_err *err)
{
	uint64_t bytes;
	char what[300];

	if (rows > UINT32_MAX || cols > UINT32_MAX)
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': %" PRIu64 " rows: rows and columns must be below 2^32 (32-bit column indices)",
				   spec, rows);
	if (!mul_ok(nnz, 12, &bytes) || bytes > UINT64_MAX - 8 * (rows + 1))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': size overflows 64 bits",
				   spec);
	bytes += 8 * (rows + 1);
	snprintf(what, sizeof(what), "generator '%s' (%" PRIu64 " nonzeros)",
		 spec, nnz);
	if (matrix_mem_check(bytes, what, err))
		return PPR_ENOMEM;
	if (bytes > SIZE_MAX)
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': too large for this address space",
				   spec);
	a->rows = rows;
	a->cols = cols;
	a->nnz = nnz;
	a->row_ptr = xmalloc(((size_t)rows + 1) * sizeof(uint64_t));
	a->col_idx = xmalloc((size_t)(nnz ? nnz : 1) * sizeof(uint32_t));
	a->vals = xmalloc((size_t)(nnz ? nnz : 1) * sizeof(double));
	return 0;
}

static int gen_laplace(const char *spec, uint64_t n, int dim, struct csr *a,
		       struct ppr_err *err)
{
	uint64_t rows, nnz, n2, x, y, z, w = 0;

	if (!n)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "generator '%s': n must be at least 1", spec);
	if (n > UINT32_MAX || !mul_ok(n, n, &n2) ||
	    !mul_ok(n2, dim == 3 ? n : 1, &rows) || rows > UINT32_MAX)
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': n=%" PRIu64 " gives 2^32 or more rows",
				   spec, n);
	nnz = dim == 2 ? 5 * n2 - 4 * n : 7 * rows - 6 * n2;
	if (!a)
		return 0;	/* matrix_gen_check */
	if (alloc_csr(spec, rows, rows, nnz, a, err))
		return err ? err->code : PPR_ENOMEM;
	for (z = 0; z < (dim == 3 ? n : 1); z++)
		for (y = 0; y < n; y++)
			for (x = 0; x < n; x++) {
				uint64_t i = (z * n + y) * n + x;

				a->row_ptr[i] = w;
#define PUT(col, v) do { a->col_idx[w] = (uint32_t)(col); a->vals[w++] = (v); } while (0)
				if (dim == 3 && z > 0)
					PUT(i - n2, -1.0);
				if (y > 0)
					PUT(i - n, -1.0);
				if (x > 0)
					PUT(i - 1, -1.0);
				PUT(i, dim == 3 ? 6.0 : 4.0);
				if (x + 1 < n)
					PUT(i + 1, -1.0);
				if (y + 1 < n)
					PUT(i + n, -1.0);
				if (dim == 3 && z + 1 < n)
					PUT(i + n2, -1.0);
			}
	a->row_ptr[rows] = w;
	return 0;
}

static int gen_fem3d(const char *spec, uint64_t n, uint64_t K, struct csr *a,
		     struct ppr_err *err)
{
	uint64_t nodes, rows, t, nnz, w = 0, x, y, z;

	if (!n || !K)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "generator '%s': n and dof must be at least 1",
				   spec);
	if (n > UINT32_MAX || K > UINT32_MAX || !mul_ok(n, n, &t) ||
	    !mul_ok(t, n, &nodes) || !mul_ok(nodes, K, &rows) ||
	    rows > UINT32_MAX)
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': n^3*dof is 2^32 rows or more",
				   spec);
	t = 3 * n - 2;
	if (!mul_ok(t * t, t, &nnz) || !mul_ok(nnz, K * K, &nnz))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': nonzero count overflows", spec);
	if (!a)
		return 0;
	if (alloc_csr(spec, rows, rows, nnz, a, err))
		return err ? err->code : PPR_ENOMEM;
	for (z = 0; z < n; z++)
		for (y = 0; y < n; y++)
			for (x = 0; x < n; x++) {
				uint64_t p = (z * n + y) * n + x, c;

				for (c = 0; c < K; c++) {
					int dz, dy, dx;

					a->row_ptr[p * K + c] = w;
					for (dz = -1; dz <= 1; dz++)
					for (dy = -1; dy <= 1; dy++)
					for (dx = -1; dx <= 1; dx++) {
						uint64_t q, b;

						if ((dz < 0 && !z) || (dz > 0 && z + 1 >= n) ||
						    (dy < 0 && !y) || (dy > 0 && y + 1 >= n) ||
						    (dx < 0 && !x) || (dx > 0 && x + 1 >= n))
							continue;
						q = p + (uint64_t)((int64_t)dz * (int64_t)(n * n) +
								   (int64_t)dy * (int64_t)n + dx);
						for (b = 0; b < K; b++) {
							double v = q == p && b == c
								? 54.0 * (double)K
								: -1.0 - 0.25 * (double)((b + c) % 3);

							PUT(q * K + b, v);
						}
					}
				}
			}
	a->row_ptr[rows] = w;
	return 0;
}

static int gen_banded(const char *spec, uint64_t n, uint64_t bw,
		      struct csr *a, struct ppr_err *err)
{
	uint64_t nnz, i, j, w = 0;

	if (!n)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "generator '%s': n must be at least 1", spec);
	if (n > UINT32_MAX)
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': n must be below 2^32", spec);
	if (bw >= n)
		bw = n - 1;
	if (!mul_ok(n, 2 * bw + 1, &nnz))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': nonzero count overflows", spec);
	nnz -= bw * (bw + 1);
	if (!a)
		return 0;
	if (alloc_csr(spec, n, n, nnz, a, err))
		return err ? err->code : PPR_ENOMEM;
	for (i = 0; i < n; i++) {
		a->row_ptr[i] = w;
		for (j = i > bw ? i - bw : 0; j <= i + bw && j < n; j++)
			PUT(j, i == j ? (double)(2 * bw + 2) : -1.0);
	}
	a->row_ptr[n] = w;
	return 0;
}

static int gen_random(const char *spec, uint64_t n, uint64_t K,
		      uint64_t seed, uint64_t ncols, struct csr *a,
		      struct ppr_err *err)
{
	uint64_t nnz, i, w = 0, s = seed;
	uint32_t *mark = NULL;

	if (!n)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "generator '%s': n must be at least 1", spec);
	if (!ncols)
		ncols = n;
	if (n > UINT32_MAX - 1 || ncols > UINT32_MAX - 1)
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': n and cols must be below 2^32-1", spec);
	if (K > ncols)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "generator '%s': per_row=%" PRIu64 " exceeds the %" PRIu64 " columns (columns are distinct)",
				   spec, K, ncols);
	if (!mul_ok(n, K, &nnz))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': nonzero count overflows", spec);
	if (!a)
		return 0;
	if (alloc_csr(spec, n, ncols, nnz, a, err))
		return err ? err->code : PPR_ENOMEM;
	mark = xcalloc((size_t)ncols, sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		uint32_t st = (uint32_t)(i + 1);
		uint64_t j, k0 = w, k, m;

		a->row_ptr[i] = w;
		/* Floyd: for j = C-K .. C-1 (C = ncols) draw t in [0, j];
		 * take t, or j when t is already taken.  K distinct,
		 * uniformly. */
		for (j = ncols - K; j < ncols; j++) {
			uint64_t t = sm64(&s) % (j + 1);

			if (mark[t] == st)
				t = j;
			mark[t] = st;
			a->col_idx[w] = (uint32_t)t;
			a->vals[w++] = 0.0;
		}
		/* Sort the row's columns (insertion: rows are short). */
		for (k = k0 + 1; k < w; k++) {
			uint32_t c = a->col_idx[k];

			m = k;
			while (m > k0 && a->col_idx[m - 1] > c) {
				a->col_idx[m] = a->col_idx[m - 1];
				m--;
			}
			a->col_idx[m] = c;
		}
		for (k = k0; k < w; k++)
			a->vals[k] = sm64_unit(&s);
	}
	a->row_ptr[n] = w;
	free(mark);
	return 0;
}

static int gen_rmat(const char *spec, uint64_t scale, uint64_t ef,
		    uint64_t seed, struct csr *a, uint64_t *dups,
		    struct ppr_err *err)
{
	struct coo t;
	uint64_t n, m, e, s = seed;
	int rc;

	if (!scale || scale > 31)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "generator '%s': scale must be in 1..31", spec);
	if (!ef)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "generator '%s': edge_factor must be at least 1",
				   spec);
	n = UINT64_C(1) << scale;
	if (!mul_ok(n, ef, &m))
		return ppr_err_set(err, PPR_ERANGE, NULL, 0, 0,
				   "generator '%s': edge count overflows", spec);
	if (!a)
		return 0;
	rc = matrix_coo_init(&t, n, n, m, MATRIX_SYM_GENERAL, 0, spec, err);
	if (rc)
		return rc;
	for (e = 0; e < m; e++) {
		uint64_t i = 0, j = 0, lv;

		for (lv = 0; lv < scale; lv++) {
			/* a=.57 b=.19 c=.19 d=.05 over 2^53 steps */
			double u = (double)(sm64(&s) >> 11) *
				   (1.0 / 9007199254740992.0);

			i <<= 1;
			j <<= 1;
			if (u < 0.57)
				;
			else if (u < 0.76)
				j |= 1;
			else if (u < 0.95)
				i |= 1;
			else {
				i |= 1;
				j |= 1;
			}
		}
		matrix_coo_push(&t, i, j, 1.0);
	}
	return matrix_coo_to_csr(&t, a, dups, err);
}

int matrix_gen(const char *spec, struct csr *out, struct matrix_info *info,
	       struct ppr_err *err)
{
	static const char *const names[] = {
		"laplace2d", "laplace3d", "fem3d", "banded", "random", "rmat",
	};
	struct kv kv[GEN_MAXKEYS];
	struct matrix_info inf;
	const char *name, *colon, *params;
	char nm[32];
	size_t nlen, k;
	int which = -1, nkv = 0, rc;
	uint64_t dups = 0;

	if (out)
		memset(out, 0, sizeof(*out));
	memset(&inf, 0, sizeof(inf));
	memset(kv, 0, sizeof(kv));
	if (!matrix_spec_is_gen(spec))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "'%s' is not a generator spec (gen:NAME:k=v,...)",
				   spec);
	name = spec + 4;
	colon = strchr(name, ':');
	nlen = colon ? (size_t)(colon - name) : strlen(name);
	params = colon ? colon + 1 : "";
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (strlen(names[k]) == nlen && !strncmp(names[k], name, nlen))
			which = (int)k;
	snprintf(nm, sizeof(nm), "%.*s", (int)(nlen < 31 ? nlen : 31), name);
	switch (which) {
	case 0: case 1:
		kv[nkv++].key = "n";
		break;
	case 2:
		kv[nkv++].key = "n";
		kv[nkv++].key = "dof";
		break;
	case 3:
		kv[nkv++].key = "n";
		kv[nkv++].key = "bw";
		break;
	case 4:
		kv[nkv++].key = "n";
		kv[nkv++].key = "per_row";
		kv[nkv].key = "seed";
		kv[nkv].val = 1;
		nkv++;
		kv[nkv++].key = "cols"; /* 0: n */
		break;
	case 5:
		kv[nkv++].key = "scale";
		kv[nkv].key = "edge_factor";
		kv[nkv].val = 16;
		nkv++;
		kv[nkv].key = "seed";
		kv[nkv].val = 1;
		nkv++;
		break;
	default:
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "unknown generator '%s' (known: laplace2d, laplace3d, fem3d, banded, random, rmat)",
				   nm);
	}
	if (parse_params(spec, nm, params, kv, nkv, err))
		return PPR_EINVAL;
	/* seed and edge_factor have defaults */
	if (which == 4)
		kv[2].set = kv[3].set = 1;
	if (which == 5)
		kv[1].set = kv[2].set = 1;
	if (need(spec, kv, nkv, err))
		return PPR_EINVAL;
	switch (which) {
	case 0: case 1:
		rc = gen_laplace(spec, kv[0].val, which ? 3 : 2, out, err);
		break;
	case 2:
		rc = gen_fem3d(spec, kv[0].val, kv[1].val, out, err);
		break;
	case 3:
		rc = gen_banded(spec, kv[0].val, kv[1].val, out, err);
		break;
	case 4:
		rc = gen_random(spec, kv[0].val, kv[1].val, kv[2].val,
				kv[3].val, out, err);
		break;
	default:
		rc = gen_rmat(spec, kv[0].val, kv[1].val, kv[2].val, out, &dups,
			      err);
		break;
	}
	if (rc || !out) {
		if (out)
			matrix_csr_release(out);
		return rc;
	}
	inf.format = MATRIX_FMT_GEN;
	inf.field = MATRIX_FIELD_REAL;
	inf.symmetry = which <= 3 ? MATRIX_SYM_SYMMETRIC : MATRIX_SYM_GENERAL;
	inf.rows = out->rows;
	inf.cols = out->cols;
	inf.nnz = out->nnz;
	inf.duplicates = dups;
	inf.stored = out->nnz + dups;
	inf.explicit_zeros = 0;
	snprintf(inf.title, sizeof(inf.title), "%s", spec);
	if (info)
		*info = inf;
	return 0;
}

int matrix_gen_check(const char *spec, struct ppr_err *err)
{
	return matrix_gen(spec, NULL, NULL, err);
}
