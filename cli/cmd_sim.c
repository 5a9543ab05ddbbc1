/*
 * cmd_sim.c - `ppr sim`: replay a memory reference trace through the cache
 * hierarchy of a machine file and print per-level statistics, the way
 * Dinero IV and cachegrind print theirs.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "common/xalloc.h"
#include "machines/machine.h"
#include "sim/sim.h"
#include "traces/trace.h"

PPR_COMMAND(sim, "simulate a memory trace on a machine's cache hierarchy")

#define SIM_BATCH 4096

static const char usage_text[] =
	"usage: ppr sim --machine M.json --trace FILE [options]\n"
	"\n"
	"Replay a memory reference trace through the cache hierarchy of a\n"
	"machine file and print accesses, hits and misses per level, split by\n"
	"operation and tag, with prefetches, evictions, write-backs and bytes.\n"
	"\n"
	"options:\n"
	"  -m, --machine FILE         machine file (see machines/README.md)\n"
	"  -t, --trace FILE           trace file ('-' reads stdin)\n"
	"  -F, --trace-format FMT     auto|din|lackey|ppr (default: auto)\n"
	"      --tag TAG              tag of text-trace references:\n"
	"                             regular|irregular (default: regular)\n"
	"      --3c                   classify misses as compulsory, capacity,\n"
	"                             conflict\n"
	"  -f, --format FMT           table|csv|json (default: table)\n"
	"  -o, --output FILE          write the result to FILE\n"
	"  -h, --help                 show this help\n";

static const char *const op_names[PPR_NOPS] = {
	"load", "store", "ifetch", "modify"
};
static const char *const tag_names[PPR_NTAGS] = { "regular", "irregular" };

struct run {
	struct machine m;
	struct sim_hier *h;
	const char *trace_path;
	struct trace_info info;
	uint64_t refs;
	int c3;
};

static double rate(uint64_t num, uint64_t den)
{
	return den ? (double)num / (double)den : 0.0;
}

static void human_size(uint64_t b, char *buf, size_t n)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, n, "%" PRIu64 " MiB", b >> 20);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, n, "%" PRIu64 " KiB", b >> 10);
	else
		snprintf(buf, n, "%" PRIu64 " B", b);
}

/* ---- table --------------------------------------------------------------- */

static void table_row(FILE *f, const char *label,
		      const uint64_t c[PPR_NOPS][PPR_NTAGS])
{
	int op, t;

	fprintf(f, "  %-10s %14" PRIu64, label, sim_stat_sum(c));
	for (op = 0; op < PPR_NOPS; op++)
		fprintf(f, " %14" PRIu64, sim_stat_op(c, (enum ppr_op)op));
	for (t = 0; t < PPR_NTAGS; t++)
		fprintf(f, " %14" PRIu64, sim_stat_tag(c, (enum ppr_tag)t));
	fputc('\n', f);
}

static void table_rate(FILE *f, const struct sim_level_stats *st)
{
	int op, t;

	fprintf(f, "  %-10s %14.6f", "miss rate",
		rate(sim_stat_sum(st->misses), sim_stat_sum(st->accesses)));
	for (op = 0; op < PPR_NOPS; op++)
		fprintf(f, " %14.6f",
			rate(sim_stat_op(st->misses, (enum ppr_op)op),
			     sim_stat_op(st->accesses, (enum ppr_op)op)));
	for (t = 0; t < PPR_NTAGS; t++)
		fprintf(f, " %14.6f",
			rate(sim_stat_tag(st->misses, (enum ppr_tag)t),
			     sim_stat_tag(st->accesses, (enum ppr_tag)t)));
	fputc('\n', f);
}

static void print_table(FILE *f, const struct run *r)
{
	unsigned i, n = sim_hier_level_count(r->h);
	int op;

	fprintf(f, "ppr sim %s\n", PPR_VERSION);
	fprintf(f, "machine:    %s (%s)\n", r->m.name, r->m.path);
	fprintf(f, "trace:      %s (%s%s)\n", r->trace_path,
		trace_format_name(r->info.format),
		r->info.format == TRACE_FMT_DIN
		? (r->info.din_extended ? ", extended" : ", traditional") : "");
	fprintf(f, "references: %" PRIu64 " (", r->refs);
	for (op = 0; op < PPR_NOPS; op++)
		fprintf(f, "%s%" PRIu64 " %s", op ? ", " : "",
			r->info.by_op[op], op_names[op]);
	fprintf(f, ")\n");
	fprintf(f, "hierarchy:  straddling references %s, write-backs %s\n",
		r->m.hier.straddle == SIM_STRADDLE_ONE
		? "count once (cachegrind)" : "touch each line",
		r->m.hier.writebacks ? "on" : "off");
	for (i = 0; i < n; i++) {
		const struct sim_level_config *c = sim_hier_level_config(r->h, i);
		const struct sim_level_stats *st = sim_hier_level_stats(r->h, i);
		char sz[32];

		human_size(c->size, sz, sizeof(sz));
		fprintf(f, "\n%s: %s, %u-way, %" PRIu64 " sets, %u B lines, "
			"%s, %s, %s, prefetch %s\n", c->name, sz, c->ways,
			c->sets, c->line_size, machine_repl_name(c->repl),
			machine_inclusion_name(c->inclusion),
			sim_write_name(c->write),
			machine_prefetch_name(c->prefetch));
		fprintf(f, "  %-10s %14s %14s %14s %14s %14s %14s %14s\n", "",
			"total", "load", "store", "ifetch", "modify",
			"regular", "irregular");
		table_row(f, "accesses", st->accesses);
		table_row(f, "hits", st->hits);
		table_row(f, "misses", st->misses);
		table_rate(f, st);
		fprintf(f, "  prefetches issued %" PRIu64 ", useful %" PRIu64
			"; evictions %" PRIu64 "; write-backs %" PRIu64
			"; back-invalidations %" PRIu64 "\n",
			st->prefetches_issued, st->prefetches_useful,
			st->evictions, st->writebacks, st->back_invalidations);
		fprintf(f, "  bytes from below %" PRIu64 " B, to below %"
			PRIu64 " B\n", st->bytes_from_below,
			st->bytes_to_below);
		if (r->c3)
			fprintf(f, "  misses by cause: compulsory %" PRIu64
				", capacity %" PRIu64 ", conflict %" PRIu64
				"\n", st->compulsory, st->capacity,
				st->conflict);
	}
}

/* ---- csv ----------------------------------------------------------------- */

static void print_csv(FILE *f, const struct run *r)
{
	unsigned i, n = sim_hier_level_count(r->h);
	int op, t;

	fputs("level,accesses,hits,misses,miss_rate", f);
	for (op = 0; op < PPR_NOPS; op++)
		fprintf(f, ",%s_accesses,%s_misses", op_names[op],
			op_names[op]);
	for (t = 0; t < PPR_NTAGS; t++)
		fprintf(f, ",%s_accesses,%s_misses", tag_names[t],
			tag_names[t]);
	fputs(",prefetches_issued,prefetches_useful,evictions,writebacks,"
	      "back_invalidations,bytes_from_below [B],bytes_to_below [B]", f);
	if (r->c3)
		fputs(",compulsory,capacity,conflict", f);
	fputs("\r\n", f);
	for (i = 0; i < n; i++) {
		const struct sim_level_config *c = sim_hier_level_config(r->h, i);
		const struct sim_level_stats *st = sim_hier_level_stats(r->h, i);

		cli_csv_field(f, c->name);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.9g",
			sim_stat_sum(st->accesses), sim_stat_sum(st->hits),
			sim_stat_sum(st->misses),
			rate(sim_stat_sum(st->misses),
			     sim_stat_sum(st->accesses)));
		for (op = 0; op < PPR_NOPS; op++)
			fprintf(f, ",%" PRIu64 ",%" PRIu64,
				sim_stat_op(st->accesses, (enum ppr_op)op),
				sim_stat_op(st->misses, (enum ppr_op)op));
		for (t = 0; t < PPR_NTAGS; t++)
			fprintf(f, ",%" PRIu64 ",%" PRIu64,
				sim_stat_tag(st->accesses, (enum ppr_tag)t),
				sim_stat_tag(st->misses, (enum ppr_tag)t));
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			st->prefetches_issued, st->prefetches_useful,
			st->evictions, st->writebacks, st->back_invalidations,
			st->bytes_from_below, st->bytes_to_below);
		if (r->c3)
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				st->compulsory, st->capacity, st->conflict);
		fputs("\r\n", f);
	}
}

/* ---- json ---------------------------------------------------------------- */

/* Counters as raw integers: cJSON numbers are doubles (exact to 2^53 only,
 * and printed in exponent form past 2^31). */
static void add_u64(cJSON *o, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	cJSON_AddRawToObject(o, key, buf);
}

static int print_json(FILE *f, const struct run *r)
{
	unsigned i, n = sim_hier_level_count(r->h);
	cJSON *root = cJSON_CreateObject(), *levels, *units, *refs;
	char key[64];
	char *text;
	int op, t;

	if (!root)
		ppr_oom();
	cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
	cJSON_AddStringToObject(root, "machine", r->m.name);
	cJSON_AddStringToObject(root, "machine_file", r->m.path);
	cJSON_AddStringToObject(root, "trace", r->trace_path);
	cJSON_AddStringToObject(root, "trace_format",
				trace_format_name(r->info.format));
	add_u64(root, "accesses", r->refs);
	refs = cJSON_AddObjectToObject(root, "references_by_op");
	for (op = 0; op < PPR_NOPS; op++)
		add_u64(refs, op_names[op], r->info.by_op[op]);
	cJSON_AddStringToObject(root, "straddle",
				r->m.hier.straddle == SIM_STRADDLE_ONE
				? "one" : "split");
	cJSON_AddBoolToObject(root, "writebacks", r->m.hier.writebacks);
	levels = cJSON_AddArrayToObject(root, "levels");
	for (i = 0; i < n; i++) {
		const struct sim_level_config *c = sim_hier_level_config(r->h, i);
		const struct sim_level_stats *st = sim_hier_level_stats(r->h, i);
		cJSON *l = cJSON_CreateObject();

		if (!l)
			ppr_oom();
		cJSON_AddStringToObject(l, "name", c->name);
		add_u64(l, "size_bytes", c->size);
		add_u64(l, "sets", c->sets);
		add_u64(l, "ways", c->ways);
		add_u64(l, "cl_size", c->line_size);
		cJSON_AddStringToObject(l, "replacement_policy",
					machine_repl_name(c->repl));
		if (c->repl == SIM_REPL_DIP)
			cJSON_AddNumberToObject(l, "lru_sets_share",
						c->lru_sets_share);
		cJSON_AddStringToObject(l, "inclusion",
					machine_inclusion_name(c->inclusion));
		cJSON_AddStringToObject(l, "prefetch",
					machine_prefetch_name(c->prefetch));
		add_u64(l, "accesses", sim_stat_sum(st->accesses));
		add_u64(l, "hits", sim_stat_sum(st->hits));
		add_u64(l, "misses", sim_stat_sum(st->misses));
		cJSON_AddNumberToObject(l, "miss_rate",
					rate(sim_stat_sum(st->misses),
					     sim_stat_sum(st->accesses)));
		for (op = 0; op < PPR_NOPS; op++) {
			snprintf(key, sizeof(key), "%s_accesses", op_names[op]);
			add_u64(l, key, sim_stat_op(st->accesses,
						    (enum ppr_op)op));
			snprintf(key, sizeof(key), "%s_misses", op_names[op]);
			add_u64(l, key, sim_stat_op(st->misses,
						    (enum ppr_op)op));
		}
		for (t = 0; t < PPR_NTAGS; t++) {
			snprintf(key, sizeof(key), "%s_accesses", tag_names[t]);
			add_u64(l, key, sim_stat_tag(st->accesses,
						     (enum ppr_tag)t));
			snprintf(key, sizeof(key), "%s_misses", tag_names[t]);
			add_u64(l, key, sim_stat_tag(st->misses,
						     (enum ppr_tag)t));
		}
		add_u64(l, "prefetches_issued", st->prefetches_issued);
		add_u64(l, "prefetches_useful", st->prefetches_useful);
		add_u64(l, "evictions", st->evictions);
		add_u64(l, "writebacks", st->writebacks);
		add_u64(l, "back_invalidations", st->back_invalidations);
		add_u64(l, "bytes_from_below", st->bytes_from_below);
		add_u64(l, "bytes_to_below", st->bytes_to_below);
		if (r->c3) {
			add_u64(l, "compulsory", st->compulsory);
			add_u64(l, "capacity", st->capacity);
			add_u64(l, "conflict", st->conflict);
		}
		cJSON_AddItemToArray(levels, l);
	}
	units = cJSON_AddObjectToObject(root, "units");
	cJSON_AddStringToObject(units, "size_bytes", "bytes");
	cJSON_AddStringToObject(units, "cl_size", "bytes");
	cJSON_AddStringToObject(units, "accesses", "references");
	cJSON_AddStringToObject(units, "misses", "references");
	cJSON_AddStringToObject(units, "miss_rate", "misses per access");
	cJSON_AddStringToObject(units, "bytes_from_below", "bytes");
	cJSON_AddStringToObject(units, "bytes_to_below", "bytes");
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		ppr_oom();
	fputs(text, f);
	fputc('\n', f);
	cJSON_free(text);
	return 0;
}

/* ---- the run ------------------------------------------------------------- */

static int replay(struct run *r, const struct trace_reader_config *tc)
{
	struct trace_reader *rd = NULL;
	struct ppr_access *buf = NULL;
	struct ppr_err err = { 0 };
	uint64_t next_report = UINT64_C(1) << 24;
	int progress = isatty(STDERR_FILENO);
	size_t n;
	int rc;

	rc = trace_reader_new(&rd, r->trace_path, tc, &err);
	if (rc)
		return cli_error_err(&err);
	buf = xmalloc(SIM_BATCH * sizeof(*buf));
	for (;;) {
		rc = trace_reader_next(rd, buf, SIM_BATCH, &n, &err);
		if (n)
			sim_hier_access_batch(r->h, buf, n);
		r->refs += n;
		if (rc || !n)
			break;
		if (progress && r->refs >= next_report) {
			/* chatter on stderr, only for a person watching */
			fprintf(stderr, "\rppr sim: %" PRIu64 " M references",
				r->refs / 1000000);
			next_report += UINT64_C(1) << 24;
		}
	}
	if (progress && next_report > (UINT64_C(1) << 24))
		fputs("\r\033[K", stderr);
	trace_reader_info(rd, &r->info);
	trace_reader_free(rd);
	free(buf);
	if (rc)
		return cli_error_err(&err);
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "trace", required_argument, NULL, 't' },
		{ "trace-format", required_argument, NULL, 'F' },
		{ "tag", required_argument, NULL, 'T' },
		{ "3c", no_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace_reader_config tc = { .format = TRACE_FMT_AUTO,
					  .default_tag = PPR_TAG_REGULAR };
	enum cli_format fmt = CLI_FMT_TABLE;
	const char *machine_path = NULL, *out_path = NULL;
	struct ppr_err err = { 0 };
	struct run r;
	FILE *out;
	int c, rc;

	memset(&r, 0, sizeof(r));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:t:F:f:o:h", opts, NULL)) !=
	       -1) {
		switch (c) {
		case 'm':
			machine_path = optarg;
			break;
		case 't':
			r.trace_path = optarg;
			break;
		case 'F':
			if (trace_format_parse(optarg, &tc.format))
				return cli_usage_error(usage_text,
					"sim: unknown trace format '%s' "
					"(expected auto, din, lackey or ppr)",
					optarg);
			break;
		case 'T':
			if (!strcmp(optarg, "regular"))
				tc.default_tag = PPR_TAG_REGULAR;
			else if (!strcmp(optarg, "irregular"))
				tc.default_tag = PPR_TAG_IRREGULAR;
			else
				return cli_usage_error(usage_text,
					"sim: unknown tag '%s' (expected "
					"regular or irregular)", optarg);
			break;
		case 'c':
			r.c3 = 1;
			break;
		case 'f':
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_text,
					"sim: unknown format '%s' (expected "
					"table, csv or json)", optarg);
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case ':':
			return cli_usage_error(usage_text,
				"sim: option '%s' needs a value",
				argv[optind - 1]);
		default:
			return cli_usage_error(usage_text,
				"sim: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error(usage_text,
				       "sim: unexpected argument '%s'",
				       argv[optind]);
	if (!machine_path)
		return cli_usage_error(usage_text, "sim: --machine is required");
	if (!r.trace_path)
		return cli_usage_error(usage_text, "sim: --trace is required");

	if (machine_load(machine_path, &r.m, &err))
		return cli_error_err(&err);
	r.m.hier.classify_3c = r.c3;
	r.h = sim_hier_new(&r.m.hier, &err);
	if (!r.h) {
		rc = cli_error("%s: %s", machine_path,
			       err.msg[0] ? err.msg : "invalid hierarchy");
		machine_release(&r.m);
		return rc;
	}
	rc = replay(&r, &tc);
	if (rc)
		goto done;
	out = cli_open_out(out_path);
	if (!out) {
		rc = 1;
		goto done;
	}
	if (fmt == CLI_FMT_JSON)
		print_json(out, &r);
	else if (fmt == CLI_FMT_CSV)
		print_csv(out, &r);
	else
		print_table(out, &r);
	rc = cli_close_out(out, out_path);
done:
	sim_hier_free(r.h);
	machine_release(&r.m);
	return rc;
}
