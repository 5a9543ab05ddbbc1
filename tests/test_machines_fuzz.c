/*
 * test_machines_fuzz.c - the machine loader never crashes on hostile input.
 *
 * LLVMFuzzerTestOneInput is the libFuzzer entry point (build this file
 * with -fsanitize=fuzzer -DPPR_LIBFUZZER to fuzz for real).  Without
 * libFuzzer, main() replays a corpus: the shipped machine files and
 * tests/data/machines, each whole, truncated at many points and with
 * seeded byte mutations.  Every input must either load (then release
 * cleanly) or fail with PPR_EFORMAT and a one-line "file:line:col: msg"
 * message; run under SANITIZE=address,undefined this is the fuzz check.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "machines/machine.h"
#include "t.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int last_rc;
static char last_msg[1400];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ppr_err err = { 0 };
	struct machine m;

	last_rc = machine_load_string("fuzz.json", (const char *)data, size,
				      &m, &err);
	if (last_rc == 0)
		machine_release(&m);
	else
		ppr_err_format(&err, last_msg, sizeof(last_msg));
	return 0;
}

#ifndef PPR_LIBFUZZER
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = xmalloc((size_t)len + 1);
	*n = fread(buf, 1, (size_t)len, f);
	fclose(f);
	return buf;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

/* One input: either success, or PPR_EFORMAT with a proper message. */
static void one(const char *what, const uint8_t *d, size_t n)
{
	LLVMFuzzerTestOneInput(d, n);
	if (last_rc == 0) {
		t_pass++;
		return;
	}
	if (last_rc != PPR_EFORMAT || strncmp(last_msg, "fuzz.json:", 10) ||
	    strchr(last_msg, '\n')) {
		t_fail++;
		fprintf(stderr, "FAIL %s: rc %d, '%s'\n", what, last_rc,
			last_msg);
		return;
	}
	t_pass++;
}

static void replay(const char *path)
{
	static const char junk[] = "{}[]\",:0-e.\\ \n\x01\xff" "tfn";
	size_t n = 0, cut, k;
	char *text = slurp(path, &n);
	uint8_t *mut;

	if (!text)
		return;
	one(path, (const uint8_t *)text, n);
	/* truncations: every 7th byte (all, for short files) */
	for (cut = 0; cut < n; cut += n > 400 ? 7 : 1)
		one(path, (const uint8_t *)text, cut);
	/* seeded mutations: 1 to 4 bytes replaced by JSON-significant ones */
	mut = xmalloc(n ? n : 1);
	for (k = 0; k < 300 && n; k++) {
		unsigned j, edits = 1 + (unsigned)(next() % 4);

		memcpy(mut, text, n);
		for (j = 0; j < edits; j++)
			mut[next() % n] = (uint8_t)junk[next() %
							(sizeof(junk) - 1)];
		one(path, mut, n);
	}
	free(mut);
	free(text);
}

static void replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[1024];

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 5 || strcmp(e->d_name + l - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		replay(path);
	}
	closedir(d);
}

int main(void)
{
	static const char *const extra[] = {
		"", "{", "[", "\"", "{\"name\":", "{\"hierarchy\":{\"levels\":"
		"[{}]}}", "{\"name\":\"m\",\"hierarchy\":{\"levels\":[1,2]}}",
		"{\"name\":\"m\",\"hierarchy\":{\"levels\":[{\"name\":\"L1\","
		"\"size_bytes\":1e300,\"ways\":1e20,\"cl_size\":64}]}}",
		"{\"name\":\"m\",\"hierarchy\":{\"levels\":[{\"name\":\"L1\","
		"\"size_bytes\":18446744073709551615,\"sets\":"
		"9007199254740992,\"ways\":4294967295,\"cl_size\":"
		"2147483648}]}}",
	};
	size_t i;
	char deep[4100];

	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		one("inline", (const uint8_t *)extra[i], strlen(extra[i]));
	/* deep nesting: cJSON's limit, not our stack */
	memset(deep, '[', sizeof(deep));
	one("deep", (const uint8_t *)deep, sizeof(deep));
	replay_dir("machines");
	replay_dir("machines/compat");
	replay_dir("tests/data/machines");
	if (t_pass < 1000)
		T_SKIP("machine files not found (run from the project root)");
	return t_done();
}
#endif
