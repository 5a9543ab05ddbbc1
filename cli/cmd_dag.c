/*
 * cmd_dag.c - `ppr dag`: schedule a loop's instructions on a core model and
 * report cycles per iteration, port pressure, the critical chain and the
 * bottleneck (in the style of llvm-mca's summary), with PPR's
 * S_DAG(compute) and S_DAG(memory); or the paper's hand counts.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "dag/dag.h"
#include "kernels/kernels.h"
#include "machines/machine.h"
#include "model/predict.h"

PPR_COMMAND(dag, "schedule a loop's instructions on a core (in-core cycles)")

static const char usage_text[] =
	"usage: ppr dag --asm FILE [--machine M.json | --cpu NAME] [options]\n"
	"       ppr dag --paper KERNEL [--machine M.json | --cpu NAME]\n"
	"       ppr dag --kernel K [MATRIX] [--n N] [--variant V] [--block RxC]\n"
	"               [--machine M.json | --cpu NAME] [options]\n"
	"       ppr dag --cpu NAME --dump-core\n"
	"\n"
	"Schedule the innermost loop of an assembly file (gcc/clang .s or\n"
	"objdump -d output, AT&T syntax) on a core model: cycles per iteration,\n"
	"IPC, port pressure, the critical loop-carried chain, the bottleneck,\n"
	"and the PPR split S_DAG(compute) / S_DAG(memory).  A file without a\n"
	"backward branch is scheduled as one loop body.\n"
	"\n"
	"options:\n"
	"  -a, --asm FILE          assembly file\n"
	"  -m, --machine FILE      machine file with a \"core\" section\n"
	"  -c, --cpu NAME          built-in core: haswell | zen4 | zen5 (alias zen) |\n"
	"                          goldencove (alias glc: Sapphire, Emerald and\n"
	"                          Granite Rapids) (default: zen5)\n"
	"  -l, --loop LABEL        schedule the loop at LABEL instead\n"
	"  -t, --inner-trips N     schedule the enclosing loop, running the inner\n"
	"                          loop N times per outer iteration (short rows\n"
	"                          overlapping in the reorder window; other\n"
	"                          inner loops, e.g. remainder loops, are\n"
	"                          assumed not to run)\n"
	"  -n, --iterations N      iterations to simulate (default 200)\n"
	"      --align MODE        expected | aligned | split: line crossing of\n"
	"                          unaligned vector loads (default expected)\n"
	"  -p, --paper KERNEL      the paper's hand counts: conv1 conv2 conv3 csr\n"
	"                          or all\n"
	"  -k, --kernel K          a native kernel's loop, as compiled into this\n"
	"                          build (objdump of its kern_* function):\n"
	"                          spmv-csr, spmv-bcsr, conv1d, fft1d, fft3d;\n"
	"                          SpMV with a MATRIX (file or gen:...) runs the\n"
	"                          row loop with the mean row length (in blocks\n"
	"                          for BCSR) as inner trips\n"
	"  -b, --block RxC         spmv-bcsr block shape (default 2x2)\n"
	"  -v, --variant V         conv1d: naive | avx2-unaligned | avx2-aligned\n"
	"      --n N               conv1d / fft length (selects nothing else)\n"
	"      --dump-core         print the core model as a machine-file \"core\"\n"
	"                          section (JSON)\n"
	"  -f, --format FMT        table | csv | json (default table)\n"
	"  -o, --output FILE       write the result to FILE\n"
	"  -h, --help              show this help\n";

struct run {
	const char *asm_path;
	/* --kernel: the unit of work and its flops, the input */
	const char *kernel;
	const char *unit;
	double flops_per_unit;
	char describe[256];
	const char *loop_label;
	const struct dag_core *core;
	const char *machine_name;
	struct dag_prog *prog;
	struct dag_loop loop;
	struct dag_sched_opts opts;
	struct dag_result res;
};

static const char *align_name(enum dag_align a)
{
	switch (a) {
	case DAG_ALIGN_ALIGNED: return "aligned";
	case DAG_ALIGN_SPLIT: return "split";
	default: return "expected";
	}
}

/* ---- table -------------------------------------------------------------- */

static void print_table(FILE *f, const struct run *r)
{
	const struct dag_result *s = &r->res;
	const struct dag_core *c = r->core;
	const struct dag_prog *p = r->prog;
	unsigned q;

	if (r->kernel)
		fprintf(f, "Kernel:            %s, %s (extracted loop of %s)\n",
			r->kernel, r->describe, r->asm_path);
	else
		fprintf(f, "File:              %s\n", r->asm_path);
	if (r->loop.whole_file)
		fprintf(f, "Loop:              whole file (no backward branch), "
			"%zu instructions\n", r->loop.end - r->loop.begin);
	else
		fprintf(f, "Loop:              %s (lines %ld-%ld), %zu instructions\n",
			r->loop.label, p->insn[r->loop.begin].line,
			p->insn[r->loop.end - 1].line, r->loop.end - r->loop.begin);
	if (r->opts.inner_trips)
		fprintf(f, "Nested:            outer loop %s (lines %ld-%ld), inner "
			"loop run %u times per outer iteration\n",
			r->loop.outer_label, p->insn[r->loop.outer_begin].line,
			p->insn[r->loop.outer_end - 1].line, r->opts.inner_trips);
	fprintf(f, "Core:              %s (%s)\n", c->name, r->machine_name);
	fprintf(f, "Iterations:        %u\n", s->iterations);
	fprintf(f, "Instructions:      %u per iteration\n", s->insns_per_iter);
	fprintf(f, "Micro-ops:         %.0f per iteration (%.0f fused)\n",
		s->uops_per_iter, s->fused_per_iter);
	if (c->issue_rate > 0)
		fprintf(f, "Dispatch width:    %u (%g per cycle sustained)\n",
			c->issue_width, c->issue_rate);
	else
		fprintf(f, "Dispatch width:    %u\n", c->issue_width);
	if (c->fetch_width)
		fprintf(f, "Fetch:             %u slots a block, %g blocks "
			"per cycle, blocks end at loop branches\n",
			c->fetch_width, c->fetch_rate > 0 ? c->fetch_rate : 1.0);
	if (c->load_rate > 0)
		fprintf(f, "Loads:             %g per cycle sustained\n",
			c->load_rate);
	fprintf(f, "IPC:               %.2f\n", s->ipc);
	fprintf(f, "Cycles/iteration:  %.2f cy\n", s->cycles_per_iter);
	if (r->opts.inner_trips)
		fprintf(f, "Cycles/inner iter: %.2f cy\n", s->cycles_per_inner);
	if (r->kernel && s->flops_per_iter > 0)
		fprintf(f, "Cycles/%-11s %.3f cy  (%.2f per iteration; one "
			"%s = %g flops)\n", r->unit, s->cycles_per_iter *
			r->flops_per_unit / s->flops_per_iter,
			s->flops_per_iter / r->flops_per_unit, r->unit,
			r->flops_per_unit);
	fprintf(f, "S_DAG(compute):    %.2f cy/iter  (A=%u M=%u FMA=%u, %.0f "
		"flops)\n", s->compute_cycles, s->adds, s->muls, s->fmas,
		s->flops_per_iter);
	fprintf(f, "S_DAG(memory):     %.2f cy/iter  (L=%u S=%u, alignment "
		"'%s', %.3f line splits/iter)\n", s->memory_cycles, s->loads,
		s->stores, align_name(r->opts.align),
		s->split_loads_x1000 / 1000.0);
	fprintf(f, "Bounds:            ports %.2f (%s), chain %.2f, front end "
		"%.2f cy/iter\n", s->port_bound, c->port_name[s->bottleneck_port],
		s->chain_bound, s->frontend_bound);
	fprintf(f, "Bottleneck:        %s", dag_bottleneck_name(s->bottleneck));
	if (s->bottleneck == DAG_BOUND_PORTS)
		fprintf(f, " (%s)", c->port_name[s->bottleneck_port]);
	else if (s->bottleneck == DAG_BOUND_CHAIN && s->chain_reg >= 0)
		fprintf(f, " (%s)", dag_reg_name(s->chain_reg));
	fputs("\n\nPort pressure (cycles per iteration):\n", f);
	for (q = 0; q < c->nports; q++)
		fprintf(f, " %6s", c->port_name[q]);
	fputc('\n', f);
	for (q = 0; q < c->nports; q++)
		fprintf(f, " %6.2f", s->port_pressure[q]);
	fputc('\n', f);
	if (s->chain_len) {
		fprintf(f, "\nCritical chain (%s, %.2f cy/iter):\n",
			dag_reg_name(s->chain_reg), s->chain_bound);
		for (q = 0; q < s->chain_len; q++) {
			const struct dag_insn *in = &p->insn[s->chain[q]];

			fprintf(f, "  %5ld  %s\n", in->line, in->text);
		}
	} else {
		fputs("\nCritical chain:    none (no loop-carried register "
		      "dependency)\n", f);
	}
}

/* ---- csv / json ------------------------------------------------------------ */

static void print_csv(FILE *f, const struct run *r)
{
	const struct dag_result *s = &r->res;

	fputs("file,loop,core,inner_trips,iterations,cycles_per_iteration [cy],"
	      "cycles_per_inner_iteration [cy],ipc,compute_cycles [cy],"
	      "memory_cycles [cy],port_bound [cy],chain_bound [cy],"
	      "frontend_bound [cy],bottleneck\n", f);
	cli_csv_field(f, r->asm_path);
	fputc(',', f);
	cli_csv_field(f, r->loop.label);
	fputc(',', f);
	cli_csv_field(f, r->core->name);
	fprintf(f, ",%u,%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,",
		r->opts.inner_trips, s->iterations, s->cycles_per_iter,
		s->cycles_per_inner, s->ipc, s->compute_cycles,
		s->memory_cycles, s->port_bound, s->chain_bound,
		s->frontend_bound);
	cli_csv_field(f, dag_bottleneck_name(s->bottleneck));
	fputc('\n', f);
}

static int print_json(FILE *f, const struct run *r)
{
	const struct dag_result *s = &r->res;
	const struct dag_core *c = r->core;
	cJSON *root = cJSON_CreateObject(), *ports, *chain, *ins, *units, *b,
	      *counts;
	char *text;

	cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
	cJSON_AddStringToObject(root, "machine", r->machine_name);
	cJSON_AddStringToObject(root, "core", c->name);
	cJSON_AddStringToObject(root, "file", r->asm_path);
	if (r->kernel) {
		cJSON_AddStringToObject(root, "kernel", r->kernel);
		cJSON_AddStringToObject(root, "input", r->describe);
		cJSON_AddStringToObject(root, "unit", r->unit);
		cJSON_AddNumberToObject(root, "flops_per_unit",
					r->flops_per_unit);
		cJSON_AddNumberToObject(root, "cycles_per_unit",
			s->flops_per_iter > 0 ? s->cycles_per_iter *
			r->flops_per_unit / s->flops_per_iter : 0);
	}
	cJSON_AddStringToObject(root, "loop", r->loop.label);
	cJSON_AddBoolToObject(root, "whole_file", r->loop.whole_file);
	cJSON_AddNumberToObject(root, "first_line", r->prog->insn[r->loop.begin].line);
	cJSON_AddNumberToObject(root, "last_line", r->prog->insn[r->loop.end - 1].line);
	cJSON_AddNumberToObject(root, "inner_trips", r->opts.inner_trips);
	if (r->opts.inner_trips)
		cJSON_AddStringToObject(root, "outer_loop", r->loop.outer_label);
	cJSON_AddStringToObject(root, "alignment", align_name(r->opts.align));
	cJSON_AddNumberToObject(root, "iterations", s->iterations);
	cJSON_AddNumberToObject(root, "instructions_per_iteration",
				s->insns_per_iter);
	cJSON_AddNumberToObject(root, "uops_per_iteration", s->uops_per_iter);
	cJSON_AddNumberToObject(root, "fused_uops_per_iteration",
				s->fused_per_iter);
	cJSON_AddNumberToObject(root, "cycles_per_iteration", s->cycles_per_iter);
	cJSON_AddNumberToObject(root, "cycles_per_inner_iteration",
				s->cycles_per_inner);
	cJSON_AddNumberToObject(root, "ipc", s->ipc);
	cJSON_AddNumberToObject(root, "compute_cycles", s->compute_cycles);
	cJSON_AddNumberToObject(root, "memory_cycles", s->memory_cycles);
	counts = cJSON_AddObjectToObject(root, "counts");
	cJSON_AddNumberToObject(counts, "adds", s->adds);
	cJSON_AddNumberToObject(counts, "muls", s->muls);
	cJSON_AddNumberToObject(counts, "fmas", s->fmas);
	cJSON_AddNumberToObject(counts, "loads", s->loads);
	cJSON_AddNumberToObject(counts, "stores", s->stores);
	cJSON_AddNumberToObject(root, "flops_per_iteration", s->flops_per_iter);
	cJSON_AddNumberToObject(root, "line_splits_per_iteration",
				s->split_loads_x1000 / 1000.0);
	ports = cJSON_AddArrayToObject(root, "ports");
	for (unsigned q = 0; q < c->nports; q++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", c->port_name[q]);
		cJSON_AddNumberToObject(o, "pressure", s->port_pressure[q]);
		cJSON_AddItemToArray(ports, o);
	}
	b = cJSON_AddObjectToObject(root, "bounds");
	cJSON_AddNumberToObject(b, "ports", s->port_bound);
	cJSON_AddStringToObject(b, "busiest_port", c->port_name[s->bottleneck_port]);
	cJSON_AddNumberToObject(b, "chain", s->chain_bound);
	cJSON_AddNumberToObject(b, "frontend", s->frontend_bound);
	cJSON_AddStringToObject(root, "bottleneck",
				dag_bottleneck_name(s->bottleneck));
	chain = cJSON_AddObjectToObject(root, "critical_chain");
	cJSON_AddStringToObject(chain, "register",
				s->chain_reg >= 0 ? dag_reg_name(s->chain_reg) : "");
	cJSON_AddNumberToObject(chain, "cycles_per_iteration", s->chain_bound);
	ins = cJSON_AddArrayToObject(chain, "instructions");
	for (unsigned q = 0; q < s->chain_len; q++) {
		const struct dag_insn *in = &r->prog->insn[s->chain[q]];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "line", in->line);
		cJSON_AddStringToObject(o, "text", in->text);
		cJSON_AddItemToArray(ins, o);
	}
	units = cJSON_AddObjectToObject(root, "units");
	cJSON_AddStringToObject(units, "cycles_per_iteration", "core cycles per iteration");
	cJSON_AddStringToObject(units, "compute_cycles", "core cycles per iteration");
	cJSON_AddStringToObject(units, "memory_cycles", "core cycles per iteration");
	cJSON_AddStringToObject(units, "ports", "port-busy cycles per iteration");
	if (r->kernel)
		cJSON_AddStringToObject(units, "cycles_per_unit",
					"core cycles per unit of work");
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return cli_error("out of memory");
	fprintf(f, "%s\n", text);
	cJSON_free(text);
	return 0;
}

/* ---- paper mode ------------------------------------------------------------ */

static int run_paper(FILE *f, const char *which, const struct dag_core *core,
		     const char *machine_name, enum cli_format fmt)
{
	const char *const *names = dag_paper_kernels();
	struct dag_paper res[8];
	struct ppr_err err = { 0 };
	int n = 0;

	for (int i = 0; names[i]; i++) {
		if (strcmp(which, "all") && strcmp(which, names[i]))
			continue;
		if (dag_paper_eval(names[i], core, &res[n], &err))
			return cli_error_err(&err);
		n++;
	}
	if (!n) {
		dag_paper_eval(which, core, &res[0], &err);
		return cli_error_err(&err);
	}
	if (fmt == CLI_FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *arr, *units;
		char *text;

		cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
		cJSON_AddStringToObject(root, "machine", machine_name);
		cJSON_AddStringToObject(root, "core", core->name);
		arr = cJSON_AddArrayToObject(root, "kernels");
		for (int i = 0; i < n; i++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "kernel", res[i].kernel);
			cJSON_AddStringToObject(o, "unit", res[i].unit);
			cJSON_AddNumberToObject(o, "adds", res[i].adds);
			cJSON_AddNumberToObject(o, "muls", res[i].muls);
			cJSON_AddNumberToObject(o, "fmas", res[i].fmas);
			cJSON_AddNumberToObject(o, "loads", res[i].loads);
			cJSON_AddNumberToObject(o, "stores", res[i].stores);
			cJSON_AddNumberToObject(o, "compute_cycles", res[i].compute_cycles);
			cJSON_AddNumberToObject(o, "memory_cycles", res[i].memory_cycles);
			cJSON_AddStringToObject(o, "how", res[i].how);
			cJSON_AddItemToArray(arr, o);
		}
		units = cJSON_AddObjectToObject(root, "units");
		cJSON_AddStringToObject(units, "compute_cycles", "core cycles per unit");
		cJSON_AddStringToObject(units, "memory_cycles", "core cycles per unit");
		text = cJSON_Print(root);
		cJSON_Delete(root);
		if (!text)
			return cli_error("out of memory");
		fprintf(f, "%s\n", text);
		cJSON_free(text);
		return 0;
	}
	if (fmt == CLI_FMT_CSV) {
		fputs("kernel,unit,adds,muls,fmas,loads,stores,compute_cycles [cy],"
		      "memory_cycles [cy]\n", f);
		for (int i = 0; i < n; i++) {
			cli_csv_field(f, res[i].kernel);
			fputc(',', f);
			cli_csv_field(f, res[i].unit);
			fprintf(f, ",%u,%u,%u,%u,%u,%g,%g\n", res[i].adds,
				res[i].muls, res[i].fmas, res[i].loads,
				res[i].stores, res[i].compute_cycles,
				res[i].memory_cycles);
		}
		return 0;
	}
	fprintf(f, "Paper mode (ppr-model.md sections 4-5), core %s (%s)\n\n",
		core->name, machine_name);
	fprintf(f, "%-7s %-20s %5s %5s %5s %6s %6s %10s %10s\n", "kernel",
		"per", "A", "M", "FMA", "loads", "stores", "compute cy",
		"memory cy");
	for (int i = 0; i < n; i++)
		fprintf(f, "%-7s %-20s %5u %5u %5u %6u %6u %10g %10g\n",
			res[i].kernel, res[i].unit, res[i].adds, res[i].muls,
			res[i].fmas, res[i].loads, res[i].stores,
			res[i].compute_cycles, res[i].memory_cycles);
	fputc('\n', f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%-7s %s\n", res[i].kernel, res[i].how);
	return 0;
}

/* ---- core dump (a machine-file "core" section) ----------------------------- */

static int dump_core(FILE *f, const struct dag_core *c)
{
	cJSON *root = cJSON_CreateObject(), *core = machine_core_to_json(c);
	char *text;

	if (!root || !core) {
		cJSON_Delete(root);
		cJSON_Delete(core);
		return cli_error("out of memory");
	}
	cJSON_AddItemToObject(root, "core", core);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return cli_error("out of memory");
	fprintf(f, "%s\n", text);
	cJSON_free(text);
	return 0;
}

/* ---- --kernel -------------------------------------------------------------- */

/*
 * The native kernel's loop as compiled into this build (model_kernel_asm:
 * the objdump listing embedded at build time), parsed into r->prog, its
 * loop found, and scheduled into r->res.  SpMV with an input: the row
 * (block-row) loop with the inner loop run the mean row length (in the
 * inner loop's own iterations: gcc unrolls) times, unless --inner-trips
 * was given.  Returns 0 or a negative PPR_E* code with err set.
 */
static int kernel_setup(struct run *r, struct kernel_params *kp,
			struct kernel_run **krun, struct ppr_err *err)
{
	const struct kernel_desc *kd = kernel_desc_find(kp->kernel);
	struct kernel_params q = *kp;
	const char *text, *par;
	unsigned long long rows = 0, cols = 0, nnz = 0, nb = 0;
	double inner_flops = 0;
	int rc;

	if (kd->needs_matrix && !q.input)
		q.input = "gen:laplace2d:n=4"; /* only selects the symbol */
	if (!kd->needs_matrix && !q.n)
		q.n = kd->id == KERNEL_FFT3D ? 8 : 1024; /* symbol only */
	rc = kernel_run_new(&q, krun, err);
	if (rc)
		return rc < 0 ? rc : PPR_EINVAL;
	snprintf(r->describe, sizeof(r->describe), "%s",
		 kp->input || kd->needs_matrix == 0 ?
		 kernel_run_describe(*krun) : "no input (inner loop alone)");
	r->asm_path = kernel_run_symbol(*krun);
	switch (kd->id) {
	case KERNEL_SPMV_CSR:
		r->unit = "nonzero";
		r->flops_per_unit = 2;
		break;
	case KERNEL_SPMV_BCSR:
		r->unit = "block";
		r->flops_per_unit = 2.0 * kp->block_r * kp->block_c;
		break;
	case KERNEL_CONV1D:
		r->unit = "output";
		r->flops_per_unit = 2.0 * CONV_KLEN;
		break;
	default:
		r->unit = "butterfly";
		r->flops_per_unit = 10;
		break;
	}
	text = model_kernel_asm(r->asm_path);
	if (!text)
		return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0, "kernel %s: no "
				   "extracted loop for '%s' in this build",
				   kp->kernel, r->asm_path);
	rc = dag_asm_parse(r->prog, text, strlen(text), r->asm_path, err);
	if (!rc)
		rc = dag_loop_find(r->prog, r->loop_label, &r->loop, err);
	if (rc)
		return rc;
	/* mean inner work per outer iteration, from the input */
	par = kp->input ? strrchr(kernel_run_describe(*krun), '(') : NULL;
	if (par && sscanf(par, "(%llu x %llu, nnz %llu, %llu blocks", &rows,
			  &cols, &nnz, &nb) >= 3 && rows) {
		if (kd->id == KERNEL_SPMV_BCSR)
			inner_flops = 2.0 * (double)nb * r->flops_per_unit /
				      2.0 / ceil((double)rows / kp->block_r);
		else
			inner_flops = 2.0 * (double)nnz / (double)rows;
	} else if (kd->id == KERNEL_CONV1D) {
		inner_flops = r->flops_per_unit; /* taps loop inside outputs */
	}
	if (r->loop.has_outer && !r->opts.inner_trips && inner_flops > 0) {
		struct dag_result in1;
		double t;

		memset(&in1, 0, sizeof(in1));
		rc = dag_sched_run(r->prog, &r->loop, r->core, &r->opts, &in1,
				   err);
		if (rc)
			return rc;
		t = in1.flops_per_iter > 0 ? inner_flops / in1.flops_per_iter : 1;
		if (kd->needs_matrix || t >= 1.5)
			r->opts.inner_trips = t < 1 ? 1 :
					      (unsigned)floor(t + 0.5);
	}
	return dag_sched_run(r->prog, &r->loop, r->core, &r->opts, &r->res,
			     err);
}

/* ---- main ------------------------------------------------------------------ */

int cmd_dag(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "asm", required_argument, NULL, 'a' },
		{ "machine", required_argument, NULL, 'm' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "loop", required_argument, NULL, 'l' },
		{ "inner-trips", required_argument, NULL, 't' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "align", required_argument, NULL, 'A' },
		{ "paper", required_argument, NULL, 'p' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "block", required_argument, NULL, 'b' },
		{ "variant", required_argument, NULL, 'v' },
		{ "n", required_argument, NULL, 'N' },
		{ "dump-core", no_argument, NULL, 'D' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum cli_format fmt = CLI_FMT_TABLE;
	const char *machine_path = NULL, *cpu = NULL, *out_path = NULL;
	const char *paper = NULL, *kernel = NULL;
	struct ppr_err err = { 0 };
	struct machine m;
	int have_machine = 0, dump = 0;
	struct run r;
	struct kernel_params kp;
	struct kernel_run *krun = NULL;
	unsigned long long v;
	FILE *out = NULL;
	int c, rc = 0;

	memset(&r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	memset(&kp, 0, sizeof(kp));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:m:c:l:t:n:p:k:b:v:f:o:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			r.asm_path = optarg;
			break;
		case 'm':
			machine_path = optarg;
			break;
		case 'c':
			cpu = optarg;
			break;
		case 'l':
			r.loop_label = optarg;
			break;
		case 't':
			if (cli_parse_u64(optarg, &v) || v < 1 || v > 100000)
				return cli_usage_error(usage_text,
					"dag: --inner-trips must be an integer "
					"in 1..100000, not '%s'", optarg);
			r.opts.inner_trips = (unsigned)v;
			break;
		case 'n':
			if (cli_parse_u64(optarg, &v) || v < 4 || v > 1000000)
				return cli_usage_error(usage_text,
					"dag: --iterations must be an integer "
					"in 4..1000000, not '%s'", optarg);
			r.opts.iterations = (unsigned)v;
			break;
		case 'A':
			if (!strcmp(optarg, "expected"))
				r.opts.align = DAG_ALIGN_EXPECTED;
			else if (!strcmp(optarg, "aligned"))
				r.opts.align = DAG_ALIGN_ALIGNED;
			else if (!strcmp(optarg, "split"))
				r.opts.align = DAG_ALIGN_SPLIT;
			else
				return cli_usage_error(usage_text,
					"dag: unknown --align '%s' (expected "
					"expected, aligned or split)", optarg);
			break;
		case 'p':
			paper = optarg;
			break;
		case 'k':
			kernel = optarg;
			break;
		case 'b':
			if (kernel_block_parse(optarg, &kp.block_r, &kp.block_c))
				return cli_usage_error(usage_text,
					"dag: --block '%s': expected RxC with R, "
					"C in 1..8", optarg);
			break;
		case 'v':
			if (kernel_variant_parse(optarg, &kp.variant))
				return cli_usage_error(usage_text,
					"dag: --variant '%s': expected naive, "
					"avx2-unaligned or avx2-aligned", optarg);
			break;
		case 'N':
			if (cli_parse_u64(optarg, &v) || !v)
				return cli_usage_error(usage_text,
					"dag: --n '%s': expected a positive "
					"integer", optarg);
			kp.n = v;
			break;
		case 'D':
			dump = 1;
			break;
		case 'f':
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_text,
					"dag: unknown format '%s' (expected "
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
				"dag: option '%s' needs a value",
				argv[optind - 1]);
		default:
			return cli_usage_error(usage_text,
				"dag: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (kernel && optind == argc - 1) {
		kp.input = argv[optind++];
		if (cli_check_gen(usage_text, kp.input))
			return 2;
	}
	if (optind < argc)
		return cli_usage_error(usage_text,
				       "dag: unexpected argument '%s'",
				       argv[optind]);
	if (!kernel && (kp.block_r || kp.n || kp.variant))
		return cli_usage_error(usage_text, "dag: --block, --variant "
				       "and --n go with --kernel");
	if (machine_path && cpu)
		return cli_usage_error(usage_text,
				       "dag: give --machine or --cpu, not both");
	if (!!r.asm_path + !!paper + !!kernel + dump != 1)
		return cli_usage_error(usage_text, "dag: give exactly one of "
				       "--asm, --paper, --kernel, --dump-core");
	if (kernel) {
		const struct kernel_desc *kd = kernel_desc_find(kernel);

		if (!kd)
			return cli_usage_error(usage_text, "dag: unknown kernel "
				"'%s' (expected spmv-csr, spmv-bcsr, conv1d, "
				"fft1d or fft3d)", kernel);
		if (!kd->needs_matrix && kp.input)
			return cli_usage_error(usage_text, "dag: kernel %s takes "
				"no MATRIX argument ('%s')", kernel, kp.input);
		if (kd->id != KERNEL_SPMV_BCSR && kp.block_r)
			return cli_usage_error(usage_text, "dag: --block goes "
					       "with spmv-bcsr");
		if (kd->id == KERNEL_SPMV_BCSR && !kp.block_r)
			kp.block_r = kp.block_c = 2;
		kp.kernel = kd->name;
		r.kernel = kd->name;
	}
	/* the core */
	if (machine_path) {
		if (machine_load(machine_path, &m, &err))
			return cli_error_err(&err);
		have_machine = 1;
		if (!m.has_core) {
			rc = cli_error("%s: no \"core\" section: the DAG needs a "
				       "core model (or use --cpu)", machine_path);
			goto done;
		}
		r.core = &m.core;
		r.machine_name = m.name;
	} else {
		if (!cpu)
			cpu = "zen5";
		r.core = dag_core_builtin(cpu);
		if (!r.core)
			return cli_usage_error(usage_text,
				"dag: unknown --cpu '%s' (expected haswell, "
				"zen4, zen5, zen, goldencove or glc)", cpu);
		r.machine_name = "built-in";
	}
	out = cli_open_out(out_path);
	if (!out) {
		rc = 1;
		goto done;
	}
	if (dump) {
		rc = dump_core(out, r.core);
		goto close;
	}
	if (paper) {
		rc = run_paper(out, paper, r.core, r.machine_name, fmt);
		goto close;
	}
	r.prog = dag_prog_new();
	if (kernel) {
		rc = kernel_setup(&r, &kp, &krun, &err);
		if (rc < 0) {
			rc = cli_error_err(&err);
			goto close;
		}
	} else if (dag_asm_parse_file(r.prog, r.asm_path, &err) ||
	    dag_loop_find(r.prog, r.loop_label, &r.loop, &err) ||
	    dag_sched_run(r.prog, &r.loop, r.core, &r.opts, &r.res, &err)) {
		rc = cli_error_err(&err);
		goto close;
	}
	if (fmt == CLI_FMT_JSON)
		rc = print_json(out, &r);
	else if (fmt == CLI_FMT_CSV)
		print_csv(out, &r);
	else
		print_table(out, &r);
close:
	if (cli_close_out(out, out_path))
		rc = 1;
done:
	kernel_run_free(krun);
	dag_prog_free(r.prog);
	if (have_machine)
		machine_release(&m);
	return rc;
}
