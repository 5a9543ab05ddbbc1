/*
 * load.c - matrix_load(): the one entry point every command uses for a
 * matrix argument (a file, or a gen: spec).
 *
 * Format detection: a file whose text starts with "%%MatrixMarket" (after
 * blanks) is Matrix Market; otherwise a name ending in .mtx (before an
 * optional .gz) is Matrix Market too (and gets the banner error); anything
 * else is read as Rutherford-Boeing / Harwell-Boeing.  gzip is detected
 * by its magic bytes, not by the name.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "matrix/matrix_int.h"

static int ends_with(const char *s, size_t n, const char *suf)
{
	size_t m = strlen(suf);

	return n >= m && !strncasecmp(s + n - m, suf, m);
}

int matrix_load(const char *spec_or_path, struct csr *out,
		struct matrix_info *info, struct ppr_err *err)
{
	char *buf = NULL;
	size_t len = 0, mapped = 0, n, k;
	int gz = 0, rc, mm;
	struct matrix_info inf;

	memset(out, 0, sizeof(*out));
	if (!spec_or_path || !*spec_or_path)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "no matrix given (a file or gen:NAME:k=v,...)");
	if (matrix_spec_is_gen(spec_or_path))
		return matrix_gen(spec_or_path, out, info, err);
	rc = matrix_file_read(spec_or_path, &buf, &len, &mapped, &gz, err);
	if (rc)
		return rc;
	for (k = 0; k < len && (buf[k] == ' ' || buf[k] == '\t'); k++)
		;
	n = strlen(spec_or_path);
	if (ends_with(spec_or_path, n, ".gz"))
		n -= 3;
	mm = (len - k >= 14 && !memcmp(buf + k, "%%MatrixMarket", 14)) ||
	     ends_with(spec_or_path, n, ".mtx") ||
	     (len - k >= 1 && buf[k] == '%');
	memset(&inf, 0, sizeof(inf));
	if (mm)
		rc = matrix_mm_parse_buf(spec_or_path, buf, len, out, &inf, err);
	else
		rc = matrix_rb_parse_buf(spec_or_path, buf, len, out, &inf, err);
	matrix_file_release(buf, mapped);
	if (rc)
		return rc;
	inf.gzipped = gz;
	if (info)
		*info = inf;
	return 0;
}
