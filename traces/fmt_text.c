/*
 * fmt_text.c - text traces: Dinero IV din (traditional `label addr` and
 * extended `r|w|i addr size`) and valgrind lackey `--trace-mem=yes`.
 *
 * Notes (facts from the Dinero IV 7 sources, dinfmt.c / xdinfmt.c, and
 * from valgrind's lackey/lk_main.c; no code taken from either):
 * - Traditional din: a hex label and a hex address per line.  Labels 0
 *   read, 1 write, 2 instruction fetch; 3 (misc/escape) and 4 (Dinero
 *   III: flush; Dinero IV: copy-back) and 5 (Dinero IV: invalidate) are
 *   counted and skipped.  Dinero IV treats every traditional record as a
 *   4-byte word access and clears the two low address bits
 *   ("dineroIII is pretty much word-oriented"); so do we.
 * - Extended din: one letter r w i (m c v counted and skipped), a hex
 *   address and a HEX size, as Dinero IV reads it: `r 1000 10` is a
 *   16-byte read.  Both 0x prefixes are optional.
 * - Lackey: `I  addr,size`, ` L addr,size`, ` S addr,size`,
 *   ` M addr,size` (hex address, decimal size); M is a modify (load and
 *   store of one location).  Lines starting `==` or `--` are valgrind's
 *   own messages and are skipped.
 * - Stricter than Dinero IV on purpose: a field after the last expected
 *   one is an error (Dinero ignores the rest of the line), except a
 *   comment starting with '#'.  Blank lines and '#' lines are skipped.
 *   CRLF line ends are accepted.
 * - Text formats carry no tag: every reference gets the reader's default.
 */
#include "traces/trace_int.h"

#include <string.h>

static inline int is_ws(int c)
{
	return c == ' ' || c == '\t';
}

/* strchr() would also match the terminating NUL. */
static inline int in_set(int c, const char *set)
{
	return c != 0 && strchr(set, c) != NULL;
}

/* Hex digit values; 0xff for every other byte. */
#define HV(c) ((c) >= '0' && (c) <= '9' ? (c) - '0' : \
	       (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10 : \
	       (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : 0xff)
#define HV4(b) HV(b), HV((b) + 1), HV((b) + 2), HV((b) + 3)
#define HV16(b) HV4(b), HV4((b) + 4), HV4((b) + 8), HV4((b) + 12)
#define HV64(b) HV16(b), HV16((b) + 16), HV16((b) + 32), HV16((b) + 48)
static const uint8_t hextab[256] = {
	HV64(0), HV64(64), HV64(128), HV64(192),
};

static inline int hexval(int c)
{
	return hextab[c & 0xff] < 16 ? hextab[c & 0xff] : -1;
}

/* r w i m c v in either case (the extended din labels) */
static inline int is_xdin_label(int c)
{
	switch (c | 0x20) {
	case 'r': case 'w': case 'i': case 'm': case 'c': case 'v':
		return 1;  /* c | 0x20 only folds the case of letters */
	}
	return 0;
}

/* Describe one input byte for a message: 'g' or byte 0x01. */
static const char *show_char(int c, char *buf, size_t n)
{
	if (c > 0x20 && c < 0x7f && c != '\'')
		snprintf(buf, n, "'%c'", c);
	else
		snprintf(buf, n, "byte 0x%02x", (unsigned)c & 0xff);
	return buf;
}

static int text_fail(struct trace_reader *r, struct ppr_err *err,
		     const char *what)
{
	return trace_reader_fail(r, err, PPR_EFORMAT, (long)r->line,
				 "record %llu: %s",
				 (unsigned long long)r->recno, what);
}

/*
 * The next line [*ls, *le) without its '\n' or "\r\n".  Returns 1, 0 at
 * the end of the input, or a negative code.
 */
static int next_line(struct trace_reader *r, const uint8_t **ls,
		     const uint8_t **le, struct ppr_err *err)
{
	const uint8_t *nl;
	int rc;

	for (;;) {
		nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
		if (nl) {
			*ls = r->p;
			*le = nl;
			r->p = nl + 1;
			break;
		}
		if (r->eof || !r->f) {
			if (r->p == r->end)
				return 0;
			*ls = r->p;
			*le = r->end;
			r->p = r->end;
			break;
		}
		rc = trace_reader_refill(r, err);
		if (rc < 0)
			return rc;
		if (rc == 0 && !r->eof)
			return trace_reader_fail(r, err, PPR_EFORMAT,
						 (long)r->line + 1,
						 "line longer than %u bytes",
						 TRACE_BUF_BYTES);
	}
	r->line++;
	if (*le > *ls && (*le)[-1] == '\r')
		(*le)--;
	return 1;
}

/*
 * Parse a hex number at *pp (optional 0x) ending at whitespace, end, or
 * 'stop' (if non-zero).  Returns 0, or writes a message and returns -1.
 */
static int parse_hex(const uint8_t **pp, const uint8_t *end, int stop,
		     const char *field, uint64_t *out, char *msg, size_t mlen)
{
	const uint8_t *p = *pp, *s;
	uint64_t v = 0;
	unsigned d;
	char cb[16];

	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	s = p;
	while (p < end && (d = hextab[*p]) < 16) {
		v = v << 4 | d;
		p++;
	}
	if (p < end && !is_ws(*p) && !(stop && *p == stop)) {
		snprintf(msg, mlen, "bad hex digit %s in %s",
			 show_char(*p, cb, sizeof(cb)), field);
		return -1;
	}
	if (p == s) {
		snprintf(msg, mlen, "bad %s: no hex digits", field);
		return -1;
	}
	if (p - s > 16) {  /* more than 64 bits unless leading zeros */
		const uint8_t *z = s;

		while (z < p && *z == '0')
			z++;
		if (p - z > 16) {
			snprintf(msg, mlen, "%s exceeds 64 bits", field);
			return -1;
		}
	}
	*pp = p;
	*out = v;
	return 0;
}

static inline const uint8_t *skip_ws(const uint8_t *p, const uint8_t *end)
{
	while (p < end && is_ws(*p))
		p++;
	return p;
}

/* After the last field: only blanks or a '#' comment may follow. */
static int check_rest(const uint8_t *p, const uint8_t *end, char *msg,
		      size_t mlen)
{
	int k;

	p = skip_ws(p, end);
	if (p == end || *p == '#')
		return 0;
	for (k = 0; p + k < end && k < 20 && p[k] >= 0x20 && p[k] < 0x7f; k++)
		;
	if (k)
		snprintf(msg, mlen, "trailing garbage '%.*s'", k, (const char *)p);
	else
		snprintf(msg, mlen, "trailing garbage (byte 0x%02x)", *p);
	return -1;
}

/* Returns 1 (a reference in *a), 0 (skipped) or -1 (msg set). */
static int din_parse(struct trace_reader *r, const uint8_t *p,
		     const uint8_t *end, struct ppr_access *a, char *msg,
		     size_t mlen)
{
	uint64_t label, addr, size = 4;
	const uint8_t *t;
	int skip = 0;
	char cb[16];

	if (r->info.din_extended) {
		t = p;
		while (t < end && !is_ws(*t))
			t++;
		if (t - p != 1 || !is_xdin_label(*p)) {
			snprintf(msg, mlen, "bad label '%.*s' (want r, w, i, m, c or v)",
				 (int)(t - p > 16 ? 16 : t - p), (const char *)p);
			return -1;
		}
		switch (*p | 0x20) {
		case 'r': a->op = PPR_OP_LOAD; break;
		case 'w': a->op = PPR_OP_STORE; break;
		case 'i': a->op = PPR_OP_IFETCH; break;
		case 'm': skip = 1; break;
		default: skip = 2; break;
		}
		p = skip_ws(t, end);
		if (p == end || *p == '#') {
			snprintf(msg, mlen, "missing address");
			return -1;
		}
		if (parse_hex(&p, end, 0, "address", &addr, msg, mlen))
			return -1;
		p = skip_ws(p, end);
		if (p == end || *p == '#') {
			snprintf(msg, mlen, "missing size");
			return -1;
		}
		if (parse_hex(&p, end, 0, "size", &size, msg, mlen))
			return -1;
		if (!skip && (size == 0 || size > TRACE_SIZE_MAX)) {
			if (size)
				snprintf(msg, mlen, "size 0x%llx exceeds %u bytes",
					 (unsigned long long)size, TRACE_SIZE_MAX);
			else
				snprintf(msg, mlen, "size 0");
			return -1;
		}
	} else {
		if (hexval(*p) < 0) {
			snprintf(msg, mlen, "bad label %s (want 0-5)",
				 show_char(*p, cb, sizeof(cb)));
			return -1;
		}
		if (parse_hex(&p, end, 0, "label", &label, msg, mlen))
			return -1;
		if (label > 5) {
			snprintf(msg, mlen, "bad label %llx (want 0-5)",
				 (unsigned long long)label);
			return -1;
		}
		a->op = label == 0 ? PPR_OP_LOAD : label == 1 ? PPR_OP_STORE
							      : PPR_OP_IFETCH;
		skip = label == 3 ? 1 : label >= 4 ? 2 : 0;
		p = skip_ws(p, end);
		if (p == end || *p == '#') {
			snprintf(msg, mlen, "missing address");
			return -1;
		}
		if (parse_hex(&p, end, 0, "address", &addr, msg, mlen))
			return -1;
		addr &= ~(uint64_t)3;  /* word-oriented, as Dinero IV */
	}
	if (check_rest(p, end, msg, mlen))
		return -1;
	if (skip == 1) {
		r->info.skipped_misc++;
		return 0;
	}
	if (skip == 2) {
		r->info.skipped_flush++;
		return 0;
	}
	a->addr = addr;
	a->size = (uint32_t)size;
	a->tag = r->default_tag;
	a->pad = 0;
	return 1;
}

/* Returns 1 (a reference in *a) or -1 (msg set); chatter is skipped by
 * the caller. */
static int lackey_parse(struct trace_reader *r, const uint8_t *p,
			const uint8_t *end, struct ppr_access *a, char *msg,
			size_t mlen)
{
	const uint8_t *t, *sd;
	uint64_t addr, size = 0;
	int digits = 0;
	char cb[16];

	t = p;
	while (t < end && !is_ws(*t))
		t++;
	if (t - p != 1 || !in_set(*p, "ILSM")) {
		snprintf(msg, mlen, "bad op '%.*s' (want I, L, S or M)",
			 (int)(t - p > 16 ? 16 : t - p), (const char *)p);
		return -1;
	}
	a->op = *p == 'I' ? PPR_OP_IFETCH : *p == 'L' ? PPR_OP_LOAD
		: *p == 'S' ? PPR_OP_STORE : PPR_OP_MODIFY;
	p = skip_ws(t, end);
	if (p == end) {
		snprintf(msg, mlen, "missing address");
		return -1;
	}
	if (parse_hex(&p, end, ',', "address", &addr, msg, mlen))
		return -1;
	if (p == end || *p != ',') {
		snprintf(msg, mlen, "missing ',size' after the address");
		return -1;
	}
	sd = ++p;
	for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		if (size <= TRACE_SIZE_MAX)
			size = size * 10 + (uint64_t)(*p - '0');
	if (!digits) {
		if (p == end || is_ws(*p))
			snprintf(msg, mlen, "missing size");
		else
			snprintf(msg, mlen, "bad digit %s in size",
				 show_char(*p, cb, sizeof(cb)));
		return -1;
	}
	if (p < end && !is_ws(*p) && *p != '#') {
		snprintf(msg, mlen, "bad digit %s in size",
			 show_char(*p, cb, sizeof(cb)));
		return -1;
	}
	if (size == 0 || size > TRACE_SIZE_MAX) {
		if (size)
			snprintf(msg, mlen, "size %.*s%s exceeds %u bytes",
				 digits > 24 ? 24 : digits, (const char *)sd,
				 digits > 24 ? "..." : "", TRACE_SIZE_MAX);
		else
			snprintf(msg, mlen, "size 0");
		return -1;
	}
	if (check_rest(p, end, msg, mlen))
		return -1;
	a->addr = addr;
	a->size = (uint32_t)size;
	a->tag = r->default_tag;
	a->pad = 0;
	return 1;
}

static int text_next(struct trace_reader *r, struct ppr_access *buf,
		     size_t cap, size_t *n, struct ppr_err *err, int lackey)
{
	const uint8_t *ls = NULL, *le = NULL, *p;
	size_t k = 0;
	char msg[160];
	int rc;

	while (k < cap) {
		rc = next_line(r, &ls, &le, err);
		if (rc < 0) {
			*n = k;
			return rc;
		}
		if (rc == 0)
			break;
		if (lackey && le - ls >= 2 &&
		    ((ls[0] == '=' && ls[1] == '=') ||
		     (ls[0] == '-' && ls[1] == '-'))) {
			r->info.skipped_lines++;
			continue;
		}
		p = skip_ws(ls, le);
		if (p == le || *p == '#') {
			r->info.skipped_lines++;
			continue;
		}
		r->recno++;
		rc = lackey ? lackey_parse(r, p, le, &buf[k], msg, sizeof(msg))
			    : din_parse(r, p, le, &buf[k], msg, sizeof(msg));
		if (rc < 0) {
			*n = k;
			return text_fail(r, err, msg);
		}
		if (rc) {
			r->info.by_op[buf[k].op]++;
			k++;
		}
	}
	*n = k;
	return 0;
}

int trace_din_next(struct trace_reader *r, struct ppr_access *buf, size_t cap,
		   size_t *n, struct ppr_err *err)
{
	return text_next(r, buf, cap, n, err, 0);
}

int trace_lackey_next(struct trace_reader *r, struct ppr_access *buf,
		      size_t cap, size_t *n, struct ppr_err *err)
{
	return text_next(r, buf, cap, n, err, 1);
}

int trace_text_detect(const uint8_t *p, const uint8_t *end, int *extended,
		      int *chatter, long *line_of_first)
{
	const uint8_t *ls, *le, *t;
	long line = 0;

	*extended = 0;
	*chatter = 0;
	while (p < end) {
		ls = p;
		le = memchr(p, '\n', (size_t)(end - p));
		if (!le)
			le = end;
		p = le < end ? le + 1 : end;
		line++;
		if (le - ls >= 2 && ((ls[0] == '=' && ls[1] == '=') ||
				     (ls[0] == '-' && ls[1] == '-'))) {
			*chatter = 1;
			continue;
		}
		ls = skip_ws(ls, le);
		if (ls == le || *ls == '#' || *ls == '\r')
			continue;
		*line_of_first = line;
		t = ls;
		while (t < le && !is_ws(*t))
			t++;
		if (t - ls == 1 && in_set(*ls, "ILSM") && t < le &&
		    memchr(t, ',', (size_t)(le - t)))
			return TRACE_FMT_LACKEY;
		if (t - ls == 1 && in_set(*ls, "rwimcvRWIMCV")) {
			*extended = 1;
			return TRACE_FMT_DIN;
		}
		if (hexval(*ls) >= 0)
			return TRACE_FMT_DIN;
		return -1;
	}
	return TRACE_FMT_AUTO;
}

/* ---- writing ----------------------------------------------------------- */

static uint8_t *put_hex(uint8_t *q, uint64_t v, int mindigits)
{
	static const char digit[] = "0123456789abcdef";
	char tmp[16];
	int k = 0;

	do {
		tmp[k++] = digit[v & 15];
		v >>= 4;
	} while (v);
	while (k < mindigits)
		tmp[k++] = '0';
	while (k)
		*q++ = (uint8_t)tmp[--k];
	return q;
}

static uint8_t *put_dec(uint8_t *q, uint64_t v)
{
	char tmp[20];
	int k = 0;

	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		*q++ = (uint8_t)tmp[--k];
	return q;
}

static uint8_t *din_line(uint8_t *q, char label, const struct ppr_access *a)
{
	*q++ = (uint8_t)label;
	*q++ = ' ';
	q = put_hex(q, a->addr, 1);
	*q++ = ' ';
	q = put_hex(q, a->size, 1);  /* Dinero IV reads the size as hex */
	*q++ = '\n';
	return q;
}

uint8_t *trace_din_encode(uint8_t *q, const struct ppr_access *a)
{
	switch (a->op) {
	case PPR_OP_LOAD: return din_line(q, 'r', a);
	case PPR_OP_STORE: return din_line(q, 'w', a);
	case PPR_OP_IFETCH: return din_line(q, 'i', a);
	default:  /* modify: din has none; a read then a write */
		q = din_line(q, 'r', a);
		return din_line(q, 'w', a);
	}
}

uint8_t *trace_lackey_encode(uint8_t *q, const struct ppr_access *a)
{
	static const char head[PPR_NOPS][3] = {
		{ ' ', 'L', ' ' }, { ' ', 'S', ' ' }, { 'I', ' ', ' ' },
		{ ' ', 'M', ' ' },
	};

	memcpy(q, head[a->op], 3);
	q += 3;
	q = put_hex(q, a->addr, 8);
	*q++ = ',';
	q = put_dec(q, a->size);
	*q++ = '\n';
	return q;
}
