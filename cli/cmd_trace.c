/*
 * cmd_trace.c - `ppr trace`: memory reference traces.
 *
 *   ppr trace convert [options] IN OUT   read ppr/din/lackey, write ppr/din/lackey
 *   ppr trace info [options] IN          format, record counts by op, bytes
 *
 * Subcommands are words; the kernel form `ppr trace --kernel K ... -o FILE`
 * (writing the trace of an instrumented kernel) starts with an option and
 * is dispatched in cmd_trace() below, so both forms live in this file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "kernels/kernels.h"
#include "traces/trace.h"

PPR_COMMAND(trace, "convert memory reference traces (ppr, din, lackey) and show their contents")

#define TRACE_BATCH 4096

static const char usage_text[] =
	"usage: ppr trace convert [options] IN OUT\n"
	"       ppr trace info [options] IN\n"
	"       ppr trace --kernel K [MATRIX] [kernel options] -o FILE\n"
	"\n"
	"Memory reference traces: the ppr binary format (compact, exact: op,\n"
	"tag, size, 64-bit address), Dinero IV din (`label addr` or\n"
	"`r|w|i addr size`, hex size) and valgrind lackey --trace-mem=yes\n"
	"output.  IN and OUT may be '-' (stdin, stdout).  See traces/README.md.\n"
	"\n"
	"convert options:\n"
	"  -f, --from FMT             input format: auto|ppr|din|lackey (default:\n"
	"                             auto, detected from the first bytes)\n"
	"      --trace-format FMT     same as --from\n"
	"  -t, --to FMT               output format: ppr|din|lackey (default: ppr)\n"
	"      --line-size N          line size recorded in a ppr header (default:\n"
	"                             the input's, else 0 = not stated)\n"
	"      --tag TAG              tag of text-trace references:\n"
	"                             regular|irregular (default: regular)\n"
	"  -v, --verbose              print a summary line on stderr\n"
	"\n"
	"info options:\n"
	"  -f, --from FMT             input format (default: auto)\n"
	"      --tag TAG              as for convert\n"
	"      --format FMT           table|csv|json (default: table)\n"
	"  -o, --output FILE          write the result to FILE\n"
	"\n"
	"kernel form: the instrumented kernel's references (tags: regular or\n"
	"irregular, as the paper's Fig. 6), replayable with `ppr sim`:\n"
	"  --kernel K                 spmv-csr | spmv-bcsr | conv1d | fft1d | fft3d\n"
	"  --block RxC                spmv-bcsr block shape (1..8 each)\n"
	"  --variant V                conv1d: naive|avx2-unaligned|avx2-aligned\n"
	"  --n N                      conv1d input length, fft size per dimension\n"
	"  --seed S                   input values (default fixed)\n"
	"  --runs N                   executions traced back to back (default 1)\n"
	"  -t, --to FMT               ppr|din|lackey (default: ppr)\n"
	"      --line-size N          line size in a ppr header (default: 64)\n"
	"  -o, --output FILE          the trace ('-': stdout)\n"
	"  -v, --verbose              print a summary line on stderr\n"
	"\n"
	"  -h, --help                 show this help\n";

static int parse_tag(const char *s, uint8_t *tag)
{
	if (!strcmp(s, "regular"))
		*tag = PPR_TAG_REGULAR;
	else if (!strcmp(s, "irregular"))
		*tag = PPR_TAG_IRREGULAR;
	else
		return -1;
	return 0;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return 0;
	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void warn_skipped(const struct trace_info *in)
{
	if (in->skipped_misc)
		cli_warn("skipped %llu din misc records (label 3 or 'm')",
			 (unsigned long long)in->skipped_misc);
	if (in->skipped_flush)
		cli_warn("skipped %llu din flush/copy-back/invalidate records "
			 "(label 4 or 5, 'c' or 'v')",
			 (unsigned long long)in->skipped_flush);
}

static int convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "trace-format", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "line-size", required_argument, NULL, 'L' },
		{ "tag", required_argument, NULL, 'T' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace_reader_config rc_in = { .format = TRACE_FMT_AUTO };
	struct trace_writer_config wc = { .format = TRACE_FMT_PPR };
	struct trace_reader *rd = NULL;
	struct trace_writer *wr = NULL;
	struct trace_info info;
	struct ppr_access *buf = NULL;
	struct ppr_err err = { 0 };
	unsigned long long line_size = 0, irregular = 0, modify = 0;
	const char *in, *out;
	int c, verbose = 0, have_line_size = 0, status = 1;
	size_t n, i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:t:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (trace_format_parse(optarg, &rc_in.format))
				return cli_usage_error(usage_text, "trace convert: "
						       "unknown input format '%s'", optarg);
			break;
		case 't':
			if (trace_format_parse(optarg, &wc.format) ||
			    wc.format == TRACE_FMT_AUTO)
				return cli_usage_error(usage_text, "trace convert: "
						       "unknown output format '%s'", optarg);
			break;
		case 'L':
			if (cli_parse_u64(optarg, &line_size) ||
			    line_size > UINT32_MAX || (line_size & (line_size - 1)))
				return cli_usage_error(usage_text, "trace convert: "
						       "--line-size must be a power of "
						       "two, got '%s'", optarg);
			have_line_size = 1;
			break;
		case 'T':
			if (parse_tag(optarg, &rc_in.default_tag))
				return cli_usage_error(usage_text, "trace convert: "
						       "unknown tag '%s'", optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return cli_usage_error(usage_text, "trace convert: "
					       "unknown or incomplete "
					       "option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 2)
		return cli_usage_error(usage_text, "trace convert: expected IN "
				       "and OUT, got %d argument%s", argc - optind,
				       argc - optind == 1 ? "" : "s");
	in = argv[optind];
	out = argv[optind + 1];
	if (same_file(in, out))
		return cli_error("input and output are the same file '%s'", out);

	if (trace_reader_new(&rd, in, &rc_in, &err) < 0)
		return cli_error_err(&err);
	trace_reader_info(rd, &info);
	/* A ppr input states its line size after the header is read. */
	buf = malloc(TRACE_BATCH * sizeof(*buf));
	if (!buf) {
		trace_reader_free(rd);
		return cli_error("out of memory");
	}
	if (trace_reader_next(rd, buf, TRACE_BATCH, &n, &err) < 0)
		goto fail_err;
	trace_reader_info(rd, &info);
	wc.line_size = have_line_size ? (uint32_t)line_size : info.line_size;
	if (trace_writer_new(&wr, out, &wc, &err) < 0)
		goto fail_err;
	while (n) {
		if (wc.format != TRACE_FMT_PPR)
			for (i = 0; i < n; i++) {
				irregular += buf[i].tag == PPR_TAG_IRREGULAR;
				modify += buf[i].op == PPR_OP_MODIFY;
			}
		if (trace_writer_write(wr, buf, n, &err) < 0)
			goto fail_err;
		if (trace_reader_next(rd, buf, TRACE_BATCH, &n, &err) < 0)
			goto fail_err;
	}
	if (trace_writer_finish(wr, &err) < 0)
		goto fail_err;
	trace_reader_info(rd, &info);
	warn_skipped(&info);
	if (irregular)
		cli_warn("%llu irregular tags lost: %s traces carry no tag",
			 irregular, trace_format_name(wc.format));
	if (modify && wc.format == TRACE_FMT_DIN)
		cli_warn("%llu modify references written as a read and a write "
			 "(din has no modify)", modify);
	if (verbose)
		fprintf(stderr, "ppr trace convert: %llu records, %s -> %s, "
			"%llu bytes in, %llu bytes out (%.3f bytes/record)\n",
			(unsigned long long)info.records,
			trace_format_name(info.format),
			trace_format_name(wc.format),
			(unsigned long long)info.bytes,
			(unsigned long long)trace_writer_bytes(wr),
			info.records ? (double)trace_writer_bytes(wr) /
				       (double)info.records : 0.0);
	status = 0;
	goto done;

fail_err:
	status = cli_error_err(&err);
	/* Do not leave a partial output that may look complete (text). */
	if (wr && strcmp(out, "-")) {
		trace_writer_free(wr);
		wr = NULL;
		unlink(out);
	}
done:
	trace_writer_free(wr);
	trace_reader_free(rd);
	free(buf);
	return status;
}

static const char *op_names[PPR_NOPS] = { "loads", "stores", "ifetches",
					  "modifies" };

static int info_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "trace-format", required_argument, NULL, 'f' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "tag", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace_reader_config rc_in = { .format = TRACE_FMT_AUTO };
	enum cli_format fmt = CLI_FMT_TABLE;
	struct trace_reader *rd = NULL;
	struct trace_info info;
	struct ppr_access *buf;
	struct ppr_err err = { 0 };
	const char *in, *outpath = NULL;
	uint64_t tags[PPR_NTAGS] = { 0 };
	FILE *out;
	size_t n, i;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (trace_format_parse(optarg, &rc_in.format))
				return cli_usage_error(usage_text, "trace info: "
						       "unknown input format '%s'", optarg);
			break;
		case 'F':
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_text, "trace info: "
						       "unknown output format '%s'", optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'T':
			if (parse_tag(optarg, &rc_in.default_tag))
				return cli_usage_error(usage_text, "trace info: "
						       "unknown tag '%s'", optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return cli_usage_error(usage_text, "trace info: "
					       "unknown or incomplete "
					       "option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return cli_usage_error(usage_text, "trace info: expected one "
				       "trace file, got %d", argc - optind);
	in = argv[optind];
	if (trace_reader_new(&rd, in, &rc_in, &err) < 0)
		return cli_error_err(&err);
	buf = malloc(TRACE_BATCH * sizeof(*buf));
	if (!buf) {
		trace_reader_free(rd);
		return cli_error("out of memory");
	}
	for (;;) {
		rc = trace_reader_next(rd, buf, TRACE_BATCH, &n, &err);
		if (rc < 0) {
			trace_reader_free(rd);
			free(buf);
			return cli_error_err(&err);
		}
		if (!n)
			break;
		for (i = 0; i < n; i++)
			tags[buf[i].tag]++;
	}
	trace_reader_info(rd, &info);
	trace_reader_free(rd);
	free(buf);
	warn_skipped(&info);

	out = cli_open_out(outpath);
	if (!out)
		return 1;
	if (fmt == CLI_FMT_TABLE) {
		fprintf(out, "trace:          %s\n", in);
		fprintf(out, "format:         %s", trace_format_name(info.format));
		if (info.format == TRACE_FMT_PPR)
			fprintf(out, " (version %d)", TRACE_PPR_VERSION);
		if (info.format == TRACE_FMT_DIN)
			fprintf(out, " (%s)", info.din_extended
				? "extended: r|w|i addr size" : "traditional: label addr");
		fputc('\n', out);
		if (info.format == TRACE_FMT_PPR)
			fprintf(out, "line size:      %u B%s\n", info.line_size,
				info.line_size ? "" : " (not stated)");
		fprintf(out, "records:        %llu\n",
			(unsigned long long)info.records);
		for (i = 0; i < PPR_NOPS; i++)
			fprintf(out, "  %-13s %llu\n", op_names[i],
				(unsigned long long)info.by_op[i]);
		fprintf(out, "  %-13s %llu\n", "regular",
			(unsigned long long)tags[PPR_TAG_REGULAR]);
		fprintf(out, "  %-13s %llu\n", "irregular",
			(unsigned long long)tags[PPR_TAG_IRREGULAR]);
		if (info.skipped_misc || info.skipped_flush)
			fprintf(out, "skipped:        %llu misc, %llu flush\n",
				(unsigned long long)info.skipped_misc,
				(unsigned long long)info.skipped_flush);
		fprintf(out, "bytes:          %llu (%.3f B/record)\n",
			(unsigned long long)info.bytes,
			info.records ? (double)info.bytes / (double)info.records
				     : 0.0);
	} else if (fmt == CLI_FMT_CSV) {
		fputs("trace,format,records,loads,stores,ifetches,modifies,"
		      "regular,irregular,skipped_misc,skipped_flush,"
		      "line_size [B],bytes [B]\n", out);
		cli_csv_field(out, in);
		fprintf(out, ",%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
			"%u,%llu\n", trace_format_name(info.format),
			(unsigned long long)info.records,
			(unsigned long long)info.by_op[0],
			(unsigned long long)info.by_op[1],
			(unsigned long long)info.by_op[2],
			(unsigned long long)info.by_op[3],
			(unsigned long long)tags[0], (unsigned long long)tags[1],
			(unsigned long long)info.skipped_misc,
			(unsigned long long)info.skipped_flush, info.line_size,
			(unsigned long long)info.bytes);
	} else {
		cJSON *root = cJSON_CreateObject(), *u;
		char *s;

		cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
		cJSON_AddStringToObject(root, "trace", in);
		u = cJSON_AddObjectToObject(root, "units");
		cJSON_AddStringToObject(u, "records", "memory references (the "
					"op and tag counts too)");
		cJSON_AddStringToObject(u, "line_size_bytes", "B");
		cJSON_AddStringToObject(u, "bytes", "B of the input read");
		cJSON_AddStringToObject(root, "format",
					trace_format_name(info.format));
		if (info.format == TRACE_FMT_DIN)
			cJSON_AddBoolToObject(root, "din_extended",
					      info.din_extended);
		cJSON_AddNumberToObject(root, "records", (double)info.records);
		for (i = 0; i < PPR_NOPS; i++)
			cJSON_AddNumberToObject(root, op_names[i],
						(double)info.by_op[i]);
		cJSON_AddNumberToObject(root, "regular", (double)tags[0]);
		cJSON_AddNumberToObject(root, "irregular", (double)tags[1]);
		cJSON_AddNumberToObject(root, "skipped_misc",
					(double)info.skipped_misc);
		cJSON_AddNumberToObject(root, "skipped_flush",
					(double)info.skipped_flush);
		cJSON_AddNumberToObject(root, "line_size_bytes",
					(double)info.line_size);
		cJSON_AddNumberToObject(root, "bytes", (double)info.bytes);
		s = cJSON_Print(root);
		if (s)
			fprintf(out, "%s\n", s);
		free(s);
		cJSON_Delete(root);
	}
	return cli_close_out(out, outpath);
}

/* `ppr trace --kernel K [MATRIX] ... -o FILE`: the instrumented stream. */
static int trace_kernel(int argc, char **argv)
{
	enum {
		OPT_KERNEL = 300, OPT_BLOCK, OPT_VARIANT, OPT_N, OPT_SEED,
		OPT_RUNS, OPT_LINE,
	};
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "block", required_argument, NULL, OPT_BLOCK },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "n", required_argument, NULL, OPT_N },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "to", required_argument, NULL, 't' },
		{ "line-size", required_argument, NULL, OPT_LINE },
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kernel_params p = { 0 };
	struct trace_writer_config wc = { .format = TRACE_FMT_PPR,
					  .line_size = 64 };
	struct trace_writer *wr = NULL;
	struct kernel_run *run = NULL;
	struct ppr_err err = { 0 };
	struct ppr_sink sink;
	const struct kernel_desc *d;
	const char *outpath = NULL;
	unsigned long long v, runs = 1, i;
	int c, verbose = 0, have_variant = 0, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "t:o:vh", opts, NULL)) != -1) {
		switch (c) {
		case OPT_KERNEL:
			p.kernel = optarg;
			break;
		case OPT_BLOCK:
			if (kernel_block_parse(optarg, &p.block_r, &p.block_c))
				return cli_usage_error(usage_text, "trace: "
					"--block '%s': expected RxC with R and "
					"C in 1..8", optarg);
			break;
		case OPT_VARIANT:
			if (kernel_variant_parse(optarg, &p.variant))
				return cli_usage_error(usage_text, "trace: "
					"--variant '%s': expected naive, "
					"avx2-unaligned or avx2-aligned", optarg);
			have_variant = 1;
			break;
		case OPT_N:
			if (cli_parse_u64(optarg, &v) || !v)
				return cli_usage_error(usage_text, "trace: "
					"--n '%s': expected a positive integer",
					optarg);
			p.n = v;
			break;
		case OPT_SEED:
			if (cli_parse_u64(optarg, &v))
				return cli_usage_error(usage_text, "trace: "
					"--seed '%s': expected an integer",
					optarg);
			p.seed = v;
			break;
		case OPT_RUNS:
			if (cli_parse_u64(optarg, &runs) || !runs ||
			    runs > 1000000)
				return cli_usage_error(usage_text, "trace: "
					"--runs '%s': expected 1..1000000",
					optarg);
			break;
		case 't':
			if (trace_format_parse(optarg, &wc.format) ||
			    wc.format == TRACE_FMT_AUTO)
				return cli_usage_error(usage_text, "trace: "
					"unknown output format '%s'", optarg);
			break;
		case OPT_LINE:
			if (cli_parse_u64(optarg, &v) || v > UINT32_MAX ||
			    (v & (v - 1)))
				return cli_usage_error(usage_text, "trace: "
					"--line-size must be a power of two, "
					"got '%s'", optarg);
			wc.line_size = (uint32_t)v;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return cli_usage_error(usage_text, "trace: unknown or "
					       "incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	d = kernel_desc_find(p.kernel);
	if (!p.kernel)
		return cli_usage_error(usage_text, "trace: --kernel is required "
				       "(or a subcommand: convert, info)");
	if (!d)
		return cli_usage_error(usage_text, "trace: unknown kernel '%s'",
				       p.kernel);
	if (d->needs_matrix) {
		if (optind >= argc)
			return cli_usage_error(usage_text, "trace: %s needs a "
					       "MATRIX argument", p.kernel);
		p.input = argv[optind++];
		if (cli_check_gen(usage_text, p.input))
			return 2;
	}
	if (optind < argc)
		return cli_usage_error(usage_text, "trace: unexpected argument "
				       "'%s'", argv[optind]);
	if (d->id == KERNEL_SPMV_BCSR && !p.block_r)
		return cli_usage_error(usage_text, "trace: spmv-bcsr needs "
				       "--block RxC");
	if (d->id == KERNEL_CONV1D && !have_variant)
		return cli_usage_error(usage_text, "trace: conv1d needs "
				       "--variant");
	if (!d->needs_matrix && !p.n)
		return cli_usage_error(usage_text, "trace: %s needs --n N",
				       p.kernel);
	if (!outpath)
		return cli_usage_error(usage_text, "trace: --kernel needs "
				       "-o FILE ('-' for stdout)");
	if (kernel_run_new(&p, &run, &err))
		return cli_error_err(&err);
	if (trace_writer_new(&wr, outpath, &wc, &err)) {
		kernel_run_free(run);
		return cli_error_err(&err);
	}
	sink = trace_writer_sink(wr);
	rc = 0;
	for (i = 0; i < runs && !rc; i++) {
		kernel_run_reset(run);
		rc = kernel_run_instrumented(run, &sink);
	}
	if (rc) {
		/* the writer holds the message of the failed emit */
		trace_writer_finish(wr, &err);
		trace_writer_free(wr);
		kernel_run_free(run);
		if (strcmp(outpath, "-"))
			remove(outpath);
		return cli_error_err(&err);
	}
	if (trace_writer_finish(wr, &err)) {
		trace_writer_free(wr);
		kernel_run_free(run);
		if (strcmp(outpath, "-"))
			remove(outpath);
		return cli_error_err(&err);
	}
	if (verbose)
		fprintf(stderr, "ppr trace: %s: %llu run%s, %llu references, "
			"%llu bytes written to %s\n", kernel_run_describe(run),
			runs, runs == 1 ? "" : "s",
			(unsigned long long)trace_writer_records(wr),
			(unsigned long long)trace_writer_bytes(wr), outpath);
	trace_writer_free(wr);
	kernel_run_free(run);
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(usage_text, "trace: expected a subcommand "
				       "(convert, info)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "convert"))
		return convert(argc - 1, argv + 1);
	if (!strcmp(argv[1], "info"))
		return info_cmd(argc - 1, argv + 1);
	/* The kernel form (`ppr trace --kernel K ... -o FILE`) begins with
	 * an option. */
	if (argv[1][0] == '-')
		return trace_kernel(argc, argv);
	return cli_usage_error(usage_text, "trace: unknown subcommand '%s'",
			       argv[1]);
}
