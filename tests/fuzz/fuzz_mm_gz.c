/*
 * fuzz_mm_gz.c - gzip'd Matrix Market through matrix_load() (the path the
 * CLI takes: gzip is read from a file by zlib).
 *
 * Input starting with the gzip magic (1f 8b) is written as it is, so the
 * fuzzer works on the gzip container (corrupt, truncated, concatenated
 * members).  Any other input is Matrix Market text: it is compressed
 * here, and its last byte, if it is '\x01', asks for the compressed
 * stream to be cut in half, so the inflated text is fuzzed too.  The file
 * is written under $TMPDIR (default /tmp) with a .mtx.gz name.
 */
#include <unistd.h>
#include <zlib.h>

#include "matrix/matrix.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_csr.h"

static char fuzz_gz_path[512];

static void fuzz_gz_cleanup(void)
{
	if (fuzz_gz_path[0])
		unlink(fuzz_gz_path);
}

static void fuzz_gz_write(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!fuzz_gz_path[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(fuzz_gz_path, sizeof(fuzz_gz_path),
			 "%s/ppr-fuzz-mm-gz-%ld.mtx.gz",
			 tmp && *tmp ? tmp : "/tmp", (long)getpid());
		atexit(fuzz_gz_cleanup);
	}
	f = fopen(fuzz_gz_path, "wb");
	if (!f)
		abort();
	if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
		if (fwrite(data, 1, size, f) != size)
			abort();
	} else {
		int cut = size && data[size - 1] == 1;
		uLongf clen;
		uint8_t *c;
		z_stream zs;

		memset(&zs, 0, sizeof(zs));
		/* windowBits 15 + 16: a gzip wrapper. */
		if (deflateInit2(&zs, 6, Z_DEFLATED, 31, 8,
				 Z_DEFAULT_STRATEGY) != Z_OK)
			abort();
		clen = deflateBound(&zs, (uLong)size) + 32;
		c = malloc(clen);
		if (!c)
			abort();
		zs.next_in = (Bytef *)(uintptr_t)data;
		zs.avail_in = (uInt)size;
		zs.next_out = c;
		zs.avail_out = (uInt)clen;
		if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
			abort();
		clen = zs.total_out;
		deflateEnd(&zs);
		if (cut)
			clen /= 2;
		if (fwrite(c, 1, clen, f) != clen)
			abort();
		free(c);
	}
	if (fclose(f))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csr a;
	struct matrix_info inf;
	struct ppr_err err;
	int rc;

	matrix_mem_limit_set(UINT64_C(256) << 20);
	fuzz_gz_write(data, size);
	memset(&a, 0, sizeof(a));
	memset(&err, 0, sizeof(err));
	rc = matrix_load(fuzz_gz_path, &a, &inf, &err);
	fuzz_check_rc(rc, &err, fuzz_gz_path);
	if (rc == 0)
		fuzz_csr_check(&a, &inf);
	matrix_csr_release(&a);
	return 0;
}
