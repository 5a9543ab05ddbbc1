/*
 * test_dag_fuzz.c - the assembly front end and the scheduler never crash
 * on hostile input.
 *
 * LLVMFuzzerTestOneInput is the libFuzzer entry point (build with
 * -fsanitize=fuzzer -DPPR_LIBFUZZER to fuzz for real).  Without libFuzzer,
 * main() replays a corpus: the kernel loops in tests/data/asm, truncated at
 * many points and with seeded byte mutations.  Every input must either
 * parse (and then find a loop and schedule it, or fail cleanly) or fail
 * with a one-line message; run under SANITIZE=address,undefined this is
 * the fuzz check.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "dag/dag.h"
#include "t.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int bad_msg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dag_prog *p = dag_prog_new();
	struct ppr_err err = { 0 };
	struct dag_loop l;
	struct dag_result r;
	struct dag_sched_opts o = { .iterations = 8 };
	char buf[1400];
	int rc;

	rc = dag_asm_parse(p, (const char *)data, size, "fuzz.s", &err);
	if (!rc)
		rc = dag_loop_find(p, NULL, &l, &err);
	if (!rc && l.end - l.begin < 400)
		rc = dag_sched_run(p, &l, dag_core_builtin("zen5"), &o, &r, &err);
	if (rc) {
		ppr_err_format(&err, buf, sizeof(buf));
		if (strncmp(buf, "fuzz.s", 6) || strchr(buf, '\n'))
			bad_msg++;
	}
	dag_prog_free(p);
	return 0;
}

#ifndef PPR_LIBFUZZER
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = xmalloc((size_t)len + 1);
	*n = fread(b, 1, (size_t)len, f);
	fclose(f);
	return b;
}

int main(void)
{
	DIR *d = opendir("tests/data/asm");
	struct dirent *e;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int files = 0;

	if (!d) {
		T_SKIP("tests/data/asm not found (run from the project root)");
		return t_done();
	}
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name), len;
		char path[512], *text, *mut;

		if (!(n > 2 && !strcmp(e->d_name + n - 2, ".s")))
			continue;
		snprintf(path, sizeof(path), "tests/data/asm/%s", e->d_name);
		text = slurp(path, &len);
		if (!text)
			continue;
		files++;
		/* truncations */
		for (size_t cut = 0; cut < len; cut += len / 16 + 1)
			LLVMFuzzerTestOneInput((const uint8_t *)text, cut);
		/* byte mutations */
		mut = xmalloc(len + 1);
		for (int k = 0; k < 24; k++) {
			memcpy(mut, text, len);
			for (int m = 0; m < 4; m++) {
				seed ^= seed << 13;
				seed ^= seed >> 7;
				seed ^= seed << 17;
				if (len)
					mut[seed % len] = (char)(seed >> 32);
			}
			LLVMFuzzerTestOneInput((const uint8_t *)mut, len);
		}
		free(mut);
		free(text);
	}
	closedir(d);
	T_CHECK(files > 0);
	T_EQ_U64(bad_msg, 0);
	return t_done();
}
#endif
