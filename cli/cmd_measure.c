/*
 * cmd_measure.c - `ppr measure`: time a native kernel (min/median over
 * repetitions, GFLOPS, bytes/s) with optional hardware counters, or
 * import counts measured elsewhere (PAPI, perf stat -x,).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "common/xalloc.h"
#include "kernels/kernels.h"

PPR_COMMAND(measure, "time a kernel natively (GFLOPS, bytes/s, hardware counters)")

static const char usage_text[] =
	"usage: ppr measure -k|--kernel K [MATRIX] [options]\n"
	"       ppr measure --import-papi FILE | --import-perf FILE [--format F]\n"
	"\n"
	"kernels:\n"
	"  spmv-csr MATRIX                 MATRIX: a .mtx/.rb file or gen:...\n"
	"  spmv-bcsr -b|--block RxC MATRIX R, C in 1..8\n"
	"  conv1d -v|--variant naive|avx2-unaligned|avx2-aligned -n|--n N\n"
	"  fft1d --n N                     N a power of two\n"
	"  fft3d --n N                     N^3 complex doubles\n"
	"\n"
	"options:\n"
	"  --reps N            timed repetitions (default 10)\n"
	"  --warmup N          untimed runs first (default: 500, or fewer\n"
	"                      once they have taken 0.5 s, at least 1,\n"
	"                      then blocks of 500, 1000, ... runs while a\n"
	"                      block runs 1% faster than the one before,\n"
	"                      up to 2 s: the branch predictor learns a\n"
	"                      matrix's loop exits over runs, and ppr\n"
	"                      predict predicts that learned state;\n"
	"                      --warmup 1 times the first runs, up to 2.5x\n"
	"                      slower on some matrices)\n"
	"  --flush             evict caches before each repetition\n"
	"  --flush-mb M        size of the flush buffer (default: 4x the\n"
	"                      largest cache in sysfs, at least 64)\n"
	"  --counters EV,...   PAPI presets (PAPI_L1_DCM, PAPI_L2_DCM,\n"
	"                      PAPI_L3_TCM, PAPI_TOT_CYC, PAPI_TOT_INS,\n"
	"                      PAPI_LD_INS, PAPI_SR_INS) or libpfm4 names\n"
	"  --counter-backend perf|fake   (default: env PPR_COUNTERS, else perf)\n"
	"  --import-papi FILE  read papi_command_line 'EVENT : value' output\n"
	"  --import-perf FILE  read `perf stat -x,` CSV output\n"
	"  --code-offset best|linked|0|16|32|48\n"
	"                      SpMV: which copy of the kernel to time.  The\n"
	"                      kernels exist at four code placements (offset in\n"
	"                      bytes into a 64-byte line), which can run at\n"
	"                      speeds up to 2x apart; best (default) times each\n"
	"                      briefly and keeps the fastest, linked runs the\n"
	"                      linker's copy\n"
	"  --spread-warn F     warn when the median run takes over F times the\n"
	"                      least (at least 5 runs; default 1.25, 0: never):\n"
	"                      the machine's speed moved while it was measured\n"
	"  --batch-us US       time runs back to back, enough for US\n"
	"                      microseconds a sample, when one is shorter\n"
	"                      (default 0: one run a sample, which charges\n"
	"                      the clock's reading, about 20 ns, and the\n"
	"                      pipeline's fill and drain to each run; not\n"
	"                      with --flush, --counters or the FFTs)\n"
	"  --cpu N             run on CPU N only (default: wherever the\n"
	"                      system puts it; on a shared machine one core\n"
	"                      can be slowed by a neighbour on its sibling)\n"
	"  --check             compare the result with a plain reference kernel\n"
	"  --seed S            input values (default fixed)\n"
	"  --no-simd           conv1d: use the portable fallback, not AVX2\n"
	"  -f, --format table|csv|json, -o, --output FILE\n";

/* Median over least run above which the measurement warns (default of
 * --spread-warn). */
#define MEASURE_SPREAD_WARN 1.25

enum {
	OPT_KERNEL = 256, OPT_BLOCK, OPT_VARIANT, OPT_N, OPT_REPS, OPT_WARMUP,
	OPT_FLUSH, OPT_FLUSH_MB, OPT_COUNTERS, OPT_BACKEND, OPT_IMPORT_PAPI,
	OPT_IMPORT_PERF, OPT_CHECK, OPT_SEED, OPT_NO_SIMD, OPT_FORMAT,
	OPT_CODE_OFFSET, OPT_SPREAD_WARN, OPT_CPU, OPT_BATCH,
};

static const struct option long_opts[] = {
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "block", required_argument, NULL, OPT_BLOCK },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "n", required_argument, NULL, OPT_N },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "code-offset", required_argument, NULL, OPT_CODE_OFFSET },
	{ "spread-warn", required_argument, NULL, OPT_SPREAD_WARN },
	{ "flush", no_argument, NULL, OPT_FLUSH },
	{ "flush-mb", required_argument, NULL, OPT_FLUSH_MB },
	{ "counters", required_argument, NULL, OPT_COUNTERS },
	{ "counter-backend", required_argument, NULL, OPT_BACKEND },
	{ "import-papi", required_argument, NULL, OPT_IMPORT_PAPI },
	{ "import-perf", required_argument, NULL, OPT_IMPORT_PERF },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "batch-us", required_argument, NULL, OPT_BATCH },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "no-simd", no_argument, NULL, OPT_NO_SIMD },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *status_name(enum counter_status s)
{
	switch (s) {
	case COUNTER_OK:
		return "ok";
	case COUNTER_UNAVAILABLE:
		return "unavailable";
	case COUNTER_NOT_COUNTED:
		return "not counted";
	}
	return "?";
}

/* Read a whole file; NULL with err filled on failure. */
static char *slurp(const char *path, size_t *len, struct ppr_err *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		ppr_err_set(err, PPR_ENOENT, NULL, 0, 0, "cannot open '%s': %s",
			    path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		ppr_err_set(err, PPR_EIO, NULL, 0, 0, "cannot read '%s': %s",
			    path, strerror(errno));
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static cJSON *counters_json(const struct counter_set *s, int ok,
			    const char *why)
{
	cJSON *c = cJSON_CreateObject(), *arr;
	size_t i;

	cJSON_AddBoolToObject(c, "available", ok);
	if (!ok && why && *why)
		cJSON_AddStringToObject(c, "why", why);
	cJSON_AddStringToObject(c, "source", s->source);
	if (s->pmu[0])
		cJSON_AddStringToObject(c, "pmu", s->pmu);
	arr = cJSON_AddArrayToObject(c, "events");
	for (i = 0; i < s->n; i++) {
		const struct counter_event *e = &s->ev[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", e->name);
		cJSON_AddStringToObject(o, "native", e->native);
		cJSON_AddStringToObject(o, "status",
					ok || e->status != COUNTER_OK ?
					status_name(e->status) : "unavailable");
		if (ok && e->status == COUNTER_OK) {
			if (e->unit[0] && e->fvalue != (double)e->value)
				cJSON_AddNumberToObject(o, "value", e->fvalue);
			else
				cJSON_AddNumberToObject(o, "value",
							(double)e->value);
			cJSON_AddStringToObject(o, "unit",
						e->unit[0] ? e->unit : "count");
		}
		if (e->why[0])
			cJSON_AddStringToObject(o, "why", e->why);
		cJSON_AddItemToArray(arr, o);
	}
	return c;
}

static void counters_table(FILE *f, const struct counter_set *s, int ok,
			   const char *why)
{
	size_t i;

	if (!s->n)
		return;
	if (!ok) {
		fprintf(f, "%-12s unavailable: %s\n", "counters", why);
		for (i = 0; i < s->n; i++)
			fprintf(f, "%-12s %-16s native %s\n", "  asked",
				s->ev[i].name, s->ev[i].native[0] ?
				s->ev[i].native : "(not resolved)");
		return;
	}
	fprintf(f, "%-12s source %s%s%s\n", "counters", s->source,
		s->pmu[0] ? ", pmu " : "", s->pmu);
	for (i = 0; i < s->n; i++) {
		const struct counter_event *e = &s->ev[i];

		if (e->status != COUNTER_OK)
			fprintf(f, "  %-24s %18s  (%s)\n", e->name,
				status_name(e->status), e->why);
		else if (e->unit[0] && e->fvalue != (double)e->value)
			fprintf(f, "  %-24s %18.6g %s  native %s\n", e->name,
				e->fvalue, e->unit, e->native);
		else
			fprintf(f, "  %-24s %18llu%s%s  native %s\n", e->name,
				(unsigned long long)e->value,
				e->unit[0] ? " " : "", e->unit, e->native);
	}
}

static int print_json(FILE *f, cJSON *root)
{
	char *txt = cJSON_Print(root);

	if (!txt)
		return cli_error("cannot format JSON");
	fputs(txt, f);
	fputc('\n', f);
	free(txt);
	return 0;
}

static int do_import(const char *papi, const char *perf, enum cli_format fmt,
		     const char *outpath)
{
	struct counter_set set;
	struct ppr_err err;
	const char *path = papi ? papi : perf;
	char *buf;
	size_t len = 0, i;
	FILE *out;
	int rc;

	memset(&err, 0, sizeof(err));
	buf = slurp(path, &len, &err);
	if (!buf)
		return cli_error_err(&err);
	if (papi)
		rc = counter_import_papi(&set, path, buf, len, &err);
	else
		rc = counter_import_perf_csv(&set, path, buf, len, &err);
	free(buf);
	if (rc)
		return cli_error_err(&err);
	out = cli_open_out(outpath);
	if (!out)
		return 1;
	if (fmt == CLI_FMT_JSON) {
		cJSON *root = cJSON_CreateObject();

		cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
		cJSON_AddStringToObject(root, "imported_from", path);
		cJSON_AddItemToObject(root, "counters",
				      counters_json(&set, 1, NULL));
		rc = print_json(out, root);
		cJSON_Delete(root);
	} else if (fmt == CLI_FMT_CSV) {
		fputs("event,value,unit,status\n", out);
		for (i = 0; i < set.n; i++) {
			cli_csv_field(out, set.ev[i].name);
			if (set.ev[i].status == COUNTER_OK)
				fprintf(out, ",%.17g,", set.ev[i].fvalue);
			else
				fputs(",,", out);
			cli_csv_field(out, set.ev[i].unit[0] ?
				      set.ev[i].unit : "count");
			fputc(',', out);
			cli_csv_field(out, status_name(set.ev[i].status));
			fputc('\n', out);
		}
	} else {
		fprintf(out, "%-12s %s (%s)\n", "imported", path, set.source);
		counters_table(out, &set, 1, NULL);
	}
	return rc ? rc : cli_close_out(out, outpath);
}

/* "0", "16", "32", "48" -> 0..KERNEL_CODE_OFFSETS-1; anything else
 * KERNEL_CODE_OFFSETS. */
static unsigned code_offset_parse(const char *s)
{
	unsigned k;

	for (k = 0; k < KERNEL_CODE_OFFSETS; k++) {
		char b[8];

		snprintf(b, sizeof(b), "%u", k * KERNEL_CODE_OFFSET_STEP);
		if (!strcmp(s, b))
			break;
	}
	return k;
}

/* The code placement timed, and the screening's least times per copy. */
static void code_json(cJSON *root, const struct measure_result *res)
{
	unsigned k;

	if (res->code_offset < 0) {
		cJSON_AddStringToObject(root, "code_offset", "linked");
		return;
	}
	cJSON_AddNumberToObject(root, "code_offset",
				res->code_offset * KERNEL_CODE_OFFSET_STEP);
	if (res->code_offsets) {
		cJSON *o = cJSON_AddObjectToObject(root,
						   "code_offset_screen_min_s");

		for (k = 0; k < res->code_offsets; k++) {
			char key[8];

			snprintf(key, sizeof(key), "%u",
				 k * KERNEL_CODE_OFFSET_STEP);
			cJSON_AddNumberToObject(o, key,
						res->code_screen_min_s[k]);
		}
	}
}

static void code_table(FILE *out, const struct measure_result *res)
{
	unsigned k;
	double lo = INFINITY, hi = 0;

	if (res->code_offset < 0) {
		fprintf(out, "%-12s the linker's placement\n", "code");
		return;
	}
	fprintf(out, "%-12s placed %d B into a 64-byte line", "code",
		res->code_offset * KERNEL_CODE_OFFSET_STEP);
	if (!res->code_offsets) {
		fputc('\n', out);
		return;
	}
	fputs(", the fastest of", out);
	for (k = 0; k < res->code_offsets; k++) {
		double t = res->code_screen_min_s[k];

		fprintf(out, "%s %u: %.4g s", k ? "," : "",
			k * KERNEL_CODE_OFFSET_STEP, t);
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	fprintf(out, " (slowest/fastest %.2f)\n", lo > 0 ? hi / lo : 0.0);
}

int cmd_measure(int argc, char **argv)
{
	struct kernel_params p;
	struct measure_opts mo;
	struct measure_result res;
	struct counter_backend cb;
	struct counter_set set;
	struct kernel_run *run = NULL;
	struct ppr_err err;
	enum cli_format fmt = CLI_FMT_TABLE;
	const char *counters = NULL, *backend = NULL, *outpath = NULL;
	const char *imp_papi = NULL, *imp_perf = NULL;
	unsigned long long v;
	double flush_mb = 0, check_err = -1, spread_warn = MEASURE_SPREAD_WARN;
	int c, do_check = 0, have_variant = 0, rc = 0, cpu = -1;
	FILE *out = NULL;

	memset(&p, 0, sizeof(p));
	memset(&mo, 0, sizeof(mo));
	memset(&set, 0, sizeof(set));
	memset(&err, 0, sizeof(err));
	mo.reps = 10;
	mo.warmup = 1;
	mo.warmup_max = MEASURE_WARMUP_MAX;
	mo.warmup_s = MEASURE_WARMUP_S;
	mo.warmup_learn_s = MEASURE_WARMUP_LEARN_S;
	mo.code_mode = MEASURE_CODE_BEST;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hk:b:v:n:f:o:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'o':
			outpath = optarg;
			break;
		case 'k':
		case OPT_KERNEL:
			p.kernel = optarg;
			break;
		case OPT_CODE_OFFSET:
			if (!strcmp(optarg, "best")) {
				mo.code_mode = MEASURE_CODE_BEST;
			} else if (!strcmp(optarg, "linked")) {
				mo.code_mode = MEASURE_CODE_LINKED;
			} else if ((v = code_offset_parse(optarg)) < KERNEL_CODE_OFFSETS) {
				mo.code_mode = MEASURE_CODE_FIXED;
				mo.code_offset = (int)v;
			} else {
				return cli_usage_error(usage_text,
					"measure: --code-offset '%s': expected "
					"best, linked, 0, 16, 32 or 48", optarg);
			}
			break;
		case 'b':
		case OPT_BLOCK:
			if (kernel_block_parse(optarg, &p.block_r, &p.block_c))
				return cli_usage_error(usage_text,
					"measure: --block '%s': expected RxC "
					"with R and C in 1..8", optarg);
			break;
		case 'v':
		case OPT_VARIANT:
			if (kernel_variant_parse(optarg, &p.variant))
				return cli_usage_error(usage_text,
					"measure: --variant '%s': expected "
					"naive, avx2-unaligned or avx2-aligned",
					optarg);
			have_variant = 1;
			break;
		case 'n':
		case OPT_N:
			if (cli_parse_u64(optarg, &v) || !v)
				return cli_usage_error(usage_text,
					"measure: --n '%s': expected a "
					"positive integer", optarg);
			p.n = v;
			break;
		case OPT_REPS:
			if (cli_parse_u64(optarg, &v) || !v || v > 1000000)
				return cli_usage_error(usage_text,
					"measure: --reps '%s': expected 1.."
					"1000000", optarg);
			mo.reps = (unsigned)v;
			break;
		case OPT_SPREAD_WARN:
			if (cli_parse_double(optarg, &spread_warn) ||
			    !(spread_warn == 0 || (spread_warn >= 1 &&
						   spread_warn <= 1000)))
				return cli_usage_error(usage_text,
					"measure: --spread-warn '%s': expected "
					"0 or 1..1000", optarg);
			break;
		case OPT_WARMUP:
			if (cli_parse_u64(optarg, &v) || v > 1000000)
				return cli_usage_error(usage_text,
					"measure: --warmup '%s': expected 0.."
					"1000000", optarg);
			mo.warmup = (unsigned)v;
			mo.warmup_max = 0;
			mo.warmup_learn_s = 0;
			break;
		case OPT_FLUSH:
			mo.flush = 1;
			break;
		case OPT_BATCH:
			if (cli_parse_u64(optarg, &v) || v > 1000000)
				return cli_usage_error(usage_text,
					"measure: --batch-us '%s': expected 0.."
					"1000000", optarg);
			mo.batch_s = 1e-6 * (double)v;
			break;
		case OPT_CPU: {
			char msg[256];

			if (cli_check_cpu(optarg, &cpu, msg, sizeof(msg)))
				return cli_usage_error(usage_text,
					"measure: --cpu: %s", msg);
			break;
		}
		case OPT_FLUSH_MB:
			if (cli_parse_double(optarg, &flush_mb) ||
			    flush_mb < 1 || flush_mb > 65536)
				return cli_usage_error(usage_text,
					"measure: --flush-mb '%s': expected "
					"1..65536", optarg);
			break;
		case OPT_COUNTERS:
			counters = optarg;
			break;
		case OPT_BACKEND:
			backend = optarg;
			break;
		case OPT_IMPORT_PAPI:
			imp_papi = optarg;
			break;
		case OPT_IMPORT_PERF:
			imp_perf = optarg;
			break;
		case OPT_CHECK:
			do_check = 1;
			break;
		case OPT_SEED:
			if (cli_parse_u64(optarg, &v))
				return cli_usage_error(usage_text,
					"measure: --seed '%s': expected a "
					"non-negative integer", optarg);
			p.seed = v;
			break;
		case OPT_NO_SIMD:
			p.no_simd = 1;
			break;
		case 'f':
		case OPT_FORMAT:
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_text,
					"measure: --format '%s': expected "
					"table, csv or json", optarg);
			break;
		default:
			return cli_usage_error(usage_text,
				"measure: unknown or incomplete option '%s'",
				argv[optind - 1]);
		}
	}
	if (imp_papi && imp_perf)
		return cli_usage_error(usage_text, "measure: give one of "
				       "--import-papi and --import-perf");
	if ((imp_papi || imp_perf) && !p.kernel) {
		if (optind < argc)
			return cli_usage_error(usage_text, "measure: "
					       "unexpected argument '%s'",
					       argv[optind]);
		return do_import(imp_papi, imp_perf, fmt, outpath);
	}
	if (imp_papi || imp_perf)
		return cli_usage_error(usage_text, "measure: --import-* "
				       "does not combine with --kernel");
	if (!p.kernel)
		return cli_usage_error(usage_text, "measure: --kernel is "
				       "required");
	{
		const struct kernel_desc *d = kernel_desc_find(p.kernel);

		if (!d)
			return cli_usage_error(usage_text, "measure: unknown "
				"kernel '%s'", p.kernel);
		if (d->needs_matrix) {
			if (optind >= argc)
				return cli_usage_error(usage_text, "measure: "
					"%s needs a MATRIX argument", p.kernel);
			p.input = argv[optind++];
			if (cli_check_gen(usage_text, p.input))
				return 2;
		}
		if (optind < argc)
			return cli_usage_error(usage_text, "measure: "
				"unexpected argument '%s'", argv[optind]);
		if (d->id == KERNEL_SPMV_BCSR && !p.block_r)
			return cli_usage_error(usage_text, "measure: "
				"spmv-bcsr needs --block RxC");
		if (d->id == KERNEL_CONV1D && !have_variant)
			return cli_usage_error(usage_text, "measure: conv1d "
				"needs --variant");
		if (!d->needs_matrix && !p.n)
			return cli_usage_error(usage_text, "measure: %s "
				"needs --n N", p.kernel);
	}
	if (counters) {
		if (counter_set_parse(&set, counters, &err))
			return cli_usage_error(usage_text, "measure: "
				"--counters: %s", err.msg);
		if (counter_backend_init(&cb, backend, &err))
			return cli_usage_error(usage_text, "measure: %s",
					       err.msg);
		mo.counters = &cb;
		mo.set = &set;
	}
	mo.flush_bytes = (uint64_t)(flush_mb * 1048576.0);

	if (cpu >= 0 && cli_pin_cpu(cpu))
		return 1;
	fprintf(stderr, "ppr measure: setting up %s...\n", p.kernel);
	if (kernel_run_new(&p, &run, &err))
		return cli_error_err(&err);
	if (kernel_run_note(run))
		cli_warn("%s", kernel_run_note(run));
	if (mo.warmup_max)
		fprintf(stderr, "ppr measure: %s: up to %u warm-up (%.1f s), "
			"more while they get faster (up to %.1f s), + %u "
			"timed runs%s\n", kernel_run_describe(run),
			mo.warmup_max, mo.warmup_s, mo.warmup_learn_s, mo.reps,
			mo.flush ? ", caches flushed before each" : "");
	else
		fprintf(stderr, "ppr measure: %s: %u warm-up + %u timed "
			"runs%s\n", kernel_run_describe(run), mo.warmup,
			mo.reps, mo.flush ? ", caches flushed before each" :
			"");
	if (kernel_measure(run, &mo, &res, &err)) {
		rc = cli_error_err(&err);
		goto done;
	}
	if (counters && !res.counters_ok)
		cli_warn("%s (timing still done)", res.counters_why);
	/* On a shared host a neighbour only slows runs: a median well above
	 * the least run means the speed moved while it was measured
	 * (bench/speed_probe.sh: 1.4-1.5x spells of seconds on the test
	 * guest); say so rather than let the median pass for the machine's
	 * speed. */
	if (spread_warn > 0 && res.reps >= 5 && res.time_min_s > 0 &&
	    res.time_median_s > spread_warn * res.time_min_s)
		cli_warn("the median run took %.2fx the least: the machine's "
			 "speed moved during the measurement (a busy "
			 "neighbour on a shared host?); the least run "
			 "(gflops_best) is the closer figure for its own "
			 "speed, or measure again",
			 res.time_median_s / res.time_min_s);
	if (mo.code_mode == MEASURE_CODE_FIXED && res.code_offset < 0)
		cli_warn("--code-offset: %s has no placed copies; timed the "
			 "linker's", p.kernel);
	if (do_check) {
		kernel_run_reset(run);
		kernel_run_native(run);
		if (kernel_run_check(run, &check_err, &err)) {
			cli_warn("check skipped: %s", err.msg);
			check_err = -1;
		}
	}
	out = cli_open_out(outpath);
	if (!out) {
		rc = 1;
		goto done;
	}
	if (fmt == CLI_FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *units, *par;

		cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
		cJSON_AddStringToObject(root, "kernel", p.kernel);
		cJSON_AddStringToObject(root, "input", p.input ? p.input : "");
		par = cJSON_AddObjectToObject(root, "params");
		if (p.block_r) {
			char b[32];

			snprintf(b, sizeof(b), "%ux%u", p.block_r, p.block_c);
			cJSON_AddStringToObject(par, "block", b);
		}
		if (have_variant)
			cJSON_AddStringToObject(par, "variant",
						kernel_variant_name(p.variant));
		if (p.n)
			cJSON_AddNumberToObject(par, "n", (double)p.n);
		cJSON_AddStringToObject(root, "description",
					kernel_run_describe(run));
		cJSON_AddStringToObject(root, "function",
					kernel_run_symbol(run));
		if (kernel_run_note(run))
			cJSON_AddStringToObject(root, "note",
						kernel_run_note(run));
		cJSON_AddNumberToObject(root, "reps", res.reps);
		cJSON_AddNumberToObject(root, "warmup", res.warmup_runs);
		cJSON_AddNumberToObject(root, "runs_per_sample", res.batch);
		cli_json_cpu(root, cpu);
		cJSON_AddBoolToObject(root, "flush", mo.flush);
		cJSON_AddNumberToObject(root, "time_s", res.time_median_s);
		cJSON_AddNumberToObject(root, "time_min_s", res.time_min_s);
		cJSON_AddNumberToObject(root, "time_max_s", res.time_max_s);
		cJSON_AddNumberToObject(root, "time_mean_s", res.time_mean_s);
		cJSON_AddNumberToObject(root, "flops", res.flops);
		cJSON_AddNumberToObject(root, "bytes", res.bytes);
		cJSON_AddNumberToObject(root, "gflops", res.gflops);
		cJSON_AddNumberToObject(root, "gflops_best", res.gflops_best);
		cJSON_AddNumberToObject(root, "bytes_per_s", res.bytes_per_s);
		code_json(root, &res);
		if (check_err >= 0)
			cJSON_AddNumberToObject(root, "check_max_rel_err",
						check_err);
		units = cJSON_AddObjectToObject(root, "units");
		cJSON_AddStringToObject(units, "time_s", "s");
		cJSON_AddStringToObject(units, "flops", "FLOP per run");
		cJSON_AddStringToObject(units, "bytes",
					"B per run (compulsory)");
		cJSON_AddStringToObject(units, "gflops", "GFLOP/s");
		cJSON_AddStringToObject(units, "bytes_per_s", "B/s");
		cJSON_AddStringToObject(units, "code_offset",
					"B into a 64-byte line");
		if (counters)
			cJSON_AddItemToObject(root, "counters",
				counters_json(&set, res.counters_ok,
					      res.counters_why));
		else
			cJSON_AddNullToObject(root, "counters");
		rc = print_json(out, root);
		cJSON_Delete(root);
	} else if (fmt == CLI_FMT_CSV) {
		size_t i;

		fputs("kernel,input,function,reps,time_s [s],time_min_s [s],"
		      "gflops [GFLOP/s],gflops_best [GFLOP/s],"
		      "bytes_per_s [B/s],code_offset [B]", out);
		for (i = 0; i < set.n; i++) {
			char h[COUNTER_NAME_MAX + 16];

			snprintf(h, sizeof(h), "%s [count]", set.ev[i].name);
			fputc(',', out);
			cli_csv_field(out, h);
		}
		fputc('\n', out);
		cli_csv_field(out, p.kernel);
		fputc(',', out);
		cli_csv_field(out, p.input ? p.input : "");
		fprintf(out, ",%s,%u,%.9g,%.9g,%.6g,%.6g,%.6g",
			kernel_run_symbol(run), res.reps, res.time_median_s,
			res.time_min_s, res.gflops, res.gflops_best,
			res.bytes_per_s);
		if (res.code_offset < 0)
			fputs(",linked", out);
		else
			fprintf(out, ",%d", res.code_offset *
				KERNEL_CODE_OFFSET_STEP);
		for (i = 0; i < set.n; i++)
			if (res.counters_ok && set.ev[i].status == COUNTER_OK)
				fprintf(out, ",%llu",
					(unsigned long long)set.ev[i].value);
			else
				fputc(',', out);
		fputc('\n', out);
	} else {
		fprintf(out, "%-12s %s\n", "kernel", kernel_run_describe(run));
		fprintf(out, "%-12s %s\n", "function", kernel_run_symbol(run));
		if (kernel_run_note(run))
			fprintf(out, "%-12s %s\n", "note", kernel_run_note(run));
		if (mo.flush)
			fprintf(out, "%-12s %u timed (warm-up %u, caches "
				"flushed before each by streaming %.0f MiB)\n",
				"runs", res.reps, res.warmup_runs,
				(double)(mo.flush_bytes ? mo.flush_bytes :
					 kernel_flush_default_bytes()) /
				1048576.0);
		else if (res.batch > 1)
			fprintf(out, "%-12s %u timed samples of %u back to back "
				"(warm-up %u)\n", "runs", res.reps, res.batch,
				res.warmup_runs);
		else
			fprintf(out, "%-12s %u timed (warm-up %u)\n", "runs",
				res.reps, res.warmup_runs);
		if (cpu >= 0)
			fprintf(out, "%-12s %d\n", "cpu", cpu);
		fprintf(out, "%-12s min %.6g s, median %.6g s, max %.6g s\n",
			"time", res.time_min_s, res.time_median_s,
			res.time_max_s);
		fprintf(out, "%-12s %.4g GFLOP/s (median), %.4g GFLOP/s "
			"(best)   [%.4g FLOP per run]\n", "performance",
			res.gflops, res.gflops_best, res.flops);
		fprintf(out, "%-12s %.4g GB/s (median)   [%.4g MB per run, "
			"compulsory]\n", "bandwidth", res.bytes_per_s * 1e-9,
			res.bytes * 1e-6);
		code_table(out, &res);
		if (check_err >= 0)
			fprintf(out, "%-12s max normwise error vs reference "
				"%.3g\n", "check", check_err);
		counters_table(out, &set, res.counters_ok, res.counters_why);
	}
	if (!rc)
		rc = cli_close_out(out, outpath);
	else if (out != stdout)
		fclose(out);
done:
	kernel_run_free(run);
	return rc;
}
