/*
 * fmt_ppr.c - the ppr binary trace format: header, record decoder and
 * encoder.  The byte layout is documented in traces/README.md.
 *
 * Notes:
 * - A record is a control byte and a zigzag address delta: in the control
 *   byte (SHORT), in 1..4 fixed bytes (REPEAT), or as a varint after the
 *   kind and an optional varint size (NEW KIND).  The delta is taken
 *   against the last address of the same op, modulo 2^64, so any address
 *   sequence round-trips exactly and "address overflow" cannot happen in
 *   this format (it can in text formats: more than 64 bits of hex).
 * - The decoder never reads past the window end: a record cut by the end
 *   of the window is retried after a refill, and only at the end of the
 *   input is it a truncated record.
 * - A trace is complete only with its END marker, record count and
 *   checksum (sum of addresses and kind terms); a file that stops between
 *   two records is reported as truncated, and changed records fail the
 *   checksum.  The checksum costs one add per record in the hot loop; the
 *   kind terms are added per run of one kind.
 */
#include "traces/trace_int.h"

#include <string.h>

void trace_ppr_header(uint8_t hdr[TRACE_PPR_HEADER_LEN], uint32_t line_size,
		      int count_valid, uint64_t count)
{
	memset(hdr, 0, TRACE_PPR_HEADER_LEN);
	memcpy(hdr, TRACE_PPR_MAGIC, TRACE_PPR_MAGIC_LEN);
	trace_put_le(hdr + TRACE_PPR_OFF_VERSION, TRACE_PPR_VERSION, 2);
	trace_put_le(hdr + TRACE_PPR_OFF_HDRLEN, TRACE_PPR_HEADER_LEN, 2);
	trace_put_le(hdr + TRACE_PPR_OFF_LINESIZE, line_size, 4);
	hdr[TRACE_PPR_OFF_ENCODING] = TRACE_PPR_ENC_DELTA1;
	hdr[TRACE_PPR_OFF_FLAGS] = count_valid ? TRACE_PPR_FLAG_COUNT : 0;
	trace_put_le(hdr + TRACE_PPR_OFF_COUNT, count_valid ? count : 0, 8);
}

static inline uint8_t *put_varint(uint8_t *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*q++ = (uint8_t)v;
	return q;
}

static inline unsigned size_code(uint32_t size)
{
	switch (size) {
	case 1: return 0;
	case 2: return 1;
	case 4: return 2;
	case 8: return 3;
	case 16: return 4;
	case 32: return 5;
	}
	return TRACE_PPR_SIZE_EXPLICIT;
}

uint8_t *trace_ppr_encode(struct trace_ppr_enc *e, uint8_t *q,
			  const struct ppr_access *a)
{
	uint64_t zz = trace_zigzag(a->addr - e->prev[a->op]);
	unsigned sc;

	e->prev[a->op] = a->addr;
	e->csum += a->addr + trace_kind_term(a);
	if (e->have_kind && a->op == e->kind.op && a->tag == e->kind.tag &&
	    a->size == e->kind.size) {
		if (zz < 0x80) {
			*q++ = (uint8_t)(TRACE_PPR_SHORT | zz);
			return q;
		}
		if (zz <= TRACE_PPR_REPEAT_MAX_ZZ) {
			uint64_t hi = zz >> 4;
			unsigned nb = hi < (1u << 8) ? 1 : hi < (1u << 16) ? 2
				    : hi < (1u << 24) ? 3 : 4;

			*q++ = (uint8_t)(TRACE_PPR_REPEAT | (nb - 1) << 4 |
					 (zz & 0x0f));
			trace_put_le(q, hi, (int)nb);
			return q + nb;
		}
		/* a delta of 2^35 bytes or more: restate the kind */
	}
	sc = size_code(a->size);
	*q++ = (uint8_t)(sc << 3 | (unsigned)a->tag << 2 | a->op);
	if (sc == TRACE_PPR_SIZE_EXPLICIT)
		q = put_varint(q, a->size);
	e->kind = *a;
	e->have_kind = 1;
	return put_varint(q, zz);
}

/* ---- decoding ---------------------------------------------------------- */

enum { VAR_OK = 1, VAR_MORE = 0, VAR_LONG = -1, VAR_OVERFLOW = -2 };

static inline int get_varint(const uint8_t **pp, const uint8_t *end,
			     uint64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0, b;

	for (;;) {
		if (p == end)
			return VAR_MORE;
		b = *p++;
		if (shift == 63) {
			if (b & 0x80)
				return VAR_LONG;
			if (b > 1)
				return VAR_OVERFLOW;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*pp = p;
	*out = v;
	return VAR_OK;
}

/*
 * The same, without a branch per byte when 8 bytes can be read: find the
 * first byte without its high bit, mask the bytes after it away and
 * squeeze out the continuation bits.  Varints of 9 and 10 bytes and the
 * last bytes of the window take the loop above.
 */
static inline int get_varint_fast(const uint8_t **pp, const uint8_t *end,
				  uint64_t *out)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint8_t *p = *pp;
	uint64_t w, stop, m, v;
	unsigned bits;

	if (end - p >= 8) {
		memcpy(&w, p, 8);
		stop = ~w & 0x8080808080808080ull;
		if (stop) {
			bits = (unsigned)__builtin_ctzll(stop) + 1;
			m = bits == 64 ? w : w & ((1ull << bits) - 1);
			v = (m & 0x7f) |
			    (m >> 1 & 0x7full << 7) |
			    (m >> 2 & 0x7full << 14) |
			    (m >> 3 & 0x7full << 21) |
			    (m >> 4 & 0x7full << 28) |
			    (m >> 5 & 0x7full << 35) |
			    (m >> 6 & 0x7full << 42) |
			    (m >> 7 & 0x7full << 49);
			*pp = p + bits / 8;
			*out = v;
			return VAR_OK;
		}
	}
#endif
	return get_varint(pp, end, out);
}

/* nb (1..4) little-endian bytes at q; q + nb <= end. */
static inline uint64_t load_le_upto4(const uint8_t *q, unsigned nb,
				     const uint8_t *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	static const uint32_t mask[4] = { 0xff, 0xffff, 0xffffff, 0xffffffff };
	uint32_t w;

	if (end - q >= 4) {
		memcpy(&w, q, 4);
		return w & mask[nb - 1];
	}
#else
	(void)end;
#endif
	return trace_get_le(q, (int)nb);
}

int trace_ppr_read_header(struct trace_reader *r, struct ppr_err *err)
{
	const uint8_t *h;
	unsigned version, hdrlen, enc, flags, i;
	uint32_t line_size;
	size_t have;
	int rc;

	while ((size_t)(r->end - r->p) < TRACE_PPR_HEADER_LEN) {
		rc = trace_reader_refill(r, err);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
	}
	h = r->p;
	have = (size_t)(r->end - r->p);
	if (memcmp(h, TRACE_PPR_MAGIC,
		   have < TRACE_PPR_MAGIC_LEN ? have : TRACE_PPR_MAGIC_LEN))
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "not a ppr trace (bad magic)");
	if (have < TRACE_PPR_HEADER_LEN)
		return trace_reader_fail(r, err, PPR_ETRUNC, 0,
					 "truncated header (%zu of %d bytes)",
					 have, TRACE_PPR_HEADER_LEN);
	version = (unsigned)trace_get_le(h + TRACE_PPR_OFF_VERSION, 2);
	hdrlen = (unsigned)trace_get_le(h + TRACE_PPR_OFF_HDRLEN, 2);
	line_size = (uint32_t)trace_get_le(h + TRACE_PPR_OFF_LINESIZE, 4);
	enc = h[TRACE_PPR_OFF_ENCODING];
	flags = h[TRACE_PPR_OFF_FLAGS];
	if (version != TRACE_PPR_VERSION)
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "unsupported ppr trace version %u "
					 "(this ppr reads version %d)",
					 version, TRACE_PPR_VERSION);
	if (hdrlen != TRACE_PPR_HEADER_LEN)
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "bad header length %u (version 1 "
					 "headers are %d bytes)", hdrlen,
					 TRACE_PPR_HEADER_LEN);
	if (enc != TRACE_PPR_ENC_DELTA1)
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "unknown record encoding %u", enc);
	if (flags & ~(unsigned)TRACE_PPR_FLAG_COUNT)
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "unknown header flags 0x%02x", flags);
	for (i = TRACE_PPR_OFF_RESERVED; i < TRACE_PPR_OFF_COUNT; i++)
		if (h[i])
			return trace_reader_fail(r, err, PPR_EFORMAT, 0,
						 "reserved header byte %u is "
						 "not zero", i);
	if (line_size & (line_size - 1))
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "header line size %u is not a power "
					 "of two", line_size);
	r->info.line_size = line_size;
	if (flags & TRACE_PPR_FLAG_COUNT)
		r->info.header_records =
			trace_get_le(h + TRACE_PPR_OFF_COUNT, 8);
	r->p += TRACE_PPR_HEADER_LEN;
	r->info.bytes += TRACE_PPR_HEADER_LEN;
	r->header_done = 1;
	return 0;
}

/* The trailer at p (whole, in the window); then nothing may follow. */
static int read_trailer(struct trace_reader *r, const uint8_t *p,
			uint64_t total, struct ppr_err *err)
{
	uint64_t count = trace_get_le(p + 1, 8);
	uint64_t check = trace_get_le(p + 9, 8);
	int rc;

	if (count != total)
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "trailer says %llu records but the "
					 "trace holds %llu",
					 (unsigned long long)count,
					 (unsigned long long)total);
	if (r->info.header_records != UINT64_MAX &&
	    r->info.header_records != total)
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "header says %llu records but the "
					 "trace holds %llu",
					 (unsigned long long)r->info.header_records,
					 (unsigned long long)total);
	if (check != r->csum_addr + r->csum_kind)
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "checksum mismatch: the records do not "
					 "match the trailer (corrupt trace)");
	r->p = p + TRACE_PPR_TRAILER_LEN;
	if (r->p == r->end) {
		rc = trace_reader_refill(r, err);
		if (rc < 0)
			return rc;
	}
	if (r->p != r->end)
		return trace_reader_fail(r, err, PPR_EFORMAT, 0,
					 "trailing garbage after the end "
					 "marker (byte %llu)",
					 (unsigned long long)trace_reader_off(r, r->p));
	r->ended = 1;
	return 0;
}

static int bad_record(struct trace_reader *r, struct ppr_err *err, int code,
		      uint64_t recno, const uint8_t *at, const char *what)
{
	return trace_reader_fail(r, err, code, 0, "record %llu (byte %llu): %s",
				 (unsigned long long)recno,
				 (unsigned long long)trace_reader_off(r, at),
				 what);
}

static const char *varint_problem(int v, const char *field)
{
	if (v == VAR_LONG)
		return !strcmp(field, "size") ? "size varint longer than 10 bytes"
					      : "delta varint longer than 10 bytes";
	return !strcmp(field, "size") ? "size varint overflows 64 bits"
				      : "delta varint overflows 64 bits";
}

/*
 * Hot loop notes: the last address of the current op lives in a local
 * ('pa'), not in r->prev[], and per-op counts are added per run of one
 * kind, not per record: a store into memory that the next record reloads
 * would chain every record through store-to-load forwarding.
 */
struct dec_state {
	struct ppr_access cur;
	uint64_t pa;
	uint64_t cs;   /* address part of the checksum */
	size_t run0;
	int have_kind;
};

static inline void dec_save(struct trace_reader *r, const struct dec_state *d,
			    size_t k)
{
	if (d->have_kind) {
		r->prev[d->cur.op] = d->pa;
		r->info.by_op[d->cur.op] += k - d->run0;
		r->csum_kind += (uint64_t)(k - d->run0) * trace_kind_term(&d->cur);
	}
	r->csum_addr = d->cs;
	r->kind = d->cur;
	r->have_kind = d->have_kind;
}

int trace_ppr_next(struct trace_reader *r, struct ppr_access *buf, size_t cap,
		   size_t *n, struct ppr_err *err)
{
	struct dec_state d;
	struct ppr_access cur;
	const uint8_t *p, *end, *q;
	uint64_t zz, v, pa, cs, done = r->info.records;
	size_t k = 0;
	unsigned c, sc;
	int rc, code = 0;
	const char *what = NULL;
	char msg[96];

	/* the header was read when the reader was opened */
	if (r->ended)
		return 0;
	d.cur = cur = r->kind;
	d.have_kind = r->have_kind;
	d.run0 = 0;
	d.pa = pa = d.have_kind ? r->prev[cur.op] : 0;
	d.cs = cs = r->csum_addr;
	p = r->p;
	end = r->end;
	for (;;) {
		while (k < cap && p < end) {
			c = *p;
			if (c & TRACE_PPR_SHORT) {
				if (!d.have_kind)
					goto no_kind;
				pa += trace_unzigzag(c & 0x7f);
				cs += pa;
				cur.addr = pa;
				buf[k++] = cur;
				p++;
				continue;
			}
			q = p + 1;
			if (c & TRACE_PPR_REPEAT) {
				unsigned nb = (c >> 4 & 3) + 1;

				if (!d.have_kind)
					goto no_kind;
				if ((size_t)(end - q) < nb)
					break;
				v = load_le_upto4(q, nb, end);
				q += nb;
				zz = (c & 0x0f) | v << 4;
				pa += trace_unzigzag(zz);
			} else {
				struct ppr_access nk = { 0 };

				sc = c >> 3;
				if (sc == TRACE_PPR_SIZE_ESCAPE) {
					if (c != TRACE_PPR_END) {
						snprintf(msg, sizeof(msg),
							 "unknown control byte 0x%02x", c);
						what = msg;
						goto bad;
					}
					if ((size_t)(end - p) < TRACE_PPR_TRAILER_LEN)
						break;
					d.cur = cur;
					d.pa = pa;
					d.cs = cs;
					dec_save(r, &d, k);
					*n = k;
					return read_trailer(r, p, done + k, err);
				}
				nk.op = (uint8_t)(c & 3);
				nk.tag = (uint8_t)(c >> 2 & 1);
				if (sc == TRACE_PPR_SIZE_EXPLICIT) {
					rc = get_varint(&q, end, &v);
					if (rc == VAR_MORE)
						break;
					if (rc < 0) {
						what = varint_problem(rc, "size");
						goto bad;
					}
					if (v == 0 || v > TRACE_SIZE_MAX) {
						snprintf(msg, sizeof(msg),
							 v ? "size %llu exceeds %u bytes"
							   : "size 0",
							 (unsigned long long)v,
							 TRACE_SIZE_MAX);
						what = msg;
						goto bad;
					}
					nk.size = (uint32_t)v;
				} else {
					nk.size = 1u << sc;
				}
				rc = get_varint_fast(&q, end, &zz);
				if (rc == VAR_MORE)
					break;
				if (rc < 0) {
					what = varint_problem(rc, "delta");
					goto bad;
				}
				/* a new kind: close the run of the old one */
				d.cur = cur;
				d.pa = pa;
				d.cs = cs;
				dec_save(r, &d, k);
				d.have_kind = 1;
				d.run0 = k;
				cur = nk;
				pa = r->prev[cur.op] + trace_unzigzag(zz);
			}
			cs += pa;
			cur.addr = pa;
			buf[k++] = cur;
			p = q;
		}
		if (k == cap)
			break;
		/* The window ends inside (or right before) a record. */
		r->p = p;
		rc = trace_reader_refill(r, err);
		if (rc < 0) {
			code = rc;
			goto out;
		}
		if (rc == 0) {
			p = r->p;
			code = PPR_ETRUNC;
			what = p == r->end ? "truncated trace: end marker missing"
			       : *p == TRACE_PPR_END ? "truncated trailer"
			       : "truncated record";
			goto bad;
		}
		p = r->p;
		end = r->end;
	}
	r->p = p;
	d.cur = cur;
	d.pa = pa;
	d.cs = cs;
	dec_save(r, &d, k);
	*n = k;
	return 0;

no_kind:
	what = "repeat form before any record kind";
bad:
	if (!code)
		code = PPR_EFORMAT;
	r->p = p;
	d.cur = cur;
	d.pa = pa;
	d.cs = cs;
	dec_save(r, &d, k);
	*n = k;
	return bad_record(r, err, code, done + k + 1, p, what);
out:
	d.cur = cur;
	d.pa = pa;
	d.cs = cs;
	dec_save(r, &d, k);
	*n = k;
	return code;
}
