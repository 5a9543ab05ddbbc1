/*
 * sweep_merge.c - `ppr sweep merge` (shards into one results file, by key,
 * with duplicate and gap reports) and `ppr sweep diff` (two results files
 * compared by key, ignoring the fields that vary between runs).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep.h"
#include "common/xalloc.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(p, sz) free(p)
#include <uthash.h>

static const char merge_usage[] =
	"usage: ppr sweep merge FILE.jsonl... [-o all.jsonl] [--csv FILE] [--strict]\n"
	"  merges results files (e.g. the shards of one sweep) by key, sorted by\n"
	"  key; of records with the same key it keeps the ok one, else the newest,\n"
	"  and names each duplicate on stderr; reports gaps (inputs of the sweep\n"
	"  with no record, shards with no record at all)\n"
	"  -o, --output FILE   merged results (default stdout)\n"
	"      --csv FILE      also a flat CSV table of the merged records\n"
	"      --strict        exit 3 when there are gaps\n";

static const char diff_usage[] =
	"usage: ppr sweep diff A.jsonl B.jsonl [--ignore FIELD]... [--tol REL]\n"
	"  compares two results files by key: the key sets, each key's status,\n"
	"  error and result; elapsed_s, max_rss_mb, finished_unix and sweep are\n"
	"  ignored, and so is every result field named by --ignore (at any depth);\n"
	"  numbers equal within --tol REL (relative; default 0: exact)\n"
	"  exit 0: same; 3: they differ (listed on stderr); 1: read error\n";

static long num_field(const cJSON *o, const char *name, long dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsNumber(v) ? (long)v->valuedouble : dflt;
}

/* Gap report; returns the number of missing inputs (or 0 if unknown). */
static size_t merge_gaps(const struct sweep_recs *rs, const size_t *idx,
			 size_t n)
{
	long total = -1, kpi = -1, shards = -1;
	int mixed = 0, mixed_n = 0;
	size_t i, missing = 0, partial = 0, shown = 0;
	unsigned *count;

	for (i = 0; i < n; i++) {
		const cJSON *sw = cJSON_GetObjectItemCaseSensitive(rs->v[idx[i]].j, "sweep");
		const cJSON *sh = cJSON_GetObjectItemCaseSensitive(sw, "shard");
		long t = num_field(sw, "inputs_total", -1);
		long k = num_field(sw, "keys_per_input", -1);
		long sn = -1;

		if (cJSON_IsString(sh)) {
			const char *sl = strchr(sh->valuestring, '/');

			sn = sl ? strtol(sl + 1, NULL, 10) : -1;
		}
		if (t < 0 || k < 0) {
			cli_warn("%s:%ld: record without sweep sizes: gaps not checked",
				 rs->v[idx[i]].file, rs->v[idx[i]].line);
			return 0;
		}
		if (total < 0) {
			total = t;
			kpi = k;
			shards = sn;
		}
		if (t != total || k != kpi)
			mixed = 1;
		if (sn != shards)
			mixed_n = 1;
	}
	if (total < 0)
		return 0;
	if (mixed) {
		cli_warn("the records come from sweeps of different sizes (inputs or machines x kernels): gaps not checked");
		return 0;
	}
	count = xcalloc((size_t)total + 1, sizeof(*count));
	for (i = 0; i < n; i++) {
		const cJSON *sw = cJSON_GetObjectItemCaseSensitive(rs->v[idx[i]].j, "sweep");
		long ix = num_field(sw, "input_index", -1);

		if (ix >= 0 && ix < total)
			count[ix]++;
	}
	for (i = 0; i < (size_t)total; i++) {
		if (count[i] == 0)
			missing++;
		else if (count[i] < (unsigned)kpi)
			partial++;
	}
	if (missing || partial) {
		fprintf(stderr, "ppr sweep merge: gap: %zu of %ld inputs have no record, %zu have fewer than %ld of their keys\n",
			missing, total, partial, kpi);
		for (i = 0; i < (size_t)total && shown < 10; i++) {
			if (count[i] >= (unsigned)kpi)
				continue;
			shown++;
			if (!mixed_n && shards > 0)
				fprintf(stderr, "ppr sweep merge: gap: input #%zu (shard %zu/%ld): %u of %ld keys\n",
					i, i % (size_t)shards, shards, count[i], kpi);
			else
				fprintf(stderr, "ppr sweep merge: gap: input #%zu: %u of %ld keys\n",
					i, count[i], kpi);
		}
		if (!mixed_n && shards > 1) {
			long s;

			for (s = 0; s < shards; s++) {
				size_t j, any = 0;

				for (j = (size_t)s; j < (size_t)total; j += (size_t)shards)
					any += count[j];
				if (!any && (size_t)s < (size_t)total)
					fprintf(stderr, "ppr sweep merge: gap: shard %ld/%ld has no record at all\n",
						s, shards);
			}
		}
	}
	free(count);
	return missing + partial;
}

int sweep_merge_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "csv", required_argument, NULL, 'C' },
		{ "strict", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *csv = NULL;
	struct sweep_recs rs = { 0 };
	size_t *idx = NULL, nb, ndup, nok = 0, i, gaps;
	int c, strict = 0, rc = 0, a;
	FILE *f;
	char *tmp = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'C': csv = optarg; break;
		case 'S': strict = 1; break;
		case 'h': fputs(merge_usage, stdout); return 0;
		case ':':
			return cli_usage_error(merge_usage, "sweep merge: option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error(merge_usage, "sweep merge: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage_error(merge_usage, "sweep merge: no results files given");
	for (a = optind; a < argc; a++)
		if (sweep_file_read(argv[a], 0, 0, &rs, NULL)) {
			sweep_recs_free(&rs);
			return 1;
		}
	nb = sweep_recs_best(&rs, &idx, &ndup, 1);
	sweep_sort_by_key(&rs, idx, nb);
	/* Write to a temporary file and rename: -o may be one of the inputs. */
	if (out && strcmp(out, "-")) {
		size_t len = strlen(out) + 32;

		tmp = xmalloc(len);
		snprintf(tmp, len, "%s.tmp.%ld", out, (long)getpid());
	}
	f = cli_open_out(tmp);
	if (!f) {
		rc = 1;
		goto done;
	}
	for (i = 0; i < nb; i++) {
		char *s = cJSON_PrintUnformatted(rs.v[idx[i]].j);

		if (!s)
			ppr_oom();
		fputs(s, f);
		fputc('\n', f);
		free(s);
		nok += rs.v[idx[i]].ok;
	}
	if (cli_close_out(f, tmp)) {
		rc = 1;
		goto done;
	}
	if (tmp && rename(tmp, out)) {
		rc = cli_error("cannot rename '%s' to '%s': %s", tmp, out,
			       strerror(errno));
		goto done;
	}
	gaps = merge_gaps(&rs, idx, nb);
	fprintf(stderr, "ppr sweep merge: %zu records from %d files: %zu keys (%zu ok, %zu error), %zu duplicates dropped, %s\n",
		rs.n, argc - optind, nb, nok, nb - nok, ndup,
		gaps ? "gaps (above)" : "no gaps");
	if (csv && sweep_csv_write(csv, &rs, idx, nb))
		rc = 1;
	if (!rc && strict && gaps)
		rc = 3;
done:
	if (rc && tmp)
		unlink(tmp);
	free(tmp);
	free(idx);
	sweep_recs_free(&rs);
	return rc;
}

/* ---- diff ------------------------------------------------------------ */

struct kmap {
	const char *key;
	size_t rec;
	UT_hash_handle hh;
};

static void prune(cJSON *o, char **ignore, size_t nign)
{
	cJSON *ch;
	size_t i;

	if (!cJSON_IsObject(o) && !cJSON_IsArray(o))
		return;
	if (cJSON_IsObject(o))
		for (i = 0; i < nign; i++)
			cJSON_DeleteItemFromObjectCaseSensitive(o, ignore[i]);
	cJSON_ArrayForEach(ch, o)
		prune(ch, ignore, nign);
}

/* Equal JSON, numbers within a relative tolerance (0: exact). */
static int json_near(const cJSON *a, const cJSON *b, double tol)
{
	const cJSON *x, *y;
	int na = 0, nb = 0;

	if (cJSON_IsNumber(a) && cJSON_IsNumber(b)) {
		double d = fabs(a->valuedouble - b->valuedouble);
		double m = fmax(fabs(a->valuedouble), fabs(b->valuedouble));

		return d == 0 || d <= tol * m;
	}
	if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
		cJSON_ArrayForEach(x, a) {
			na++;
			y = cJSON_GetObjectItemCaseSensitive(b, x->string);
			if (!y || !json_near(x, y, tol))
				return 0;
		}
		cJSON_ArrayForEach(y, b)
			nb++;
		return na == nb;
	}
	if (cJSON_IsArray(a) && cJSON_IsArray(b)) {
		if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b))
			return 0;
		for (x = a->child, y = b->child; x && y; x = x->next, y = y->next)
			if (!json_near(x, y, tol))
				return 0;
		return 1;
	}
	return cJSON_Compare(a, b, 1);
}

/* The first top-level (or result-level) field where a and b differ. */
static const char *first_diff(const cJSON *a, const cJSON *b, double tol,
			      char *buf, size_t n)
{
	const cJSON *x, *y;

	cJSON_ArrayForEach(x, a) {
		y = cJSON_GetObjectItemCaseSensitive(b, x->string);
		if (!y || !json_near(x, y, tol)) {
			if (y && !strcmp(x->string, "result") && cJSON_IsObject(x)) {
				const char *in = first_diff(x, y, tol, buf, n);
				char tmp[256];

				snprintf(tmp, sizeof(tmp), "result.%s", in);
				snprintf(buf, n, "%s", tmp);
				return buf;
			}
			snprintf(buf, n, "%s", x->string);
			return buf;
		}
	}
	cJSON_ArrayForEach(y, b)
		if (!cJSON_GetObjectItemCaseSensitive(a, y->string)) {
			snprintf(buf, n, "%s", y->string);
			return buf;
		}
	snprintf(buf, n, "?");
	return buf;
}

static void key_print(FILE *f, const char *key)
{
	for (; *key; key++)
		fputc(*key == '\x1f' ? ' ' : *key, f);
}

int sweep_diff_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ignore", required_argument, NULL, 'i' },
		{ "tol", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char **ignore = NULL;
	size_t nign = 0, i, nba, nbb, nd, only_a = 0, only_b = 0, differ = 0,
	       shown = 0;
	struct sweep_recs ra = { 0 }, rb = { 0 };
	size_t *ia = NULL, *ib = NULL;
	struct kmap *map = NULL, *e, *tmp;
	int c, rc = 0;
	double tol = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (cli_parse_double(optarg, &tol) || !(tol >= 0) || tol >= 1) {
				free(ignore);
				return cli_usage_error(diff_usage, "sweep diff: --tol '%s': want a relative tolerance in [0, 1)", optarg);
			}
			break;
		case 'i':
			ignore = xrealloc(ignore, (nign + 1) * sizeof(*ignore));
			ignore[nign++] = optarg;
			break;
		case 'h': fputs(diff_usage, stdout); free(ignore); return 0;
		case ':':
			free(ignore);
			return cli_usage_error(diff_usage, "sweep diff: option '%s' needs a value", argv[optind - 1]);
		default:
			free(ignore);
			return cli_usage_error(diff_usage, "sweep diff: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 2) {
		free(ignore);
		return cli_usage_error(diff_usage, "sweep diff: want two results files");
	}
	if (sweep_file_read(argv[optind], 0, 0, &ra, NULL) ||
	    sweep_file_read(argv[optind + 1], 0, 0, &rb, NULL)) {
		rc = 1;
		goto done;
	}
	nba = sweep_recs_best(&ra, &ia, &nd, 0);
	nbb = sweep_recs_best(&rb, &ib, &nd, 0);
	for (i = 0; i < nbb; i++) {
		e = xmalloc(sizeof(*e));
		e->key = rb.v[ib[i]].key;
		e->rec = ib[i];
		HASH_ADD_KEYPTR(hh, map, e->key, strlen(e->key), e);
	}
	sweep_sort_by_key(&ra, ia, nba);
	for (i = 0; i < nba; i++) {
		const struct sweep_rec *x = &ra.v[ia[i]];
		cJSON *px, *py;
		size_t v;

		HASH_FIND_STR(map, x->key, e);
		if (!e) {
			only_a++;
			if (shown++ < 20) {
				fputs("only in A: ", stderr);
				key_print(stderr, x->key);
				fputc('\n', stderr);
			}
			continue;
		}
		px = cJSON_Duplicate(x->j, 1);
		py = cJSON_Duplicate(rb.v[e->rec].j, 1);
		for (v = 0; sweep_volatile_fields[v]; v++) {
			cJSON_DeleteItemFromObjectCaseSensitive(px, sweep_volatile_fields[v]);
			cJSON_DeleteItemFromObjectCaseSensitive(py, sweep_volatile_fields[v]);
		}
		prune(cJSON_GetObjectItemCaseSensitive(px, "result"), ignore, nign);
		prune(cJSON_GetObjectItemCaseSensitive(py, "result"), ignore, nign);
		if (!json_near(px, py, tol)) {
			char field[256];

			differ++;
			if (shown++ < 20) {
				fputs("differ: ", stderr);
				key_print(stderr, x->key);
				fprintf(stderr, ": %s\n", first_diff(px, py, tol, field, sizeof(field)));
			}
		}
		cJSON_Delete(px);
		cJSON_Delete(py);
		HASH_DEL(map, e);
		free(e);
	}
	HASH_ITER(hh, map, e, tmp) {
		only_b++;
		if (shown++ < 20) {
			fputs("only in B: ", stderr);
			key_print(stderr, e->key);
			fputc('\n', stderr);
		}
		HASH_DEL(map, e);
		free(e);
	}
	fprintf(stderr, "ppr sweep diff: %zu keys in A, %zu in B: %zu only in A, %zu only in B, %zu differ%s\n",
		nba, nbb, only_a, only_b, differ,
		only_a || only_b || differ ? "" : " (same)");
	if (only_a || only_b || differ)
		rc = 3;
done:
	HASH_ITER(hh, map, e, tmp) {
		HASH_DEL(map, e);
		free(e);
	}
	free(ia);
	free(ib);
	free(ignore);
	sweep_recs_free(&ra);
	sweep_recs_free(&rb);
	return rc;
}
