/*
 * trace_int.h - what the files of traces/ share.  Nothing outside traces/
 * includes this file.
 */
#ifndef PPR_TRACE_INT_H
#define PPR_TRACE_INT_H

#include <stdint.h>
#include <stdio.h>

#include "common/ppr_access.h"
#include "common/ppr_err.h"
#include "traces/trace.h"

/* ---- the ppr binary format (byte layout: traces/README.md) ----------- */

#define TRACE_PPR_MAGIC "\x89PPR\r\n\x1a\n"
#define TRACE_PPR_MAGIC_LEN 8
#define TRACE_PPR_HEADER_LEN 32
#define TRACE_PPR_ENC_DELTA1 1      /* the record encoding of version 1 */
#define TRACE_PPR_FLAG_COUNT 0x01   /* header record count is valid */

/* Header field offsets. */
#define TRACE_PPR_OFF_VERSION 8     /* u16 */
#define TRACE_PPR_OFF_HDRLEN 10     /* u16 */
#define TRACE_PPR_OFF_LINESIZE 12   /* u32 */
#define TRACE_PPR_OFF_ENCODING 16   /* u8 */
#define TRACE_PPR_OFF_FLAGS 17      /* u8 */
#define TRACE_PPR_OFF_RESERVED 18   /* 6 bytes, zero */
#define TRACE_PPR_OFF_COUNT 24      /* u64 */

/* Control byte forms. */
#define TRACE_PPR_SHORT 0x80        /* 1zzzzzzz: same kind, 7-bit zigzag */
#define TRACE_PPR_REPEAT 0x40       /* 01wwzzzz + ww+1 LE bytes: same kind */
#define TRACE_PPR_REPEAT_MAX_ZZ ((1ull << 36) - 1)
#define TRACE_PPR_SIZE_EXPLICIT 6   /* size code: varint size follows */
#define TRACE_PPR_SIZE_ESCAPE 7     /* size code: escape, low 3 bits say */
#define TRACE_PPR_END 0x38          /* escape 0: end of records */
#define TRACE_PPR_TRAILER_LEN 17    /* END byte, u64 count, u64 checksum */
#define TRACE_PPR_CHECK_MUL 0x9E3779B97F4A7C15ull

/* The longest encoded record: control + 10-byte size + 10-byte delta. */
#define TRACE_PPR_MAX_RECORD 21

static inline uint64_t trace_zigzag(uint64_t delta)
{
	/* delta is the two's-complement difference of two addresses. */
	return (delta << 1) ^ (uint64_t)-(int64_t)(delta >> 63);
}

/*
 * The checksum in the trailer is the sum, modulo 2^64, over all records of
 * addr + kind_term, kind_term = (size << 8 | op << 1 | tag) * CHECK_MUL.
 */
static inline uint64_t trace_kind_term(const struct ppr_access *a)
{
	return ((uint64_t)a->size << 8 | (uint64_t)a->op << 1 | a->tag) *
	       TRACE_PPR_CHECK_MUL;
}

static inline uint64_t trace_unzigzag(uint64_t zz)
{
	return (zz >> 1) ^ (uint64_t)-(int64_t)(zz & 1);
}

static inline void trace_put_le(uint8_t *p, uint64_t v, int nbytes)
{
	int i;

	for (i = 0; i < nbytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t trace_get_le(const uint8_t *p, int nbytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < nbytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* ---- the reader -------------------------------------------------------- */

#define TRACE_BUF_BYTES (1u << 20)    /* input window; also max text line */

struct trace_reader {
	char name[256];            /* for messages */
	FILE *f;                   /* NULL: memory source */
	int own_f;                 /* fclose() on free */
	uint8_t *own;              /* owned input window (file sources) */
	size_t own_cap;
	const uint8_t *base;       /* start of the window; file offset base_off */
	const uint8_t *p;          /* next unread byte */
	const uint8_t *end;        /* end of valid bytes */
	uint64_t base_off;
	int eof;                   /* nothing more beyond 'end' */
	int failed;                /* sticky error */
	struct ppr_err saved;
	uint8_t default_tag;
	struct trace_info info;

	/* ppr decoder state */
	int header_done;
	int ended;                 /* END marker seen */
	int have_kind;
	struct ppr_access kind;    /* op, tag, size of the last record */
	uint64_t prev[PPR_NOPS];   /* last address per op */
	uint64_t csum_addr;        /* checksum: sum of addresses */
	uint64_t csum_kind;        /* checksum: sum of kind terms */

	/* text state */
	uint64_t line;             /* lines consumed so far */
	uint64_t recno;            /* record lines seen (incl. skipped) */

	int (*next)(struct trace_reader *r, struct ppr_access *buf, size_t cap,
		    size_t *n, struct ppr_err *err);
};

/*
 * Move unread bytes to the front of the window and read more.  Returns the
 * number of new bytes (0 at end of input) or PPR_EIO.
 */
int trace_reader_refill(struct trace_reader *r, struct ppr_err *err);
/* File offset of a pointer into the window. */
static inline uint64_t trace_reader_off(const struct trace_reader *r,
					const uint8_t *p)
{
	return r->base_off + (uint64_t)(p - r->base);
}
/* Record an error as sticky and return its code. */
int trace_reader_fail(struct trace_reader *r, struct ppr_err *err, int code,
		      long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Format back ends (fmt_ppr.c, fmt_text.c). */
int trace_ppr_read_header(struct trace_reader *r, struct ppr_err *err);
int trace_ppr_next(struct trace_reader *r, struct ppr_access *buf, size_t cap,
		   size_t *n, struct ppr_err *err);
int trace_din_next(struct trace_reader *r, struct ppr_access *buf, size_t cap,
		   size_t *n, struct ppr_err *err);
int trace_lackey_next(struct trace_reader *r, struct ppr_access *buf,
		      size_t cap, size_t *n, struct ppr_err *err);
/*
 * Look at the first data line in the window: returns TRACE_FMT_DIN (and
 * sets *extended) or TRACE_FMT_LACKEY, TRACE_FMT_AUTO when the window
 * holds no data line, or -1 when the line fits no format.  *chatter: a
 * valgrind '=='/'--' line came before.
 */
int trace_text_detect(const uint8_t *p, const uint8_t *end, int *extended,
		      int *chatter, long *line_of_first);

/* Encoders (fmt_ppr.c, fmt_text.c): write one reference at q, return the
 * new end.  The caller guarantees TRACE_PPR_MAX_RECORD (ppr) or
 * TRACE_TEXT_MAX_RECORD (text) bytes of room. */
struct trace_ppr_enc {
	int have_kind;
	struct ppr_access kind;
	uint64_t prev[PPR_NOPS];
	uint64_t csum;
};
uint8_t *trace_ppr_encode(struct trace_ppr_enc *e, uint8_t *q,
			  const struct ppr_access *a);
void trace_ppr_header(uint8_t hdr[TRACE_PPR_HEADER_LEN], uint32_t line_size,
		      int count_valid, uint64_t count);

#define TRACE_TEXT_MAX_RECORD 80
uint8_t *trace_din_encode(uint8_t *q, const struct ppr_access *a);
uint8_t *trace_lackey_encode(uint8_t *q, const struct ppr_access *a);

#endif
