/*
 * cmd_predict.c - `ppr predict`: the PPR model for one kernel instance on
 * a machine, with ECM and Roofline beside it and advice computed from the
 * model (other BCSR shapes, other convolution algorithms).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "kernels/kernels.h"
#include "machines/machine.h"
#include "matrix/matrix.h"
#include "model/predict.h"

PPR_COMMAND(predict, "predict a kernel's time on a machine (PPR, ECM, Roofline)")

static const char usage_text[] =
	"usage: ppr predict --machine M.json --kernel K [MATRIX] [options]\n"
	"\n"
	"Predict one execution of a kernel on the machine with the PPR model\n"
	"(instruction DAG of the compiled loop + cache simulation), with the\n"
	"ECM and Roofline figures on the same inputs, the bottleneck, and advice\n"
	"computed from the model.  For spmv-csr it also says how far off the\n"
	"figure may be: the measured error of the machine file's validation\n"
	"(its \"validation\" section, machines/README.md), overall and for\n"
	"predictions with as large a share of mispredicted loop exits, and\n"
	"the measured time those errors imply (JSON: expected_error, with\n"
	"time_range_s; null when the file has none).\n"
	"\n"
	"kernels: spmv-csr spmv-bcsr (MATRIX: file or gen:...), conv1d, fft1d,\n"
	"         fft3d (with --n; fft3d also prints the Roofline paper's DRAM\n"
	"         intensity for the size)\n"
	"\n"
	"options:\n"
	"  -m, --machine FILE   machine file (required)\n"
	"  -k, --kernel K       kernel (required)\n"
	"  -b, --block RxC      spmv-bcsr block shape (default 2x2)\n"
	"  -v, --variant V      conv1d: naive | avx2-unaligned | avx2-aligned\n"
	"  -n, --n N            conv1d input length, fft1d n, fft3d n per dim\n"
	"      --cold           one execution from cold caches (default: the\n"
	"                       steady state of repeated executions)\n"
	"      --no-advice      skip the advice (it predicts alternatives)\n"
	"  -f, --format FMT     table | csv | json (default table)\n"
	"  -o, --output FILE    write the result to FILE\n"
	"  -h, --help           show this help\n";

struct advice {
	char text[512];
	char alt[32];        /* alternative named ("3x3", "avx2-aligned") */
	double speedup;      /* predicted, alternative over current */
	double far_share;    /* SpMV: share of the predicted time that the
				far irregular references take */
	int have_far;
	int have;
};

/*
 * The last level's share (usable_ways < ways) moves with the host's other
 * tenants: five sweeps of `ppr machine detect` on the test guest gave 8 to
 * 11 of the L3's 16 ways within an hour (model/README.md), and laplace3d
 * n = 60 (22 MB) was predicted +40% with 9 ways and -31% with 11.  Where
 * the data a run moves into L1 lies near that share (from 3 ways under it
 * to twice 3 ways over it: the lines of x come into L1 more than once, 1.2
 * to 1.5 times the matrix and vectors' bytes), the prediction is made again
 * with one way fewer and one more, so the user sees how much rides on it.
 * A last level that is DIP in part of its sets (lru_sets_share, as
 * zen4-genoa.json's L3) is predicted again with every set LRU and every
 * set DIP: what the share keeps of a stream larger than it moves with the
 * tenants as well (model/README.md, 2026-11-28).
 */
struct share_sens {
	int have;
	char level[16];
	unsigned ways, usable;      /* physical, simulated */
	double t_less, t_more;      /* time with usable - 1, usable + 1 */
	/* a DIP level with some sets LRU (lru_sets_share): the time with
	 * every set LRU (it keeps none of a stream larger than itself) and
	 * with every set DIP (it keeps DIP's part) */
	int have_policy;
	double t_lru, t_dip;
};

static int share_sensitivity(const struct machine *m,
			     const struct kernel_params *p,
			     const struct model_predict_opts *po,
			     const struct model_prediction *pr,
			     struct share_sens *s, struct ppr_err *err)
{
	unsigned last, k;
	const struct sim_level_config *l;
	struct machine mm;
	struct model_prediction *q;
	double way, ws;

	memset(s, 0, sizeof(*s));
	if (!m->hier.nlevels || !pr->nlevels)
		return 0;
	last = m->hier.nlevels - 1;
	l = &m->hier.levels[last];
	/* tree-PLRU simulates only power-of-two ways: no neighbours */
	if (l->ways >= m->level[last].ways || l->ways < 2 ||
	    l->repl == SIM_REPL_PLRU)
		return 0;
	way = (double)l->sets * l->line_size;
	ws = pr->lev[0].bytes_regular + pr->lev[0].bytes_irregular;
	if (ws < way * (l->ways - (l->ways > 3 ? 3 : 1)) ||
	    ws > 2 * way * (l->ways + 3))
		return 0;
	q = calloc(1, sizeof(*q));
	if (!q)
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0, "out of memory");
	/* one way fewer and one more; with a DIP share, every set LRU and
	 * every set DIP */
	{
		const struct {
			unsigned ways;
			double share;
			double *t;
		} v[4] = {
			{ l->ways - 1, l->lru_sets_share, &s->t_less },
			{ l->ways + 1, l->lru_sets_share, &s->t_more },
			{ l->ways, 1, &s->t_lru },
			{ l->ways, 0, &s->t_dip },
		};
		unsigned nv = l->repl == SIM_REPL_DIP &&
			      l->lru_sets_share > 0 &&
			      l->lru_sets_share < 1 ? 4 : 2;

		mm = *m;        /* shallow: only hier.levels[last] changes */
		for (k = 0; k < nv; k++) {
			mm.hier.levels[last].ways = v[k].ways;
			mm.hier.levels[last].size = l->sets * v[k].ways *
						    l->line_size;
			mm.hier.levels[last].lru_sets_share = v[k].share;
			if (model_predict(&mm, p, po, q, err)) {
				free(q);
				return err->code ? err->code : PPR_EINVAL;
			}
			*v[k].t = q->ppr.time_s;
		}
		s->have_policy = nv == 4;
	}
	free(q);
	snprintf(s->level, sizeof(s->level), "%s", l->name);
	s->ways = m->level[last].ways;
	s->usable = l->ways;
	s->have = 1;
	return 0;
}

/*
 * SpMV: the share of the predicted time that the far irregular references
 * take: the model evaluated again as if they were near (their lines then
 * cost their link times only).  Not a predicted gain from reordering: on
 * wing, reverse Cuthill-McKee made the far references near and the SpMV
 * 10% slower (model/README.md).
 */
static double far_share(const struct model_prediction *pr)
{
	struct model_ppr_in in = pr->ppr_in;
	struct model_ppr_out o;
	unsigned i;
	int any = 0;

	for (i = 0; i < MODEL_MAX_LEVELS; i++) {
		any |= in.far_misses[i] > 0;
		in.far_misses[i] = 0;
	}
	in.stream_serial = 0; /* it follows the far references */
	if (!any || !in.overlap || !(pr->ppr.cycles > 0) ||
	    model_ppr_eval(&in, &o, NULL))
		return 0;
	return o.cycles < pr->ppr.cycles ? 1 - o.cycles / pr->ppr.cycles : 0;
}

static const char *bound_hint(enum model_bottleneck b)
{
	switch (b) {
	case MODEL_BOUND_COMPUTE: return "in-core compute";
	case MODEL_BOUND_MEMORY_INSTR: return "memory instructions";
	case MODEL_BOUND_REGULAR: return "regular (streamed) data transfers";
	case MODEL_BOUND_IRREGULAR: return "irregular (x-vector) transfers";
	case MODEL_BOUND_CORE: return "the loop's dependency chains";
	case MODEL_BOUND_LATE_LINES: return "lines that arrive after the "
					    "line-crossing loads needing them";
	}
	return "?";
}

/*
 * SpMV: the best BCSR shape by the model.  For the CSR kernel the
 * shape's time is set against this prediction of the CSR kernel itself,
 * not against the selection's 1x1 (CSR data run by the BCSR kernel):
 * the CSR kernel runs two nonzeros an iteration into two sums, and was
 * measured up to 1.9x faster than 1x1 (de2010; faster than the best of
 * the 64 shapes on 20-22 of the 43 matrices of bench/predict_bcsr.sh
 * in four passes, 2026-11-27/28).  Against it, the advice "keep CSR"
 * or "try BCSR RxC" chose the faster of the two on 33-35 of the 43 in
 * four stored passes, and reached 0.985-0.989 of the best of CSR and the
 * 64 shapes on average (model/README.md, 2026-11-28).  The CSR time
 * compared leaves out x's jumps between its streams, which the
 * selection does not price (model/predict.c).
 */
static int advise_spmv(const struct machine *m, const struct kernel_params *p,
		       const struct model_prediction *pr, struct advice *a,
		       struct ppr_err *err)
{
	struct csr mat = { 0 };
	struct model_bcsr_result *res;
	struct model_bcsr_opts o = { 0 };
	unsigned cur, pick;
	double now;
	int rc, csr;

	rc = matrix_load(p->input, &mat, NULL, err);
	if (rc)
		return rc;
	if (!mat.nnz) {
		/* nothing to block: zero work whatever the shape */
		matrix_csr_release(&mat);
		a->have = 1;
		a->alt[0] = 0;
		a->speedup = 1;
		snprintf(a->text, sizeof(a->text), "the matrix has no "
			 "nonzeros: no work, no BCSR advice");
		return 0;
	}
	res = calloc(1, sizeof(*res));
	if (!res) {
		matrix_csr_release(&mat);
		return PPR_ENOMEM;
	}
	rc = model_bcsr_select(m, &mat, &o, res, err);
	matrix_csr_release(&mat);
	if (rc) {
		free(res);
		return rc;
	}
	csr = strcmp(p->kernel, "spmv-bcsr") != 0;
	cur = csr ? 0 : (p->block_r - 1) * 8 + (p->block_c - 1);
	pick = res->pick;
	a->have = 1;
	snprintf(a->alt, sizeof(a->alt), "%ux%u", res->shape[pick].r,
		 res->shape[pick].c);
	now = csr ? pr->ppr.cycles : res->shape[cur].cycles;
	if (csr && pr->ppr_in.jump_cycles > 0) {
		/* the selection does not price x's jumps between its
		 * streams (memory.stream_jump_cycles), which every shape's
		 * x loads make: the CSR time set against it leaves them
		 * out too */
		struct model_ppr_in in = pr->ppr_in;
		struct model_ppr_out nj;

		in.jump_cycles = 0;
		if (model_ppr_eval(&in, &nj, NULL) == 0)
			now = nj.cycles;
	}
	a->speedup = res->shape[pick].cycles > 0 ?
		     now / res->shape[pick].cycles : 1;
	if (csr && a->speedup < MODEL_BCSR_ADVICE_MIN)
		snprintf(a->text, sizeof(a->text),
			 "%s dominate; keep CSR: the model's best of the 64 "
			 "BCSR shapes (%s, fill %.2f) is predicted %.2fx of "
			 "this CSR kernel", bound_hint(pr->ppr.bottleneck),
			 a->alt, res->shape[pick].fill, a->speedup);
	else if (!csr && (pick == cur ||
			   a->speedup < MODEL_BCSR_ADVICE_MIN))
		snprintf(a->text, sizeof(a->text),
			 "%s dominate; the block shape is already the "
			 "model's best of 64 (%s)",
			 bound_hint(pr->ppr.bottleneck), a->alt);
	else if (csr && pick == 0)
		snprintf(a->text, sizeof(a->text),
			 "%s dominate: try BCSR 1x1 (this matrix's data run "
			 "by the BCSR kernel, one nonzero an iteration), "
			 "predicted %.2fx", bound_hint(pr->ppr.bottleneck),
			 a->speedup);
	else
		snprintf(a->text, sizeof(a->text),
			 "%s dominate: try BCSR %s (fill %.2f), predicted "
			 "%.2fx", bound_hint(pr->ppr.bottleneck), a->alt,
			 res->shape[pick].fill, a->speedup);
	free(res);
	a->far_share = far_share(pr);
	a->have_far = 1;
	if (a->far_share >= 0.05) {
		size_t len = strlen(a->text);

		snprintf(a->text + len, sizeof(a->text) - len,
			 "; x references that no prefetcher finds (random "
			 "columns) take %.0f%% of the predicted time",
			 100 * a->far_share);
	}
	return 0;
}

/* conv1d: the other two algorithms at the same size. */
static int advise_conv(const struct machine *m, const struct kernel_params *p,
		       const struct model_prediction *pr, struct advice *a,
		       struct ppr_err *err)
{
	static const enum conv_variant all[3] = {
		CONV_NAIVE, CONV_AVX2_UNALIGNED, CONV_AVX2_ALIGNED
	};
	struct model_prediction *alt = malloc(sizeof(*alt));
	double best = pr->ppr.cycles;
	int bi = -1, rc = 0;

	if (!alt)
		return PPR_ENOMEM;
	for (int i = 0; i < 3; i++) {
		struct kernel_params q = *p;
		struct model_predict_opts o = { pr->cold };

		if (all[i] == p->variant)
			continue;
		q.variant = all[i];
		rc = model_predict(m, &q, &o, alt, err);
		if (rc)
			break;
		if (alt->ppr.cycles < best) {
			best = alt->ppr.cycles;
			bi = i;
		}
	}
	free(alt);
	if (rc)
		return rc;
	a->have = 1;
	if (bi < 0) {
		snprintf(a->alt, sizeof(a->alt), "%s",
			 kernel_variant_name(p->variant));
		a->speedup = 1;
		snprintf(a->text, sizeof(a->text),
			 "%s dominate; %s is the model's best of the three "
			 "algorithms at this size",
			 bound_hint(pr->ppr.bottleneck), a->alt);
	} else {
		snprintf(a->alt, sizeof(a->alt), "%s",
			 kernel_variant_name(all[bi]));
		a->speedup = pr->ppr.cycles / best;
		snprintf(a->text, sizeof(a->text),
			 "%s dominate: try --variant %s, predicted %.2fx",
			 bound_hint(pr->ppr.bottleneck), a->alt, a->speedup);
	}
	return 0;
}

static void advise_other(const struct model_prediction *pr, struct advice *a)
{
	a->have = 1;
	a->speedup = 1;
	if (pr->ppr.bottleneck == MODEL_BOUND_COMPUTE)
		snprintf(a->text, sizeof(a->text),
			 "in-core compute dominates: the data side has "
			 "%.2fx headroom", pr->ppr.memory_side > 0 ?
			 pr->ppr.cycles / pr->ppr.memory_side : 0);
	else
		snprintf(a->text, sizeof(a->text),
			 "%s dominate: the compute side would allow %.2fx",
			 bound_hint(pr->ppr.bottleneck),
			 pr->ppr_in.compute_cycles > 0 ?
			 pr->ppr.cycles / fmax(pr->ppr_in.compute_cycles,
					       pr->ppr_in.memory_cycles) : 0);
}

/*
 * How far the prediction may be off: the machine file's validation
 * (struct machine_validation, written by bench/predict_spmv.sh with
 * VALIDATION=FILE), for CSR SpMV, the only kernel it measures.  Its group
 * is chosen by the share of the predicted time that is mispredicted loop
 * exits, the term the model errs most on (the short-row graphs of
 * model/README.md: -20% to -29% where that share is 64-77%).
 */
struct err_note {
	int applies;				/* spmv-csr */
	int no_work;				/* no nonzeros: the validation's
						 * matrices all had some */
	const struct machine_validation *v;	/* NULL: none in the file, or
						 * no_work */
	const struct machine_val_group *g;	/* this prediction's group */
	const char *group;			/* "exits", "rest", "all" */
	double share;				/* branch stalls / total */
	double lo_s, hi_s;	/* the measured time the group's extreme
				 * errors imply */
};

static void error_note(const struct machine *m, int is_csr,
		       const struct model_prediction *pr, struct err_note *e)
{
	const struct machine_validation *v = &m->val_csr;

	memset(e, 0, sizeof(*e));
	e->applies = is_csr;
	e->share = pr->ppr.cycles > 0 ?
		   pr->ppr_in.stall_cycles / pr->ppr.cycles : 0;
	e->no_work = !(pr->flops > 0);
	if (!is_csr || !v->have || e->no_work)
		return;
	e->v = v;
	e->g = &v->all;
	e->group = "all";
	if (v->exit_share > 0 && e->share >= v->exit_share &&
	    v->exits.matrices) {
		e->g = &v->exits;
		e->group = "exits";
	} else if (v->exit_share > 0 && e->share < v->exit_share &&
		   v->rest.matrices) {
		e->g = &v->rest;
		e->group = "rest";
	}
	/* error = predicted / measured - 1, so measured = predicted /
	 * (1 + error): the group's largest error gives the shortest time
	 * (the machine file's reader keeps -1 < min_error <= max_error) */
	e->lo_s = pr->ppr.time_s / (1 + e->g->max_err);
	e->hi_s = pr->ppr.time_s / (1 + e->g->min_err);
}

/* " (name)" when the group names the matrix, else "" */
static const char *in_paren(char *buf, size_t n, const char *name)
{
	if (!name || !name[0])
		return "";
	snprintf(buf, n, " (%s)", name);
	return buf;
}

/* the measured time within the group's errors */
static void print_range(FILE *f, const struct err_note *e)
{
	fprintf(f, "            measured time to expect: %.4g to %.4g s "
		"(this prediction / (1 + error) at the extremes of those "
		"%u)\n", e->lo_s, e->hi_s, e->g->matrices);
}

static void print_error_note(FILE *f, const struct err_note *e)
{
	const struct machine_validation *v = e->v;
	const struct machine_val_group *g;
	char b1[160], b2[160], when[512];

	if (!e->applies)
		return;
	if (!v && e->no_work) {
		fprintf(f, "\nerror:      not known: the matrix has no nonzeros "
			"(the errors of a validation are those of matrices "
			"with work to do)\n");
		return;
	}
	if (!v) {
		fprintf(f, "\nerror:      not known: this machine file has no "
			"validation (bench/predict_spmv.sh with VALIDATION=FILE "
			"measures one)\n");
		return;
	}
	g = &v->all;
	fprintf(f, "\nerror:      this file's validation%s: CSR SpMV on %u "
		"matrices, median |error| %.1f%%, 90%% within %.1f%%, from "
		"%+.1f%%%s to %+.1f%%%s\n",
		machine_val_when(when, sizeof(when), v->date, v->command),
		g->matrices,
		100 * g->median_abs, 100 * g->p90_abs, 100 * g->min_err,
		in_paren(b1, sizeof(b1), g->min_matrix), 100 * g->max_err,
		in_paren(b2, sizeof(b2), g->max_matrix));
	if (e->g != &v->all) {
		g = e->g;
		fprintf(f, "            %.0f%% of this prediction is "
			"mispredicted loop exits: on the %u matrices with %s "
			"%.0f%%, median |error| %.1f%%, 90%% within %.1f%%, "
			"from %+.1f%%%s to %+.1f%%%s\n", 100 * e->share,
			g->matrices, e->g == &v->exits ? "at least" :
			"less than", 100 * v->exit_share, 100 * g->median_abs,
			100 * g->p90_abs, 100 * g->min_err,
			in_paren(b1, sizeof(b1), g->min_matrix),
			100 * g->max_err, in_paren(b2, sizeof(b2),
						  g->max_matrix));
	}
	print_range(f, e);
}

/* JSON expected_error: the group that applies, "all" beside it; null
 * when the file has no validation or the matrix no nonzeros */
static void json_error_note(cJSON *root, const struct err_note *e)
{
	cJSON *o, *r;

	if (!e->applies)
		return;
	if (!e->v) {
		cJSON_AddNullToObject(root, "expected_error");
		return;
	}
	o = cJSON_AddObjectToObject(root, "expected_error");
	cJSON_AddStringToObject(o, "date", e->v->date);
	cJSON_AddStringToObject(o, "command", e->v->command);
	cJSON_AddNumberToObject(o, "branch_share", e->share);
	cJSON_AddNumberToObject(o, "exit_share", e->v->exit_share);
	cJSON_AddStringToObject(o, "group", e->group);
	machine_val_group_add(o, e->g);
	r = cJSON_AddObjectToObject(o, "time_range_s");
	cJSON_AddNumberToObject(r, "low", e->lo_s);
	cJSON_AddNumberToObject(r, "high", e->hi_s);
	machine_val_group_add(cJSON_AddObjectToObject(o, "all"), &e->v->all);
}

static void print_table(FILE *f, const struct machine *m,
			const struct model_prediction *pr,
			const struct model_fft3d *fft, const struct advice *a,
			const struct share_sens *ss, const struct err_note *en)
{
	const struct model_ppr_out *o = &pr->ppr;
	unsigned i;

	fprintf(f, "kernel:     %s\n", pr->describe);
	fprintf(f, "machine:    %s (%s, %.2f GHz)%s\n", m->name, m->path,
		m->clock_ghz, pr->cold ? ", cold caches" :
		", steady state (warm)");
	fprintf(f, "loop:       %s, %.2f cycles/iteration%s", pr->symbol,
		pr->dag.cycles_per_iter, pr->dag.inner_trips > 0 ? "" : "\n");
	if (pr->dag.inner_trips > 0)
		fprintf(f, " (outer, inner loop x %.2f)\n",
			pr->dag.inner_trips);
	fprintf(f, "\nPPR prediction: %.4g s, %.3f GFLOPS, bottleneck %s\n",
		o->time_s, o->gflops, model_bottleneck_name(o->bottleneck));
	fprintf(f, "  %-28s %14s\n", "phase", "cycles");
	fprintf(f, "  %-28s %14.0f\n", "S_DAG(compute)",
		pr->ppr_in.compute_cycles);
	if (pr->fill_cycles > 0)
		fprintf(f, "  %-28s %14.0f  (at least the busiest load "
			"port's %.0f + %.0f for the %.0f lines filled into "
			"%s: fill_load_cycles)\n",
			"S_DAG(memory)", pr->ppr_in.memory_cycles,
			pr->fill_port_cycles, pr->fill_cycles,
			pr->fill_lines, pr->lev[0].name);
	else
		fprintf(f, "  %-28s %14.0f\n", "S_DAG(memory)",
			pr->ppr_in.memory_cycles);
	fprintf(f, "  %-28s %14.0f\n", "T_regular (eq. 2)", o->t_regular);
	fprintf(f, "  %-28s %14.0f\n", "T_irregular (eq. 3)",
		o->t_irregular);
	if (pr->ppr_in.overlap) {
		for (i = 0; i < pr->nlevels; i++) {
			char lab[64];

			snprintf(lab, sizeof(lab), "lines into %s",
				 pr->lev[i].name);
			fprintf(f, "  %-28s %14.0f\n", lab, o->t_link[i]);
		}
		fprintf(f, "  %-28s %14.0f  (irregular lines from beyond "
			"L2, far references)\n", "not hidden", o->t_far);
		if (o->t_serial > 0)
			fprintf(f, "  %-28s %14.0f  (%.2f of S_DAG(memory) + "
				"not hidden from caches: after the stream "
				"from memory, not under it%s)\n",
				"held up stream", o->t_serial,
				pr->ppr_in.stream_serial,
				pr->ppr_in.jump_cycles > 0 ?
				"; and the jumps below" : "");
		if (pr->ppr_in.jump_cycles > 0)
			fprintf(f, "  %-28s %14.0f  (%.0f references of x "
				"jumping between its streams, at "
				"memory.stream_jump_cycles)\n",
				"jumps between x's streams",
				pr->ppr_in.jump_cycles, pr->stream_jumps);
		fprintf(f, "  %-28s %14.0f  (transfers overlap: max of "
			"S_DAG(memory) + not hidden, and each link's "
			"lines%s)\n", "memory side", o->memory_side,
			o->t_serial > 0 ? ", memory's + held up" : "");
	} else {
		fprintf(f, "  %-28s %14.0f\n", "memory side", o->memory_side);
	}
	if (pr->late_share > 0)
		fprintf(f, "  %-28s %14.0f  (the loop's schedule with its "
			"loads at the late_line_cycles of the levels that "
			"fill %.0f%% of its regular lines)\n", "late lines",
			pr->late_cycles, 100 * pr->late_share);
	if (pr->ppr_in.stall_cycles > 0)
		fprintf(f, "  %-28s %14.0f  (%.0f mispredicted loop exits)\n",
			"branch stalls", pr->ppr_in.stall_cycles,
			pr->branch_misses);
	fprintf(f, "  %-28s %14.0f\n", "total (eq. 4)", o->cycles);
	fprintf(f, "\n  %-6s %12s %12s %12s %14s %14s %12s %9s\n", "level",
		"miss reg", "miss irr", "(far)", "bytes reg", "bytes irr",
		"writebacks", "BW B/cy");
	for (i = 0; i < pr->nlevels; i++)
		fprintf(f, "  %-6s %12llu %12llu %12llu %14.0f %14.0f %12llu "
			"%9.2f\n",
			pr->lev[i].name,
			(unsigned long long)pr->lev[i].misses_regular,
			(unsigned long long)pr->lev[i].misses_irregular,
			(unsigned long long)pr->lev[i].misses_far,
			pr->lev[i].bytes_regular, pr->lev[i].bytes_irregular,
			(unsigned long long)pr->lev[i].writebacks,
			pr->ppr_in.bw[i]);
	if (pr->csr_row_nnz > 0 && pr->nlevels)
		fprintf(f, "  memory link: %.1f GB/s, what CSR streams get at %.1f "
			"nonzeros per row (memory.csr_bandwidth_gbs; one array "
			"reads at %.1f)\n", pr->bw_gbs[pr->nlevels - 1],
			pr->csr_row_nnz, m->mem_bandwidth_gbs);
	if (ss->have)
		fprintf(f, "  %s share: %u of %u ways usable (it moves with the "
			"host's other tenants): %.4g s with %u ways, %.4g s with "
			"%u\n", ss->level, ss->usable, ss->ways, ss->t_less,
			ss->usable - 1, ss->t_more, ss->usable + 1);
	if (ss->have_policy)
		fprintf(f, "  %s keeping none of a stream larger than it (LRU): "
			"%.4g s; keeping DIP's part of it: %.4g s (the machine "
			"file's lru_sets_share sits between)\n", ss->level,
			ss->t_lru, ss->t_dip);
	fprintf(f, "\n  %-10s %14s %12s\n", "model", "time [s]", "GFLOPS");
	fprintf(f, "  %-10s %14.4g %12.3f\n", "PPR", o->time_s, o->gflops);
	fprintf(f, "  %-10s %14.4g %12.3f\n", "ECM", pr->ecm.time_s,
		pr->ecm.gflops);
	if (!(pr->flops > 0))
		fprintf(f, "  %-10s %14.4g %12.3f  (no flops: the Roofline "
			"bounds only the traffic's time%s%s)\n", "Roofline",
			pr->roof.time_s, pr->roof.gflops,
			pr->roof.limiting < 0 ? ", and there is none" :
			", by the bandwidth of ",
			pr->roof.limiting < 0 ? "" :
			pr->lev[pr->roof.limiting].name);
	else if (isfinite(pr->roof.dram_intensity))
		fprintf(f, "  %-10s %14.4g %12.3f  (DRAM roofline %.3f, "
			"intensity %.3f flop/B, peak %.1f)\n", "Roofline",
			pr->roof.time_s, pr->roof.gflops,
			pr->roof.dram_gflops, pr->roof.dram_intensity,
			pr->roof_in.peak_gflops);
	else
		fprintf(f, "  %-10s %14.4g %12.3f  (no DRAM traffic: the data "
			"stays in cache; bound by %s, peak %.1f)\n", "Roofline",
			pr->roof.time_s, pr->roof.gflops,
			pr->roof.limiting < 0 ? "the compute peak" :
			pr->lev[pr->roof.limiting].name,
			pr->roof_in.peak_gflops);
	print_error_note(f, en);
	if (fft) {
		fprintf(f, "\n3-D FFT %llu^3 (Roofline paper model): %.0f passes "
			"over memory, DRAM intensity %.2f flop/B (%.2f with only "
			"a pencil in cache, %.2f when an n x n plane stays in "
			"cache), %.4g s, %.3f GFLOPS\n",
			(unsigned long long)fft->n, fft->passes,
			fft->intensity, fft->intensity_pencil,
			fft->intensity_plane, fft->time_s,
			fft->gflops);
	}
	if (a->have)
		fprintf(f, "\nadvice: %s\n", a->text);
}

static void print_csv(FILE *f, const struct machine *m,
		      const struct model_prediction *pr)
{
	unsigned i;

	fputs("machine,kernel,model,time_s,gflops,bottleneck,compute_cycles,"
	      "memory_cycles,t_regular,t_irregular,cycles", f);
	for (i = 0; i < pr->nlevels; i++)
		fprintf(f, ",%s_miss_reg,%s_miss_irr", pr->lev[i].name,
			pr->lev[i].name);
	fputc('\n', f);
	cli_csv_field(f, m->name);
	fputc(',', f);
	cli_csv_field(f, pr->describe);
	fprintf(f, ",ppr,%.6g,%.6g,%s,%.0f,%.0f,%.0f,%.0f,%.0f",
		pr->ppr.time_s, pr->ppr.gflops,
		model_bottleneck_name(pr->ppr.bottleneck),
		pr->ppr_in.compute_cycles, pr->ppr_in.memory_cycles,
		pr->ppr.t_regular, pr->ppr.t_irregular, pr->ppr.cycles);
	for (i = 0; i < pr->nlevels; i++)
		fprintf(f, ",%llu,%llu",
			(unsigned long long)pr->lev[i].misses_regular,
			(unsigned long long)pr->lev[i].misses_irregular);
	fputc('\n', f);
	cli_csv_field(f, m->name);
	fputc(',', f);
	cli_csv_field(f, pr->describe);
	fprintf(f, ",ecm,%.6g,%.6g,,,,,,%.0f", pr->ecm.time_s,
		pr->ecm.gflops, pr->ecm.cycles);
	for (i = 0; i < pr->nlevels; i++)
		fputs(",,", f);
	fputc('\n', f);
	cli_csv_field(f, m->name);
	fputc(',', f);
	cli_csv_field(f, pr->describe);
	fprintf(f, ",roofline,%.6g,%.6g,,,,,,", pr->roof.time_s,
		pr->roof.gflops);
	for (i = 0; i < pr->nlevels; i++)
		fputs(",,", f);
	fputc('\n', f);
}

/* A bound that does not bind (no bytes at that level) is JSON null. */
static cJSON *finite_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static void print_json(FILE *f, const struct machine *m,
		       const struct model_prediction *pr,
		       const struct model_fft3d *fft, const struct advice *a,
		       const struct share_sens *ss, const struct err_note *en)
{
	cJSON *root = cJSON_CreateObject(), *o, *arr, *u;
	char *s;
	unsigned i;

	cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
	cJSON_AddStringToObject(root, "machine", m->name);
	cJSON_AddStringToObject(root, "machine_file", m->path);
	cJSON_AddStringToObject(root, "kernel", pr->describe);
	cJSON_AddStringToObject(root, "symbol", pr->symbol);
	cJSON_AddBoolToObject(root, "cold_caches", pr->cold);
	u = cJSON_AddObjectToObject(root, "units");
	cJSON_AddStringToObject(u, "time_s", "s");
	cJSON_AddStringToObject(u, "gflops", "10^9 flop/s");
	cJSON_AddStringToObject(u, "phases", "core cycles");
	cJSON_AddStringToObject(u, "bytes", "B");
	cJSON_AddStringToObject(u, "bandwidth", "B/cycle");
	cJSON_AddNumberToObject(root, "clock_ghz", m->clock_ghz);
	cJSON_AddNumberToObject(root, "flops", pr->flops);
	cJSON_AddNumberToObject(root, "time_s", pr->ppr.time_s);
	cJSON_AddNumberToObject(root, "gflops", pr->ppr.gflops);
	cJSON_AddStringToObject(root, "bottleneck",
				model_bottleneck_name(pr->ppr.bottleneck));
	o = cJSON_AddObjectToObject(root, "phases");
	cJSON_AddNumberToObject(o, "compute", pr->ppr_in.compute_cycles);
	cJSON_AddNumberToObject(o, "memory_instructions",
				pr->ppr_in.memory_cycles);
	cJSON_AddNumberToObject(o, "process", pr->ppr.t_process);
	cJSON_AddNumberToObject(o, "regular", pr->ppr.t_regular);
	cJSON_AddNumberToObject(o, "irregular", pr->ppr.t_irregular);
	cJSON_AddNumberToObject(o, "memory_side", pr->ppr.memory_side);
	cJSON_AddBoolToObject(o, "transfers_overlap", pr->ppr_in.overlap != 0);
	if (pr->ppr_in.overlap) {
		cJSON *lk = cJSON_AddArrayToObject(o, "link_cycles");

		for (i = 0; i < pr->nlevels; i++)
			cJSON_AddItemToArray(lk, cJSON_CreateNumber(
				pr->ppr.t_link[i]));
		cJSON_AddNumberToObject(o, "not_hidden", pr->ppr.t_far);
		cJSON_AddNumberToObject(o, "stream_serial_share",
					pr->ppr_in.stream_serial);
		cJSON_AddNumberToObject(o, "held_up_stream", pr->ppr.t_serial);
	}
	if (pr->stream_jumps > 0)
		cJSON_AddNumberToObject(o, "stream_jumps", pr->stream_jumps);
	if (pr->ppr_in.jump_cycles > 0)
		cJSON_AddNumberToObject(o, "stream_jump_cycles",
					pr->ppr_in.jump_cycles);
	cJSON_AddNumberToObject(o, "fill_loads", pr->fill_cycles);
	cJSON_AddNumberToObject(o, "late_lines", pr->late_cycles);
	cJSON_AddNumberToObject(o, "late_share", pr->late_share);
	cJSON_AddNumberToObject(o, "branch_stalls", pr->ppr_in.stall_cycles);
	cJSON_AddNumberToObject(o, "branch_misses", pr->branch_misses);
	cJSON_AddNumberToObject(o, "branch_events", pr->branch_events);
	if (pr->branch_contexts > 0)
		cJSON_AddNumberToObject(o, "branch_contexts",
					pr->branch_contexts);
	cJSON_AddNumberToObject(o, "rows", pr->rows);
	cJSON_AddNumberToObject(o, "branches", pr->branches);
	cJSON_AddNumberToObject(o, "total", pr->ppr.cycles);
	o = cJSON_AddObjectToObject(root, "loop");
	cJSON_AddNumberToObject(o, "cycles_per_iteration",
				pr->dag.cycles_per_iter);
	cJSON_AddNumberToObject(o, "iterations", pr->dag.iterations);
	cJSON_AddNumberToObject(o, "inner_trips", pr->dag.inner_trips);
	cJSON_AddNumberToObject(o, "accumulator_chain_per_inner",
				pr->dag.acc_chain_per_inner);
	cJSON_AddNumberToObject(o, "accumulator_chain_cycles",
				pr->dag.acc_chain_cycles);
	if (pr->nlevels) {
		cJSON *mb = cJSON_AddObjectToObject(root, "memory_link");

		cJSON_AddNumberToObject(mb, "bandwidth_gbs",
					pr->bw_gbs[pr->nlevels - 1]);
		cJSON_AddStringToObject(mb, "source", pr->csr_row_nnz > 0 ?
					"csr_bandwidth_gbs" : "bandwidth_gbs");
		if (pr->csr_row_nnz > 0)
			cJSON_AddNumberToObject(mb, "row_nnz", pr->csr_row_nnz);
	}
	if (ss->have) {
		cJSON *sh = cJSON_AddObjectToObject(root, "shared_level");

		cJSON_AddStringToObject(sh, "level", ss->level);
		cJSON_AddNumberToObject(sh, "ways", ss->ways);
		cJSON_AddNumberToObject(sh, "usable_ways", ss->usable);
		cJSON_AddNumberToObject(sh, "time_s_one_way_less", ss->t_less);
		cJSON_AddNumberToObject(sh, "time_s_one_way_more", ss->t_more);
		if (ss->have_policy) {
			cJSON_AddNumberToObject(sh, "time_s_all_sets_lru",
						ss->t_lru);
			cJSON_AddNumberToObject(sh, "time_s_all_sets_dip",
						ss->t_dip);
		}
	}
	arr = cJSON_AddArrayToObject(root, "levels");
	for (i = 0; i < pr->nlevels; i++) {
		cJSON *l = cJSON_CreateObject();

		cJSON_AddStringToObject(l, "name", pr->lev[i].name);
		cJSON_AddNumberToObject(l, "misses_regular",
					(double)pr->lev[i].misses_regular);
		cJSON_AddNumberToObject(l, "misses_irregular",
					(double)pr->lev[i].misses_irregular);
		cJSON_AddNumberToObject(l, "misses_far",
					(double)pr->lev[i].misses_far);
		cJSON_AddNumberToObject(l, "bytes_regular",
					pr->lev[i].bytes_regular);
		cJSON_AddNumberToObject(l, "bytes_irregular",
					pr->lev[i].bytes_irregular);
		cJSON_AddNumberToObject(l, "writebacks",
					(double)pr->lev[i].writebacks);
		cJSON_AddNumberToObject(l, "prefetches",
					(double)pr->lev[i].prefetches);
		cJSON_AddNumberToObject(l, "bandwidth_bytes_per_cycle",
					pr->ppr_in.bw[i]);
		cJSON_AddNumberToObject(l, "t_irregular_cycles",
					pr->ppr.t_irr_level[i]);
		cJSON_AddNumberToObject(l, "far_miss_cycles",
					pr->ppr_in.far_cost[i]);
		cJSON_AddItemToArray(arr, l);
	}
	o = cJSON_AddObjectToObject(root, "ecm");
	cJSON_AddNumberToObject(o, "t_ol", pr->ecm_in.t_ol);
	cJSON_AddNumberToObject(o, "t_nol", pr->ecm_in.t_nol);
	arr = cJSON_AddArrayToObject(o, "t_data");
	for (i = 0; i < pr->nlevels; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(pr->ecm.t_data[i]));
	cJSON_AddNumberToObject(o, "cycles", pr->ecm.cycles);
	cJSON_AddNumberToObject(o, "time_s", pr->ecm.time_s);
	cJSON_AddNumberToObject(o, "gflops", pr->ecm.gflops);
	o = cJSON_AddObjectToObject(root, "roofline");
	cJSON_AddNumberToObject(o, "peak_gflops", pr->roof_in.peak_gflops);
	cJSON_AddNumberToObject(o, "time_s", pr->roof.time_s);
	cJSON_AddNumberToObject(o, "gflops", pr->roof.gflops);
	cJSON_AddNumberToObject(o, "dram_gflops", pr->roof.dram_gflops);
	cJSON_AddItemToObject(o, "dram_intensity",
			      finite_or_null(pr->roof.dram_intensity));
	cJSON_AddNumberToObject(o, "limiting_level", pr->roof.limiting);
	arr = cJSON_AddArrayToObject(o, "ceilings_gflops");
	for (i = 0; i < pr->nlevels; i++)
		cJSON_AddItemToArray(arr,
			finite_or_null(pr->roof.ceiling_gflops[i]));
	if (fft) {
		o = cJSON_AddObjectToObject(root, "fft3d");
		cJSON_AddNumberToObject(o, "n", (double)fft->n);
		cJSON_AddNumberToObject(o, "passes", fft->passes);
		cJSON_AddNumberToObject(o, "dram_bytes", fft->bytes_dram);
		cJSON_AddNumberToObject(o, "dram_intensity", fft->intensity);
		cJSON_AddNumberToObject(o, "dram_intensity_pencil",
					fft->intensity_pencil);
		cJSON_AddNumberToObject(o, "dram_intensity_plane_cached",
					fft->intensity_plane);
		cJSON_AddNumberToObject(o, "time_s", fft->time_s);
		cJSON_AddNumberToObject(o, "gflops", fft->gflops);
	}
	json_error_note(root, en);
	if (a->have) {
		o = cJSON_AddObjectToObject(root, "advice");
		cJSON_AddStringToObject(o, "text", a->text);
		if (a->alt[0])
			cJSON_AddStringToObject(o, "alternative", a->alt);
		cJSON_AddNumberToObject(o, "predicted_speedup", a->speedup);
		if (a->have_far)
			cJSON_AddNumberToObject(o, "far_reference_share",
						a->far_share);
	}
	s = cJSON_Print(root);
	if (s) {
		fputs(s, f);
		fputc('\n', f);
		free(s);
	}
	cJSON_Delete(root);
}

enum { OPT_COLD = 256, OPT_NO_ADVICE };

int cmd_predict(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "block", required_argument, NULL, 'b' },
		{ "variant", required_argument, NULL, 'v' },
		{ "n", required_argument, NULL, 'n' },
		{ "cold", no_argument, NULL, OPT_COLD },
		{ "no-advice", no_argument, NULL, OPT_NO_ADVICE },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kernel_params p;
	struct model_predict_opts po = { 0 };
	struct machine m;
	struct ppr_err err;
	struct model_prediction *pr = NULL;
	struct model_fft3d fft, *fftp = NULL;
	struct advice adv;
	struct share_sens ss = { 0 };
	struct err_note en;
	enum cli_format fmt = CLI_FMT_TABLE;
	const char *mpath = NULL, *outpath = NULL;
	const struct kernel_desc *kd;
	int c, no_advice = 0, rc = 1, have_block = 0;
	unsigned long long v;
	FILE *out;

	memset(&p, 0, sizeof(p));
	memset(&err, 0, sizeof(err));
	memset(&adv, 0, sizeof(adv));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hm:k:b:v:n:f:o:", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'm':
			mpath = optarg;
			break;
		case 'k':
			p.kernel = optarg;
			break;
		case 'b':
			if (kernel_block_parse(optarg, &p.block_r, &p.block_c))
				return cli_usage_error(usage_text,
					"--block '%s': expected RxC with R, C "
					"in 1..8", optarg);
			have_block = 1;
			break;
		case 'v':
			if (kernel_variant_parse(optarg, &p.variant))
				return cli_usage_error(usage_text,
					"--variant '%s': expected naive, "
					"avx2-unaligned or avx2-aligned", optarg);
			break;
		case 'n':
			if (cli_parse_u64(optarg, &v) || !v)
				return cli_usage_error(usage_text,
					"--n '%s': expected a positive integer",
					optarg);
			p.n = v;
			break;
		case OPT_COLD:
			po.cold = 1;
			break;
		case OPT_NO_ADVICE:
			no_advice = 1;
			break;
		case 'f':
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_text,
					"--format '%s': expected table, csv or "
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
	if (!p.kernel)
		return cli_usage_error(usage_text, "--kernel is required");
	kd = kernel_desc_find(p.kernel);
	if (!kd)
		return cli_usage_error(usage_text, "unknown kernel '%s'",
				       p.kernel);
	if (kd->needs_matrix) {
		if (optind != argc - 1)
			return cli_usage_error(usage_text, "kernel %s needs "
					       "one MATRIX argument (file or "
					       "gen:...)", p.kernel);
		p.input = argv[optind];
		if (cli_check_gen(usage_text, p.input))
			return 2;
	} else if (optind != argc) {
		return cli_usage_error(usage_text, "kernel %s takes no MATRIX "
				       "argument ('%s')", p.kernel,
				       argv[optind]);
	}
	if (kd->id == KERNEL_SPMV_BCSR && !have_block)
		p.block_r = p.block_c = 2;
	if (machine_load(mpath, &m, &err))
		return cli_error_err(&err);
	pr = calloc(1, sizeof(*pr));
	if (!pr) {
		machine_release(&m);
		return cli_error("out of memory");
	}
	if (model_predict(&m, &p, &po, pr, &err)) {
		rc = cli_error_err(&err);
		goto done;
	}
	if (fmt != CLI_FMT_CSV &&
	    share_sensitivity(&m, &p, &po, pr, &ss, &err)) {
		rc = cli_error_err(&err);
		goto done;
	}
	if (kd->id == KERNEL_FFT3D) {
		if (model_fft3d_eval(&m, p.n ? p.n : 64, &fft, &err)) {
			rc = cli_error_err(&err);
			goto done;
		}
		fftp = &fft;
	}
	if (!no_advice) {
		int arc = 0;

		if (kd->needs_matrix)
			arc = advise_spmv(&m, &p, pr, &adv, &err);
		else if (kd->id == KERNEL_CONV1D)
			arc = advise_conv(&m, &p, pr, &adv, &err);
		else
			advise_other(pr, &adv);
		if (arc) {
			rc = cli_error_err(&err);
			goto done;
		}
	}
	error_note(&m, kd->id == KERNEL_SPMV_CSR, pr, &en);
	out = cli_open_out(outpath);
	if (!out)
		goto done;
	if (fmt == CLI_FMT_JSON)
		print_json(out, &m, pr, fftp, &adv, &ss, &en);
	else if (fmt == CLI_FMT_CSV)
		print_csv(out, &m, pr);
	else
		print_table(out, &m, pr, fftp, &adv, &ss, &en);
	rc = cli_close_out(out, outpath);
done:
	free(pr);
	machine_release(&m);
	return rc;
}
