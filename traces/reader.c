/*
 * reader.c - the trace reader: opening, the input window, format
 * detection and dispatch to the format back ends.
 *
 * Notes:
 * - Memory is one window of TRACE_BUF_BYTES whatever the trace length;
 *   the back ends decode straight out of it and call
 *   trace_reader_refill() when a record or line runs past its end.
 * - Detection looks only at the first window: the ppr magic, else the
 *   first data line of a text trace (valgrind '==' chatter, blank and '#'
 *   lines skipped).  A stream that cannot seek (stdin) is detected the
 *   same way, since the window is what the back end then parses.
 * - Errors are sticky: once a trace is found bad, every later call
 *   returns the same error.
 */
#include "traces/trace_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

int trace_format_parse(const char *s, enum trace_format *out)
{
	if (!strcmp(s, "auto"))
		*out = TRACE_FMT_AUTO;
	else if (!strcmp(s, "ppr"))
		*out = TRACE_FMT_PPR;
	else if (!strcmp(s, "din"))
		*out = TRACE_FMT_DIN;
	else if (!strcmp(s, "lackey"))
		*out = TRACE_FMT_LACKEY;
	else
		return PPR_EINVAL;
	return 0;
}

const char *trace_format_name(enum trace_format f)
{
	switch (f) {
	case TRACE_FMT_AUTO: return "auto";
	case TRACE_FMT_PPR: return "ppr";
	case TRACE_FMT_DIN: return "din";
	case TRACE_FMT_LACKEY: return "lackey";
	}
	return "unknown";
}

int trace_reader_fail(struct trace_reader *r, struct ppr_err *err, int code,
		      long line, const char *fmt, ...)
{
	va_list ap;

	r->failed = code;
	r->saved.code = code;
	r->saved.line = line;
	r->saved.col = 0;
	snprintf(r->saved.file, sizeof(r->saved.file), "%s", r->name);
	va_start(ap, fmt);
	vsnprintf(r->saved.msg, sizeof(r->saved.msg), fmt, ap);
	va_end(ap);
	/* A control byte quoted from the input would split the one-line
	 * message (as ppr_err_set does): show it as '?'. */
	for (char *q = r->saved.msg; *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f)
			*q = '?';
	if (err)
		*err = r->saved;
	return code;
}

int trace_reader_refill(struct trace_reader *r, struct ppr_err *err)
{
	size_t keep, got;

	if (r->eof || !r->f)
		return 0;
	keep = (size_t)(r->end - r->p);
	if (r->p != r->own) {
		memmove(r->own, r->p, keep);
		r->base_off += (uint64_t)(r->p - r->base);
		r->base = r->own;
		r->p = r->own;
		r->end = r->own + keep;
	}
	if (keep == r->own_cap)
		return 0;  /* full window: the caller decides (line too long) */
	got = fread(r->own + keep, 1, r->own_cap - keep, r->f);
	if (got < r->own_cap - keep) {
		if (ferror(r->f))
			return trace_reader_fail(r, err, PPR_EIO, 0,
						 "read error after byte %llu: %s",
						 (unsigned long long)(r->base_off + keep),
						 strerror(errno));
		r->eof = 1;
	}
	r->end += got;
	return (int)(got > 0);
}

/*
 * The magic's first byte, 0x89, starts no text trace: a file that starts
 * with it is read as ppr, so a truncated header or a damaged magic is
 * reported as such rather than as an unknown text format.
 */
static int looks_like_ppr(const uint8_t *p, size_t len)
{
	return len > 0 && p[0] == 0x89;
}

static int reader_setup(struct trace_reader *r,
			const struct trace_reader_config *cfg,
			struct ppr_err *err)
{
	enum trace_format fmt = cfg ? cfg->format : TRACE_FMT_AUTO;
	int rc, ext = 0, chatter = 0, d;
	long line = 0;

	r->default_tag = cfg ? cfg->default_tag : PPR_TAG_REGULAR;
	r->info.header_records = UINT64_MAX;
	if (r->default_tag >= PPR_NTAGS)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "unknown default tag %u", r->default_tag);
	if (r->f) {
		rc = trace_reader_refill(r, err);
		if (rc < 0)
			return rc;
	}
	if (fmt == TRACE_FMT_AUTO) {
		if (looks_like_ppr(r->p, (size_t)(r->end - r->p))) {
			fmt = TRACE_FMT_PPR;
		} else {
			d = trace_text_detect(r->p, r->end, &ext, &chatter,
					      &line);
			if (d < 0)
				return ppr_err_set(err, PPR_EFORMAT, r->name, line,
						   0, "cannot tell the trace format "
						   "from this line (not ppr, din or "
						   "lackey); use --trace-format");
			if (d == TRACE_FMT_AUTO && !r->eof)
				return ppr_err_set(err, PPR_EFORMAT, r->name, 0, 0,
						   "no record in the first %u bytes: "
						   "cannot tell the trace format; use "
						   "--trace-format", TRACE_BUF_BYTES);
			/* no record at all: valgrind messages only (lackey),
			   or empty (din) */
			if (d == TRACE_FMT_AUTO)
				fmt = chatter ? TRACE_FMT_LACKEY : TRACE_FMT_DIN;
			else
				fmt = (enum trace_format)d;
		}
	} else if (fmt == TRACE_FMT_DIN) {
		d = trace_text_detect(r->p, r->end, &ext, &chatter, &line);
		if (d == TRACE_FMT_LACKEY)
			ext = 1; /* the din parser reports the bad label */
	}
	r->info.format = fmt;
	r->info.din_extended = ext;
	switch (fmt) {
	case TRACE_FMT_PPR:
		r->next = trace_ppr_next;
		/* header problems show at open; info has the line size */
		return trace_ppr_read_header(r, err);
	case TRACE_FMT_DIN: r->next = trace_din_next; break;
	case TRACE_FMT_LACKEY: r->next = trace_lackey_next; break;
	default:
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "unknown trace format %d", (int)fmt);
	}
	return 0;
}

static struct trace_reader *reader_alloc(const char *name)
{
	struct trace_reader *r = xcalloc(1, sizeof(*r));

	snprintf(r->name, sizeof(r->name), "%s", name ? name : "trace");
	return r;
}

int trace_reader_new_file(struct trace_reader **out, FILE *f, const char *name,
			  const struct trace_reader_config *cfg,
			  struct ppr_err *err)
{
	struct trace_reader *r = reader_alloc(name);
	int rc;

	*out = NULL;
	r->f = f;
	r->own_cap = TRACE_BUF_BYTES;
	r->own = xmalloc(r->own_cap);
	r->base = r->p = r->end = r->own;
	rc = reader_setup(r, cfg, err);
	if (rc < 0) {
		trace_reader_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int trace_reader_new(struct trace_reader **out, const char *path,
		     const struct trace_reader_config *cfg, struct ppr_err *err)
{
	FILE *f;
	int rc;

	*out = NULL;
	if (!strcmp(path, "-"))
		return trace_reader_new_file(out, stdin, "<stdin>", cfg, err);
	f = fopen(path, "rb");
	if (!f)
		return ppr_err_set(err, errno == ENOENT ? PPR_ENOENT : PPR_EIO,
				   NULL, 0, 0, "cannot open trace '%s': %s",
				   path, strerror(errno));
	rc = trace_reader_new_file(out, f, path, cfg, err);
	if (rc < 0) {
		fclose(f);
		return rc;
	}
	(*out)->own_f = 1;
	return 0;
}

int trace_reader_new_mem(struct trace_reader **out, const void *data,
			 size_t len, const char *name,
			 const struct trace_reader_config *cfg,
			 struct ppr_err *err)
{
	struct trace_reader *r = reader_alloc(name);
	int rc;

	*out = NULL;
	r->base = r->p = data;
	r->end = r->p + len;
	r->eof = 1;
	rc = reader_setup(r, cfg, err);
	if (rc < 0) {
		trace_reader_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void trace_reader_free(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->own_f)
		fclose(r->f);
	free(r->own);
	free(r);
}

int trace_reader_next(struct trace_reader *r, struct ppr_access *buf,
		      size_t cap, size_t *n, struct ppr_err *err)
{
	uint64_t start = (uint64_t)(r->p - r->base) + r->base_off;
	int rc;

	*n = 0;
	if (r->failed) {
		if (err)
			*err = r->saved;
		return r->failed;
	}
	if (!cap)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "trace_reader_next: no room (cap 0)");
	rc = r->next(r, buf, cap, n, err);  /* counts info.by_op itself */
	r->info.records += *n;
	r->info.bytes += trace_reader_off(r, r->p) - start;
	return rc;
}

void trace_reader_info(const struct trace_reader *r, struct trace_info *out)
{
	*out = r->info;
}
