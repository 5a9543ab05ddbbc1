/*
 * test_matrix.c - matrix/ unit tests: number parsing against strtod,
 * Matrix Market and Rutherford-Boeing snippets (valid ones by content,
 * malformed ones by their exact one-line error), symmetric expansion,
 * gzip, generators (nnz formulas, symmetry, determinism), BCSR against a
 * brute-force block count, memory and size refusals.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "matrix/matrix_int.h"
#include "tests/t.h"

/* ---- number parsing -------------------------------------------------- */

static uint64_t rng_state = 12345;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static int parse_str(const char *s, double *d, int fortran)
{
	const char *p = s, *end = s + strlen(s);

	if (matrix_parse_double(&p, end, d, fortran))
		return -1;
	return p == end ? 0 : -1;
}

static void test_parse_double(void)
{
	static const struct {
		const char *s;
		double want;
		int fortran, ok;
		int line;
	} rows[] = {
		{ "1", 1.0, 0, 1, __LINE__ },
		{ "-2.5", -2.5, 0, 1, __LINE__ },
		{ ".646", 0.646, 0, 1, __LINE__ },
		{ "5.", 5.0, 0, 1, __LINE__ },
		{ "1.5e-2", 1.5e-2, 0, 1, __LINE__ },
		{ "-2.8E2", -280.0, 0, 1, __LINE__ },
		{ "+3", 3.0, 0, 1, __LINE__ },
		{ "0.1", 0.1, 0, 1, __LINE__ },
		{ "123456789012345678901234567890", 1.2345678901234568e29, 0, 1, __LINE__ },
		{ "2.2250738585072014e-308", 2.2250738585072014e-308, 0, 1, __LINE__ },
		{ "4.9406564584124654e-324", 4.9406564584124654e-324, 0, 1, __LINE__ },
		{ "1.7976931348623157e308", 1.7976931348623157e308, 0, 1, __LINE__ },
		{ "1E310", HUGE_VAL, 0, 1, __LINE__ },
		{ "1e-400", 0.0, 0, 1, __LINE__ },
		{ "inf", HUGE_VAL, 0, 1, __LINE__ },
		{ "-inf", -HUGE_VAL, 0, 1, __LINE__ },
		{ "1.0D+00", 1.0, 1, 1, __LINE__ },
		{ "-1.25d2", -125.0, 1, 1, __LINE__ },
		{ "0.5-3", 0.5e-3, 1, 1, __LINE__ },
		{ ".123456789012D-05", .123456789012e-5, 1, 1, __LINE__ },
		{ "1.0D+00", 0.0, 0, 0, __LINE__ },	/* D only in Fortran */
		{ "zero", 0.0, 0, 0, __LINE__ },
		{ "1.2.3", 0.0, 0, 0, __LINE__ },
		{ "1e", 0.0, 0, 0, __LINE__ },
		{ "-", 0.0, 0, 0, __LINE__ },
		{ "", 0.0, 0, 0, __LINE__ },
		{ "0x10", 0.0, 0, 0, __LINE__ },
	};
	size_t k;
	int bad = 0, n;

	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		double d = -7.0;
		int rc = parse_str(rows[k].s, &d, rows[k].fortran);

		T_CHECK_AT((rc == 0) == rows[k].ok, rows[k].line);
		if (rows[k].ok && !rc)
			T_CHECK_AT(d == rows[k].want ||
				   (rows[k].want == 0.0 && d == 0.0),
				   rows[k].line);
	}
	/* Random doubles printed as %.17g, %.15g, %.6e, %g: bit-exact vs strtod. */
	for (n = 0; n < 200000; n++) {
		uint64_t bits = rnd();
		double x, got, want;
		char buf[64];
		static const char *const fm[] = { "%.17g", "%.15g", "%.6e", "%g",
						  "%.3f" };

		if (n % 2) {
			memcpy(&x, &bits, sizeof(x));
			if (x != x || x - x != 0)
				continue;
		} else {
			x = (double)(bits >> 11) / 9007199254740992.0 *
			    pow(10.0, (double)(int)(rnd() % 40) - 20);
		}
		snprintf(buf, sizeof(buf), fm[n % 5], x);
		want = strtod(buf, NULL);
		if (parse_str(buf, &got, 0) || memcmp(&got, &want, sizeof(got))) {
			if (bad++ < 5)
				fprintf(stderr, "  parse '%s': got %.17g want %.17g\n",
					buf, got, want);
		}
	}
	T_EQ_U64(bad, 0);
}

static void test_parse_int(void)
{
	const char *s = "18446744073709551615", *e = s + strlen(s);
	const char *t = "18446744073709551616", *te = t + strlen(t);
	const char *u = "-9223372036854775808", *ue = u + strlen(u);
	uint64_t v;
	int64_t w;

	T_CHECK(matrix_parse_u64(&s, e, &v) == 0 && v == UINT64_MAX);
	T_CHECK(matrix_parse_u64(&t, te, &v) == -2);
	T_CHECK(matrix_parse_i64(&u, ue, &w) == 0 && w == INT64_MIN);
}

/* ---- Matrix Market ---------------------------------------------------- */

static int mm(const char *text, struct csr *a, struct matrix_info *inf,
	      char *msg, size_t n)
{
	struct ppr_err err;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = matrix_mm_parse_buf("t.mtx", text, strlen(text), a, inf, &err);
	if (rc)
		ppr_err_format(&err, msg, n);
	else
		msg[0] = '\0';
	return rc;
}

static double at(const struct csr *a, uint64_t i, uint64_t j)
{
	uint64_t k;

	for (k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
		if (a->col_idx[k] == j)
			return a->vals[k];
	return NAN;	/* not stored */
}

static void test_mm_errors(void)
{
	static const struct {
		const char *text;
		const char *msg;
		int line;
	} rows[] = {
		{ "", "t.mtx:1: not a matrix market file: the first line must start with '%%MatrixMarket'", __LINE__ },
		{ "%MatrixMarket matrix coordinate real general\n1 1 0\n",
		  "t.mtx:1: not a matrix market file: the first line must start with '%%MatrixMarket'", __LINE__ },
		{ "%%MatrixMarket vector coordinate real general\n",
		  "t.mtx:1: banner: object 'vector' is not supported (only 'matrix')", __LINE__ },
		{ "%%MatrixMarket matrix coord real general\n",
		  "t.mtx:1: banner: unknown format 'coord' (expected coordinate or array)", __LINE__ },
		{ "%%MatrixMarket matrix coordinate float general\n",
		  "t.mtx:1: banner: unknown field 'float' (expected real, integer, complex or pattern)", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real sym\n",
		  "t.mtx:1: banner: unknown symmetry 'sym' (expected general, symmetric, skew-symmetric or hermitian)", __LINE__ },
		{ "%%MatrixMarket matrix array real\n",
		  "t.mtx:1: banner is incomplete: expected '%%MatrixMarket matrix <format> <field> <symmetry>'", __LINE__ },
		{ "%%MatrixMarket matrix array real general x\n",
		  "t.mtx:1: banner has an extra word 'x'", __LINE__ },
		{ "%%MatrixMarket matrix array pattern general\n",
		  "t.mtx:1: banner: the array format cannot have field 'pattern'", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n% c\n",
		  "t.mtx:3: file ends before the size line", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3\n",
		  "t.mtx:2: size line: columns is missing", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n-3 3 3\n",
		  "t.mtx:2: size line: rows '-3' is not a non-negative integer", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1 7\n",
		  "t.mtx:2: size line has an extra field '7' (expected rows columns entries)", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n99999999999999999999 3 1\n",
		  "t.mtx:2: size line: rows '99999999999999999999' is too large", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n",
		  "t.mtx:2: a symmetric matrix must be square", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1000\n1 1 1\n",
		  "t.mtx:2: header promises 1000 entries but the file has only 61 bytes", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n",
		  "t.mtx:4: file ends after 1 of the 2 entries the header promises", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n2 2 2\n",
		  "t.mtx:4: more entries than the 1 the header promises (found '2')", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n",
		  "t.mtx:3: row index 4 is out of range 1..3", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 0 1\n",
		  "t.mtx:3: column index 0 is out of range 1..3", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1\nzero 1 1\n",
		  "t.mtx:3: row index 'zero' is not a positive integer", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\n",
		  "t.mtx:3: entry has too few fields: value is missing", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1 9\n",
		  "t.mtx:3: entry has too many fields: '9' after the 3 expected", __LINE__ },
		{ "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n",
		  "t.mtx:3: entry has too many fields: '1' after the 2 expected", __LINE__ },
		{ "%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 1 1\n",
		  "t.mtx:3: entry has too few fields: imaginary part is missing", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 not_a_double\n",
		  "t.mtx:3: value 'not_a_double' is not a number", __LINE__ },
		{ "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n",
		  "t.mtx:6: file ends after 3 of the 4 array values the size line implies", __LINE__ },
		{ "%%MatrixMarket matrix array real general\n1 1\n1 2\n",
		  "t.mtx:3: entry has too many fields: '2' after the 1 expected", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\r\n2 2 1\r\n1 3 1\r\n",
		  "t.mtx:3: column index 3 is out of range 1..2", __LINE__ },
		{ "%%MatrixMarket matrix coordinate real general\n5000000000 1 0\n",
		  "t.mtx: 5000000000 x 1 matrix is too large: rows and columns must be below 2^32 (32-bit column indices)", __LINE__ },
	};
	size_t k;

	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct csr a;
		char msg[1400];
		int rc = mm(rows[k].text, &a, NULL, msg, sizeof(msg));

		T_CHECK_AT(rc != 0, rows[k].line);
		T_STR_AT(msg, rows[k].msg, rows[k].line);
		T_CHECK_AT(a.row_ptr == NULL, rows[k].line);
	}
}

static void test_mm_valid(void)
{
	struct csr a;
	struct matrix_info inf;
	char msg[1400];

	/* symmetric: mirror, diagonal once, duplicates summed and counted */
	T_CHECK(!mm("%%MatrixMarket matrix coordinate real symmetric\n"
		    "% comment\n\n3 3 4\n1 1 2\n2 1 -1\n3 2 5\n2 1 -1\n",
		    &a, &inf, msg, sizeof(msg)));
	T_EQ_U64(a.nnz, 5);
	T_EQ_U64(inf.stored, 4);
	T_EQ_U64(inf.duplicates, 1);
	T_CHECK(at(&a, 0, 0) == 2.0 && at(&a, 1, 0) == -2.0 &&
		at(&a, 0, 1) == -2.0 && at(&a, 2, 1) == 5.0 &&
		at(&a, 1, 2) == 5.0);
	matrix_csr_release(&a);
	/* symmetric file storing both triangles: stored values win */
	T_CHECK(!mm("%%MatrixMarket matrix coordinate real symmetric\n"
		    "2 2 2\n2 1 3\n1 2 3\n", &a, &inf, msg, sizeof(msg)));
	T_EQ_U64(a.nnz, 2);
	T_EQ_U64(inf.duplicates, 0);
	T_CHECK(at(&a, 0, 1) == 3.0 && at(&a, 1, 0) == 3.0);
	matrix_csr_release(&a);
	/* skew: negated mirror; explicit zero kept */
	T_CHECK(!mm("%%MatrixMarket matrix coordinate real skew-symmetric\n"
		    "3 3 2\n3 1 10\n3 2 0\n", &a, &inf, msg, sizeof(msg)));
	T_EQ_U64(a.nnz, 4);
	T_EQ_U64(inf.explicit_zeros, 2);
	T_CHECK(at(&a, 2, 0) == 10.0 && at(&a, 0, 2) == -10.0);
	matrix_csr_release(&a);
	/* hermitian complex: real part, conj mirror has the same real part */
	T_CHECK(!mm("%%MatrixMarket matrix coordinate complex hermitian\n"
		    "3 3 3\n3 1 10 1\n3 2 20 2\n3 3 30 0\n", &a, &inf, msg,
		    sizeof(msg)));
	T_EQ_U64(a.nnz, 5);
	T_CHECK(inf.complex_real_part);
	T_CHECK(at(&a, 0, 2) == 10.0 && at(&a, 2, 2) == 30.0);
	matrix_csr_release(&a);
	/* pattern, CRLF, indented lines, case-insensitive banner */
	T_CHECK(!mm("  %%MatrixMarket MATRIX Coordinate Pattern General\r\n"
		    "  2 3 2\r\n  1 3\r\n\r\n2 1\r\n", &a, &inf, msg,
		    sizeof(msg)));
	T_EQ_U64(a.rows, 2);
	T_EQ_U64(a.cols, 3);
	T_CHECK(at(&a, 0, 2) == 1.0 && at(&a, 1, 0) == 1.0);
	T_CHECK(inf.field == MATRIX_FIELD_PATTERN);
	matrix_csr_release(&a);
	/* array symmetric: lower triangle column by column; zeros dropped */
	T_CHECK(!mm("%%MatrixMarket matrix array real symmetric\n3 3\n"
		    "1\n2\n0\n4\n5\n6\n", &a, &inf, msg, sizeof(msg)));
	T_EQ_U64(inf.stored, 5);
	T_EQ_U64(a.nnz, 7);
	T_CHECK(at(&a, 1, 0) == 2.0 && at(&a, 0, 1) == 2.0 &&
		at(&a, 1, 1) == 4.0 && at(&a, 2, 1) == 5.0 &&
		at(&a, 2, 2) == 6.0);
	T_CHECK(isnan(at(&a, 2, 0)));
	matrix_csr_release(&a);
	/* empty matrix and unsorted input sorted by column */
	T_CHECK(!mm("%%MatrixMarket matrix coordinate integer general\n"
		    "1 5 3\n1 5 1\n1 1 2\n1 3 3\n", &a, &inf, msg, sizeof(msg)));
	T_CHECK(a.col_idx[0] == 0 && a.col_idx[1] == 2 && a.col_idx[2] == 4);
	matrix_csr_release(&a);
	T_CHECK(!mm("%%MatrixMarket matrix coordinate real general\n0 0 0\n",
		    &a, &inf, msg, sizeof(msg)));
	T_EQ_U64(a.nnz, 0);
	matrix_csr_release(&a);
}

/* ---- Rutherford-Boeing ----------------------------------------------- */

static int rb(const char *text, struct csr *a, struct matrix_info *inf,
	      char *msg, size_t n)
{
	struct ppr_err err;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = matrix_rb_parse_buf("t.rua", text, strlen(text), a, inf, &err);
	if (rc)
		ppr_err_format(&err, msg, n);
	else
		msg[0] = '\0';
	return rc;
}

static void test_rb(void)
{
	static const struct {
		const char *text;
		const char *msg;
		int line;
	} bad[] = {
		{ "", "t.rua: empty file: no Rutherford-Boeing header", __LINE__ },
		{ "title\n 1 1 1\n", "t.rua:2: line 2 (card counts): expected at least 4 integers", __LINE__ },
		{ "title\n 3 1 1 1\nrxa 2 2 1 0\n",
		  "t.rua:3: matrix type 'RXA': second letter must be S, U, H, Z or R", __LINE__ },
		{ "title\n 3 1 1 1\nrue 2 2 1 0\n",
		  "t.rua:3: matrix type 'RUE': elemental (unassembled) matrices are not supported", __LINE__ },
		{ "title\n 3 1 1 1\nrsa 3 2 1 0\n",
		  "t.rua:3: matrix type 'RSA' is symmetric but the matrix is not square", __LINE__ },
		{ "title\n 3 1 1 1\nrua -2 2 1 0\n",
		  "t.rua:3: line 3: rows, columns and entries must not be negative", __LINE__ },
		{ "title\n 3 1 1 1\nrua 2 2 2 0\n(3I3)           (3Q3)           (2E10.3)\n",
		  "t.rua:4: cannot parse the Fortran row index format '(3Q3)'", __LINE__ },
		{ "title\n 3 1 1 1\nrua 2 2 2 0\n(3I3)           (3I3)           (2E10.3)\n  1  2\n",
		  "t.rua:5: file ends after 2 of 3 column pointers", __LINE__ },
		{ "title\n 3 1 1 1\nrua 2 2 2 0\n(3I3)           (3I3)           (2E10.3)\n  2  2  3\n",
		  "t.rua:5: first column pointer is 2, must be 1", __LINE__ },
		{ "title\n 3 1 1 1\nrua 2 2 2 0\n(3I3)           (3I3)           (2E10.3)\n  1  2  3\n  1  3\n",
		  "t.rua:6: row index 3 is out of range 1..2", __LINE__ },
		{ "title\n 3 1 1 1\nrua 2 2 2 0\n(3I3)           (3I3)           (2E10.3)\n  1  2  3\n  1  2\n 1.0D+00    x     \n",
		  "t.rua:7: value 'x' is not a number", __LINE__ },
		{ "title\n 3 1 1 1\nrua 2 2 2 0\n(3I3)           (3I3)           (2E10.3)\n  1  2  3\n  1  2\n 1.0D+00\n",
		  "t.rua:7: file ends after 1 of 2 values", __LINE__ },
	};
	struct csr a;
	struct matrix_info inf;
	char msg[1400];
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		int rc = rb(bad[k].text, &a, &inf, msg, sizeof(msg));

		T_CHECK_AT(rc != 0, bad[k].line);
		T_STR_AT(msg, bad[k].msg, bad[k].line);
	}
	/* Touching Fortran fields (3D10.3 with no blanks), lowercase type,
	 * a symmetric matrix, HB line 5 for right-hand sides. */
	T_CHECK(!rb("symmetric test                                                          KEY\n"
		    "             4             1             1             1             1\n"
		    "rsa                        3             3             4             0\n"
		    "(4I2)           (4I2)           (3D10.3)            (3D10.3)\n"
		    "F                          1             0\n"
		    " 1 3 4 5\n"
		    " 1 3 2 3\n"
		    "-1.000D+00-2.500D+00 3.000D+00\n"
		    "4.000D-01\n", &a, &inf, msg, sizeof(msg)));
	T_STR(msg, "");
	T_EQ_U64(a.nnz, 5);
	T_EQ_U64(inf.stored, 4);
	T_CHECK(at(&a, 0, 0) == -1.0 && at(&a, 2, 0) == -2.5 &&
		at(&a, 0, 2) == -2.5 && at(&a, 1, 1) == 3.0 &&
		at(&a, 2, 2) == 0.4);
	T_STR(inf.type_code, "RSA");
	T_STR(inf.title, "symmetric test");
	matrix_csr_release(&a);
	/* pattern: no value section; complex: real parts */
	T_CHECK(!rb("p\n 3 1 1 0\npua 2 2 2 0\n(3I3)           (3I3)\n  1  2  3\n  2  1\n",
		    &a, &inf, msg, sizeof(msg)));
	T_STR(msg, "");
	T_CHECK(at(&a, 1, 0) == 1.0 && at(&a, 0, 1) == 1.0);
	matrix_csr_release(&a);
	T_CHECK(!rb("c\n 3 1 1 1\ncua 2 2 2 0\n(3I3)           (3I3)           (4E8.1)\n  1  2  3\n  2  1\n 1.0E+00 9.0E+00-2.0E+00 9.0E+00\n",
		    &a, &inf, msg, sizeof(msg)));
	T_STR(msg, "");
	T_CHECK(at(&a, 1, 0) == 1.0 && at(&a, 0, 1) == -2.0);
	T_CHECK(inf.complex_real_part);
	matrix_csr_release(&a);
}

/* ---- gzip and matrix_load ---------------------------------------------- */

static void test_gzip(void)
{
	char path[] = "/tmp/ppr_test_matrix_XXXXXX";
	const char *text = "%%MatrixMarket matrix coordinate real general\n"
			   "2 2 2\n1 1 1.5\n2 2 2.5\n";
	struct csr a;
	struct matrix_info inf;
	struct ppr_err err;
	gzFile g;
	int fd = mkstemp(path);

	T_CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	g = gzopen(path, "wb");
	T_CHECK(g != NULL);
	if (!g)
		return;
	gzwrite(g, text, (unsigned)strlen(text));
	gzclose(g);
	memset(&err, 0, sizeof(err));
	T_CHECK(matrix_load(path, &a, &inf, &err) == 0);
	T_CHECK(inf.gzipped);
	T_EQ_U64(a.nnz, 2);
	T_CHECK(a.vals[1] == 2.5);
	matrix_csr_release(&a);
	/* truncated gzip stream: its own error, not a parse error */
	{
		FILE *f = fopen(path, "rb");
		char gzb[256];
		size_t n = f ? fread(gzb, 1, sizeof(gzb), f) : 0;

		if (f)
			fclose(f);
		f = fopen(path, "wb");
		T_CHECK(f != NULL && n > 20);
		if (f) {
			fwrite(gzb, 1, n - 12, f);	/* drop the trailer and more */
			fclose(f);
		}
		memset(&err, 0, sizeof(err));
		T_CHECK(matrix_load(path, &a, &inf, &err) == PPR_ETRUNC);
		T_CHECK(strstr(err.msg, "gzip data is truncated or corrupt after") == err.msg);
		T_CHECK(strstr(err.msg, "unexpected end of file") != NULL);
	}
	unlink(path);
	memset(&err, 0, sizeof(err));
	T_CHECK(matrix_load("/nonexistent/x.mtx", &a, &inf, &err) == PPR_ENOENT);
	T_STR(err.msg, "cannot open matrix '/nonexistent/x.mtx': No such file or directory");
}

/* A plain file is mapped unless its size is a multiple of the page size
 * (then nothing reads as NUL after its last byte, and it is read into a
 * buffer): both paths load the same matrix, and the last entry, which runs
 * to the very end of the file without a newline, is read whole. */
static void test_file_sizes(void)
{
	static const size_t sizes[] = { 4095, 4096, 4097, 8192, 12289 };
	const char *head = "%%MatrixMarket matrix coordinate real general\n"
			   "3 3 3\n1 1 1.5\n2 2 2.5\n";
	long page = sysconf(_SC_PAGESIZE);
	unsigned i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char path[] = "/tmp/ppr_test_matrix_XXXXXX";
		size_t want = sizes[i], n = strlen(head), tail;
		struct csr a;
		struct matrix_info inf;
		struct ppr_err err;
		FILE *f;
		int fd = mkstemp(path);

		T_CHECK(fd >= 0);
		if (fd < 0)
			return;
		f = fdopen(fd, "wb");
		T_CHECK(f != NULL);
		if (!f)
			return;
		fputs(head, f);
		/* pad with a comment line, then "3 3 " and a value whose digits
		 * fill the file to exactly `want` bytes */
		fputs("%", f);
		n += 1;
		tail = 4 + 2;		/* "3 3 " + "1." */
		while (n + 1 + tail + 1 < want && want - (n + 1 + tail + 1) > 8) {
			fputc('x', f);
			n++;
		}
		fputc('\n', f);
		n++;
		fputs("3 3 1.", f);
		n += tail;
		while (n < want) {
			fputc('5', f);
			n++;
		}
		fclose(f);
		{
			struct stat st;

			T_CHECK(stat(path, &st) == 0);
			T_EQ_U64((uint64_t)st.st_size, want);
		}
		memset(&err, 0, sizeof(err));
		T_CHECK(matrix_load(path, &a, &inf, &err) == 0);
		if (!err.code) {
			T_EQ_U64(a.nnz, 3);
			T_CHECK(a.vals[2] > 1.55 && a.vals[2] < 1.56);
			matrix_csr_release(&a);
		}
		unlink(path);
	}
	T_CHECK(page > 0);
}

/* ---- generators --------------------------------------------------------- */

static int is_symmetric(const struct csr *a)
{
	uint64_t i, k;

	if (a->rows != a->cols)
		return 0;
	for (i = 0; i < a->rows; i++)
		for (k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
			if (at(a, a->col_idx[k], i) != a->vals[k])
				return 0;
	return 1;
}

static int csr_valid(const struct csr *a)
{
	uint64_t i, k;

	if (a->row_ptr[0] != 0 || a->row_ptr[a->rows] != a->nnz)
		return 0;
	for (i = 0; i < a->rows; i++)
		for (k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
			if (a->col_idx[k] >= a->cols)
				return 0;
			if (k > a->row_ptr[i] && a->col_idx[k] <= a->col_idx[k - 1])
				return 0;
		}
	return 1;
}

static int csr_equal(const struct csr *a, const struct csr *b)
{
	return a->rows == b->rows && a->nnz == b->nnz &&
	       !memcmp(a->row_ptr, b->row_ptr, (a->rows + 1) * 8) &&
	       !memcmp(a->col_idx, b->col_idx, a->nnz * 4) &&
	       !memcmp(a->vals, b->vals, a->nnz * 8);
}

static void test_gen(void)
{
	static const struct {
		const char *spec;
		uint64_t rows, nnz;
		int sym;
		int line;
	} rows[] = {
		{ "gen:laplace2d:n=1", 1, 1, 1, __LINE__ },
		{ "gen:laplace2d:n=7", 49, 5 * 49 - 4 * 7, 1, __LINE__ },
		{ "gen:laplace2d:n=100", 10000, 5 * 10000 - 400, 1, __LINE__ },
		{ "gen:laplace3d:n=2", 8, 7 * 8 - 6 * 4, 1, __LINE__ },
		{ "gen:laplace3d:n=13", 2197, 7 * 2197 - 6 * 169, 1, __LINE__ },
		{ "gen:fem3d:n=1,dof=3", 3, 9, 1, __LINE__ },
		{ "gen:fem3d:n=5,dof=3", 375, 9 * 13 * 13 * 13, 1, __LINE__ },
		{ "gen:fem3d:n=4,dof=1", 64, 10 * 10 * 10, 1, __LINE__ },
		{ "gen:banded:n=10,bw=2", 10, 10 * 5 - 6, 1, __LINE__ },
		{ "gen:banded:n=5,bw=9", 5, 25, 1, __LINE__ },
		{ "gen:banded:n=6,bw=0", 6, 6, 1, __LINE__ },
		{ "gen:random:n=1000,per_row=7,seed=3", 1000, 7000, 0, __LINE__ },
		{ "gen:random:n=20,per_row=20,seed=3", 20, 400, 0, __LINE__ },
		{ "gen:random:n=50,per_row=0", 50, 0, 0, __LINE__ },
		{ "gen:random:n=1000,per_row=7,seed=3,cols=64", 1000, 7000, 0, __LINE__ },
		{ "gen:random:n=10,per_row=40,cols=40", 10, 400, 0, __LINE__ },
	};
	static const struct {
		const char *spec, *msg;
		int line;
	} bad[] = {
		{ "gen:laplace4d:n=3", "unknown generator 'laplace4d' (known: laplace2d, laplace3d, fem3d, banded, random, rmat)", __LINE__ },
		{ "gen:laplace2d", "generator 'gen:laplace2d': missing parameter 'n'", __LINE__ },
		{ "gen:laplace2d:n=", "generator 'gen:laplace2d:n=': n='' is not a non-negative integer", __LINE__ },
		{ "gen:laplace2d:n=-4", "generator 'gen:laplace2d:n=-4': n='-4' is not a non-negative integer", __LINE__ },
		{ "gen:laplace2d:n=4,m=3", "generator 'gen:laplace2d:n=4,m=3': unknown parameter 'm' for laplace2d (known: n)", __LINE__ },
		{ "gen:laplace2d:n=4,n=5", "generator 'gen:laplace2d:n=4,n=5': parameter 'n' given twice", __LINE__ },
		{ "gen:laplace2d:4", "generator 'gen:laplace2d:4': parameter '4' must be key=value", __LINE__ },
		{ "gen:laplace2d:n=0", "generator 'gen:laplace2d:n=0': n must be at least 1", __LINE__ },
		{ "gen:fem3d:n=3", "generator 'gen:fem3d:n=3': missing parameter 'dof'", __LINE__ },
		{ "gen:random:n=5,per_row=6", "generator 'gen:random:n=5,per_row=6': per_row=6 exceeds the 5 columns (columns are distinct)", __LINE__ },
		{ "gen:random:n=50,per_row=3,cols=2", "generator 'gen:random:n=50,per_row=3,cols=2': per_row=3 exceeds the 2 columns (columns are distinct)", __LINE__ },
		{ "gen:rmat:scale=40", "generator 'gen:rmat:scale=40': scale must be in 1..31", __LINE__ },
		{ "gen:laplace3d:n=2000", "generator 'gen:laplace3d:n=2000': n=2000 gives 2^32 or more rows", __LINE__ },
	};
	size_t k;

	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct csr a, b;
		struct matrix_info inf;
		struct ppr_err err;
		int rc;

		memset(&err, 0, sizeof(err));
		rc = matrix_load(rows[k].spec, &a, &inf, &err);
		T_CHECK_AT(rc == 0, rows[k].line);
		if (rc) {
			fprintf(stderr, "  %s: %s\n", rows[k].spec, err.msg);
			continue;
		}
		T_EQ_U64_AT(a.rows, rows[k].rows, rows[k].line);
		T_EQ_U64_AT(a.nnz, rows[k].nnz, rows[k].line);
		T_CHECK_AT(csr_valid(&a), rows[k].line);
		if (rows[k].sym)
			T_CHECK_AT(is_symmetric(&a), rows[k].line);
		T_CHECK_AT(inf.format == MATRIX_FMT_GEN, rows[k].line);
		/* deterministic: a second run is bit-identical */
		T_CHECK_AT(matrix_load(rows[k].spec, &b, NULL, &err) == 0 &&
			   csr_equal(&a, &b), rows[k].line);
		matrix_csr_release(&b);
		matrix_csr_release(&a);
	}
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct csr a;
		struct ppr_err err;

		memset(&err, 0, sizeof(err));
		T_CHECK_AT(matrix_load(bad[k].spec, &a, NULL, &err) != 0,
			   bad[k].line);
		T_STR_AT(err.msg, bad[k].msg, bad[k].line);
		/* the check alone gives the same verdict, generating nothing:
		 * EINVAL for a malformed spec, ERANGE for one too large */
		memset(&err, 0, sizeof(err));
		T_CHECK_AT(matrix_gen_check(bad[k].spec, &err) ==
			   (strstr(bad[k].msg, "2^32") ? PPR_ERANGE :
			    PPR_EINVAL), bad[k].line);
		T_STR_AT(err.msg, bad[k].msg, bad[k].line);
	}
	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct ppr_err err;

		memset(&err, 0, sizeof(err));
		T_CHECK_AT(matrix_gen_check(rows[k].spec, &err) == 0,
			   rows[k].line);
	}
	{
		/* 2.4e11 nonzeros: the check passes (memory is matrix_gen's) */
		struct ppr_err err;

		memset(&err, 0, sizeof(err));
		T_CHECK(matrix_gen_check("gen:fem3d:n=1000,dof=3", &err) == 0);
	}
	/* fem3d: natural dof x dof blocks, so BCSR 3x3 has fill exactly 1 */
	{
		struct csr a;
		struct ppr_err err;

		if (!matrix_load("gen:fem3d:n=6,dof=3", &a, NULL, &err)) {
			uint64_t nb = matrix_fill_count(&a, 3, 3);

			T_EQ_U64(nb * 9, a.nnz);
			T_CHECK(matrix_fill_count(&a, 2, 2) * 4 > a.nnz);
			/* diagonally dominant */
			{
				uint64_t i, kk;
				int dom = 1;

				for (i = 0; i < a.rows; i++) {
					double d = 0, off = 0;

					for (kk = a.row_ptr[i]; kk < a.row_ptr[i + 1]; kk++)
						if (a.col_idx[kk] == i)
							d = a.vals[kk];
						else
							off += fabs(a.vals[kk]);
					if (d <= off)
						dom = 0;
				}
				T_CHECK(dom);
			}
			matrix_csr_release(&a);
		}
	}
	/* seeds: different seeds differ; rmat edges = nnz + merged dups */
	{
		struct csr a, b;
		struct matrix_info inf;
		struct ppr_err err;

		T_CHECK(!matrix_load("gen:random:n=300,per_row=5,seed=1", &a, NULL, &err));
		T_CHECK(!matrix_load("gen:random:n=300,per_row=5,seed=2", &b, NULL, &err));
		T_CHECK(!csr_equal(&a, &b));
		matrix_csr_release(&b);
		/* cols=C: C columns, all below C; cols=n is the square default */
		T_CHECK(!matrix_load("gen:random:n=300,per_row=5,seed=1,cols=300", &b, NULL, &err));
		T_CHECK(csr_equal(&a, &b));
		matrix_csr_release(&b);
		T_CHECK(!matrix_load("gen:random:n=300,per_row=5,seed=1,cols=8", &b, NULL, &err));
		T_EQ_U64(b.rows, 300);
		T_EQ_U64(b.cols, 8);
		{
			uint64_t kk, mx = 0;

			for (kk = 0; kk < b.nnz; kk++)
				mx = b.col_idx[kk] > mx ? b.col_idx[kk] : mx;
			T_CHECK(mx < 8);
		}
		T_CHECK(csr_valid(&b));
		matrix_csr_release(&a);
		matrix_csr_release(&b);
		T_CHECK(!matrix_load("gen:rmat:scale=12,edge_factor=8,seed=5", &a, &inf, &err));
		T_EQ_U64(a.nnz + inf.duplicates, 8u << 12);
		T_CHECK(inf.duplicates > 0);
		T_CHECK(csr_valid(&a));
		/* power law: the largest row is far above the mean */
		{
			struct matrix_row_stats st;

			matrix_row_stats_compute(&a, &st);
			T_CHECK((double)st.max > 10.0 * st.mean);
			T_CHECK(st.empty_rows > 0);
		}
		T_CHECK(!matrix_load("gen:rmat:scale=12,edge_factor=8,seed=5", &b, NULL, &err));
		T_CHECK(csr_equal(&a, &b));
		matrix_csr_release(&a);
		matrix_csr_release(&b);
	}
}

/* ---- BCSR ---------------------------------------------------------------- */

static uint64_t brute_blocks(const struct csr *a, unsigned r, unsigned c)
{
	uint64_t bc = (a->cols + c - 1) / c, br = (a->rows + r - 1) / r;
	unsigned char *seen = calloc((size_t)(bc * br + 1), 1);
	uint64_t i, k, n = 0;

	for (i = 0; i < a->rows; i++)
		for (k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
			uint64_t b = (i / r) * bc + a->col_idx[k] / c;

			if (!seen[b]) {
				seen[b] = 1;
				n++;
			}
		}
	free(seen);
	return n;
}

static void test_bcsr(void)
{
	static const char *const specs[] = {
		"gen:random:n=97,per_row=6,seed=9", "gen:laplace2d:n=11",
		"gen:fem3d:n=3,dof=2",
	};
	size_t s;
	char msg[1400];

	for (s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
		struct csr a;
		struct ppr_err err;
		uint64_t nb[8][8];
		unsigned r, c;
		int bad = 0;

		if (matrix_load(specs[s], &a, NULL, &err)) {
			T_CHECK(!"load");
			continue;
		}
		matrix_fill_count_all(&a, nb);
		for (r = 1; r <= 8; r++)
			for (c = 1; c <= 8; c++) {
				struct bcsr b;
				uint64_t i, k, I, q, stored = 0;
				double sum = 0, bsum = 0;

				if (nb[r - 1][c - 1] != brute_blocks(&a, r, c) ||
				    matrix_fill_count(&a, r, c) != nb[r - 1][c - 1]) {
					bad++;
					continue;
				}
				if (matrix_bcsr_build(&a, r, c, &b, &err)) {
					bad++;
					continue;
				}
				if (b.nblocks != nb[r - 1][c - 1] ||
				    b.brow_ptr[b.brows] != b.nblocks)
					bad++;
				/* every CSR entry sits where BCSR says */
				for (i = 0; i < a.rows; i++)
					for (k = a.row_ptr[i]; k < a.row_ptr[i + 1]; k++) {
						uint32_t j = a.col_idx[k];
						int found = 0;

						sum += a.vals[k];
						I = i / r;
						for (q = b.brow_ptr[I]; q < b.brow_ptr[I + 1]; q++)
							if (b.bcol_idx[q] == j / c) {
								found = b.vals[q * r * c + (i % r) * c + j % c] == a.vals[k];
								break;
							}
						if (!found)
							bad++;
					}
				for (q = 0; q < b.nblocks * r * c; q++) {
					bsum += b.vals[q];
					stored += b.vals[q] != 0.0;
				}
				/* block columns increase within a block row */
				for (I = 0; I < b.brows; I++)
					for (q = b.brow_ptr[I] + 1; q < b.brow_ptr[I + 1]; q++)
						if (b.bcol_idx[q] <= b.bcol_idx[q - 1])
							bad++;
				if (stored != a.nnz || fabs(sum - bsum) > 1e-9 * fabs(sum))
					bad++;
				matrix_bcsr_release(&b);
			}
		T_CHECK_AT(bad == 0, (int)s);
		matrix_csr_release(&a);
	}
	{
		struct csr a;
		struct bcsr b;
		struct ppr_err err;

		T_CHECK(!matrix_load("gen:laplace2d:n=3", &a, NULL, &err));
		memset(&err, 0, sizeof(err));
		T_CHECK(matrix_bcsr_build(&a, 9, 1, &b, &err) == PPR_EINVAL);
		T_STR(ppr_err_format(&err, msg, sizeof(msg)),
		      "block shape 9x1: r and c must be in 1..8");
		T_NEAR(matrix_fill_ratio(matrix_fill_count(&a, 3, 3), 3, 3, a.nnz),
		       7.0 * 9 / 33, 1e-12);	/* block tridiagonal */
		matrix_csr_release(&a);
	}
}

/* ---- limits and stats ---------------------------------------------------- */

static void test_limits(void)
{
	struct ppr_err err;
	struct csr a;
	struct matrix_row_stats st;

	memset(&err, 0, sizeof(err));
	T_CHECK(matrix_mem_check(UINT64_C(1) << 62, "a test", &err) == PPR_ENOMEM);
	T_CHECK(strstr(err.msg, "a test needs 4294967296.0 GiB but the machine has") != NULL);
	T_CHECK(matrix_mem_check(1 << 20, "small", NULL) == 0);
	/* 10^12 nonzeros (12 TB): refused before allocating, saying why */
	memset(&err, 0, sizeof(err));
	T_CHECK(matrix_load("gen:random:n=1000000000,per_row=1000", &a, NULL,
			    &err) == PPR_ENOMEM);
	T_CHECK(strstr(err.msg, "(1000000000000 nonzeros) needs 11183.3 GiB") != NULL);
	memset(&err, 0, sizeof(err));
	T_CHECK(matrix_load("gen:banded:n=4000000000,bw=1000000000", &a, NULL,
			    &err) == PPR_ERANGE);
	T_STR(err.msg, "generator 'gen:banded:n=4000000000,bw=1000000000': size overflows 64 bits");
	/* --max-memory: a set limit refuses what the default allows */
	matrix_mem_limit_set(UINT64_C(1) << 20);
	memset(&err, 0, sizeof(err));
	T_CHECK(matrix_load("gen:laplace2d:n=300", &a, NULL, &err) == PPR_ENOMEM);
	T_STR(err.msg, "generator 'gen:laplace2d:n=300' (448800 nonzeros) needs 5.8 MiB but --max-memory is 1.0 MiB");
	matrix_mem_limit_set(0);
	T_CHECK(matrix_mem_limit() > (UINT64_C(1) << 20));
	T_CHECK(!matrix_load("gen:laplace2d:n=300", &a, NULL, &err));
	matrix_csr_release(&a);
	T_CHECK(!matrix_load("gen:laplace2d:n=3", &a, NULL, &err));
	matrix_row_stats_compute(&a, &st);
	T_EQ_U64(st.min, 3);
	T_EQ_U64(st.max, 5);
	T_NEAR(st.mean, 33.0 / 9, 1e-12);
	/* lengths 3,4,3,4,5,4,3,4,3 */
	T_NEAR(st.stddev, sqrt((4 * (3 - 33.0 / 9) * (3 - 33.0 / 9) +
				4 * (4 - 33.0 / 9) * (4 - 33.0 / 9) +
				(5 - 33.0 / 9) * (5 - 33.0 / 9)) / 9), 1e-12);
	matrix_csr_release(&a);
}

/*
 * Robustness: every prefix and many random byte mutations of a valid MM
 * and RB text either load or fail with a message; never crash (run under
 * SANITIZE=address,undefined to make that bite).
 */
static void test_mutations(void)
{
	static const char *const texts[] = {
		"%%MatrixMarket matrix coordinate complex hermitian\n% c\n"
		"3 3 4\n1 1 1.5 0\n2 1 -2e3 1\n3 2 .5 -1\n3 3 7 0\n",
		"%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n",
		"t\n 4 1 1 1\nrsa 3 3 4 0\n(4I2)           (4I2)           (3D10.3)\n"
		" 1 3 4 5\n 1 3 2 3\n-1.000D+00-2.500D+00 3.000D+00\n4.000D-01\n",
	};
	static const char junk[] = " \n\r-+.%0123456789eEdDxX(),IPa";
	size_t t, k;
	int no_message = 0, ok = 0, failed = 0;

	for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		size_t len = strlen(texts[t]);
		char *buf = malloc(len + 1);
		int m;

		for (k = 0; k <= len; k++) {
			struct csr a;
			struct ppr_err err;
			int rc;

			memcpy(buf, texts[t], k);
			memset(&err, 0, sizeof(err));
			rc = t < 2 ? matrix_mm_parse_buf("p", buf, k, &a, NULL, &err)
				   : matrix_rb_parse_buf("p", buf, k, &a, NULL, &err);
			if (rc) {
				failed++;
				if (!err.msg[0])
					no_message++;
			} else {
				ok++;
				matrix_csr_release(&a);
			}
		}
		for (m = 0; m < 3000; m++) {
			struct csr a;
			struct ppr_err err;
			int rc, e;

			memcpy(buf, texts[t], len);
			for (e = 0; e < 1 + (int)(rnd() % 3); e++)
				buf[rnd() % len] = junk[rnd() % (sizeof(junk) - 1)];
			memset(&err, 0, sizeof(err));
			rc = t < 2 ? matrix_mm_parse_buf("p", buf, len, &a, NULL, &err)
				   : matrix_rb_parse_buf("p", buf, len, &a, NULL, &err);
			if (rc) {
				failed++;
				if (!err.msg[0])
					no_message++;
			} else {
				ok++;
				T_CHECK(csr_valid(&a));
				matrix_csr_release(&a);
			}
		}
		free(buf);
	}
	T_EQ_U64(no_message, 0);
	T_CHECK(ok > 0 && failed > 0);
}

int main(void)
{
	test_parse_double();
	test_parse_int();
	test_mm_errors();
	test_mm_valid();
	test_rb();
	test_gzip();
	test_file_sizes();
	test_gen();
	test_bcsr();
	test_limits();
	test_mutations();
	return t_done();
}
