/*
 * test_traces_fuzz.c - the trace readers never crash on hostile input.
 *
 * LLVMFuzzerTestOneInput is the libFuzzer entry point (build this file
 * with -fsanitize=fuzzer -DPPR_LIBFUZZER to fuzz for real): it reads the
 * input as every format (auto, ppr, din, lackey) in small batches.  Without
 * libFuzzer, main() replays a corpus made here: small valid traces of each
 * format, every truncation of them, seeded byte mutations and random
 * bytes.  Each input must either read cleanly, giving only well-formed
 * references, or fail with a one-line message; run under
 * SANITIZE=address,undefined this is the fuzz check.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/t.h"
#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int bad_records, bad_errors, inputs, rejected;

static void read_as(const uint8_t *data, size_t size, enum trace_format fmt)
{
	struct trace_reader_config cfg = { .format = fmt };
	struct trace_reader *r;
	struct ppr_access buf[5];
	struct ppr_err err;
	size_t n, i;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = trace_reader_new_mem(&r, data, size, "fuzz", &cfg, &err);
	while (rc == 0) {
		rc = trace_reader_next(r, buf, 5, &n, &err);
		for (i = 0; i < n; i++)
			if (buf[i].size == 0 || buf[i].size > TRACE_SIZE_MAX ||
			    buf[i].op >= PPR_NOPS || buf[i].tag >= PPR_NTAGS)
				bad_records++;
		if (rc == 0 && n == 0)
			break;
	}
	if (rc < 0) {
		const char *c;

		rejected++;
		if (!err.msg[0] || strcmp(err.file, "fuzz"))
			bad_errors++;
		for (c = err.msg; *c; c++)  /* one printable line */
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				bad_errors++;
				break;
			}
	}
	trace_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	inputs++;
	read_as(data, size, TRACE_FMT_AUTO);
	read_as(data, size, TRACE_FMT_PPR);
	read_as(data, size, TRACE_FMT_DIN);
	read_as(data, size, TRACE_FMT_LACKEY);
	return 0;
}

#ifndef PPR_LIBFUZZER
static uint64_t rng = 0x243F6A8885A308D3ull;

static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

/* Run one input from an exact-size heap copy (so ASan sees overreads). */
static void one(const uint8_t *d, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);

	memcpy(copy, d, n);
	LLVMFuzzerTestOneInput(copy, n);
	free(copy);
}

static uint8_t *make_trace(enum trace_format fmt, size_t nrec, size_t *len)
{
	struct trace_writer_config wc = { .format = fmt, .line_size = 64 };
	struct trace_writer *w;
	struct ppr_access a;
	struct ppr_err err = { 0 };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	uint64_t addr = 0x7ff000;
	size_t i;

	trace_writer_new_file(&w, f, "c", &wc, &err);
	for (i = 0; i < nrec; i++) {
		uint64_t r = next();

		memset(&a, 0, sizeof(a));
		addr += (r & 3) == 0 ? (r >> 20) : (r >> 8 & 127) - 40;
		a.addr = addr;
		a.op = (uint8_t)(r >> 2 & 3);
		a.tag = (uint8_t)(r >> 4 & 1);
		a.size = (r >> 5 & 3) ? 8 : (uint32_t)(1 + (r >> 7) % 100);
		trace_writer_write(w, &a, 1, &err);
	}
	trace_writer_finish(w, &err);
	trace_writer_free(w);
	fclose(f);
	return (uint8_t *)buf;
}

int main(void)
{
	static const enum trace_format fmts[] = {
		TRACE_FMT_PPR, TRACE_FMT_DIN, TRACE_FMT_LACKEY,
	};
	uint8_t noise[256];
	size_t f, len, i, k;
	int m;

	for (f = 0; f < 3; f++) {
		uint8_t *t = make_trace(fmts[f], 60, &len);
		uint8_t *mut = malloc(len);

		/* every truncation */
		for (i = 0; i <= len; i++)
			one(t, i);
		/* 1..4 random byte changes, 1500 times */
		for (m = 0; m < 1500; m++) {
			memcpy(mut, t, len);
			for (k = 0; k <= (size_t)(m % 4); k++) {
				uint64_t r = next();

				mut[r % len] = (m & 1) ? (uint8_t)(r >> 32)
					     : (uint8_t)(mut[r % len] ^ (1u << (r >> 40 & 7)));
			}
			one(mut, len);
		}
		free(mut);
		free(t);
	}
	/* found by libFuzzer: a hex field of only zeros at the very end */
	{
		static const char z[] = "M 1 00000000000000000000000000000000000000";

		one((const uint8_t *)z, sizeof(z) - 1);
	}
	/* random bytes, also behind a valid ppr magic */
	for (m = 0; m < 2000; m++) {
		size_t n = (size_t)(next() % sizeof(noise));

		for (i = 0; i < n; i++)
			noise[i] = (uint8_t)next();
		if (m & 1 && n >= 8)
			memcpy(noise, "\x89PPR\r\n\x1a\n", 8);
		one(noise, n);
	}
	T_EQ_U64(bad_records, 0);
	T_EQ_U64(bad_errors, 0);
	T_CHECK(rejected > 0);
	printf("fuzz replay: %d inputs x 4 formats, %d reads rejected\n",
	       inputs, rejected);
	return t_done();
}
#endif
