/*
 * mm.c - Matrix Market reader (NIST format, math.nist.gov/MatrixMarket).
 *
 * Strict where the format is clear, so one malformed file gives one clear
 * error naming its line:
 *   - line 1 is the banner "%%MatrixMarket matrix <format> <field>
 *     <symmetry>" (blanks before it allowed, keywords case-insensitive);
 *     only the object "matrix" is read (vectors are refused);
 *   - '%' lines and blank lines may appear anywhere after the banner;
 *   - the size line has exactly 3 (coordinate) or 2 (array) integers;
 *   - one entry per line, with exactly the fields its field kind needs
 *     (2 pattern, 3 real/integer, 4 complex); CRLF line ends accepted;
 *   - the header's entry count must match: too few or too many is an error;
 *   - indices are 1-based and checked against the size;
 *   - complex: the real part is kept (info->complex_real_part is set);
 *     pattern: value 1.0; integer: any size, read as double (like the
 *     reference readers, any number is accepted there, inf included);
 *   - symmetric / hermitian mirror off-diagonal entries (hermitian: the
 *     conjugate, whose real part is the same), skew-symmetric mirrors with
 *     a negated value; the diagonal is never doubled; a symmetric kind
 *     needs a square matrix;
 *   - duplicates are summed and counted; explicit zeros are kept;
 *   - array (dense, column-major; symmetric kinds store the lower triangle)
 *     entries whose value is zero are not stored, as a dense file has no
 *     notion of explicit zeros.
 */
#include <inttypes.h>
#include <string.h>
#include <strings.h>

#include "matrix/matrix_int.h"

struct rd {
	const char *name;
	const char *p, *end;
	long line;
	struct ppr_err *err;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void skip_blanks(struct rd *r)
{
	while (r->p < r->end && is_blank(*r->p))
		r->p++;
}

/* At end of a line (blanks, then '\n' or EOF)? */
static int at_eol(struct rd *r)
{
	skip_blanks(r);
	return r->p >= r->end || *r->p == '\n';
}

static void next_line(struct rd *r)
{
	const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));

	r->p = nl ? nl + 1 : r->end;
	r->line++;
}

/* Skip blank and '%' lines; return 0 at the start of a data line, -1 EOF. */
static int skip_to_data(struct rd *r)
{
	for (;;) {
		const char *q = r->p;

		if (q >= r->end)
			return -1;
		while (q < r->end && is_blank(*q))
			q++;
		if (q < r->end && *q != '\n' && *q != '%') {
			r->p = q;
			return 0;
		}
		r->p = q;
		if (q >= r->end)
			return -1;
		next_line(r);
	}
}

/* Copy the token at r->p (up to 40 chars) for an error message. */
static const char *tok(const struct rd *r, char *buf, size_t n)
{
	size_t k = 0;
	const char *q = r->p;

	while (q < r->end && !is_blank(*q) && *q != '\n' && k + 1 < n)
		buf[k++] = *q++;
	buf[k] = '\0';
	if (!k)
		snprintf(buf, n, "end of line");
	return buf;
}

static int fail(struct rd *r, const char *fmt, const char *a, const char *b)
{
	return ppr_err_set(r->err, PPR_EFORMAT, r->name, r->line, 0, fmt, a, b);
}

/* Read one banner word into w (lowercased); 0 or -1 at end of line. */
static int banner_word(struct rd *r, char *w, size_t n)
{
	size_t k = 0;

	skip_blanks(r);
	if (r->p >= r->end || *r->p == '\n')
		return -1;
	while (r->p < r->end && !is_blank(*r->p) && *r->p != '\n') {
		char c = *r->p++;

		if (k + 1 < n)
			w[k++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	w[k] = '\0';
	return 0;
}

/* Parse a non-negative size integer at r->p; 'what' names it. */
static int size_field(struct rd *r, const char *what, uint64_t *out)
{
	char b[48];
	int rc;

	skip_blanks(r);
	if (r->p >= r->end || *r->p == '\n')
		return fail(r, "size line: %s is missing%s", what, "");
	tok(r, b, sizeof(b));
	rc = matrix_parse_u64(&r->p, r->end, out);
	if (rc == -2)
		return fail(r, "size line: %s '%s' is too large", what, b);
	if (rc || (r->p < r->end && !is_blank(*r->p) && *r->p != '\n'))
		return fail(r, "size line: %s '%s' is not a non-negative integer",
			    what, b);
	return 0;
}

static int index_field(struct rd *r, const char *what, uint64_t lim,
		       uint64_t *out)
{
	char b[48], l[32];
	const char *start;
	int rc;

	skip_blanks(r);
	if (r->p >= r->end || *r->p == '\n')
		return fail(r, "entry has too few fields: %s index is missing%s",
			    what, "");
	start = r->p;
	rc = matrix_parse_u64(&r->p, r->end, out);
	if (!rc && *out != 0 && *out <= lim &&
	    (r->p >= r->end || is_blank(*r->p) || *r->p == '\n'))
		return 0;
	r->p = start;
	tok(r, b, sizeof(b));
	if (rc == -2 || (!rc && (*out == 0 || *out > lim))) {
		snprintf(l, sizeof(l), "%" PRIu64, lim);
		if (lim == 0)
			return fail(r, "%s index %s is out of range: the matrix has no such rows or columns",
				    what, b);
		return ppr_err_set(r->err, PPR_EFORMAT, r->name, r->line, 0,
				   "%s index %s is out of range 1..%s", what,
				   b, l);
	}
	return fail(r, "%s index '%s' is not a positive integer", what, b);
}

static int value_field(struct rd *r, enum matrix_field f, const char *what,
		       double *out)
{
	char b[48];
	const char *start;

	(void)f;	/* every field kind reads as a double */
	skip_blanks(r);
	if (r->p >= r->end || *r->p == '\n')
		return fail(r, "entry has too few fields: %s is missing%s",
			    what, "");
	start = r->p;
	if (!matrix_parse_double(&r->p, r->end, out, 0) &&
	    (r->p >= r->end || is_blank(*r->p) || *r->p == '\n'))
		return 0;
	r->p = start;
	return fail(r, "%s '%s' is not a number", what, tok(r, b, sizeof(b)));
}

static int end_of_entry(struct rd *r, int nfields)
{
	char b[48], n[16];

	if (at_eol(r))
		return 0;
	tok(r, b, sizeof(b));
	snprintf(n, sizeof(n), "%d", nfields);
	return fail(r, "entry has too many fields: '%s' after the %s expected",
		    b, n);
}

static int read_value(struct rd *r, enum matrix_field f, double *v)
{
	double im;

	switch (f) {
	case MATRIX_FIELD_PATTERN:
		*v = 1.0;
		return 0;
	case MATRIX_FIELD_COMPLEX:
		if (value_field(r, f, "real part", v))
			return PPR_EFORMAT;
		return value_field(r, f, "imaginary part", &im);
	default:
		return value_field(r, f, "value", v);
	}
}

int matrix_mm_parse_buf(const char *name, const char *buf, size_t len,
			struct csr *out, struct matrix_info *info,
			struct ppr_err *err)
{
	struct rd r = { .name = name, .p = buf, .end = buf + len, .line = 1,
			.err = err };
	struct matrix_info inf;
	struct coo t;
	char w[4][40], extra[40];
	uint64_t rows, cols, nz = 0, k, dups = 0, stored = 0;
	int nfields, k4, rc;
	enum matrix_field field;
	enum matrix_symmetry sym;
	int array;
	long size_line;

	memset(out, 0, sizeof(*out));
	memset(&t, 0, sizeof(t));
	memset(&inf, 0, sizeof(inf));
	/* ---- banner ---- */
	skip_blanks(&r);
	if (r.end - r.p < 14 || memcmp(r.p, "%%MatrixMarket", 14) ||
	    (r.end - r.p > 14 && !is_blank(r.p[14]) && r.p[14] != '\n'))
		return fail(&r, "not a matrix market file: the first line must start with '%s'%s",
			    "%%MatrixMarket", "");
	r.p += 14;
	for (k4 = 0; k4 < 4; k4++)
		if (banner_word(&r, w[k4], sizeof(w[k4])))
			return fail(&r, "banner is incomplete: expected '%s'%s",
				    "%%MatrixMarket matrix <format> <field> <symmetry>",
				    "");
	if (!banner_word(&r, extra, sizeof(extra)))
		return fail(&r, "banner has an extra word '%s'%s", extra, "");
	if (strcmp(w[0], "matrix"))
		return fail(&r, "banner: object '%s' is not supported (only 'matrix')%s",
			    w[0], "");
	if (!strcmp(w[1], "coordinate"))
		array = 0;
	else if (!strcmp(w[1], "array"))
		array = 1;
	else
		return fail(&r, "banner: unknown format '%s' (expected coordinate or array)%s",
			    w[1], "");
	if (!strcmp(w[2], "real") || !strcmp(w[2], "double"))
		field = MATRIX_FIELD_REAL;
	else if (!strcmp(w[2], "integer"))
		field = MATRIX_FIELD_INTEGER;
	else if (!strcmp(w[2], "complex"))
		field = MATRIX_FIELD_COMPLEX;
	else if (!strcmp(w[2], "pattern"))
		field = MATRIX_FIELD_PATTERN;
	else
		return fail(&r, "banner: unknown field '%s' (expected real, integer, complex or pattern)%s",
			    w[2], "");
	if (!strcmp(w[3], "general"))
		sym = MATRIX_SYM_GENERAL;
	else if (!strcmp(w[3], "symmetric"))
		sym = MATRIX_SYM_SYMMETRIC;
	else if (!strcmp(w[3], "skew-symmetric"))
		sym = MATRIX_SYM_SKEW;
	else if (!strcmp(w[3], "hermitian"))
		sym = MATRIX_SYM_HERMITIAN;
	else
		return fail(&r, "banner: unknown symmetry '%s' (expected general, symmetric, skew-symmetric or hermitian)%s",
			    w[3], "");
	if (array && field == MATRIX_FIELD_PATTERN)
		return fail(&r, "banner: the array format cannot have field '%s'%s",
			    "pattern", "");
	if (field == MATRIX_FIELD_PATTERN && sym == MATRIX_SYM_SKEW)
		return fail(&r, "banner: a pattern matrix cannot be %s%s",
			    "skew-symmetric", "");
	next_line(&r);
	/* ---- size line ---- */
	if (skip_to_data(&r))
		return fail(&r, "file ends before the size line%s%s", "", "");
	size_line = r.line;
	if (size_field(&r, "rows", &rows) || size_field(&r, "columns", &cols))
		return PPR_EFORMAT;
	if (!array && size_field(&r, "entries", &nz))
		return PPR_EFORMAT;
	if (!at_eol(&r)) {
		char b[48];

		return fail(&r, "size line has an extra field '%s' (expected %s)",
			    tok(&r, b, sizeof(b)),
			    array ? "rows columns" : "rows columns entries");
	}
	if (sym != MATRIX_SYM_GENERAL && rows != cols)
		return fail(&r, "a %s matrix must be square%s", w[3], "");
	if (array) {
		/* Values in the file: full, or a triangle for symmetric kinds. */
		if (rows && cols > UINT64_MAX / rows)
			return fail(&r, "size line: rows x columns overflows 64 bits%s%s",
				    "", "");
		if (sym == MATRIX_SYM_GENERAL)
			nz = rows * cols;
		else if (sym == MATRIX_SYM_SKEW)
			nz = rows % 2 ? (rows - 1) / 2 * rows
			   : rows / 2 * (rows ? rows - 1 : 0);
		else
			nz = rows % 2 ? (rows + 1) / 2 * rows : rows / 2 * (rows + 1);
	}
	/*
	 * Each field takes at least 2 bytes ("1 " or "1\n"), the last line
	 * may lack its newline: a bigger count lies, so refuse it before
	 * allocating for it.
	 */
	nfields = array ? (field == MATRIX_FIELD_COMPLEX ? 2 : 1)
		: field == MATRIX_FIELD_PATTERN ? 2
		: field == MATRIX_FIELD_COMPLEX ? 4 : 3;
	if (nz > ((uint64_t)len + 1) / (2 * (uint64_t)nfields)) {
		char a[24], b[24];

		snprintf(a, sizeof(a), "%" PRIu64, nz);
		snprintf(b, sizeof(b), "%zu", len);
		r.line = size_line;
		return fail(&r, "header promises %s entries but the file has only %s bytes",
			    a, b);
	}
	rc = matrix_coo_init(&t, rows, cols, nz, sym, len, name, err);
	if (rc)
		return rc;
	next_line(&r);
	nfields = field == MATRIX_FIELD_PATTERN ? 2
		: field == MATRIX_FIELD_COMPLEX ? 4 : 3;
	/* ---- entries ---- */
	if (!array) {
		for (k = 0; k < nz; k++) {
			uint64_t i, j;
			double v;

			if (skip_to_data(&r)) {
				char a[24], b[24];

				snprintf(a, sizeof(a), "%" PRIu64, k);
				snprintf(b, sizeof(b), "%" PRIu64, nz);
				rc = fail(&r, "file ends after %s of the %s entries the header promises",
					  a, b);
				goto fail;
			}
			if (index_field(&r, "row", rows, &i) ||
			    index_field(&r, "column", cols, &j) ||
			    read_value(&r, field, &v) ||
			    end_of_entry(&r, nfields)) {
				rc = PPR_EFORMAT;
				goto fail;
			}
			matrix_coo_push(&t, i - 1, j - 1, v);
			next_line(&r);
		}
		stored = nz;
	} else {
		uint64_t i = 0, j = 0;

		nfields = field == MATRIX_FIELD_COMPLEX ? 2 : 1;
		if (sym == MATRIX_SYM_SKEW)
			i = 1;
		for (k = 0; k < nz; k++) {
			double v, im = 0.0;

			if (skip_to_data(&r)) {
				char a[24], b[24];

				snprintf(a, sizeof(a), "%" PRIu64, k);
				snprintf(b, sizeof(b), "%" PRIu64, nz);
				rc = fail(&r, "file ends after %s of the %s array values the size line implies",
					  a, b);
				goto fail;
			}
			if (field == MATRIX_FIELD_COMPLEX) {
				if (value_field(&r, field, "real part", &v) ||
				    value_field(&r, field, "imaginary part", &im)) {
					rc = PPR_EFORMAT;
					goto fail;
				}
			} else if (value_field(&r, field, "value", &v)) {
				rc = PPR_EFORMAT;
				goto fail;
			}
			if (end_of_entry(&r, nfields)) {
				rc = PPR_EFORMAT;
				goto fail;
			}
			if (v != 0.0 || im != 0.0) {
				matrix_coo_push(&t, i, j, v);
				stored++;
			}
			if (++i >= rows) {
				j++;
				i = sym == MATRIX_SYM_GENERAL ? 0
				  : sym == MATRIX_SYM_SKEW ? j + 1 : j;
			}
			next_line(&r);
		}
	}
	if (!skip_to_data(&r)) {
		char b[48], a[24];

		snprintf(a, sizeof(a), "%" PRIu64, nz);
		rc = fail(&r, "more entries than the %s the header promises (found '%s')",
			  a, tok(&r, b, sizeof(b)));
		goto fail;
	}
	rc = matrix_coo_to_csr(&t, out, &dups, err);
	if (rc)
		goto fail;
	inf.format = array ? MATRIX_FMT_MM_ARRAY : MATRIX_FMT_MM_COORD;
	inf.field = field;
	inf.symmetry = sym;
	inf.complex_real_part = field == MATRIX_FIELD_COMPLEX;
	inf.rows = rows;
	inf.cols = cols;
	inf.stored = stored;
	inf.nnz = out->nnz;
	inf.duplicates = dups;
	inf.explicit_zeros = matrix_csr_count_zeros(out);
	if (info)
		*info = inf;
	return 0;
fail:
	matrix_coo_release(&t);
	matrix_csr_release(out);
	return rc;
}
