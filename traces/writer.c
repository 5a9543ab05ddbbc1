/*
 * writer.c - the trace writer: ppr (binary), din (extended) or lackey
 * text, behind the batched access sink that kernels emit into.
 *
 * Notes:
 * - Output is buffered in TRACE_WBUF_BYTES and written with fwrite; memory
 *   is constant whatever the trace length.
 * - The ppr header is written first with "count unknown"; finish() writes
 *   the END marker, the count and the checksum, and patches the header
 *   count when the output can seek (a file; not a pipe, not O_APPEND).
 * - din output is Dinero IV's extended form with hex sizes; a modify
 *   becomes a read line and a write line; tags are lost.  lackey output
 *   keeps M; tags are lost.
 */
#include "traces/trace_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "common/xalloc.h"

#define TRACE_WBUF_BYTES (1u << 18)

struct trace_writer {
	char name[256];
	FILE *f;
	int own_f;
	enum trace_format fmt;
	uint32_t line_size;
	uint8_t *buf;
	size_t len;
	struct trace_ppr_enc enc;
	uint64_t records;
	uint64_t flushed;     /* bytes handed to fwrite */
	off_t start;          /* file offset of the header, -1: cannot seek */
	int failed;
	int finished;
	struct ppr_err saved;
};

static int writer_fail(struct trace_writer *w, struct ppr_err *err, int code,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int writer_fail(struct trace_writer *w, struct ppr_err *err, int code,
		       const char *fmt, ...)
{
	va_list ap;

	w->saved.code = code;
	w->saved.line = 0;
	w->saved.col = 0;
	snprintf(w->saved.file, sizeof(w->saved.file), "%s", w->name);
	va_start(ap, fmt);
	vsnprintf(w->saved.msg, sizeof(w->saved.msg), fmt, ap);
	va_end(ap);
	w->failed = code;  /* sticky: finish() reports it */
	if (err)
		*err = w->saved;
	return code;
}

static int flush_buf(struct trace_writer *w, struct ppr_err *err)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len)
		return writer_fail(w, err, PPR_EIO, "cannot write trace: %s",
				   strerror(errno));
	w->flushed += w->len;
	w->len = 0;
	return 0;
}

int trace_writer_new_file(struct trace_writer **out, FILE *f,
			  const char *name,
			  const struct trace_writer_config *cfg,
			  struct ppr_err *err)
{
	struct trace_writer *w;
	enum trace_format fmt = cfg ? cfg->format : TRACE_FMT_PPR;
	uint32_t line_size = cfg ? cfg->line_size : 0;

	*out = NULL;
	if (fmt == TRACE_FMT_AUTO)
		fmt = TRACE_FMT_PPR;
	if (fmt != TRACE_FMT_PPR && fmt != TRACE_FMT_DIN &&
	    fmt != TRACE_FMT_LACKEY)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "cannot write trace format %d", (int)fmt);
	if (line_size & (line_size - 1))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "line size %u is not a power of two",
				   line_size);
	w = xcalloc(1, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", name ? name : "trace");
	w->f = f;
	w->fmt = fmt;
	w->line_size = line_size;
	w->buf = xmalloc(TRACE_WBUF_BYTES);
	w->start = ftello(f);
	if (fmt == TRACE_FMT_PPR) {
		trace_ppr_header(w->buf, line_size, 0, 0);
		w->len = TRACE_PPR_HEADER_LEN;
	}
	*out = w;
	return 0;
}

int trace_writer_new(struct trace_writer **out, const char *path,
		     const struct trace_writer_config *cfg, struct ppr_err *err)
{
	FILE *f;
	int rc;

	*out = NULL;
	if (!strcmp(path, "-"))
		return trace_writer_new_file(out, stdout, "<stdout>", cfg, err);
	f = fopen(path, "wb");
	if (!f)
		return ppr_err_set(err, PPR_EIO, NULL, 0, 0,
				   "cannot open '%s' for writing: %s", path,
				   strerror(errno));
	rc = trace_writer_new_file(out, f, path, cfg, err);
	if (rc < 0) {
		fclose(f);
		return rc;
	}
	(*out)->own_f = 1;
	return 0;
}

int trace_writer_write(struct trace_writer *w, const struct ppr_access *acc,
		       size_t n, struct ppr_err *err)
{
	const size_t room = 2 * TRACE_TEXT_MAX_RECORD;
	uint8_t *q;
	size_t i;
	int rc;

	if (w->failed) {
		if (err)
			*err = w->saved;
		return w->failed;
	}
	if (w->finished)
		return writer_fail(w, err, PPR_EINVAL,
				   "write after the trace was finished");
	for (i = 0; i < n; i++) {
		const struct ppr_access *a = &acc[i];

		if (a->size == 0 || a->size > TRACE_SIZE_MAX ||
		    a->op >= PPR_NOPS || a->tag >= PPR_NTAGS)
			return writer_fail(w, err, PPR_EINVAL,
					   "record %llu: %s %u",
					   (unsigned long long)(w->records + 1),
					   a->op >= PPR_NOPS ? "unknown op"
					   : a->tag >= PPR_NTAGS ? "unknown tag"
					   : "bad size",
					   a->op >= PPR_NOPS ? a->op
					   : a->tag >= PPR_NTAGS ? a->tag
					   : a->size);
		if (TRACE_WBUF_BYTES - w->len < room) {
			rc = flush_buf(w, err);
			if (rc < 0)
				return rc;
		}
		q = w->buf + w->len;
		if (w->fmt == TRACE_FMT_PPR)
			q = trace_ppr_encode(&w->enc, q, a);
		else if (w->fmt == TRACE_FMT_DIN)
			q = trace_din_encode(q, a);
		else
			q = trace_lackey_encode(q, a);
		w->len = (size_t)(q - w->buf);
		w->records++;
	}
	return 0;
}

static int sink_emit(void *ctx, const struct ppr_access *acc, size_t n)
{
	return trace_writer_write(ctx, acc, n, NULL);
}

struct ppr_sink trace_writer_sink(struct trace_writer *w)
{
	struct ppr_sink s = { .emit = sink_emit, .ctx = w };

	return s;
}

static int patch_header(struct trace_writer *w, struct ppr_err *err)
{
	uint8_t b[8];
	off_t endpos = ftello(w->f);

	int fl = fcntl(fileno(w->f), F_GETFL);

	/* A pipe, or O_APPEND (writes would land at the end): the trailer
	 * alone carries the count. */
	if (w->start < 0 || endpos < 0 || (fl >= 0 && (fl & O_APPEND)))
		return 0;
	b[0] = TRACE_PPR_FLAG_COUNT;
	if (fseeko(w->f, w->start + TRACE_PPR_OFF_FLAGS, SEEK_SET))
		return 0;  /* not seekable after all: fine */
	if (fwrite(b, 1, 1, w->f) != 1)
		goto fail;
	trace_put_le(b, w->records, 8);
	if (fseeko(w->f, w->start + TRACE_PPR_OFF_COUNT, SEEK_SET) ||
	    fwrite(b, 1, 8, w->f) != 8 || fseeko(w->f, endpos, SEEK_SET))
		goto fail;
	return 0;
fail:
	return writer_fail(w, err, PPR_EIO, "cannot write trace header: %s",
			   strerror(errno));
}

int trace_writer_finish(struct trace_writer *w, struct ppr_err *err)
{
	int rc;

	if (w->failed) {
		if (err)
			*err = w->saved;
		return w->failed;
	}
	if (w->finished)
		return 0;
	if (w->fmt == TRACE_FMT_PPR) {
		if (TRACE_WBUF_BYTES - w->len < TRACE_PPR_TRAILER_LEN) {
			rc = flush_buf(w, err);
			if (rc < 0)
				return rc;
		}
		w->buf[w->len] = TRACE_PPR_END;
		trace_put_le(w->buf + w->len + 1, w->records, 8);
		trace_put_le(w->buf + w->len + 9, w->enc.csum, 8);
		w->len += TRACE_PPR_TRAILER_LEN;
	}
	rc = flush_buf(w, err);
	if (rc < 0)
		return rc;
	if (w->fmt == TRACE_FMT_PPR) {
		rc = patch_header(w, err);
		if (rc < 0)
			return rc;
	}
	if (fflush(w->f))
		return writer_fail(w, err, PPR_EIO, "cannot write trace: %s",
				   strerror(errno));
	w->finished = 1;
	if (w->own_f) {
		w->own_f = 0;
		if (fclose(w->f))
			return writer_fail(w, err, PPR_EIO,
					   "cannot write trace: %s",
					   strerror(errno));
	}
	return 0;
}

uint64_t trace_writer_records(const struct trace_writer *w)
{
	return w->records;
}

uint64_t trace_writer_bytes(const struct trace_writer *w)
{
	return w->flushed + w->len;
}

void trace_writer_free(struct trace_writer *w)
{
	if (!w)
		return;
	if (w->own_f)
		fclose(w->f);
	free(w->buf);
	free(w);
}
