/*
 * parse.c - hand-written number parsing for the readers (no scanf per
 * line).  Doubles take an exact fast path (at most 19 significant digits,
 * mantissa <= 2^53, decimal exponent within +-22: one correctly rounded
 * multiply or divide by an exact power of ten, Clinger 1990); everything
 * else falls back to strtod on a copy of the token.
 */
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_int.h"

static const double pow10_tab[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int matrix_parse_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int any = 0;

	if (s < end && *s == '+')
		s++;
	while (s < end && is_digit(*s)) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -2;
		v = v * 10 + d;
		s++;
		any = 1;
	}
	if (!any)
		return -1;
	*p = s;
	*out = v;
	return 0;
}

int matrix_parse_i64(const char **p, const char *end, int64_t *out)
{
	const char *s = *p;
	uint64_t v;
	int neg = 0, rc;

	if (s < end && *s == '-') {
		neg = 1;
		s++;
	} else if (s < end && *s == '+') {
		s++;
	}
	if (s >= end || !is_digit(*s))
		return -1;
	rc = matrix_parse_u64(&s, end, &v);
	if (rc)
		return rc;
	if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -2;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	*p = s;
	return 0;
}

/* strtod on a private copy; Fortran exponents rewritten to 'e'. */
static int slow_double(const char *s, const char *tokend, double *out,
		       int fortran, const char **next)
{
	char buf[128];
	size_t n = (size_t)(tokend - s), k, o = 0;
	char *e;

	if (n + 2 > sizeof(buf))
		return -1;
	for (k = 0; k < n; k++) {
		char c = s[k];

		/* room for an inserted 'e', this character and the NUL: a
		 * token may hold several signs after digits (then it is
		 * malformed, and strtod will say so) */
		if (o + 3 > sizeof(buf))
			return -1;
		if (fortran && (c == 'D' || c == 'd'))
			c = 'e';
		else if (fortran && (c == '+' || c == '-') && k > 0 &&
			 (is_digit(s[k - 1]) || s[k - 1] == '.'))
			buf[o++] = 'e';
		buf[o++] = c;
	}
	buf[o] = '\0';
	errno = 0;
	*out = strtod(buf, &e);
	if (e == buf)
		return -1;
	/* Map the consumed length back onto the original token. */
	if ((size_t)(e - buf) != o)
		return -1;
	*next = tokend;
	return 0;
}

int matrix_parse_double(const char **p, const char *end, double *out,
			int fortran)
{
	const char *s = *p, *t;
	uint64_t m = 0;
	int neg = 0, digits = 0, sig = 0, exp10 = 0, any = 0;
	int64_t ex = 0;

	t = s;
	if (t < end && (*t == '-' || *t == '+')) {
		neg = *t == '-';
		t++;
	}
	while (t < end && *t == '0') {
		t++;
		any = 1;
	}
	while (t < end && is_digit(*t)) {
		if (sig < 19) {
			m = m * 10 + (uint64_t)(*t - '0');
			sig++;
		} else {
			exp10++;
			digits = 1;	/* dropped digits: inexact */
		}
		t++;
		any = 1;
	}
	if (t < end && *t == '.') {
		t++;
		if (!sig)
			while (t < end && *t == '0') {
				t++;
				exp10--;
				any = 1;
			}
		while (t < end && is_digit(*t)) {
			if (sig < 19) {
				m = m * 10 + (uint64_t)(*t - '0');
				sig++;
				exp10--;
			} else {
				digits = 1;	/* dropped digits: inexact */
			}
			t++;
			any = 1;
		}
	}
	if (!any)
		goto slow;	/* inf, nan, or not a number */
	if (t < end && (*t == 'e' || *t == 'E' ||
			(fortran && (*t == 'd' || *t == 'D' || *t == '+' ||
				     *t == '-')))) {
		const char *u = t;
		int eneg = 0;

		if (*u != '+' && *u != '-')
			u++;
		if (u < end && (*u == '+' || *u == '-')) {
			eneg = *u == '-';
			u++;
		}
		if (u >= end || !is_digit(*u))
			return -1;
		while (u < end && is_digit(*u)) {
			if (ex < 100000)
				ex = ex * 10 + (*u - '0');
			u++;
		}
		if (eneg)
			ex = -ex;
		t = u;
	}
	if (t < end && (is_digit(*t) || *t == '.' || *t == 'e' || *t == 'E'
			|| *t == '+' || *t == '-'))
		return -1;
	ex += exp10;
	if (!digits && m <= (UINT64_C(1) << 53) && ex >= -22 && ex <= 22) {
		double d = (double)m;

		d = ex >= 0 ? d * pow10_tab[ex] : d / pow10_tab[-ex];
		*out = neg ? -d : d;
		*p = t;
		return 0;
	}
#if LDBL_MANT_DIG == 64 && defined(__x86_64__)
	/*
	 * 19 digits or fewer, |ex| <= 27: m and 10^|ex| are exact in the
	 * 64-bit x87 mantissa, so one long double multiply/divide rounds
	 * once.  Rounding that to double is correct unless the long double
	 * lies within one of its ulps of a double rounding boundary (low 11
	 * mantissa bits near 0x400); those rare cases go to strtod.
	 */
	if (!digits && m && ex >= -27 && ex <= 27) {
		static const long double p10l[28] = {
			1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L,
			1e9L, 1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L,
			1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L,
			1e25L, 1e26L, 1e27L,
		};
		long double x = (long double)m;
		uint64_t mant, low;

		x = ex >= 0 ? x * p10l[ex] : x / p10l[-ex];
		memcpy(&mant, &x, sizeof(mant));
		low = mant & 0x7ff;
		if (low < 0x3ff || low > 0x401) {
			double d = (double)x;

			*out = neg ? -d : d;
			*p = t;
			return 0;
		}
	}
#endif
	if (m == 0 && !digits) {
		*out = neg ? -0.0 : 0.0;
		*p = t;
		return 0;
	}
	return slow_double(s, t, out, fortran, p);
slow:
	t = s;
	while (t < end && *t != ' ' && *t != '\t' && *t != '\n' && *t != '\r')
		t++;
	if (t == s)
		return -1;
	return slow_double(s, t, out, fortran, p);
}
