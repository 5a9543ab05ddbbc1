/*
 * cmd_roofline.c - `ppr roofline`: the cache-aware roofline of a machine
 * as SVG, with one dot per kernel/input from results files (`ppr sweep`)
 * or predicted on the spot (`--kernel K INPUT...`, one `ppr predict`
 * child per input).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/plot.h"
#include "cli/results.h"
#include "common/xalloc.h"
#include "machines/machine.h"

PPR_COMMAND(roofline, "draw the roofline of a machine with kernel dots as SVG")

static const char usage[] =
	"usage: ppr roofline --machine M.json [RESULTS.jsonl ...]\n"
	"                    [--kernel K INPUT ...] [--integer] -o FILE.svg\n"
	"\n"
	"The cache-aware roofline of one core of the machine: compute peak\n"
	"with FMA and SIMD, the ceilings without FMA, without SIMD and the\n"
	"scalar add latency bound, a bandwidth roof per cache level and one\n"
	"for memory; one dot per kernel/input: predicted (filled) and, when\n"
	"the record has measured_gflops, measured (hollow).  A dot's intensity\n"
	"is flops per DRAM byte, or per byte of the deepest cache level with\n"
	"traffic when the data stays in cache (the label names the level).\n"
	"\n"
	"arguments ending in .jsonl are results files (ppr sweep); the others\n"
	"are inputs predicted with --kernel (one `ppr predict` per input).\n"
	"\n"
	"options:\n"
	"  -m, --machine FILE   machine file (required)\n"
	"  -k, --kernel K       kernel for the inputs (spmv-csr ...)\n"
	"  -b, --block RxC      block shape for --kernel spmv-bcsr\n"
	"      --integer        also draw integer roofs (Intel Advisor's\n"
	"                       integer roofline; INT64 ops per byte)\n"
	"  -o, --output FILE    SVG file (default: stdout)\n"
	"  -h, --help           show this help\n";

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Run this ppr as `ppr predict ... --format json`; the JSON or NULL. */
static cJSON *predict_child(const char *machine, const char *kernel,
			    const char *block, const char *input)
{
	const char *argv[16];
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd[2], st, n = 0;
	pid_t pid;
	cJSON *j;

	argv[n++] = "ppr";
	argv[n++] = "predict";
	argv[n++] = "--machine";
	argv[n++] = machine;
	argv[n++] = "--kernel";
	argv[n++] = kernel;
	if (block) {
		argv[n++] = "--block";
		argv[n++] = block;
	}
	argv[n++] = "--no-advice";
	argv[n++] = "--format";
	argv[n++] = "json";
	argv[n++] = input;
	argv[n] = NULL;
	if (pipe(fd) != 0) {
		cli_error("pipe: %s", strerror(errno));
		return NULL;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		cli_error("fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		ssize_t r;

		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap);
		}
		r = read(fd[0], buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	buf[len] = '\0';
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		cli_warn("%s: ppr predict failed (its message is above); no dot",
			 input);
		free(buf);
		return NULL;
	}
	j = cJSON_Parse(buf);
	free(buf);
	if (!j)
		cli_warn("%s: ppr predict gave no JSON; no dot", input);
	return j;
}

/* Label of a dot: the input's base name, plus the kernel and the level
 * the intensity refers to when not DRAM. */
static void dot_label(char *out, size_t n, const char *input,
		      const char *kernel, const char *level)
{
	const char *b = strrchr(input, '/');

	b = (b && b[1]) ? b + 1 : input;
	if (strcmp(level, "DRAM") == 0)
		snprintf(out, n, "%s %s", b, kernel);
	else
		snprintf(out, n, "%s %s (%s bytes)", b, kernel, level);
}

struct dots {
	struct roof_point *p;
	char **labels;
	size_t n, cap;
};

/* Adds the result's dot; -1 when it has none (no flops or no traffic). */
static int dots_add(struct dots *d, const cJSON *result, const char *input,
		    const char *kernel)
{
	double oi, gf, gm;
	const char *level;
	char lab[256];

	if (results_roof_point(result, &oi, &gf, &gm, &level) != 0)
		return -1;
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->p = xrealloc(d->p, d->cap * sizeof *d->p);
		d->labels = xrealloc(d->labels, d->cap * sizeof *d->labels);
	}
	dot_label(lab, sizeof lab, input, kernel, level);
	d->labels[d->n] = xstrdup(lab);
	d->p[d->n].label = d->labels[d->n];
	d->p[d->n].oi_pred = oi;
	d->p[d->n].gflops_pred = gf;
	d->p[d->n].oi_meas = gm > 0 ? oi : 0;
	d->p[d->n].gflops_meas = gm > 0 ? gm : 0;
	d->n++;
	return 0;
}

int cmd_roofline(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "block", required_argument, NULL, 'b' },
		{ "integer", no_argument, NULL, 'I' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mpath = NULL, *kernel = NULL, *block = NULL, *out = NULL;
	struct results res = { 0 };
	struct machine m;
	struct ppr_err err = { 0 };
	struct dots d = { 0 };
	int integer = 0, c, i, rc = 0, ninputs = 0;
	size_t k, other = 0;
	FILE *f;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "m:k:b:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm': mpath = optarg; break;
		case 'k': kernel = optarg; break;
		case 'b': block = optarg; break;
		case 'I': integer = 1; break;
		case 'o': out = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		default:
			return cli_usage_error(usage, "roofline: unknown or "
					       "incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	if (!mpath)
		return cli_usage_error(usage, "--machine is required");
	for (i = optind; i < argc; i++)
		if (!ends_with(argv[i], ".jsonl"))
			ninputs++;
	if (ninputs && !kernel)
		return cli_usage_error(usage, "input '%s' needs --kernel (or "
				       "name a results file *.jsonl)",
				       argv[optind]);
	if (machine_load(mpath, &m, &err) != 0)
		return cli_error_err(&err);

	for (i = optind; i < argc; i++) {
		if (!ends_with(argv[i], ".jsonl"))
			continue;
		if (results_load(&res, argv[i], &err) != 0) {
			rc = cli_error_err(&err);
			goto done;
		}
	}
	for (k = 0; k < res.nbad; k++)
		cli_error("%s", res.bad[k]);
	if (res.nbad) {
		rc = 1;
		goto done;
	}
	for (k = 0; k < res.n; k++) {
		const struct result_rec *r = &res.rec[k];
		const cJSON *mn;

		if (!r->ok || !r->result)
			continue;
		mn = cJSON_GetObjectItemCaseSensitive(r->result, "machine");
		if (cJSON_IsString(mn) && strcmp(mn->valuestring, m.name) != 0) {
			double a, b, g;
			const char *lv;

			if (results_roof_point(r->result, &a, &b, &g, &lv) == 0)
				other++; /* predicted for another machine */
			continue;
		}
		dots_add(&d, r->result, r->input, r->kernel);
	}
	if (other)
		cli_warn("%zu record%s predicted for another machine than '%s' "
			 "left out", other, other == 1 ? "" : "s", m.name);
	for (i = optind; i < argc; i++) {
		cJSON *j;

		if (ends_with(argv[i], ".jsonl"))
			continue;
		j = predict_child(mpath, kernel, block, argv[i]);
		if (!j) {
			rc = 1;
			continue;
		}
		if (dots_add(&d, j, argv[i], kernel) != 0)
			cli_warn("%s: no flops or no traffic to place on the "
				 "roofline; no dot", argv[i]);
		cJSON_Delete(j);
	}
	f = cli_open_out(out);
	if (!f) {
		rc = 1;
		goto done;
	}
	if (plot_roofline_write(f, &m, d.p, d.n, integer, &err) != 0) {
		cli_error_err(&err);
		if (f != stdout)
			fclose(f);
		rc = 1;
		goto done;
	}
	if (cli_close_out(f, out) != 0)
		rc = 1;
	else if (out)
		fprintf(stderr, "ppr roofline: %zu dot%s -> %s\n", d.n,
			d.n == 1 ? "" : "s", out);
done:
	for (k = 0; k < d.n; k++)
		free(d.labels[k]);
	free(d.labels);
	free(d.p);
	results_free(&res);
	machine_release(&m);
	return rc;
}
