/*
 * matrix_int.h - shared inside matrix/ only: the triplet (COO) builder the
 * readers and generators append to, its conversion to CSR, and the
 * hand-written number parsers.
 */
#ifndef PPR_MATRIX_INT_H
#define PPR_MATRIX_INT_H

#include <stddef.h>
#include <stdint.h>

#include "matrix/matrix.h"

/* Triplets, 0-based.  Symmetric kinds are expanded while appending. */
struct coo {
	uint64_t rows, cols;
	uint64_t n, cap;
	uint32_t *i, *j;
	double *v;
	enum matrix_symmetry sym;
};

/*
 * Reserve room for 'stored' file entries after checking sizes and the
 * memory limit for the peak of reading (triplets, CSR, the expansion of
 * symmetric kinds) plus 'held' bytes the caller keeps alive meanwhile
 * (the file text).  'name' is used in errors.
 */
int matrix_coo_init(struct coo *t, uint64_t rows, uint64_t cols,
		    uint64_t stored, enum matrix_symmetry sym, uint64_t held,
		    const char *name, struct ppr_err *err);
void matrix_coo_release(struct coo *t);

/* Append one stored entry (0-based); mirroring happens in to_csr. */
static inline void matrix_coo_push(struct coo *t, uint64_t i, uint64_t j,
				   double v)
{
	t->i[t->n] = (uint32_t)i;
	t->j[t->n] = (uint32_t)j;
	t->v[t->n] = v;
	t->n++;
}

/*
 * Build CSR from the triplets (consumes and releases t): rows sorted by
 * column, duplicates (same stored position) summed and counted in *dups.
 * Symmetric kinds are then expanded: every off-diagonal (i,j) gets its
 * mirror (j,i) (negated for skew); where the file itself stores both
 * (i,j) and (j,i), the stored value wins and nothing is counted.
 */
int matrix_coo_to_csr(struct coo *t, struct csr *out, uint64_t *dups,
		      struct ppr_err *err);

/* Count values equal to 0.0. */
uint64_t matrix_csr_count_zeros(const struct csr *a);

/*
 * Number parsing on [*p, end).  On success advance *p past the number and
 * return 0; return -1 when the text there is not a number of that kind,
 * -2 on overflow (integers).  Neither skips leading blanks.
 * fortran != 0 accepts D/d exponents and a bare signed exponent (1.0-3).
 */
int matrix_parse_u64(const char **p, const char *end, uint64_t *out);
int matrix_parse_i64(const char **p, const char *end, int64_t *out);
int matrix_parse_double(const char **p, const char *end, double *out,
			int fortran);

/* Read a whole file, gunzipping if it starts with the gzip magic; buf[len]
 * reads as NUL.  *mapped is the length of a mapping (0: a malloc'd
 * buffer); give both back to matrix_file_release. */
int matrix_file_read(const char *path, char **buf, size_t *len,
		     size_t *mapped, int *gzipped, struct ppr_err *err);
void matrix_file_release(char *buf, size_t mapped);

#endif
