/*
 * trace.h - memory reference traces: the ppr binary format, Dinero IV din
 * (traditional and extended) and valgrind lackey text, read and written.
 *
 * Readers stream: memory stays constant whatever the trace length (one
 * input buffer, TRACE_BUF_BYTES), so a 10^9-record trace never has to fit
 * in memory.  Records come out in batches of struct ppr_access.
 *
 * Ownership: trace_reader_new*() / trace_writer_new*() return an object the
 * caller frees with trace_reader_free() / trace_writer_free() (NULL is a
 * no-op).  A FILE* or memory buffer passed in is borrowed and must outlive
 * the object; a path is opened and closed by the object.  Errors fill the
 * optional struct ppr_err with the file name, the line (text formats) and a
 * message naming the record number.
 *
 * The byte layout of the ppr format is documented in traces/README.md.
 */
#ifndef PPR_TRACE_H
#define PPR_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "common/ppr_access.h"
#include "common/ppr_err.h"

enum trace_format {
	TRACE_FMT_AUTO = 0,  /* reader only: detect from the first bytes */
	TRACE_FMT_PPR,       /* our binary format (traces/README.md) */
	TRACE_FMT_DIN,       /* Dinero IV din: traditional or extended form */
	TRACE_FMT_LACKEY,    /* valgrind --tool=lackey --trace-mem=yes */
};

/* "auto|ppr|din|lackey" -> enum; returns 0 or PPR_EINVAL. */
int trace_format_parse(const char *s, enum trace_format *out);
const char *trace_format_name(enum trace_format f);

/* The largest reference size accepted by readers and writers (bytes). */
#define TRACE_SIZE_MAX 4096u

/* Current (and only) version of the ppr binary format. */
#define TRACE_PPR_VERSION 1

/* ---- reading ---------------------------------------------------------- */

struct trace_reader;

struct trace_reader_config {
	enum trace_format format;  /* TRACE_FMT_AUTO (0) detects */
	uint8_t default_tag;       /* tag for text formats, which carry none:
				      PPR_TAG_REGULAR (0) by default */
};

/* What a reader has seen so far (complete once next() returned n == 0). */
struct trace_info {
	enum trace_format format;  /* as detected or forced */
	int din_extended;          /* din: 1 = `r|w|i addr size`, 0 = `label addr` */
	uint32_t line_size;        /* ppr header (0: not stated) */
	uint64_t header_records;   /* ppr header count, UINT64_MAX: unknown */
	uint64_t records;          /* references returned so far */
	uint64_t by_op[PPR_NOPS];  /* ... split by enum ppr_op */
	uint64_t skipped_misc;     /* din label 3 / 'm' records skipped */
	uint64_t skipped_flush;    /* din label 4 / 'c' / 'v' records skipped */
	uint64_t skipped_lines;    /* blank, '#' comment, lackey '==' lines */
	uint64_t bytes;            /* input bytes consumed */
};

/*
 * Open a trace file by path ("-" reads stdin).  cfg may be NULL (detect
 * the format, regular tag).  The format is settled here (and a ppr header
 * checked), so trace_reader_info() is meaningful right after opening.
 */
int trace_reader_new(struct trace_reader **out, const char *path,
		     const struct trace_reader_config *cfg, struct ppr_err *err);
/* Read from an open stream; 'name' is used in messages. */
int trace_reader_new_file(struct trace_reader **out, FILE *f, const char *name,
			  const struct trace_reader_config *cfg,
			  struct ppr_err *err);
/* Read from memory (borrowed, not copied). */
int trace_reader_new_mem(struct trace_reader **out, const void *data,
			 size_t len, const char *name,
			 const struct trace_reader_config *cfg,
			 struct ppr_err *err);
void trace_reader_free(struct trace_reader *r);

/*
 * Decode up to cap (> 0) references into buf; *n is how many.  Returns 0 with
 * *n == 0 at the end of a complete trace.  On a malformed or truncated
 * trace it returns a negative PPR_E* code (PPR_EFORMAT, PPR_ETRUNC,
 * PPR_ERANGE, PPR_EIO) and *n holds the valid references decoded before
 * the bad one; every later call returns the same error.
 */
int trace_reader_next(struct trace_reader *r, struct ppr_access *buf,
		      size_t cap, size_t *n, struct ppr_err *err);

void trace_reader_info(const struct trace_reader *r, struct trace_info *out);

/* ---- writing ---------------------------------------------------------- */

struct trace_writer;

struct trace_writer_config {
	enum trace_format format;  /* TRACE_FMT_PPR (also for 0), _DIN, _LACKEY */
	uint32_t line_size;        /* ppr header field (0: not stated) */
};

/* Create/truncate 'path' ("-" writes stdout).  cfg may be NULL (ppr). */
int trace_writer_new(struct trace_writer **out, const char *path,
		     const struct trace_writer_config *cfg, struct ppr_err *err);
/* Write to an open stream (borrowed; not closed by the writer). */
int trace_writer_new_file(struct trace_writer **out, FILE *f,
			  const char *name,
			  const struct trace_writer_config *cfg,
			  struct ppr_err *err);

/*
 * Append n references.  Rejects size 0, size > TRACE_SIZE_MAX and unknown
 * op/tag values with PPR_EINVAL (naming the record); I/O failure: PPR_EIO.
 */
int trace_writer_write(struct trace_writer *w, const struct ppr_access *acc,
		       size_t n, struct ppr_err *err);

/*
 * A sink that appends to the writer (kernels emit into it).  The sink
 * cannot carry a struct ppr_err: after a failed emit, trace_writer_finish()
 * returns the stored error with its message.
 */
struct ppr_sink trace_writer_sink(struct trace_writer *w);

/*
 * Write the end marker, record count and checksum, patch the header count when the
 * output is seekable, flush, and close a file the writer opened.  Must be
 * called for a complete trace; trace_writer_free() without it leaves a
 * trace that readers report as truncated.
 */
int trace_writer_finish(struct trace_writer *w, struct ppr_err *err);
/* References written so far. */
uint64_t trace_writer_records(const struct trace_writer *w);
/* Bytes written so far (after finish: the file size). */
uint64_t trace_writer_bytes(const struct trace_writer *w);
void trace_writer_free(struct trace_writer *w);

#endif
