/*
 * test_traces.c - the trace formats: round trips, din and lackey parsing,
 * a table of malformed inputs with the exact error each must give, and a
 * mutation pass that must never crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/t.h"
#include "traces/trace.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t xs(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

/* A stream mixing every op, tag and size class, tiny and huge deltas. */
static void make_stream(struct ppr_access *a, size_t n, int with_modify)
{
	static const uint32_t sizes[] = { 1, 2, 4, 8, 16, 32, 3, 64, 4096, 12 };
	uint64_t addr = 0x10000000;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = xs();

		switch (r & 7) {
		case 0: addr = xs(); break;                 /* anywhere in 2^64 */
		case 1: addr -= r >> (28 + (r & 8)); break;  /* big step down */
		case 2: addr += (r >> 8) & 0xffffff; break; /* medium */
		default: addr += ((r >> 8) & 63) - 20; break; /* small +- */
		}
		if ((r >> 20 & 31) == 0)
			addr = (r >> 25 & 1) ? UINT64_MAX - (r >> 60) : (r >> 60);
		memset(&a[i], 0, sizeof(a[i]));
		a[i].addr = addr;
		a[i].op = (uint8_t)((r >> 3) % (with_modify ? 4 : 3));
		a[i].tag = (uint8_t)(r >> 5 & 1);
		a[i].size = (r >> 6 & 3) ? 8 : sizes[(r >> 9) % 10];
		/* long runs of one kind, as kernels emit them */
		if (i && (r >> 12 & 3)) {
			a[i].op = a[i - 1].op;
			a[i].tag = a[i - 1].tag;
			a[i].size = a[i - 1].size;
		}
	}
}

static int same_access(const struct ppr_access *x, const struct ppr_access *y)
{
	return x->addr == y->addr && x->size == y->size && x->op == y->op &&
	       x->tag == y->tag;
}

/* Write a[0..n) in fmt into a malloc'ed buffer. */
static char *write_mem(const struct ppr_access *a, size_t n,
		       enum trace_format fmt, size_t *len)
{
	struct trace_writer_config wc = { .format = fmt, .line_size = 64 };
	struct trace_writer *w;
	struct ppr_err err = { 0 };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	size_t i;

	T_CHECK(f != NULL);
	T_EQ_U64(trace_writer_new_file(&w, f, "mem", &wc, &err), 0);
	/* uneven batches */
	for (i = 0; i < n;) {
		size_t k = 1 + (size_t)(xs() % 1000);

		if (k > n - i)
			k = n - i;
		T_EQ_U64(trace_writer_write(w, a + i, k, &err), 0);
		i += k;
	}
	T_EQ_U64(trace_writer_records(w), n);
	T_EQ_U64(trace_writer_finish(w, &err), 0);
	trace_writer_free(w);
	fclose(f);
	return buf;
}

/* Read everything with batches of 'cap'; returns records read, -1 on err. */
static long long read_all(struct trace_reader *r, struct ppr_access *out,
			  size_t max, size_t cap, struct ppr_err *err)
{
	size_t got = 0, n;
	int rc;

	for (;;) {
		size_t c = cap < max - got ? cap : max - got;

		if (c == 0)
			c = 1;  /* must then see the end */
		if (got + c > max) {
			struct ppr_access extra[1];

			rc = trace_reader_next(r, extra, 1, &n, err);
			if (rc < 0)
				return -1;
			return n ? -2 : (long long)got;
		}
		rc = trace_reader_next(r, out + got, c, &n, err);
		if (rc < 0)
			return -1;
		if (n == 0)
			return (long long)got;
		got += n;
	}
}

static void test_roundtrip_ppr_mem(void)
{
	const size_t n = 200000;
	struct ppr_access *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	static const size_t caps[] = { 1, 7, 4096, 1 << 20 };
	struct trace_reader_config rc = { .format = TRACE_FMT_AUTO };
	struct trace_reader *r;
	struct trace_info info;
	struct ppr_err err = { 0 };
	size_t len, i, c, bad;
	char *buf;

	make_stream(a, n, 1);
	buf = write_mem(a, n, TRACE_FMT_PPR, &len);
	for (c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		memset(b, 0xa5, n * sizeof(*b));
		T_EQ_U64(trace_reader_new_mem(&r, buf, len, "mem", &rc, &err), 0);
		T_EQ_U64(read_all(r, b, n, caps[c], &err), n);
		for (bad = 0, i = 0; i < n; i++)
			bad += !same_access(&a[i], &b[i]);
		T_EQ_U64_AT(bad, 0, caps[c]);
		trace_reader_info(r, &info);
		T_EQ_U64(info.format, TRACE_FMT_PPR);
		T_EQ_U64(info.records, n);
		T_EQ_U64(info.line_size, 64);
		T_EQ_U64(info.header_records, n); /* memstream can seek */
		T_EQ_U64(info.bytes, len);
		T_EQ_U64(info.by_op[0] + info.by_op[1] + info.by_op[2] +
			 info.by_op[3], n);
		trace_reader_free(r);
	}
	free(buf);
	free(a);
	free(b);
}

/* Through a real file, bigger than the 1 MiB window, so refills happen. */
static void test_roundtrip_ppr_file(void)
{
	const size_t n = 1500000;
	struct ppr_access *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	char path[] = "/tmp/ppr-test-traces-XXXXXX";
	struct trace_writer *w;
	struct trace_reader *r;
	struct trace_info info;
	struct ppr_err err = { 0 };
	struct ppr_sink sink;
	size_t i, bad;
	int fd = mkstemp(path);

	T_CHECK(fd >= 0);
	close(fd);
	make_stream(a, n, 1);
	T_EQ_U64(trace_writer_new(&w, path, NULL, &err), 0);
	sink = trace_writer_sink(w);
	for (i = 0; i < n; i += 3333)
		T_EQ_U64(sink.emit(sink.ctx, a + i, n - i < 3333 ? n - i : 3333), 0);
	T_EQ_U64(trace_writer_finish(w, &err), 0);
	T_CHECK(trace_writer_bytes(w) > (1u << 21)); /* > 2 windows */
	trace_writer_free(w);
	T_EQ_U64(trace_reader_new(&r, path, NULL, &err), 0);
	T_EQ_U64(read_all(r, b, n, 100003, &err), n);
	for (bad = 0, i = 0; i < n; i++)
		bad += !same_access(&a[i], &b[i]);
	T_EQ_U64(bad, 0);
	trace_reader_info(r, &info);
	T_EQ_U64(info.header_records, n);
	trace_reader_free(r);
	unlink(path);
	free(a);
	free(b);
}

/* Text formats lose the tag (and din the modify op): compare the rest. */
static void test_roundtrip_text(void)
{
	const size_t n = 50000;
	struct ppr_access *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	struct trace_reader *r;
	struct trace_info info;
	struct ppr_err err = { 0 };
	size_t len, i, bad;
	char *buf;
	int f;

	for (f = 0; f < 2; f++) {
		enum trace_format fmt = f ? TRACE_FMT_LACKEY : TRACE_FMT_DIN;

		make_stream(a, n, f);
		for (i = 0; i < n; i++)
			a[i].tag = PPR_TAG_REGULAR;
		buf = write_mem(a, n, fmt, &len);
		T_EQ_U64(trace_reader_new_mem(&r, buf, len, "mem", NULL, &err), 0);
		T_EQ_U64(read_all(r, b, n, 999, &err), n);
		for (bad = 0, i = 0; i < n; i++)
			bad += !same_access(&a[i], &b[i]);
		T_EQ_U64_AT(bad, 0, f);
		trace_reader_info(r, &info);
		T_EQ_U64_AT(info.format, fmt, f);
		T_EQ_U64_AT(info.din_extended, !f, f);
		trace_reader_free(r);
		free(buf);
	}
	free(a);
	free(b);
}

static int read_text(const char *text, enum trace_format fmt,
		     struct ppr_access *out, size_t max, size_t *n,
		     struct trace_info *info)
{
	struct trace_reader_config cfg = { .format = fmt };
	struct trace_reader *r;
	struct ppr_err err = { 0 };
	long long got;

	*n = 0;
	if (trace_reader_new_mem(&r, text, strlen(text), "t", &cfg, &err))
		return -1;
	got = read_all(r, out, max, 3, &err);
	if (got >= 0)
		*n = (size_t)got;
	trace_reader_info(r, info);
	trace_reader_free(r);
	return got < 0 ? -1 : 0;
}

static void test_din(void)
{
	struct ppr_access a[8];
	struct trace_info info;
	size_t n;

	/* traditional: word-oriented like Dinero IV (addr & ~3, size 4) */
	T_EQ_U64(read_text("0 1000\n1 0x2007\n2 3000 # comment\n3 4000\n"
			   "4 0\n\n# note\n0 ffffffffffffffff\r\n",
			   TRACE_FMT_AUTO, a, 8, &n, &info), 0);
	T_EQ_U64(n, 4);
	T_EQ_U64(info.format, TRACE_FMT_DIN);
	T_EQ_U64(info.din_extended, 0);
	T_EQ_U64(a[0].addr, 0x1000);
	T_EQ_U64(a[0].op, PPR_OP_LOAD);
	T_EQ_U64(a[0].size, 4);
	T_EQ_U64(a[1].addr, 0x2004);
	T_EQ_U64(a[1].op, PPR_OP_STORE);
	T_EQ_U64(a[2].op, PPR_OP_IFETCH);
	T_EQ_U64(a[3].addr, 0xfffffffffffffffcull);
	T_EQ_U64(info.skipped_misc, 1);
	T_EQ_U64(info.skipped_flush, 1);
	T_EQ_U64(info.skipped_lines, 2);

	/* extended: hex size, as Dinero IV */
	T_EQ_U64(read_text("r 10000008 8\nW 0x20 10\ni 7 1\nm 8 8\nc 0 0\n"
			   "v 0 0\nr 3 4",
			   TRACE_FMT_DIN, a, 8, &n, &info), 0);
	T_EQ_U64(n, 4);
	T_EQ_U64(info.din_extended, 1);
	T_EQ_U64(a[0].addr, 0x10000008);
	T_EQ_U64(a[0].size, 8);
	T_EQ_U64(a[1].op, PPR_OP_STORE);
	T_EQ_U64(a[1].addr, 0x20);
	T_EQ_U64(a[1].size, 16);
	T_EQ_U64(a[2].op, PPR_OP_IFETCH);
	T_EQ_U64(a[2].size, 1);
	T_EQ_U64(a[3].addr, 3);  /* extended addresses are not aligned */
	T_EQ_U64(a[3].tag, PPR_TAG_REGULAR);
	T_EQ_U64(info.skipped_misc, 1);
	T_EQ_U64(info.skipped_flush, 2);
}

static void test_lackey(void)
{
	struct ppr_access a[8];
	struct trace_info info;
	size_t n;

	T_EQ_U64(read_text("==12345== Lackey, an example Valgrind tool\n"
			   "--12345-- chatter\n"
			   "I  0400d7d4,8\n"
			   " L 7ff0000e8,8\n"
			   " S 7ff0000e0,16\n"
			   " M 0421ecb0,4\n"
			   "I  0400d7d9,3\n"
			   "==12345== \n",
			   TRACE_FMT_AUTO, a, 8, &n, &info), 0);
	T_EQ_U64(info.format, TRACE_FMT_LACKEY);
	T_EQ_U64(n, 5);
	T_EQ_U64(a[0].op, PPR_OP_IFETCH);
	T_EQ_U64(a[0].addr, 0x0400d7d4);
	T_EQ_U64(a[0].size, 8);
	T_EQ_U64(a[1].op, PPR_OP_LOAD);
	T_EQ_U64(a[1].addr, 0x7ff0000e8ull);
	T_EQ_U64(a[2].op, PPR_OP_STORE);
	T_EQ_U64(a[2].size, 16);  /* lackey sizes are decimal */
	T_EQ_U64(a[3].op, PPR_OP_MODIFY);
	T_EQ_U64(a[4].size, 3);
	T_EQ_U64(info.skipped_lines, 3);
	T_EQ_U64(info.by_op[PPR_OP_IFETCH], 2);
}

/* ---- malformed inputs ------------------------------------------------ */

#define HDR_MAGIC "\x89PPR\r\n\x1a\n"
#define HDR_REST(ver, enc, flags, res, count) \
	ver "\x00" "\x20\x00" "\x40\x00\x00\x00" enc flags res count
#define Z6 "\x00\x00\x00\x00\x00\x00"
#define Z8 "\x00\x00\x00\x00\x00\x00\x00\x00"
#define HDR HDR_MAGIC HDR_REST("\x01", "\x01", "\x00", Z6, Z8)
#define CNT1 "\x01\x00\x00\x00\x00\x00\x00\x00"
/* checksum of one load of 8 B at 8: 8 + (8 << 8) * 0x9E3779B97F4A7C15 */
#define SUM1 "\x08\xa8\xe0\x53\xfa\xcb\xcd\xbb"

struct bad_case {
	int line;
	const char *name;
	const char *data;
	size_t len;
	enum trace_format fmt;
	const char *want;
};

#define ROW(nm, lit, fmt, want) { __LINE__, nm, lit, sizeof(lit) - 1, fmt, want }
#define PPR_ROW(lit, want) ROW("t.ppr", lit, TRACE_FMT_AUTO, want)
#define DIN_ROW(lit, want) ROW("t.din", lit, TRACE_FMT_AUTO, want)
#define LK_ROW(lit, want) ROW("t.lk", lit, TRACE_FMT_LACKEY, want)

static const struct bad_case bad_cases[] = {
	ROW("t.ppr", "", TRACE_FMT_PPR, "t.ppr: truncated header (0 of 32 bytes)"),
	PPR_ROW("\x89PPR\r\n", "t.ppr: truncated header (6 of 32 bytes)"),
	PPR_ROW(HDR_MAGIC "\x01\x00\x20", "t.ppr: truncated header (11 of 32 bytes)"),
	ROW("t.ppr", "PPRTRACE" "\x01\x00\x20\x00" Z8 Z8 Z8, TRACE_FMT_PPR,
	    "t.ppr: not a ppr trace (bad magic)"),
	PPR_ROW("\x89PNG\r\n\x1a\n", "t.ppr: not a ppr trace (bad magic)"),
	PPR_ROW(HDR_MAGIC HDR_REST("\x02", "\x01", "\x00", Z6, Z8),
		"t.ppr: unsupported ppr trace version 2 (this ppr reads version 1)"),
	PPR_ROW(HDR_MAGIC HDR_REST("\x01", "\x09", "\x00", Z6, Z8),
		"t.ppr: unknown record encoding 9"),
	PPR_ROW(HDR_MAGIC HDR_REST("\x01", "\x01", "\x06", Z6, Z8),
		"t.ppr: unknown header flags 0x06"),
	PPR_ROW(HDR_MAGIC HDR_REST("\x01", "\x01", "\x00", "\x00\x00\x00\x07\x00\x00", Z8),
		"t.ppr: reserved header byte 21 is not zero"),
	PPR_ROW(HDR_MAGIC "\x01\x00" "\x10\x00" "\x40\x00\x00\x00" "\x01\x00" Z6 Z8,
		"t.ppr: bad header length 16 (version 1 headers are 32 bytes)"),
	PPR_ROW(HDR_MAGIC "\x01\x00" "\x20\x00" "\x30\x00\x00\x00" "\x01\x00" Z6 Z8,
		"t.ppr: header line size 48 is not a power of two"),
	PPR_ROW(HDR, "t.ppr: record 1 (byte 32): truncated trace: end marker missing"),
	PPR_ROW(HDR "\x18\x10\x90", "t.ppr: record 3 (byte 35): truncated trace: end marker missing"),
	PPR_ROW(HDR "\x18", "t.ppr: record 1 (byte 32): truncated record"),
	PPR_ROW(HDR "\x18\x10\x18\x80\x80", "t.ppr: record 2 (byte 34): truncated record"),
	PPR_ROW(HDR "\x18\x10\x41", "t.ppr: record 2 (byte 34): truncated record"),
	PPR_ROW(HDR "\x30\x08", "t.ppr: record 1 (byte 32): truncated record"),
	PPR_ROW(HDR "\x90\x38" Z8, "t.ppr: record 1 (byte 32): repeat form before any record kind"),
	PPR_ROW(HDR "\x45\x00\x38" Z8, "t.ppr: record 1 (byte 32): repeat form before any record kind"),
	PPR_ROW(HDR "\x18\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00",
		"t.ppr: record 1 (byte 32): delta varint longer than 10 bytes"),
	PPR_ROW(HDR "\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02",
		"t.ppr: record 1 (byte 32): delta varint overflows 64 bits"),
	PPR_ROW(HDR "\x18\x10\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02",
		"t.ppr: record 2 (byte 34): delta varint overflows 64 bits"),
	PPR_ROW(HDR "\x18\x10\x72\x00\x00",  /* REPEAT wants 4 bytes */
		"t.ppr: record 2 (byte 34): truncated record"),
	PPR_ROW(HDR "\x30\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00",
		"t.ppr: record 1 (byte 32): size varint longer than 10 bytes"),
	PPR_ROW(HDR "\x30\x00\x00", "t.ppr: record 1 (byte 32): size 0"),
	PPR_ROW(HDR "\x18\x10\x33\x81\x20\x00",
		"t.ppr: record 2 (byte 34): size 4097 exceeds 4096 bytes"),
	PPR_ROW(HDR "\x18\x10\x3c", "t.ppr: record 2 (byte 34): unknown control byte 0x3c"),
	PPR_ROW(HDR "\x18\x10\x38\x01\x00", "t.ppr: record 2 (byte 34): truncated trailer"),
	PPR_ROW(HDR "\x18\x10\x90\x90\x38" CNT1 Z8,
		"t.ppr: trailer says 1 records but the trace holds 3"),
	PPR_ROW(HDR_MAGIC HDR_REST("\x01", "\x01", "\x01", Z6, "\x05" Z6 "\x00")
		"\x18\x10\x38" CNT1 SUM1,
		"t.ppr: header says 5 records but the trace holds 1"),
	PPR_ROW(HDR "\x18\x10\x38" CNT1 Z8,
		"t.ppr: checksum mismatch: the records do not match the trailer "
		"(corrupt trace)"),
	PPR_ROW(HDR "\x18\x12\x38" CNT1 SUM1,  /* address 9, not 8 */
		"t.ppr: checksum mismatch: the records do not match the trailer "
		"(corrupt trace)"),
	PPR_ROW(HDR "\x1c\x10\x38" CNT1 SUM1,  /* irregular, not regular */
		"t.ppr: checksum mismatch: the records do not match the trailer "
		"(corrupt trace)"),
	PPR_ROW(HDR "\x18\x10\x38" CNT1 SUM1 "X",
		"t.ppr: trailing garbage after the end marker (byte 51)"),
	ROW("t.ppr", HDR "\x18\x10\x38" CNT1 SUM1, TRACE_FMT_AUTO, NULL),
	ROW("t.ppr", HDR_MAGIC HDR_REST("\x01", "\x01", "\x01", Z6, CNT1)
	    "\x18\x10\x38" CNT1 SUM1, TRACE_FMT_AUTO, NULL),

	DIN_ROW("0 1000\n2 zz\n", "t.din:2: record 2: bad hex digit 'z' in address"),
	DIN_ROW("0 1000\n7 1000\n", "t.din:2: record 2: bad label 7 (want 0-5)"),
	DIN_ROW("0 1000\n1x 1000\n", "t.din:2: record 2: bad hex digit 'x' in label"),
	ROW("t.din", "r 1000 8\n", TRACE_FMT_AUTO, NULL),
	DIN_ROW("0\n", "t.din:1: record 1: missing address"),
	DIN_ROW("# c\n0 1000 8\n", "t.din:2: record 1: trailing garbage '8'"),
	DIN_ROW("0 11112222333344445\n", "t.din:1: record 1: address exceeds 64 bits"),
	DIN_ROW("0 0000011112222333344445\n", "t.din:1: record 1: address exceeds 64 bits"),
	ROW("t.din", "0 000000000000000000001000\n", TRACE_FMT_AUTO, NULL),
	ROW("t.din", "r 00000000000000000000 00000000000000000008", TRACE_FMT_AUTO, NULL),
	DIN_ROW("0 0x\n", "t.din:1: record 1: bad address: no hex digits"),
	DIN_ROW("r 1000\n", "t.din:1: record 1: missing size"),
	DIN_ROW("r 1000 0\n", "t.din:1: record 1: size 0"),
	DIN_ROW("r 1000 1001\n", "t.din:1: record 1: size 0x1001 exceeds 4096 bytes"),
	DIN_ROW("r 1000 8\n\nx 1000 8\n",
		"t.din:3: record 2: bad label 'x' (want r, w, i, m, c or v)"),
	DIN_ROW("r 1000 8\nread 1000 8\n",
		"t.din:2: record 2: bad label 'read' (want r, w, i, m, c or v)"),
	DIN_ROW("r 1000 8 9\n", "t.din:1: record 1: trailing garbage '9'"),
	DIN_ROW("r 10g0 8\n", "t.din:1: record 1: bad hex digit 'g' in address"),
	DIN_ROW("r 1000 8z\n", "t.din:1: record 1: bad hex digit 'z' in size"),
	DIN_ROW("r 1000 8\r\nr 1000 \x01\r\n",
		"t.din:2: record 2: bad hex digit byte 0x01 in size"),
	DIN_ROW("r 1000 8\nr\n", "t.din:2: record 2: missing address"),
	DIN_ROW("r 1000 8\nr\rx 1000 8\n",  /* the message stays one line */
		"t.din:2: record 2: bad label 'r?x' (want r, w, i, m, c or v)"),
	DIN_ROW("hello world\n",
		"t.din:1: cannot tell the trace format from this line (not ppr, din "
		"or lackey); use --trace-format"),

	LK_ROW("==1== Lackey\nI  0400d7d4,8\n L 7ff0000e8,8\n X 1000,8\n",
	       "t.lk:4: record 3: bad op 'X' (want I, L, S or M)"),
	LK_ROW(" L 1000\n", "t.lk:1: record 1: missing ',size' after the address"),
	LK_ROW(" L 1000,\n", "t.lk:1: record 1: missing size"),
	LK_ROW(" L 1000,0\n", "t.lk:1: record 1: size 0"),
	LK_ROW(" L 1000,4097\n", "t.lk:1: record 1: size 4097 exceeds 4096 bytes"),
	LK_ROW(" L 1000,99999999999999999999999\n",
	       "t.lk:1: record 1: size 99999999999999999999999 exceeds 4096 bytes"),
	LK_ROW(" L 1000,8x\n", "t.lk:1: record 1: bad digit 'x' in size"),
	LK_ROW(" L 1000,x\n", "t.lk:1: record 1: bad digit 'x' in size"),
	LK_ROW(" L 1000,8 junk\n", "t.lk:1: record 1: trailing garbage 'junk'"),
	LK_ROW(" L 10z0,8\n", "t.lk:1: record 1: bad hex digit 'z' in address"),
	LK_ROW(" L\n", "t.lk:1: record 1: missing address"),
	LK_ROW(" L 11112222333344445,8\n", "t.lk:1: record 1: address exceeds 64 bits"),
};

static void test_bad_inputs(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct trace_reader_config cfg = { .format = c->fmt };
		struct trace_reader *r = NULL;
		struct ppr_access buf[4];
		struct ppr_err err = { 0 };
		char msg[1400];
		size_t n;
		int rc;

		rc = trace_reader_new_mem(&r, c->data, c->len, c->name, &cfg, &err);
		while (rc == 0) {
			rc = trace_reader_next(r, buf, 4, &n, &err);
			if (rc == 0 && n == 0)
				break;
		}
		if (!c->want) {  /* a valid row among the bad ones */
			T_EQ_U64_AT(rc, 0, c->line);
		} else {
			T_CHECK_AT(rc < 0, c->line);
			T_STR_AT(ppr_err_format(&err, msg, sizeof(msg)), c->want,
				 c->line);
			/* the error is sticky */
			if (r) {
				struct ppr_err again = { 0 };

				T_CHECK_AT(trace_reader_next(r, buf, 4, &n, &again) == rc
					   && n == 0 && !strcmp(again.msg, err.msg),
					   c->line);
			}
		}
		trace_reader_free(r);
	}
}

/* Records before a bad one come back with the error. */
static void test_partial_batch(void)
{
	static const char text[] = "r 1 8\nr 2 8\nr 3 8\nq 4 8\n";
	struct trace_reader *r;
	struct ppr_access buf[10];
	struct ppr_err err = { 0 };
	size_t n = 99;

	T_EQ_U64(trace_reader_new_mem(&r, text, sizeof(text) - 1, "p", NULL, &err), 0);
	T_CHECK(trace_reader_next(r, buf, 10, &n, &err) == PPR_EFORMAT);
	T_EQ_U64(n, 3);
	T_EQ_U64(buf[2].addr, 3);
	T_EQ_U64(err.line, 4);
	trace_reader_free(r);
}

/* The writer refuses what it cannot encode, naming the record. */
static void test_writer_rejects(void)
{
	struct ppr_access a[2] = {
		{ .addr = 1, .size = 8 },
		{ .addr = 2, .size = 0 },
	};
	struct trace_writer *w;
	struct ppr_err err = { 0 };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	struct ppr_sink s;

	T_EQ_U64(trace_writer_new_file(&w, f, "w.ppr", NULL, &err), 0);
	s = trace_writer_sink(w);
	T_CHECK(s.emit(s.ctx, a, 2) == PPR_EINVAL);
	T_CHECK(trace_writer_finish(w, &err) == PPR_EINVAL);
	T_STR(err.msg, "record 2: bad size 0");
	trace_writer_free(w);
	fclose(f);
	free(buf);
}

/* Flip, drop and truncate bytes of valid traces: errors, never crashes. */
static void test_mutations(void)
{
	const size_t n = 3000;
	struct ppr_access *a = calloc(n, sizeof(*a)), out[256];
	struct ppr_err err;
	size_t len, i, nn;
	int f, m, errors = 0, oks = 0;

	for (f = 0; f < 3; f++) {
		enum trace_format fmt = f == 0 ? TRACE_FMT_PPR
				       : f == 1 ? TRACE_FMT_DIN : TRACE_FMT_LACKEY;
		char *buf;

		make_stream(a, n, 1);
		buf = write_mem(a, n, fmt, &len);
		for (m = 0; m < 400; m++) {
			char *mut = malloc(len + 1), *exact;
			size_t mlen = len, pos = (size_t)(xs() % len);
			struct trace_reader *r;
			int rc;

			memcpy(mut, buf, len);
			switch (m % 4) {
			case 0: mut[pos] = (char)xs(); break;
			case 1: mlen = pos; break;
			case 2: mut[pos] ^= (char)(1 << (xs() % 8)); break;
			default:
				memmove(mut + pos, mut + pos + 1, len - pos - 1);
				mlen--;
			}
			/* exact size, so ASan sees any read past the end */
			exact = malloc(mlen ? mlen : 1);
			memcpy(exact, mut, mlen);
			memset(&err, 0, sizeof(err));
			rc = trace_reader_new_mem(&r, exact, mlen, "m", NULL, &err);
			while (rc == 0) {
				rc = trace_reader_next(r, out, 256, &nn, &err);
				for (i = 0; rc == 0 && i < nn; i++)
					if (out[i].size == 0 || out[i].size > TRACE_SIZE_MAX ||
					    out[i].op >= PPR_NOPS || out[i].tag >= PPR_NTAGS)
						rc = -100;
				if (rc == 0 && nn == 0)
					break;
			}
			T_CHECK_AT(rc != -100, m);
			/* every truncation of a ppr trace is caught, and every
			   change past the header (the checksum) */
			if (f == 0 && (m % 4 == 1 || pos >= 32) &&
			    (mlen != len || memcmp(mut, buf, len)))
				T_CHECK_AT(rc < 0, m);
			if (rc < 0) {
				errors++;
				T_CHECK_AT(err.msg[0] != 0, m);
			} else {
				oks++;
			}
			trace_reader_free(r);
			free(exact);
			free(mut);
		}
		free(buf);
	}
	printf("mutations: %d rejected, %d still valid\n", errors, oks);
	free(a);
}

static void test_format_names(void)
{
	enum trace_format f;

	T_EQ_U64(trace_format_parse("din", &f), 0);
	T_EQ_U64(f, TRACE_FMT_DIN);
	T_EQ_U64(trace_format_parse("lackey", &f), 0);
	T_EQ_U64(f, TRACE_FMT_LACKEY);
	T_EQ_U64(trace_format_parse("ppr", &f), 0);
	T_STR(trace_format_name(f), "ppr");
	T_CHECK(trace_format_parse("pin", &f) == PPR_EINVAL);
}

/* Compactness of the encoding on the seq workload: 1 byte per record. */
static void test_seq_size(void)
{
	const size_t n = 100000;
	struct ppr_access *a = calloc(n, sizeof(*a));
	size_t len, i;
	char *buf;

	for (i = 0; i < n; i++) {
		a[i].addr = 0x10000000 + 8 * i;
		a[i].size = 8;
	}
	buf = write_mem(a, n, TRACE_FMT_PPR, &len);
	/* header 32 + first record 1+5 + (n-1) short + trailer 17 */
	T_EQ_U64(len, 32 + 6 + (n - 1) + 17);
	free(buf);
	free(a);
}

/* Text through a FILE, over 1 MiB, so lines straddle window refills. */
static void test_text_file_windows(void)
{
	const size_t n = 150000;
	struct ppr_access *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	struct trace_writer_config wc = { 0 };
	struct trace_writer *w;
	struct trace_reader *r;
	struct ppr_err err = { 0 };
	size_t i, bad;
	int f;

	for (f = 0; f < 2; f++) {
		FILE *fp = tmpfile();

		wc.format = f ? TRACE_FMT_LACKEY : TRACE_FMT_DIN;
		make_stream(a, n, f);
		for (i = 0; i < n; i++)
			a[i].tag = PPR_TAG_REGULAR;
		T_EQ_U64(trace_writer_new_file(&w, fp, "tmp", &wc, &err), 0);
		T_EQ_U64(trace_writer_write(w, a, n, &err), 0);
		T_EQ_U64(trace_writer_finish(w, &err), 0);
		T_CHECK_AT(trace_writer_bytes(w) > (3u << 20) / 2, f);
		trace_writer_free(w);
		rewind(fp);
		T_EQ_U64_AT(trace_reader_new_file(&r, fp, "tmp", NULL, &err), 0, f);
		T_EQ_U64_AT(read_all(r, b, n, 4096, &err), n, f);
		for (bad = 0, i = 0; i < n; i++)
			bad += !same_access(&a[i], &b[i]);
		T_EQ_U64_AT(bad, 0, f);
		trace_reader_free(r);
		fclose(fp);
	}
	free(a);
	free(b);
}

static void test_text_edges(void)
{
	struct trace_reader *r;
	struct trace_info info;
	struct ppr_access a[4];
	struct ppr_err err = { 0 };
	char msg[1400];
	size_t n, len = (1u << 20) + 100;
	char *line = malloc(len + 1);
	FILE *fp = tmpfile();

	/* valgrind messages only: lackey with no references */
	T_EQ_U64(trace_reader_new_mem(&r, "==1== hi\n", 9, "c", NULL, &err), 0);
	T_EQ_U64(trace_reader_next(r, a, 4, &n, &err), 0);
	T_EQ_U64(n, 0);
	trace_reader_info(r, &info);
	T_EQ_U64(info.format, TRACE_FMT_LACKEY);
	trace_reader_free(r);
	/* empty: din with no references */
	T_EQ_U64(trace_reader_new_mem(&r, "", 0, "e", NULL, &err), 0);
	T_EQ_U64(trace_reader_next(r, a, 4, &n, &err), 0);
	T_EQ_U64(n, 0);
	trace_reader_info(r, &info);
	T_EQ_U64(info.format, TRACE_FMT_DIN);
	trace_reader_free(r);
	/* a line longer than the window */
	memset(line, ' ', len);
	memcpy(line, "r 1000 8", 8);
	line[len - 1] = '\n';
	fwrite(line, 1, len, fp);
	rewind(fp);
	T_EQ_U64(trace_reader_new_file(&r, fp, "long", NULL, &err), 0);
	T_CHECK(trace_reader_next(r, a, 4, &n, &err) == PPR_EFORMAT);
	T_STR(ppr_err_format(&err, msg, sizeof(msg)),
	      "long:1: line longer than 1048576 bytes");
	trace_reader_free(r);
	fclose(fp);
	free(line);
}

/* The exact bytes of the example in traces/README.md. */
static void test_golden_bytes(void)
{
	static const unsigned char want[] = {
		0x89, 0x50, 0x50, 0x52, 0x0d, 0x0a, 0x1a, 0x0a, /* magic */
		0x01, 0x00, 0x20, 0x00, 0x40, 0x00, 0x00, 0x00, /* v1, 32, 64 */
		0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* enc, flags */
		0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* count 5 */
		0x18, 0x80, 0x80, 0x80, 0x80, 0x02,  /* NEW load 8 B, +0x10000000 */
		0x90,                                /* SHORT +8 */
		0x11, 0xe0, 0xff, 0x03,              /* NEW store 4 B, +0x7ff0 */
		0x18, 0x10,                          /* NEW load 8 B, +8 */
		0x70, 0x00, 0x00, 0x00, 0x02,        /* REPEAT 4 bytes, +0x10000000 */
		0x38, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* END, 5 */
		0x42, 0x6c, 0x08, 0xc8, 0x59, 0x09, 0x8d, 0x09, /* checksum */
	};
	static const struct ppr_access a[5] = {
		{ .addr = 0x10000000, .size = 8, .op = PPR_OP_LOAD },
		{ .addr = 0x10000008, .size = 8, .op = PPR_OP_LOAD },
		{ .addr = 0x7ff0, .size = 4, .op = PPR_OP_STORE },
		{ .addr = 0x10000010, .size = 8, .op = PPR_OP_LOAD },
		{ .addr = 0x20000010, .size = 8, .op = PPR_OP_LOAD },
	};
	struct trace_writer_config wc = { .format = TRACE_FMT_PPR, .line_size = 64 };
	struct trace_writer *w;
	struct ppr_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	T_EQ_U64(trace_writer_new_file(&w, f, "g", &wc, &err), 0);
	T_EQ_U64(trace_writer_write(w, a, 5, &err), 0);
	T_EQ_U64(trace_writer_finish(w, &err), 0);
	trace_writer_free(w);
	fclose(f);
	T_EQ_U64(len, sizeof(want));
	T_CHECK(len == sizeof(want) && !memcmp(buf, want, len));
	free(buf);
}

/* Each REPEAT width, and a same-kind delta too big for REPEAT. */
static void test_repeat_widths(void)
{
	static const uint64_t deltas[] = {
		64, (1u << 11) - 8, 1u << 11, (1u << 19) - 8, 1u << 19,
		(1u << 27) - 8, 1u << 27, (1ull << 35) - 8, 1ull << 35,
		(uint64_t)-(1ll << 35), (uint64_t)-(1ll << 35) - 1, 1ull << 63,
	};
	/* REPEAT holds |zz| < 2^36 in 1 + 1..4 bytes; beyond, the kind is
	   restated: NEW KIND + varint */
	static const size_t bytes[] = { 2, 2, 3, 3, 4, 4, 5, 5, 7, 5, 7, 11 };
	struct ppr_access a[2] = {
		{ .addr = 1000, .size = 8 }, { .size = 8 },
	};
	size_t i, len;

	for (i = 0; i < sizeof(deltas) / sizeof(deltas[0]); i++) {
		struct trace_reader *r;
		struct ppr_access b[3];
		struct ppr_err err = { 0 };
		char *buf;

		a[1].addr = a[0].addr + deltas[i];
		buf = write_mem(a, 2, TRACE_FMT_PPR, &len);
		/* header 32, first record 3 (0x18 + 2-byte varint of 2000), trailer 17 */
		T_EQ_U64_AT(len - 32 - 3 - 17, bytes[i], i);
		T_EQ_U64_AT(trace_reader_new_mem(&r, buf, len, "w", NULL, &err), 0, i);
		T_EQ_U64_AT(read_all(r, b, 3, 3, &err), 2, i);
		T_EQ_U64_AT(b[1].addr, a[1].addr, i);
		trace_reader_free(r);
		free(buf);
	}
}

int main(void)
{
	test_format_names();
	test_roundtrip_ppr_mem();
	test_roundtrip_ppr_file();
	test_roundtrip_text();
	test_din();
	test_lackey();
	test_bad_inputs();
	test_partial_batch();
	test_writer_rejects();
	test_mutations();
	test_seq_size();
	test_text_file_windows();
	test_text_edges();
	test_golden_bytes();
	test_repeat_widths();
	return t_done();
}
