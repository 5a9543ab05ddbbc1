#include "common/ppr_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *ppr_strerror(int code)
{
	switch (code) {
	case PPR_OK: return "success";
	case PPR_EINVAL: return "invalid argument";
	case PPR_ENOMEM: return "out of memory";
	case PPR_EIO: return "input/output error";
	case PPR_EFORMAT: return "malformed input";
	case PPR_ERANGE: return "value out of range";
	case PPR_ENOTSUP: return "not supported";
	case PPR_ENOENT: return "not found";
	case PPR_ELIMIT: return "resource limit exceeded";
	case PPR_ETRUNC: return "truncated input";
	}
	return "unknown error";
}

int ppr_err_set(struct ppr_err *err, int code, const char *file, long line,
		long col, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	err->line = line;
	err->col = col;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	/*
	 * Messages quote input text; a control byte there (newline, CR,
	 * escape...) would break the one-line error or the terminal: show
	 * it as '?'.
	 */
	for (char *p = err->msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return code;
}

char *ppr_err_format(const struct ppr_err *err, char *buf, size_t n)
{
	if (!n)
		return buf;
	if (err->file[0] && err->line > 0 && err->col > 0)
		snprintf(buf, n, "%s:%ld:%ld: %s", err->file, err->line,
			 err->col, err->msg);
	else if (err->file[0] && err->line > 0)
		snprintf(buf, n, "%s:%ld: %s", err->file, err->line, err->msg);
	else if (err->file[0])
		snprintf(buf, n, "%s: %s", err->file, err->msg);
	else
		snprintf(buf, n, "%s", err->msg[0] ? err->msg
						   : ppr_strerror(err->code));
	return buf;
}
