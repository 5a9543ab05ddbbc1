/*
 * cmd_conv.c - `ppr conv`: the three 1-D convolution algorithms (naive,
 * AVX2 unaligned, AVX2 on aligned copies) at data sizes resident in each
 * cache level and in memory; the best per size.  --paper reproduces the
 * paper's Tables 4-6 from its instruction counts.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "kernels/kernels.h"
#include "machines/machine.h"
#include "model/model.h"
#include "model/predict.h"

PPR_COMMAND(conv, "convolution algorithms across data sizes: predicted best per size")

static const char usage_text[] =
	"usage: ppr conv --machine M.json [--sizes N,N,...] [--paper] [options]\n"
	"\n"
	"Predict the three 1-D convolution algorithms (kernel length 16, single\n"
	"precision: naive, avx2-unaligned, avx2-aligned) at input lengths whose\n"
	"data is resident in each cache level and in memory, and pick the best\n"
	"per size.  --paper uses the paper's instruction counts and working sets\n"
	"per block of 16 outputs (Tables 4-6 on machines/haswell.json).\n"
	"Each size's pick names the runner-up and by how much it trails; where\n"
	"the order of the two changes with the memory bandwidth (within 1/16 to\n"
	"16 times the file's), the bandwidth at which it does: the transfers\n"
	"timed again at that bandwidth, the simulated traffic and the in-core\n"
	"schedules as predicted (JSON: runner_up, margin, memory_gbs,\n"
	"crossover_memory_gbs, runner_up_leads).  With a machine file that\n"
	"carries a validation of the convolution, a last line says how far\n"
	"such predictions were from measurement there (JSON: validation).\n"
	"\n"
	"options:\n"
	"  -m, --machine FILE   machine file (required)\n"
	"  -s, --sizes LIST     input lengths (default: one per level, data\n"
	"                       about a quarter of each cache, and 4x the last;\n"
	"                       a last level over 64 MiB: 8x its usable share)\n"
	"  -p, --paper          the paper's counts (no simulation)\n"
	"      --measure        also run each algorithm natively and print the\n"
	"                       measured GFLOPS (median and best of the runs)\n"
	"                       and the errors; the measured best algorithm\n"
	"                       is the one with the highest best-run GFLOPS\n"
	"                       (on a shared machine preemption only slows a\n"
	"                       run)\n"
	"      --reps N         timed repetitions when measuring (default 10)\n"
	"      --code-offset best|linked\n"
	"                       which copy of each kernel is timed: the\n"
	"                       fastest of its four code placements (best,\n"
	"                       the default: the model cannot see where the\n"
	"                       linker put the code) or the linker's\n"
	"      --cpu N          measure on CPU N only (with --measure; on a\n"
	"                       shared machine one core can be slowed by a\n"
	"                       neighbour on its sibling)\n"
	"      --batch-us US    time runs back to back, enough for US\n"
	"                       microseconds a sample, when one is shorter\n"
	"                       (default 20; 0: one run a sample, which\n"
	"                       charges the clock's reading, about 20 ns, and\n"
	"                       the pipeline's fill and drain to each run)\n"
	"  -f, --format FMT     table | csv | json (default table)\n"
	"  -o, --output FILE    write the result to FILE\n"
	"  -h, --help           show this help\n";

/*
 * How far the figures may be off: the machine file's validation ("conv",
 * machines/README.md), what bench/predict_conv.sh measured of this
 * file's predictions.
 */
static void print_trust(FILE *out, const struct machine *m)
{
	const struct machine_val_conv *c = &m->val_conv;
	char when[512];

	if (!c->have) {
		fprintf(out, "trust: not known: this machine file has no "
			"validation of the convolution (bench/predict_conv.sh "
			"with VALIDATION=FILE measures one)\n");
		return;
	}
	fprintf(out, "trust: on this file's validation%s, %u of %u cells "
		"within 10%% of their measured GFLOPS, median |error| %.1f%%, "
		"worst %+.1f%%%s%s%s; the best right at %u of %u sizes\n",
		machine_val_when(when, sizeof(when), c->date, c->command),
		c->within_10, c->cells, 100 * c->median_abs,
		100 * c->worst_err, c->worst_cell[0] ? " (" : "",
		c->worst_cell, c->worst_cell[0] ? ")" : "", c->best_right,
		c->sizes);
}

static const enum conv_variant variants[3] = {
	CONV_NAIVE, CONV_AVX2_UNALIGNED, CONV_AVX2_ALIGNED
};

#define MAX_SIZES 16

struct cell {
	double pred_gflops, pred_time_s, meas_gflops, meas_best;
	int code_offset;	/* measured copy: -1 the linker's */
	unsigned batch;		/* executions per timed sample */
	char bottleneck[32];
	struct model_ppr_in ppr_in; /* eq. (1)-(4)'s inputs, for the
				       crossover */
};

/* A size's pick: the best predicted, the runner-up, by how much, and the
 * memory bandwidth at which the runner-up would lead (eq. (1)-(4) again
 * with only the memory link's bandwidth changed: the simulated traffic
 * and the schedules kept, model_ppr_mem_crossover) */
struct pick {
	unsigned b, r;
	double margin;          /* b's predicted GFLOPS over r's, less 1 */
	int cross;              /* 1: r leads beyond cross_gbs */
	double cross_gbs, mem_gbs;
	const char *leads;      /* with cross: where r leads, "above" or
				   "below" cross_gbs */
};

static int size_pick(const struct cell *c, struct pick *pk)
{
	struct ppr_err err;
	unsigned v;
	int rc;

	memset(pk, 0, sizeof(*pk));
	memset(&err, 0, sizeof(err));
	for (v = 1; v < 3; v++)
		if (c[v].pred_gflops > c[pk->b].pred_gflops)
			pk->b = v;
	pk->r = pk->b ? 0 : 1;
	for (v = 0; v < 3; v++)
		if (v != pk->b && c[v].pred_gflops > c[pk->r].pred_gflops)
			pk->r = v;
	pk->margin = c[pk->r].pred_gflops > 0 ?
		     c[pk->b].pred_gflops / c[pk->r].pred_gflops - 1 : 0;
	pk->mem_gbs = c[pk->b].ppr_in.nlevels ?
		      c[pk->b].ppr_in.bw[c[pk->b].ppr_in.nlevels - 1] *
		      c[pk->b].ppr_in.clock_ghz : 0;
	rc = model_ppr_mem_crossover(&c[pk->b].ppr_in, &c[pk->r].ppr_in,
				     &pk->cross_gbs, &err);
	if (rc < 0)
		return cli_error_err(&err);
	pk->cross = rc;
	pk->leads = pk->cross_gbs > pk->mem_gbs ? "above" : "below";
	return 0;
}

static int paper_mode(const struct machine *m, enum cli_format fmt, FILE *f)
{
	struct model_conv_paper cp;
	struct ppr_err err;
	unsigned v, l;

	memset(&err, 0, sizeof(err));
	if (model_conv_paper(m, &cp, &err))
		return cli_error_err(&err);
	if (fmt == CLI_FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *arr, *u, *adv;
		char *s;

		cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
		cJSON_AddStringToObject(root, "machine", m->name);
		cJSON_AddStringToObject(root, "mode", "paper");
		u = cJSON_AddObjectToObject(root, "units");
		cJSON_AddStringToObject(u, "gflops", "10^9 flop/s (2 decimals, "
					"as the paper prints)");
		cJSON_AddStringToObject(u, "cycles", "core cycles per block of "
					"16 outputs");
		cJSON_AddNumberToObject(root, "memory_bytes_per_cycle",
					m->mem_bandwidth_gbs / m->clock_ghz);
		arr = cJSON_AddArrayToObject(root, "residence");
		for (l = 0; l < cp.nres; l++)
			cJSON_AddItemToArray(arr,
					     cJSON_CreateString(cp.res_name[l]));
		arr = cJSON_AddArrayToObject(root, "algorithms");
		for (v = 0; v < 3; v++) {
			cJSON *o = cJSON_CreateObject(), *g;

			cJSON_AddNumberToObject(o, "algorithm", v + 1);
			cJSON_AddStringToObject(o, "variant",
				kernel_variant_name(cp.row[v].variant));
			cJSON_AddNumberToObject(o, "compute_cycles",
						cp.row[v].compute_cycles);
			cJSON_AddNumberToObject(o, "memory_cycles",
						cp.row[v].memory_cycles);
			cJSON_AddNumberToObject(o, "lines_per_block",
						cp.row[v].lines);
			g = cJSON_AddArrayToObject(o, "predicted_gflops");
			for (l = 0; l < cp.nres; l++) {
				char buf[32];

				snprintf(buf, sizeof(buf), "%.2f",
					 cp.row[v].gflops[l]);
				cJSON_AddItemToArray(g, cJSON_CreateNumber(
					strtod(buf, NULL)));
			}
			cJSON_AddItemToArray(arr, o);
		}
		adv = cJSON_AddArrayToObject(root, "best");
		for (l = 0; l < cp.nres; l++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "residence", cp.res_name[l]);
			cJSON_AddStringToObject(o, "variant", kernel_variant_name(
				cp.row[cp.best[l]].variant));
			cJSON_AddItemToArray(adv, o);
		}
		s = cJSON_Print(root);
		if (s) {
			fputs(s, f);
			fputc('\n', f);
			free(s);
		}
		cJSON_Delete(root);
		return 0;
	}
	if (fmt == CLI_FMT_CSV) {
		fputs("algorithm,variant,compute_cycles,memory_cycles,lines", f);
		for (l = 0; l < cp.nres; l++)
			fprintf(f, ",gflops_%s", cp.res_name[l]);
		fputc('\n', f);
		for (v = 0; v < 3; v++) {
			fprintf(f, "%u,%s,%.0f,%.0f,%.0f", v + 1,
				kernel_variant_name(cp.row[v].variant),
				cp.row[v].compute_cycles,
				cp.row[v].memory_cycles, cp.row[v].lines);
			for (l = 0; l < cp.nres; l++)
				fprintf(f, ",%.2f", cp.row[v].gflops[l]);
			fputc('\n', f);
		}
		return 0;
	}
	fprintf(f, "machine: %s (%.2f GHz); paper mode: per block of 16 "
		"outputs, memory at %.2f B/cycle (the machine's sustained "
		"bandwidth)\n\n", m->name, m->clock_ghz,
		m->mem_bandwidth_gbs / m->clock_ghz);
	fprintf(f, "%-3s %-15s %7s %7s %5s", "alg", "variant", "compute",
		"memory", "lines");
	for (l = 0; l < cp.nres; l++)
		fprintf(f, " %8s", cp.res_name[l]);
	fputc('\n', f);
	for (v = 0; v < 3; v++) {
		fprintf(f, "%-3u %-15s %7.0f %7.0f %5.0f", v + 1,
			kernel_variant_name(cp.row[v].variant),
			cp.row[v].compute_cycles, cp.row[v].memory_cycles,
			cp.row[v].lines);
		for (l = 0; l < cp.nres; l++)
			fprintf(f, " %8.2f", cp.row[v].gflops[l]);
		fputc('\n', f);
	}
	fputs("\nbest:", f);
	for (l = 0; l < cp.nres; l++)
		fprintf(f, " %s=%s", cp.res_name[l],
			kernel_variant_name(cp.row[cp.best[l]].variant));
	fputc('\n', f);
	return 0;
}

/* Default sizes: data (input + output, 8 B per element) about a quarter
 * of each data cache level (the last at the share usable_ways leaves to
 * the program), and memory at 4x the last level's whole capacity: 4x the
 * share was 32 MiB on the Zen 4 guest with 4 usable ways of 16
 * (2026-11-27), a loop its host's L3 keeps half of, and the aligned
 * variant ran 14% faster than from memory.  A last level over 64 MiB is
 * a guest shown its host's whole L3 (480 MiB on the Granite Rapids guest
 * of 2026-12-01, about 62 MiB of it usable): memory at 8x the usable
 * share, at least 256 MiB, as `ppr machine detect` sizes memory's
 * working sets there; 4x the whole was 1.9 GB of input and output, and
 * five times the input for the aligned copies, minutes a cell. */
static unsigned default_sizes(const struct machine *m, uint64_t *n,
			      char names[][24])
{
	unsigned k = 0, i;

	for (i = 0; i < m->hier.nlevels && k < MAX_SIZES - 1; i++) {
		n[k] = m->hier.levels[i].size / 4 / 8;
		snprintf(names[k], 24, "%s", m->hier.levels[i].name);
		k++;
	}
	if (m->hier.nlevels) {
		uint64_t whole = m->level[m->hier.nlevels - 1].size_bytes;
		uint64_t share = m->hier.levels[m->hier.nlevels - 1].size;
		uint64_t bytes = whole * 4;

		if (whole > DETECT_BIG_LEVEL)
			bytes = detect_beyond_share((double)share);
		n[k] = bytes / 8;
		snprintf(names[k], 24, "memory");
		k++;
	}
	return k;
}

static int parse_sizes(const char *s, uint64_t *n, char names[][24],
		       unsigned *count)
{
	char buf[512], *p, *end;
	unsigned k = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	p = buf;
	while (*p) {
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p || v < 64 || k >= MAX_SIZES ||
		    (*end && *end != ','))
			return -1;
		n[k] = v;
		snprintf(names[k], 24, "n=%llu", v);
		k++;
		p = *end ? end + 1 : end;
	}
	*count = k;
	return k ? 0 : -1;
}

int cmd_conv(int argc, char **argv)
{
	enum { OPT_MEASURE = 256, OPT_REPS, OPT_CODE_OFFSET, OPT_CPU,
	       OPT_BATCH };
	static const struct option long_opts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "sizes", required_argument, NULL, 's' },
		{ "paper", no_argument, NULL, 'p' },
		{ "measure", no_argument, NULL, OPT_MEASURE },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "code-offset", required_argument, NULL, OPT_CODE_OFFSET },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "batch-us", required_argument, NULL, OPT_BATCH },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mpath = NULL, *outpath = NULL, *sizes = NULL;
	enum cli_format fmt = CLI_FMT_TABLE;
	int c, paper = 0, measure = 0, rc = 1, cpu = -1;
	char msg[256];
	int code_mode = MEASURE_CODE_BEST;
	unsigned reps = 10, ns = 0, si, v;
	double batch_s = 20e-6;
	unsigned long long uv;
	uint64_t n[MAX_SIZES];
	char names[MAX_SIZES][24];
	struct pick picks[MAX_SIZES];
	struct cell (*cells)[3] = NULL;
	struct model_prediction *pr = NULL;
	struct machine m;
	struct ppr_err err;
	FILE *out;

	memset(&err, 0, sizeof(err));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hm:s:pf:o:", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'm':
			mpath = optarg;
			break;
		case 's':
			sizes = optarg;
			break;
		case 'p':
			paper = 1;
			break;
		case OPT_MEASURE:
			measure = 1;
			break;
		case OPT_REPS:
			if (cli_parse_u64(optarg, &uv) || !uv || uv > 100000)
				return cli_usage_error(usage_text, "--reps '%s': "
						       "expected 1..100000", optarg);
			reps = (unsigned)uv;
			break;
		case OPT_CODE_OFFSET:
			if (!strcmp(optarg, "best"))
				code_mode = MEASURE_CODE_BEST;
			else if (!strcmp(optarg, "linked"))
				code_mode = MEASURE_CODE_LINKED;
			else
				return cli_usage_error(usage_text,
						       "--code-offset '%s': "
						       "expected best or linked",
						       optarg);
			break;
		case OPT_BATCH:
			if (cli_parse_u64(optarg, &uv) || uv > 1000000)
				return cli_usage_error(usage_text, "--batch-us '%s': "
						       "expected 0..1000000", optarg);
			batch_s = 1e-6 * (double)uv;
			break;
		case OPT_CPU:
			if (cli_check_cpu(optarg, &cpu, msg, sizeof(msg)))
				return cli_usage_error(usage_text, "--cpu: %s",
						       msg);
			break;
		case 'f':
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_text, "--format '%s': "
						       "expected table, csv or "
						       "json", optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		default:
			return cli_usage_error(usage_text, "unknown or "
					       "incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	if (!mpath)
		return cli_usage_error(usage_text, "--machine is required");
	if (optind != argc)
		return cli_usage_error(usage_text, "unexpected argument '%s'",
				       argv[optind]);
	if (sizes && parse_sizes(sizes, n, names, &ns))
		return cli_usage_error(usage_text, "--sizes '%s': expected "
				       "comma-separated lengths >= 64, at most "
				       "%d of them", sizes, MAX_SIZES);
	if (paper && (sizes || measure))
		return cli_usage_error(usage_text, "--paper takes neither "
				       "--sizes nor --measure");
	if (cpu >= 0 && !measure)
		return cli_usage_error(usage_text, "--cpu needs --measure");
	if (machine_load(mpath, &m, &err))
		return cli_error_err(&err);
	out = NULL;
	if (paper) {
		out = cli_open_out(outpath);
		if (!out)
			goto done;
		rc = paper_mode(&m, fmt, out);
		if (rc) {
			cli_close_out(out, outpath);
			goto done;
		}
		rc = cli_close_out(out, outpath);
		goto done;
	}
	if (!sizes)
		ns = default_sizes(&m, n, names);
	/* the whole run on --cpu's CPU (the predictions are one thread) */
	if (cpu >= 0 && cli_pin_cpu(cpu))
		goto done;
	cells = calloc(MAX_SIZES, sizeof(*cells));
	pr = calloc(1, sizeof(*pr));
	if (!cells || !pr) {
		rc = cli_error("out of memory");
		goto done;
	}
	for (si = 0; si < ns; si++)
		for (v = 0; v < 3; v++) {
			struct kernel_params p;
			struct kernel_run *run = NULL;
			struct cell *ce = &cells[si][v];

			memset(&p, 0, sizeof(p));
			p.kernel = "conv1d";
			p.variant = variants[v];
			p.n = n[si];
			fprintf(stderr, "\rppr conv: %s %s n=%llu      ",
				names[si], kernel_variant_name(variants[v]),
				(unsigned long long)n[si]);
			if (kernel_run_new(&p, &run, &err) ||
			    model_predict_run(&m, run, &p, NULL, pr, &err)) {
				kernel_run_free(run);
				fputc('\n', stderr);
				rc = cli_error_err(&err);
				goto done;
			}
			ce->pred_gflops = pr->ppr.gflops;
			ce->pred_time_s = pr->ppr.time_s;
			ce->ppr_in = pr->ppr_in;
			snprintf(ce->bottleneck, sizeof(ce->bottleneck), "%s",
				 model_bottleneck_name(pr->ppr.bottleneck));
			if (measure) {
				struct measure_opts mo;
				struct measure_result res;

				memset(&mo, 0, sizeof(mo));
				mo.reps = reps;
				mo.warmup = 1;
				mo.code_mode = code_mode;
				mo.batch_s = batch_s;
				if (kernel_measure(run, &mo, &res, &err)) {
					kernel_run_free(run);
					fputc('\n', stderr);
					rc = cli_error_err(&err);
					goto done;
				}
				ce->meas_gflops = res.gflops;
				ce->meas_best = res.gflops_best;
				ce->code_offset = res.code_offset;
				ce->batch = res.batch;
			}
			kernel_run_free(run);
		}
	fputc('\n', stderr);
	for (si = 0; si < ns; si++)
		if (size_pick(cells[si], &picks[si]))
			goto done;
	out = cli_open_out(outpath);
	if (!out)
		goto done;
	if (fmt == CLI_FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *arr, *u;
		char *s;

		cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
		cJSON_AddStringToObject(root, "machine", m.name);
		cJSON_AddStringToObject(root, "mode", "model");
		u = cJSON_AddObjectToObject(root, "units");
		cJSON_AddStringToObject(u, "gflops", "10^9 flop/s");
		cJSON_AddStringToObject(u, "time_s", "s");
		cJSON_AddStringToObject(u, "margin", "the best's predicted "
					"GFLOPS over the runner-up's, less 1");
		cJSON_AddStringToObject(u, "memory_gbs", "10^9 B/s, the "
					"memory link's bandwidth");
		if (measure) {
			cJSON_AddStringToObject(u, "code_offset",
						"B into a 64-byte line");
			cli_json_cpu(root, cpu);
		}
		arr = cJSON_AddArrayToObject(root, "sizes");
		for (si = 0; si < ns; si++) {
			cJSON *o = cJSON_CreateObject(), *a;
			unsigned mb = 0;
			const struct pick pk = picks[si];

			cJSON_AddStringToObject(o, "resident", names[si]);
			cJSON_AddNumberToObject(o, "n", (double)n[si]);
			a = cJSON_AddArrayToObject(o, "algorithms");
			for (v = 0; v < 3; v++) {
				cJSON *x = cJSON_CreateObject();
				const struct cell *ce = &cells[si][v];

				cJSON_AddStringToObject(x, "variant",
					kernel_variant_name(variants[v]));
				cJSON_AddNumberToObject(x, "predicted_gflops",
							ce->pred_gflops);
				cJSON_AddNumberToObject(x, "predicted_time_s",
							ce->pred_time_s);
				cJSON_AddStringToObject(x, "bottleneck",
							ce->bottleneck);
				if (measure) {
					cJSON_AddNumberToObject(x,
						"measured_gflops",
						ce->meas_gflops);
					cJSON_AddNumberToObject(x, "error",
						ce->pred_gflops /
						ce->meas_gflops - 1);
					cJSON_AddNumberToObject(x,
						"measured_gflops_best",
						ce->meas_best);
					cJSON_AddNumberToObject(x, "error_best",
						ce->pred_gflops /
						ce->meas_best - 1);
					if (ce->code_offset < 0)
						cJSON_AddStringToObject(x,
							"code_offset",
							"linked");
					else
						cJSON_AddNumberToObject(x,
							"code_offset",
							ce->code_offset *
							KERNEL_CODE_OFFSET_STEP);
					cJSON_AddNumberToObject(x,
						"runs_per_sample",
						ce->batch);
				}
				cJSON_AddItemToArray(a, x);
				if (ce->meas_best > cells[si][mb].meas_best)
					mb = v;
			}
			cJSON_AddStringToObject(o, "best",
				kernel_variant_name(variants[pk.b]));
			cJSON_AddStringToObject(o, "runner_up",
				kernel_variant_name(variants[pk.r]));
			cJSON_AddNumberToObject(o, "margin", pk.margin);
			cJSON_AddNumberToObject(o, "memory_gbs", pk.mem_gbs);
			if (pk.cross) {
				cJSON_AddNumberToObject(o,
					"crossover_memory_gbs", pk.cross_gbs);
				cJSON_AddStringToObject(o, "runner_up_leads",
							pk.leads);
			}
			if (measure)
				cJSON_AddStringToObject(o, "measured_best",
					kernel_variant_name(variants[mb]));
			cJSON_AddItemToArray(arr, o);
		}
		if (m.val_conv.have)
			cJSON_AddItemToObject(root, "validation",
				machine_val_conv_json(&m.val_conv));
		else
			cJSON_AddNullToObject(root, "validation");
		s = cJSON_Print(root);
		if (s) {
			fputs(s, out);
			fputc('\n', out);
			free(s);
		}
		cJSON_Delete(root);
	} else {
		if (fmt == CLI_FMT_CSV)
			fputs("resident,n,variant,predicted_gflops,"
			      "predicted_time_s,bottleneck,measured_gflops,"
			      "error,measured_gflops_best,error_best,"
			      "runs_per_sample\n", out);
		else
			fprintf(out, "machine: %s (%.2f GHz)\n\n%-8s %10s "
				"%-15s %10s %-20s%s\n", m.name, m.clock_ghz,
				"resident", "n", "variant", "pred GF/s",
				"bottleneck",
				measure ? "  meas GF/s   error  best GF/s   error" :
				"");
		for (si = 0; si < ns; si++) {
			unsigned mb = 0;
			const struct pick pk = picks[si];

			for (v = 0; v < 3; v++) {
				const struct cell *ce = &cells[si][v];

				if (ce->meas_best > cells[si][mb].meas_best)
					mb = v;
				if (fmt == CLI_FMT_CSV) {
					fprintf(out, "%s,%llu,%s,%.4f,%.6g,%s,",
						names[si],
						(unsigned long long)n[si],
						kernel_variant_name(variants[v]),
						ce->pred_gflops, ce->pred_time_s,
						ce->bottleneck);
					if (measure)
						fprintf(out, "%.4f,%.4f,%.4f,%.4f,%u",
							ce->meas_gflops,
							ce->pred_gflops /
							ce->meas_gflops - 1,
							ce->meas_best,
							ce->pred_gflops /
							ce->meas_best - 1,
							ce->batch);
					else
						fputs(",,,,", out);
					fputc('\n', out);
					continue;
				}
				fprintf(out, "%-8s %10llu %-15s %10.3f %-20s",
					names[si], (unsigned long long)n[si],
					kernel_variant_name(variants[v]),
					ce->pred_gflops, ce->bottleneck);
				if (measure)
					fprintf(out, " %10.3f %+6.1f%% %10.3f "
						"%+6.1f%%", ce->meas_gflops,
						100 * (ce->pred_gflops /
						       ce->meas_gflops - 1),
						ce->meas_best,
						100 * (ce->pred_gflops /
						       ce->meas_best - 1));
				fputc('\n', out);
			}
			if (fmt == CLI_FMT_TABLE) {
				fprintf(out, "  -> best (predicted): %s, "
					"%.1f%% ahead of %s",
					kernel_variant_name(variants[pk.b]),
					100 * pk.margin,
					kernel_variant_name(variants[pk.r]));
				if (measure)
					fprintf(out, "; measured best: %s",
						kernel_variant_name(variants[mb]));
				fputc('\n', out);
				if (pk.cross)
					fprintf(out, "     %s would lead %s "
						"%.1f GB/s from memory (this "
						"file: %.1f)\n",
						kernel_variant_name(
							variants[pk.r]),
						pk.leads, pk.cross_gbs,
						pk.mem_gbs);
			}
		}
		if (fmt == CLI_FMT_TABLE && measure)
			fprintf(out, "measured: %s\n",
				code_mode == MEASURE_CODE_BEST ?
				"each kernel at the fastest of its code "
				"placements (--code-offset)" :
				"each kernel at the linker's placement");
		if (fmt == CLI_FMT_TABLE && measure) {
			unsigned lo = 0, hi = 0;

			for (si = 0; si < ns; si++)
				for (v = 0; v < 3; v++) {
					unsigned k = cells[si][v].batch;

					if (!lo || k < lo)
						lo = k;
					if (k > hi)
						hi = k;
				}
			if (hi > 1)
				fprintf(out, "timed: %u-%u runs back to "
					"back a sample, for samples of about "
					"%g us (--batch-us)\n", lo, hi,
					1e6 * batch_s);
			else
				fputs("timed: one run a sample\n", out);
		}
		if (fmt == CLI_FMT_TABLE && cpu >= 0)
			fprintf(out, "measured on CPU %d only (--cpu)\n", cpu);
		if (fmt == CLI_FMT_TABLE)
			print_trust(out, &m);
	}
	rc = cli_close_out(out, outpath);
done:
	free(cells);
	free(pr);
	machine_release(&m);
	return rc;
}
