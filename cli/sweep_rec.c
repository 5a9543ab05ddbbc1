/*
 * sweep_rec.c - results files of `ppr sweep`: reading (with the partial
 * last line a kill can leave), record keys, duplicates, the CSV table.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/results.h"
#include "cli/sweep.h"
#include "common/xalloc.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(p, sz) free(p)
#include <uthash.h>

const char *const sweep_volatile_fields[] = {
	"elapsed_s", "max_rss_mb", "finished_unix", "sweep", NULL
};

static const char *key_field(const cJSON *key, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(key, name);

	if (cJSON_IsString(v) && v->valuestring)
		return v->valuestring;
	return NULL;
}

char *sweep_key_string(const cJSON *rec)
{
	const cJSON *key = cJSON_GetObjectItemCaseSensitive(rec, "key");
	const char *f[4];
	static const char *const names[4] = { "input", "machine", "kernel",
					      "options" };
	size_t len = 0, i;
	char *s;

	if (!cJSON_IsObject(key))
		return NULL;
	for (i = 0; i < 4; i++) {
		f[i] = key_field(key, names[i]);
		if (!f[i])
			return NULL;
		len += strlen(f[i]) + 1;
	}
	s = xmalloc(len);
	snprintf(s, len, "%s\x1f%s\x1f%s\x1f%s", f[0], f[1], f[2], f[3]);
	return s;
}

static int read_all(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *b;

	if (!f)
		return -1;
	b = xmalloc(cap);
	while ((got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			b = xrealloc(b, cap);
		}
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(b);
		errno = e;
		return -1;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static void recs_push(struct sweep_recs *rs, const struct sweep_rec *r)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 64;
		rs->v = xrealloc(rs->v, rs->cap * sizeof(*rs->v));
	}
	rs->v[rs->n++] = *r;
}

int sweep_file_read(const char *path, int truncate_partial, int missing_ok,
		    struct sweep_recs *rs, size_t *dropped)
{
	char *buf, *p, *end, *nl;
	size_t len, complete;
	long line = 0;

	if (dropped)
		*dropped = 0;
	if (read_all(path, &buf, &len)) {
		if (errno == ENOENT && missing_ok)
			return 0;
		return cli_error("%s: cannot read: %s", path, strerror(errno));
	}
	/* Everything after the last newline is a record cut short. */
	complete = len;
	while (complete > 0 && buf[complete - 1] != '\n')
		complete--;
	if (complete < len) {
		long cut_line = 1;

		for (p = buf; p < buf + complete; p++)
			cut_line += *p == '\n';
		if (dropped)
			*dropped = 1;
		if (truncate_partial) {
			if (truncate(path, (off_t)complete)) {
				free(buf);
				return cli_error("%s: cannot truncate the partial last line: %s",
						 path, strerror(errno));
			}
			cli_warn("%s:%ld: dropped a partial last record (%zu bytes, cut by a kill)",
				 path, cut_line, len - complete);
		} else {
			cli_warn("%s:%ld: skipped a partial last record (%zu bytes)",
				 path, cut_line, len - complete);
		}
	}
	p = buf;
	end = buf + complete;
	while (p < end) {
		struct sweep_rec r;
		const cJSON *st;

		nl = memchr(p, '\n', (size_t)(end - p));
		*nl = '\0';
		line++;
		if (*p == '\0') {	/* blank line */
			p = nl + 1;
			continue;
		}
		memset(&r, 0, sizeof(r));
		r.j = cJSON_Parse(p);
		if (!r.j || !(r.key = sweep_key_string(r.j))) {
			cJSON_Delete(r.j);
			free(buf);
			return cli_error("%s:%ld: not a sweep record (%s)", path,
					 line, r.j ? "no key object with input, machine, kernel, options"
					 : "invalid JSON");
		}
		st = cJSON_GetObjectItemCaseSensitive(r.j, "status");
		if (!cJSON_IsString(st) || (strcmp(st->valuestring, "ok") &&
					    strcmp(st->valuestring, "error"))) {
			cJSON_Delete(r.j);
			free(r.key);
			free(buf);
			return cli_error("%s:%ld: status: not \"ok\" or \"error\"",
					 path, line);
		}
		r.ok = !strcmp(st->valuestring, "ok");
		st = cJSON_GetObjectItemCaseSensitive(r.j, "finished_unix");
		r.finished = cJSON_IsNumber(st) ? st->valuedouble : 0;
		r.line = line;
		r.file = path;
		recs_push(rs, &r);
		p = nl + 1;
	}
	free(buf);
	return 0;
}

void sweep_recs_free(struct sweep_recs *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		cJSON_Delete(rs->v[i].j);
		free(rs->v[i].key);
	}
	free(rs->v);
	rs->v = NULL;
	rs->n = rs->cap = 0;
}

struct key_ent {
	const char *key;
	size_t slot;		/* index into best[] */
	UT_hash_handle hh;
};

/* Is record a better than record b (same key)? */
static int rec_better(const struct sweep_rec *a, const struct sweep_rec *b)
{
	if (a->ok != b->ok)
		return a->ok;
	return a->finished >= b->finished;	/* newest; later wins ties */
}

static void key_print(FILE *f, const char *key)
{
	for (; *key; key++)
		fputc(*key == '\x1f' ? ' ' : *key, f);
}

size_t sweep_recs_best(const struct sweep_recs *rs, size_t **best,
		       size_t *ndup, int report)
{
	struct key_ent *map = NULL, *e, *tmp;
	size_t *b = xcalloc(rs->n ? rs->n : 1, sizeof(*b));
	size_t nb = 0, i;

	*ndup = 0;
	for (i = 0; i < rs->n; i++) {
		const struct sweep_rec *r = &rs->v[i];

		HASH_FIND_STR(map, r->key, e);
		if (!e) {
			e = xmalloc(sizeof(*e));
			e->key = r->key;
			e->slot = nb;
			b[nb++] = i;
			HASH_ADD_KEYPTR(hh, map, e->key, strlen(e->key), e);
			continue;
		}
		(*ndup)++;
		{
			const struct sweep_rec *old = &rs->v[b[e->slot]];
			int take = rec_better(r, old);
			const struct sweep_rec *keep = take ? r : old;

			if (report) {
				fputs("ppr sweep: duplicate key (", stderr);
				key_print(stderr, r->key);
				fprintf(stderr, "): %s:%ld (%s) and %s:%ld (%s); kept %s:%ld (%s)\n",
					old->file, old->line, old->ok ? "ok" : "error",
					r->file, r->line, r->ok ? "ok" : "error",
					keep->file, keep->line,
					old->ok != r->ok ? "the ok one" : "the newest");
			}
			if (take)
				b[e->slot] = i;
		}
	}
	HASH_ITER(hh, map, e, tmp) {
		HASH_DEL(map, e);
		free(e);
	}
	*best = b;
	return nb;
}

static const struct sweep_recs *sort_rs;

static int cmp_idx(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return strcmp(sort_rs->v[x].key, sort_rs->v[y].key);
}

void sweep_sort_by_key(const struct sweep_recs *rs, size_t *idx, size_t n)
{
	sort_rs = rs;
	qsort(idx, n, sizeof(*idx), cmp_idx);
	sort_rs = NULL;
}

/* A result field as CSV text: numbers with %.9g, strings as they are. */
static void csv_value(FILE *f, const cJSON *obj, const char *name)
{
	const cJSON *v = obj ? cJSON_GetObjectItemCaseSensitive(obj, name)
			     : NULL;
	char num[64];

	if (cJSON_IsNumber(v)) {
		snprintf(num, sizeof(num), "%.9g", v->valuedouble);
		cli_csv_field(f, num);
	} else if (cJSON_IsString(v)) {
		cli_csv_field(f, v->valuestring);
	} else if (cJSON_IsBool(v)) {
		cli_csv_field(f, cJSON_IsTrue(v) ? "true" : "false");
	}
}

/*
 * ",low,high": the measured time a prediction's expected_error implies
 * (`ppr predict` with a machine file that carries a validation), else
 * two empty fields.
 */
static void csv_range(FILE *f, const cJSON *res)
{
	const cJSON *r = results_time_range(res);

	fputc(',', f);
	csv_value(f, r, "low");
	fputc(',', f);
	csv_value(f, r, "high");
}

/* ",ecm,roofline": the time the ECM model and the Roofline give on the
 * same inputs (`ppr predict`'s ecm.time_s and roofline.time_s), empty
 * where the record has none (ppr bcsr, ppr matrix). */
static void csv_models(FILE *f, const cJSON *res)
{
	static const char *const m[] = { "ecm", "roofline" };
	unsigned k;

	for (k = 0; k < 2; k++) {
		const cJSON *o = cJSON_IsObject(res) ?
			cJSON_GetObjectItemCaseSensitive(res, m[k]) : NULL;

		fputc(',', f);
		csv_value(f, cJSON_IsObject(o) ? o : NULL, "time_s");
	}
}

int sweep_csv_write(const char *path, const struct sweep_recs *rs,
		    const size_t *idx, size_t n)
{
	static const char *const keyf[] = { "input", "machine", "kernel",
					    "options" };
	static const char *const resf[] = { "time_s", "gflops", "bottleneck",
					    "pick", "nnz" };
	FILE *f = cli_open_out(path);
	size_t i, k;

	if (!f)
		return 1;
	fputs("input,machine,kernel,options,status,time_s,time_low_s,"
	      "time_high_s,ecm_time_s,roofline_time_s,gflops,bottleneck,pick,"
	      "nnz,elapsed_s,error\r\n", f);
	for (i = 0; i < n; i++) {
		const cJSON *j = rs->v[idx[i]].j;
		const cJSON *key = cJSON_GetObjectItemCaseSensitive(j, "key");
		const cJSON *res = cJSON_GetObjectItemCaseSensitive(j, "result");

		for (k = 0; k < 4; k++) {
			cli_csv_field(f, key_field(key, keyf[k]));
			fputc(',', f);
		}
		csv_value(f, j, "status");
		for (k = 0; k < 5; k++) {
			fputc(',', f);
			csv_value(f, cJSON_IsObject(res) ? res : NULL, resf[k]);
			if (k == 0) {
				csv_range(f, res);
				csv_models(f, res);
			}
		}
		fputc(',', f);
		csv_value(f, j, "elapsed_s");
		fputc(',', f);
		csv_value(f, j, "error");
		fputs("\r\n", f);
	}
	return cli_close_out(f, path);
}
