/*
 * io.c - read a whole matrix file into memory, transparently gunzipping
 * files that start with the gzip magic bytes (1f 8b), whatever their name.
 *
 * Notes:
 * - A plain file is mapped (private, copy-on-write) rather than copied:
 *   the parser then reads the page cache itself.  Copying a 338 MB file
 *   into a fresh buffer cost more than parsing it on this machine's
 *   paravirtualised guest, where every new page is zeroed by a slow
 *   first touch (`perf record`: 27% of a 10^7-nonzero load in
 *   clear_page_erms under the copy).  The byte after the end must read as
 *   NUL for the parsers: the rest of a mapped file's last page is zero, so
 *   a file whose size is a multiple of the page size is read into a
 *   buffer instead, as are gzip'd files and anything mmap refuses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "common/xalloc.h"
#include "matrix/matrix_int.h"

static int read_gz(const char *path, char **buf, size_t *len,
		   struct ppr_err *err)
{
	gzFile g = gzopen(path, "rb");
	size_t cap = 1 << 20, n = 0;
	char *b = NULL;
	int got;

	if (!g)
		return ppr_err_set(err, PPR_EIO, path, 0, 0,
				   "cannot open matrix: %s", strerror(errno));
	gzbuffer(g, 1 << 18);
	b = xmalloc(cap + 1);
	for (;;) {
		unsigned want;

		if (cap - n < (1u << 20)) {
			if (matrix_mem_check((uint64_t)cap * 2, path, err))
				goto fail;
			cap *= 2;
			b = xrealloc(b, cap + 1);
		}
		want = (unsigned)((cap - n) > (1u << 30) ? (1u << 30) : cap - n);
		got = gzread(g, b + n, want);
		if (got < 0) {
			int zerr;
			const char *m = gzerror(g, &zerr);

			ppr_err_set(err, PPR_EFORMAT, path, 0, 0,
				    "gzip data is corrupt: %s", m);
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	{
		int zerr = Z_OK;
		const char *m = gzerror(g, &zerr);

		if (zerr != Z_OK && zerr != Z_STREAM_END) {
			size_t pl = strlen(path);

			/* zlib prefixes its message with the path */
			if (!strncmp(m, path, pl) && !strncmp(m + pl, ": ", 2))
				m += pl + 2;
			ppr_err_set(err, PPR_ETRUNC, path, 0, 0,
				    "gzip data is truncated or corrupt after %zu bytes: %s",
				    n, m);
			goto fail;
		}
		if (!gzeof(g)) {
			ppr_err_set(err, PPR_EIO, path, 0, 0,
				    "cannot read gzip data");
			goto fail;
		}
	}
	gzclose(g);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
fail:
	gzclose(g);
	free(b);
	return err ? err->code : PPR_EIO;
}

void matrix_file_release(char *buf, size_t mapped)
{
	if (mapped)
		munmap(buf, mapped);
	else
		free(buf);
}

int matrix_file_read(const char *path, char **buf, size_t *len,
		     size_t *mapped, int *gzipped, struct ppr_err *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char magic[2];
	struct stat st;
	size_t n, got;
	long page = sysconf(_SC_PAGESIZE);
	char *b;

	*gzipped = 0;
	*mapped = 0;
	if (!f)
		return ppr_err_set(err, errno == ENOENT ? PPR_ENOENT : PPR_EIO,
				   NULL, 0, 0, "cannot open matrix '%s': %s",
				   path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return ppr_err_set(err, PPR_EIO, NULL, 0, 0,
				   "cannot read matrix '%s': not a regular file",
				   path);
	}
	n = fread(magic, 1, 2, f);
	if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		fclose(f);
		*gzipped = 1;
		return read_gz(path, buf, len, err);
	}
	if (matrix_mem_check((uint64_t)st.st_size, path, err)) {
		fclose(f);
		return PPR_ENOMEM;
	}
	n = (size_t)st.st_size;
	if (n && page > 0 && n % (size_t)page) {
		void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			       fileno(f), 0);

		if (m != MAP_FAILED) {
			fclose(f);
			(void)madvise(m, n, MADV_SEQUENTIAL);
			*buf = m;
			*len = n;
			*mapped = n;
			return 0;
		}
	}
	b = xmalloc(n + 1);
	rewind(f);
	got = n ? fread(b, 1, n, f) : 0;
	if (got != n || ferror(f)) {
		free(b);
		fclose(f);
		return ppr_err_set(err, PPR_EIO, path, 0, 0,
				   "cannot read matrix: %s", strerror(errno));
	}
	fclose(f);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}
