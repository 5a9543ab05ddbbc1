/*
 * matrix.h - sparse matrix input (Matrix Market, Rutherford-Boeing /
 * Harwell-Boeing, gen: generators), CSR and BCSR r x c storage, block
 * counts and fill ratios for the 64 shapes r, c in 1..8.
 *
 * Index widths (chosen once, used by the SpMV kernels):
 *   - column indices are uint32_t (rows and cols must be < 2^32; larger
 *     matrices are refused with PPR_ERANGE before anything is allocated);
 *   - row pointers are uint64_t, so nnz >= 2^31 (and >= 2^32) works when
 *     the machine has the memory (checked against physical memory first);
 *   - values are double.
 *
 * CSR invariant: rows sorted by column, no duplicate (i,j) (duplicates are
 * summed while reading), explicit zeros kept as stored entries.
 *
 * BCSR r x c: blocks aligned at 0, block (I,J) = (i/r, j/c).  Each stored
 * block holds r*c doubles, row-major inside the block; entries absent from
 * the CSR are 0.0 (fill).  Partial edge blocks count as full r*c blocks.
 * fill ratio = nblocks * r * c / nnz.
 *
 * Ownership: matrix_load() and friends fill a caller-owned struct csr; free
 * its arrays with matrix_csr_release().  Same for struct bcsr with
 * matrix_bcsr_release().  Both accept zeroed / released structs.
 */
#ifndef PPR_MATRIX_H
#define PPR_MATRIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/ppr_err.h"

#define MATRIX_MAX_BLOCK 8

struct csr {
	uint64_t rows, cols, nnz;
	uint64_t *row_ptr;	/* rows + 1 entries */
	uint32_t *col_idx;	/* nnz entries, sorted within each row */
	double *vals;		/* nnz entries */
};

struct bcsr {
	unsigned r, c;		/* block shape, 1..8 each */
	uint64_t rows, cols;	/* of the scalar matrix */
	uint64_t brows, bcols;	/* ceil(rows/r), ceil(cols/c) */
	uint64_t nblocks;	/* stored (nonzero) blocks */
	uint64_t nnz;		/* nonzeros of the source CSR */
	uint64_t *brow_ptr;	/* brows + 1 entries */
	uint32_t *bcol_idx;	/* nblocks entries: block column J */
	double *vals;		/* nblocks * r * c, row-major per block */
};

enum matrix_format {
	MATRIX_FMT_NONE = 0,
	MATRIX_FMT_MM_COORD,	/* Matrix Market coordinate */
	MATRIX_FMT_MM_ARRAY,	/* Matrix Market array (dense) */
	MATRIX_FMT_RB,		/* Rutherford-Boeing / Harwell-Boeing */
	MATRIX_FMT_GEN,		/* gen: generator */
};

enum matrix_field {
	MATRIX_FIELD_REAL = 0,
	MATRIX_FIELD_INTEGER,
	MATRIX_FIELD_COMPLEX,	/* only the real part is kept */
	MATRIX_FIELD_PATTERN,	/* values are 1.0 */
};

enum matrix_symmetry {
	MATRIX_SYM_GENERAL = 0,
	MATRIX_SYM_SYMMETRIC,
	MATRIX_SYM_SKEW,	/* mirror with negated value */
	MATRIX_SYM_HERMITIAN,	/* mirror conj: real part kept */
};

/* What was read, besides the matrix itself. */
struct matrix_info {
	enum matrix_format format;
	enum matrix_field field;
	enum matrix_symmetry symmetry;
	int gzipped;		/* input was gzip-compressed */
	int complex_real_part;	/* complex input: imaginary parts dropped */
	uint64_t rows, cols;
	uint64_t stored;	/* entries stored in the file (or generated) */
	uint64_t nnz;		/* after expansion and duplicate merging */
	uint64_t duplicates;	/* entries merged into an earlier (i,j) */
	uint64_t explicit_zeros; /* entries of the CSR whose value is 0.0 */
	char type_code[4];	/* RB type code like "RUA" ("" otherwise) */
	char title[80];		/* RB title / gen spec, may be empty */
};

struct matrix_row_stats {
	uint64_t min, max, empty_rows;
	double mean, stddev;	/* population standard deviation */
};

/* ---- loading -------------------------------------------------------- */

/*
 * Load a matrix from a file path (.mtx, .mtx.gz, .rb/.rua/.rsa/.psa/.cua/
 * .rra..., gzip detected by its magic bytes) or from a generator spec
 * "gen:NAME:k=v,...".  Fills *out (caller releases) and *info (may be
 * NULL).  On failure *out is left zeroed and err names file:line and what.
 *
 * Generator specs:
 *   gen:laplace2d:n=N            5-point,  N^2 rows, 5N^2-4N nonzeros
 *   gen:laplace3d:n=N            7-point,  N^3 rows, 7N^3-6N^2 nonzeros
 *   gen:fem3d:n=N,dof=K          27-point node graph, dense KxK blocks
 *   gen:banded:n=N,bw=B          |i-j| <= B
 *   gen:random:n=N,per_row=K,seed=S,cols=C  K distinct random columns per
 *                                row, of C (default N); seed defaults to 1
 *   gen:rmat:scale=S,edge_factor=E,seed=S  R-MAT (a=.57 b=.19 c=.19),
 *                                duplicates merged (E defaults to 16)
 * A malformed spec returns PPR_EINVAL (a usage error for the CLI).
 */
int matrix_load(const char *spec_or_path, struct csr *out,
		struct matrix_info *info, struct ppr_err *err);

/* Read a Matrix Market / RB file from memory; 'name' is used in errors. */
int matrix_mm_parse_buf(const char *name, const char *buf, size_t len,
			struct csr *out, struct matrix_info *info,
			struct ppr_err *err);
int matrix_rb_parse_buf(const char *name, const char *buf, size_t len,
			struct csr *out, struct matrix_info *info,
			struct ppr_err *err);

/* Only the gen: part; spec starts with "gen:". */
int matrix_gen(const char *spec, struct csr *out, struct matrix_info *info,
	       struct ppr_err *err);

/*
 * The spec's checks alone, nothing generated: 0, PPR_EINVAL for a
 * malformed spec (unknown generator or parameter, a value out of its
 * domain), PPR_ERANGE for one too large to index.  The memory check is
 * left to matrix_gen.
 */
int matrix_gen_check(const char *spec, struct ppr_err *err);

/* 1 if s names a generator ("gen:..."). */
int matrix_spec_is_gen(const char *s);

/* Write a CSR as Matrix Market coordinate real general (%.17g values). */
int matrix_csr_write_mm(const struct csr *a, FILE *f, struct ppr_err *err);

/*
 * Memory check: return 0 if 'bytes' fits in the limit below, else
 * PPR_ENOMEM with a message saying how much is needed ('what' names it).
 */
int matrix_mem_check(uint64_t bytes, const char *what, struct ppr_err *err);
/*
 * The limit matrix_mem_check() compares against: set by --max-memory
 * (bytes; 0 restores the default, 3/4 of physical memory).  Process-wide.
 */
void matrix_mem_limit_set(uint64_t bytes);
uint64_t matrix_mem_limit(void);

/* ---- CSR / BCSR ----------------------------------------------------- */

void matrix_csr_release(struct csr *a);
void matrix_row_stats_compute(const struct csr *a,
			      struct matrix_row_stats *st);

/* Convert to BCSR r x c (1 <= r, c <= 8). */
int matrix_bcsr_build(const struct csr *a, unsigned r, unsigned c,
		      struct bcsr *out, struct ppr_err *err);
void matrix_bcsr_release(struct bcsr *b);

/* Number of nonzero r x c blocks, no BCSR arrays built. */
uint64_t matrix_fill_count(const struct csr *a, unsigned r, unsigned c);

/*
 * Blocks for all 64 shapes at once: nblocks[r-1][c-1].  Fast: for each
 * block height, each block row's sorted rows are merged and the runs of
 * equal j/c counted for the 8 widths (streaming, no per-column arrays).
 */
void matrix_fill_count_all(const struct csr *a,
			   uint64_t nblocks[MATRIX_MAX_BLOCK][MATRIX_MAX_BLOCK]);

/* nblocks * r * c / nnz (0 when nnz == 0). */
double matrix_fill_ratio(uint64_t nblocks, unsigned r, unsigned c,
			 uint64_t nnz);

const char *matrix_field_name(enum matrix_field f);
const char *matrix_symmetry_name(enum matrix_symmetry s);
const char *matrix_format_name(enum matrix_format f);

#endif
