/*
 * rb.c - Rutherford-Boeing / Harwell-Boeing reader (.rb .rua .rsa .psa
 * .cua .rra ...), assembled matrices only.
 *
 * Layout (Duff, Grimes, Lewis, "Users' guide for the Harwell-Boeing sparse
 * matrix collection", 1992; RB: Duff, Grimes, Lewis 1997):
 *   line 1  title (cols 1-72), key (73-80)
 *   line 2  TOTCRD PTRCRD INDCRD VALCRD [RHSCRD]
 *   line 3  MXTYPE (3 letters) NROW NCOL NNZERO [NELTVL]
 *           MXTYPE: R real, C complex, P pattern, I integer;
 *                   S symmetric, U unsymmetric, H hermitian, Z skew, R
 *                   rectangular; A assembled, E elemental (refused)
 *   line 4  PTRFMT (1-16) INDFMT (17-32) VALFMT (33-52) [RHSFMT (53-72)]
 *   line 5  only in HB files with RHSCRD > 0 (right-hand sides: ignored)
 *   then NCOL+1 column pointers, NNZERO row indices, values (none for P;
 *   two numbers per entry for C), each in its Fortran fixed format, e.g.
 *   (13I6) (3E26.18) (1P,4D20.12): repeat count x field width per line.
 * Fields are cut at their Fortran width (values may touch: 1.0D+00-2.0D+00),
 * D exponents and bare signed exponents (1.0-3) are accepted, lowercase
 * type codes too.  The line counts of line 2 are not trusted for layout:
 * sections are read in order until each has its values; a section that
 * ends early is an error naming the line.  Symmetric kinds must be square
 * and are expanded as in Matrix Market (see mm.c).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "matrix/matrix_int.h"

struct rbr {
	const char *name;
	const char *p, *end;	/* next unread line */
	const char *l, *le;	/* current line [l, le) without CR/LF */
	long line;		/* number of the current line */
	struct ppr_err *err;
};

struct ffmt {
	unsigned per_line, width;
	char kind;		/* I, E, D, F, G */
};

static int get_line(struct rbr *r)
{
	const char *nl;

	if (r->p >= r->end)
		return -1;
	nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	r->l = r->p;
	r->le = nl ? nl : r->end;
	r->p = nl ? nl + 1 : r->end;
	if (r->le > r->l && r->le[-1] == '\r')
		r->le--;
	r->line++;
	return 0;
}

static int rfail(struct rbr *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int rfail(struct rbr *r, const char *fmt, ...)
{
	char msg[700];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ppr_err_set(r->err, PPR_EFORMAT, r->name, r->line, 0, "%s",
			   msg);
}

static int is_sp(char c)
{
	return c == ' ' || c == '\t';
}

/* Whitespace-separated signed integers of a header line. */
static int header_ints(struct rbr *r, const char *from, int64_t *v, int min,
		       int max, const char *what)
{
	const char *q = from;
	int n = 0;
	char b[16];

	for (;;) {
		while (q < r->le && is_sp(*q))
			q++;
		if (q >= r->le)
			break;
		if (n == max)
			return rfail(r, "%s: too many fields%s", what, "");
		if (matrix_parse_i64(&q, r->le, &v[n]) ||
		    (q < r->le && !is_sp(*q)))
			return rfail(r, "%s: field %s is not an integer", what,
				     (snprintf(b, sizeof(b), "%d", n + 1), b));
		n++;
	}
	if (n < min)
		return rfail(r, "%s: expected at least %s integers", what,
			     (snprintf(b, sizeof(b), "%d", min), b));
	for (; n < max; n++)
		v[n] = 0;
	return 0;
}

/* Parse a Fortran format like (13I6), (1P,5D16.9), (3(1PE25.16)). */
static int fmt_parse(const char *s, size_t n, struct ffmt *f)
{
	size_t k = 0;
	uint64_t mult = 1, num;
	int have_num;

	memset(f, 0, sizeof(*f));
	while (k < n) {
		char c = s[k];

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (c >= '0' && c <= '9') {
			num = 0;
			have_num = 1;
			while (k < n && s[k] >= '0' && s[k] <= '9') {
				num = num * 10 + (uint64_t)(s[k] - '0');
				if (num > 100000)
					return -1;
				k++;
			}
			c = k < n ? s[k] : '\0';
			if (c >= 'a' && c <= 'z')
				c = (char)(c - 'a' + 'A');
			if (c == '(') {
				mult *= num;
				k++;
				continue;
			}
			if (c == 'P') {	/* scale factor: no effect on widths */
				k++;
				continue;
			}
		} else {
			num = 1;
			have_num = 0;
		}
		(void)have_num;
		if (c == 'I' || c == 'E' || c == 'D' || c == 'F' || c == 'G') {
			uint64_t w = 0;

			if (f->kind)
				return -1;	/* one descriptor only */
			k++;
			while (k < n && s[k] >= '0' && s[k] <= '9') {
				w = w * 10 + (uint64_t)(s[k] - '0');
				if (w > 1000)
					return -1;
				k++;
			}
			if (!w || !num || num * mult > 100000)
				return -1;
			f->kind = c;
			f->width = (unsigned)w;
			f->per_line = (unsigned)(num * mult);
			if (k < n && s[k] == '.') {
				k++;
				while (k < n && s[k] >= '0' && s[k] <= '9')
					k++;
			}
			if (k < n && (s[k] == 'E' || s[k] == 'e')) {
				k++;
				while (k < n && s[k] >= '0' && s[k] <= '9')
					k++;
			}
			continue;
		}
		if (c == '(' || c == ')' || c == ',' || c == ' ' || c == '\t') {
			k++;
			continue;
		}
		return -1;
	}
	return f->kind ? 0 : -1;
}

/* Format text in columns [a, b) of the current line, trimmed. */
static int fmt_at(struct rbr *r, size_t a, size_t b, struct ffmt *f,
		  const char *what, int required)
{
	size_t len = (size_t)(r->le - r->l);
	const char *s;
	size_t n;
	char txt[64];

	if (a >= len) {
		memset(f, 0, sizeof(*f));
		return required ? rfail(r, "%s format is missing (columns %s)",
					what, a == 0 ? "1-16" : a == 16 ? "17-32" : "33-52")
				: 0;
	}
	if (b > len)
		b = len;
	s = r->l + a;
	n = b - a;
	while (n && is_sp(*s)) {
		s++;
		n--;
	}
	while (n && is_sp(s[n - 1]))
		n--;
	if (!n) {
		memset(f, 0, sizeof(*f));
		return required ? rfail(r, "%s format is missing%s", what, "")
				: 0;
	}
	snprintf(txt, sizeof(txt), "%.*s", (int)(n < 60 ? n : 60), s);
	if (fmt_parse(s, n, f))
		return rfail(r, "cannot parse the Fortran %s format '%s'", what,
			     txt);
	return 0;
}

/*
 * Cursor over one fixed-format section: next field of 'width' chars, at
 * most per_line per line.  Returns 0 with [*fs, *fe) trimmed, -1 at EOF.
 */
struct fcur {
	struct ffmt f;
	unsigned col;		/* fields taken from the current line */
	int started;
};

static int field_next(struct rbr *r, struct fcur *c, const char **fs,
		      const char **fe)
{
	for (;;) {
		const char *a, *b;

		if (!c->started || c->col >= c->f.per_line ||
		    (uint64_t)c->col * c->f.width >= (uint64_t)(r->le - r->l)) {
			if (get_line(r))
				return -1;
			c->started = 1;
			c->col = 0;
			if (r->l == r->le)
				continue;	/* empty line: no fields */
		}
		a = r->l + (size_t)c->col * c->f.width;
		b = (size_t)(r->le - a) > c->f.width ? a + c->f.width : r->le;
		c->col++;
		while (a < b && is_sp(*a))
			a++;
		while (b > a && is_sp(b[-1]))
			b--;
		if (a == b) {
			/* A blank field ends the line's data. */
			c->col = c->f.per_line;
			continue;
		}
		*fs = a;
		*fe = b;
		return 0;
	}
}

static int int_field(struct rbr *r, struct fcur *c, int64_t *v,
		     const char *what, uint64_t k, uint64_t total)
{
	const char *a, *b;

	if (field_next(r, c, &a, &b))
		return ppr_err_set(r->err, PPR_EFORMAT, r->name, r->line, 0,
				   "file ends after %" PRIu64 " of %" PRIu64
				   " %s", k, total, what);
	if (matrix_parse_i64(&a, b, v) || a != b)
		return ppr_err_set(r->err, PPR_EFORMAT, r->name, r->line, 0,
				   "%s: '%.*s' is not an integer", what,
				   (int)(b - a < 40 ? b - a : 40), a);
	return 0;
}

static int real_field(struct rbr *r, struct fcur *c, double *v,
		      uint64_t k, uint64_t total)
{
	const char *a, *b;
	char kb[24], tb[24], txt[48];

	snprintf(kb, sizeof(kb), "%" PRIu64, k);
	snprintf(tb, sizeof(tb), "%" PRIu64, total);
	if (field_next(r, c, &a, &b))
		return rfail(r, "file ends after %s of %s values", kb, tb);
	snprintf(txt, sizeof(txt), "%.*s", (int)(b - a < 40 ? b - a : 40), a);
	if (matrix_parse_double(&a, b, v, 1) || a != b)
		return rfail(r, "value '%s' is not a number%s", txt, "");
	return 0;
}

int matrix_rb_parse_buf(const char *name, const char *buf, size_t len,
			struct csr *out, struct matrix_info *info,
			struct ppr_err *err)
{
	struct rbr r = { .name = name, .p = buf, .end = buf + len,
			 .err = err };
	struct matrix_info inf;
	struct coo t;
	struct fcur cp, ci, cv;
	int64_t h2[5], h3[4], v64;
	uint64_t nrow, ncol, nnz, k, j, dups = 0, nvals;
	uint64_t *colptr = NULL;
	uint32_t *rowind = NULL;
	char type[4], tb[24];
	enum matrix_field field;
	enum matrix_symmetry sym;
	int rc = PPR_EFORMAT;
	size_t tl;

	memset(out, 0, sizeof(*out));
	memset(&t, 0, sizeof(t));
	memset(&inf, 0, sizeof(inf));
	memset(&cp, 0, sizeof(cp));
	memset(&ci, 0, sizeof(ci));
	memset(&cv, 0, sizeof(cv));
	/* line 1: title and key */
	if (get_line(&r))
		return rfail(&r, "empty file: no Rutherford-Boeing header%s", "");
	tl = (size_t)(r.le - r.l);
	if (tl > 72)
		tl = 72;
	while (tl && is_sp(r.l[tl - 1]))
		tl--;
	snprintf(inf.title, sizeof(inf.title), "%.*s", (int)tl, r.l);
	/* line 2: card counts */
	if (get_line(&r))
		return rfail(&r, "header is truncated: line 2 (card counts) is missing%s", "");
	if (header_ints(&r, r.l, h2, 4, 5, "line 2 (card counts)"))
		return PPR_EFORMAT;
	for (k = 0; k < 5; k++)
		if (h2[k] < 0)
			return rfail(&r, "line 2: card count %d is negative",
				     (int)k + 1);
	/* line 3: type and sizes */
	if (get_line(&r))
		return rfail(&r, "header is truncated: line 3 (type and sizes) is missing%s", "");
	if (r.le - r.l < 3)
		return rfail(&r, "line 3: matrix type code is missing%s", "");
	for (k = 0; k < 3; k++)
		type[k] = (char)(r.l[k] >= 'a' && r.l[k] <= 'z'
				 ? r.l[k] - 'a' + 'A' : r.l[k]);
	type[3] = '\0';
	switch (type[0]) {
	case 'R': field = MATRIX_FIELD_REAL; break;
	case 'C': field = MATRIX_FIELD_COMPLEX; break;
	case 'P': field = MATRIX_FIELD_PATTERN; break;
	case 'I': field = MATRIX_FIELD_INTEGER; break;
	default:
		return rfail(&r, "matrix type '%s': first letter must be R, C, P or I", type);
	}
	switch (type[1]) {
	case 'S': sym = MATRIX_SYM_SYMMETRIC; break;
	case 'U': case 'R': sym = MATRIX_SYM_GENERAL; break;
	case 'H': sym = MATRIX_SYM_HERMITIAN; break;
	case 'Z': sym = MATRIX_SYM_SKEW; break;
	default:
		return rfail(&r, "matrix type '%s': second letter must be S, U, H, Z or R", type);
	}
	if (type[2] == 'E')
		return rfail(&r, "matrix type '%s': elemental (unassembled) matrices are not supported", type);
	if (type[2] != 'A')
		return rfail(&r, "matrix type '%s': third letter must be A (assembled)", type);
	if (header_ints(&r, r.l + 3, h3, 3, 4, "line 3 (rows, columns, entries)"))
		return PPR_EFORMAT;
	if (h3[0] < 0 || h3[1] < 0 || h3[2] < 0)
		return rfail(&r, "line 3: rows, columns and entries must not be negative%s", "");
	nrow = (uint64_t)h3[0];
	ncol = (uint64_t)h3[1];
	nnz = (uint64_t)h3[2];
	if (sym != MATRIX_SYM_GENERAL && nrow != ncol)
		return rfail(&r, "matrix type '%s' is symmetric but the matrix is not square", type);
	if (nnz > len || ncol > len) {
		snprintf(tb, sizeof(tb), "%zu", len);
		return rfail(&r, "line 3: sizes are larger than a %s-byte file can hold%s", tb, "");
	}
	/* line 4: formats */
	if (get_line(&r))
		return rfail(&r, "header is truncated: line 4 (formats) is missing%s", "");
	if (fmt_at(&r, 0, 16, &cp.f, "pointer", 1) ||
	    fmt_at(&r, 16, 32, &ci.f, "row index", 1) ||
	    fmt_at(&r, 32, 52, &cv.f, "value", field != MATRIX_FIELD_PATTERN))
		return PPR_EFORMAT;
	if (cp.f.kind != 'I' || ci.f.kind != 'I')
		return rfail(&r, "pointer and row index formats must be integer (I) formats%s", "");
	if (field != MATRIX_FIELD_PATTERN && cv.f.kind == 0)
		return rfail(&r, "value format is missing%s", "");
	/* line 5: HB right-hand-side descriptor */
	if (h2[4] > 0 && get_line(&r))
		return rfail(&r, "header is truncated: line 5 (right-hand sides) is missing%s", "");
	/* column pointers */
	colptr = xmalloc(((size_t)ncol + 1) * sizeof(uint64_t));
	for (k = 0; k <= ncol; k++) {
		if (int_field(&r, &cp, &v64, "column pointers", k, ncol + 1))
			goto fail;
		if (k == 0 && v64 != 1) {
			snprintf(tb, sizeof(tb), "%" PRId64, v64);
			rfail(&r, "first column pointer is %s, must be 1%s", tb, "");
			goto fail;
		}
		if (v64 < 1 || (uint64_t)v64 > nnz + 1 ||
		    (k && (uint64_t)v64 < colptr[k - 1])) {
			char a[24];

			snprintf(tb, sizeof(tb), "%" PRId64, v64);
			snprintf(a, sizeof(a), "%" PRIu64, k + 1);
			rfail(&r, "column pointer %s is %s: pointers must be nondecreasing within 1..entries+1",
			      a, tb);
			goto fail;
		}
		colptr[k] = (uint64_t)v64;
	}
	if (colptr[ncol] != nnz + 1) {
		char a[24];

		snprintf(tb, sizeof(tb), "%" PRIu64, colptr[ncol]);
		snprintf(a, sizeof(a), "%" PRIu64, nnz + 1);
		rfail(&r, "last column pointer is %s, must be entries+1 = %s", tb, a);
		goto fail;
	}
	/* row indices */
	rowind = xmalloc((size_t)(nnz ? nnz : 1) * sizeof(uint32_t));
	rc = matrix_coo_init(&t, nrow, ncol, nnz, sym, len, name, err);
	if (rc)
		goto fail;
	rc = PPR_EFORMAT;
	for (k = 0; k < nnz; k++) {
		if (int_field(&r, &ci, &v64, "row indices", k, nnz))
			goto fail;
		if (v64 < 1 || (uint64_t)v64 > nrow) {
			char a[24];

			snprintf(tb, sizeof(tb), "%" PRId64, v64);
			snprintf(a, sizeof(a), "%" PRIu64, nrow);
			rfail(&r, "row index %s is out of range 1..%s", tb, a);
			goto fail;
		}
		rowind[k] = (uint32_t)(v64 - 1);
	}
	/* values, pushed column by column */
	nvals = field == MATRIX_FIELD_COMPLEX ? 2 * nnz : nnz;
	k = 0;
	for (j = 0; j < ncol; j++) {
		uint64_t q;

		for (q = colptr[j] - 1; q < colptr[j + 1] - 1; q++) {
			double v = 1.0, im;

			if (field != MATRIX_FIELD_PATTERN) {
				if (real_field(&r, &cv, &v, k++, nvals))
					goto fail;
				if (field == MATRIX_FIELD_COMPLEX &&
				    real_field(&r, &cv, &im, k++, nvals))
					goto fail;
			}
			matrix_coo_push(&t, rowind[q], j, v);
		}
	}
	free(colptr);
	free(rowind);
	colptr = NULL;
	rowind = NULL;
	rc = matrix_coo_to_csr(&t, out, &dups, err);
	if (rc)
		goto fail;
	inf.format = MATRIX_FMT_RB;
	inf.field = field;
	inf.symmetry = sym;
	inf.complex_real_part = field == MATRIX_FIELD_COMPLEX;
	inf.rows = nrow;
	inf.cols = ncol;
	inf.stored = nnz;
	inf.nnz = out->nnz;
	inf.duplicates = dups;
	inf.explicit_zeros = matrix_csr_count_zeros(out);
	memcpy(inf.type_code, type, 4);
	if (info)
		*info = inf;
	return 0;
fail:
	free(colptr);
	free(rowind);
	matrix_coo_release(&t);
	matrix_csr_release(out);
	return rc;
}
