/*
 * fuzz.h - shared part of the fuzz targets in tests/fuzz/fuzz_<parser>.c.
 *
 * Each target defines LLVMFuzzerTestOneInput(data, size): it feeds the
 * bytes to one parser and checks what comes back.  A parser may accept the
 * input or refuse it, but a refusal must be a negative PPR_E* code with a
 * one-line message that names the input; anything else (a positive return,
 * an empty or multi-line message, a result that breaks its own invariants)
 * is reported with fuzz_fail(), which aborts so that libFuzzer and the
 * sanitizers keep the input.
 *
 * Built with -fsanitize=fuzzer and -DPPR_LIBFUZZER, libFuzzer supplies
 * main().  Otherwise this header supplies a replay main(): every argument
 * is a file, or a directory whose regular files are replayed in name order,
 * each read into a buffer of exactly its size (so an over-read is caught by
 * ASan/valgrind).  `make test` runs the replay build over
 * tests/fuzz/corpus/<target>/ and tests/fuzz/regress/<target>/.
 */
#ifndef PPR_FUZZ_H
#define PPR_FUZZ_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/ppr_err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The name every target passes as the input's name, checked in errors. */
#define FUZZ_NAME "fuzz-input"

/* Current input (replay only), for messages. */
static const char *fuzz_current = "(libFuzzer input)";

static inline void fuzz_fail(const char *what, const struct ppr_err *err)
{
	fprintf(stderr, "fuzz: %s: %s (code %d, msg '%s')\n", fuzz_current,
		what, err ? err->code : 0, err ? err->msg : "");
	abort();
}

/*
 * Check a parser's verdict: rc 0, or rc < 0 with a one-line message; when
 * want_file, err->file must name the input (want_file may be a prefix).
 */
static inline void fuzz_check_rc(int rc, const struct ppr_err *err,
			  const char *want_file)
{
	if (rc > 0)
		fuzz_fail("positive return code", err);
	if (rc == 0)
		return;
	if (rc < PPR_ETRUNC)
		fuzz_fail("return code outside enum ppr_errcode", err);
	if (!err->msg[0])
		fuzz_fail("error without a message", err);
	if (strchr(err->msg, '\n') || strchr(err->msg, '\r'))
		fuzz_fail("multi-line error message", err);
	if (!memchr(err->msg, '\0', sizeof(err->msg)))
		fuzz_fail("unterminated error message", err);
	/* The input is named in err->file, or first in the message. */
	if (want_file && strncmp(err->file, want_file, strlen(want_file)) &&
	    strncmp(err->msg, want_file, strlen(want_file)))
		fuzz_fail("error does not name the input", err);
	if (err->line < 0)
		fuzz_fail("negative line number", err);
}

/*
 * For readers that take a path: write the input to a file of this process
 * under $TMPDIR (default /tmp) named ppr-fuzz-<pid><suffix>, removed at
 * exit; returns the path (static storage).
 */
static char fuzz_tmp_path[512];

static void fuzz_tmp_cleanup(void)
{
	if (fuzz_tmp_path[0])
		unlink(fuzz_tmp_path);
}

static inline const char *fuzz_tmp_write(const uint8_t *data, size_t size,
					 const char *suffix)
{
	FILE *f;

	if (!fuzz_tmp_path[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(fuzz_tmp_path, sizeof(fuzz_tmp_path),
			 "%s/ppr-fuzz-%ld%s", tmp && *tmp ? tmp : "/tmp",
			 (long)getpid(), suffix);
		atexit(fuzz_tmp_cleanup);
	}
	f = fopen(fuzz_tmp_path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	return fuzz_tmp_path;
}

#ifndef PPR_LIBFUZZER
static int fuzz_replay_file(const char *path, unsigned long *count)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f) {
		fprintf(stderr, "fuzz replay: cannot open %s\n", path);
		return 1;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		fprintf(stderr, "fuzz replay: cannot size %s\n", path);
		return 1;
	}
	/* Exactly len bytes (malloc(0) may be NULL: keep one spare). */
	buf = malloc(len ? (size_t)len : 1);
	if (!buf || (len && fread(buf, 1, (size_t)len, f) != (size_t)len)) {
		free(buf);
		fclose(f);
		fprintf(stderr, "fuzz replay: cannot read %s\n", path);
		return 1;
	}
	fclose(f);
	fuzz_current = path;
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	(*count)++;
	return 0;
}

static int fuzz_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int fuzz_replay_dir(const char *dir, unsigned long *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int bad = 0;

	if (!d) {
		fprintf(stderr, "fuzz replay: cannot open directory %s\n", dir);
		return 1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn;
			cap = cap ? 2 * cap : 64;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				abort();
			names = nn;
		}
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (!names[n])
			abort();
		memcpy(names[n], dir, strlen(dir));
		names[n][strlen(dir)] = '/';
		memcpy(names[n] + strlen(dir) + 1, e->d_name,
		       strlen(e->d_name) + 1);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), fuzz_name_cmp);
	for (i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			bad |= fuzz_replay_file(names[i], count);
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	unsigned long count = 0;
	int i, bad = 0;
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
						   : argv[0];

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n"
			"replay inputs through the fuzz target (no libFuzzer)\n",
			prog);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			/* A missing regress/ directory is simply empty. */
			continue;
		}
		if (S_ISDIR(st.st_mode))
			bad |= fuzz_replay_dir(argv[i], &count);
		else
			bad |= fuzz_replay_file(argv[i], &count);
	}
	printf("%s: %lu inputs replayed%s\n", prog, count,
	       bad ? ", some unreadable" : ", no failure");
	return bad;
}
#endif /* !PPR_LIBFUZZER */

#endif
