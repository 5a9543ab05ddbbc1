/*
 * ppr_err.h - the one error convention of ppr.
 *
 * Library functions return int: 0 on success, a negative PPR_E* code on
 * failure.  User-facing context travels in an optional last parameter,
 * struct ppr_err *err, which is left untouched on success.  Library code
 * never prints and never exits; the CLI decides what to show.
 */
#ifndef PPR_ERR_H
#define PPR_ERR_H

#include <stddef.h>

enum ppr_errcode {
	PPR_OK = 0,
	PPR_EINVAL = -1,   /* invalid argument or value */
	PPR_ENOMEM = -2,   /* allocation failed or limit exceeded */
	PPR_EIO = -3,      /* read/write failed */
	PPR_EFORMAT = -4,  /* malformed input file */
	PPR_ERANGE = -5,   /* value out of range / overflow */
	PPR_ENOTSUP = -6,  /* not supported (on this machine / build) */
	PPR_ENOENT = -7,   /* no such file, key or item */
	PPR_ELIMIT = -8,   /* resource limit (--max-memory, timeout) */
	PPR_ETRUNC = -9,   /* truncated input */
};

/*
 * Context for one error.  'file' and 'line' name where in the *input* the
 * problem is (line 0: no line applies); 'msg' says what is wrong.
 */
struct ppr_err {
	int code;
	char file[512];
	long line;
	long col;
	char msg[1024];
};

const char *ppr_strerror(int code);

/*
 * Fill err (if non-NULL) and return code.  file may be NULL, line/col 0.
 * The message is printf-formatted, lowercase, no final period.
 */
int ppr_err_set(struct ppr_err *err, int code, const char *file, long line,
		long col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* "file:line:col: msg" (omitting what is unset) into buf; returns buf. */
char *ppr_err_format(const struct ppr_err *err, char *buf, size_t n);

#endif
