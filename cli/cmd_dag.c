/*
 * cmd_dag.c - `ppr dag`: schedule a loop's instructions on a core model and
 * report cycles per iteration, port pressure, the critical chain and the
 * bottleneck (in the style of llvm-mca's summary), with PPR's
 * S_DAG(compute) and S_DAG(memory); or the paper's hand counts.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "dag/dag.h"
#include "machines/machine.h"

PPR_COMMAND(dag, "schedule a loop's instructions on a core (in-core cycles)")

static const char usage_text[] =
	"usage: ppr dag --asm FILE [--machine M.json | --cpu NAME] [options]\n"
	"       ppr dag --paper KERNEL [--machine M.json | --cpu NAME]\n"
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
	"  -c, --cpu NAME          built-in core: haswell | zen5 (alias zen)\n"
	"                          (default: zen5, the machine the tests run on)\n"
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
	"  -k, --kernel K          a native kernel's loop (not available yet)\n"
	"      --dump-core         print the core model as a machine-file \"core\"\n"
	"                          section (JSON)\n"
	"  -f, --format FMT        table | csv | json (default table)\n"
	"  -o, --output FILE       write the result to FILE\n"
	"  -h, --help              show this help\n";

struct run {
	const char *asm_path;
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
	fprintf(f, "Dispatch width:    %u\n", c->issue_width);
	fprintf(f, "IPC:               %.2f\n", s->ipc);
	fprintf(f, "Cycles/iteration:  %.2f cy\n", s->cycles_per_iter);
	if (r->opts.inner_trips)
		fprintf(f, "Cycles/inner iter: %.2f cy\n", s->cycles_per_inner);
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

static void port_list(cJSON *o, const char *key, const struct dag_core *c,
		      uint32_t mask)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);

	for (unsigned q = 0; q < c->nports; q++)
		if (mask & (1u << q))
			cJSON_AddItemToArray(a, cJSON_CreateString(c->port_name[q]));
}

static int dump_core(FILE *f, const struct dag_core *c)
{
	cJSON *root = cJSON_CreateObject(), *core, *ports, *cls;
	char *text;

	core = cJSON_AddObjectToObject(root, "core");
	cJSON_AddStringToObject(core, "name", c->name);
	cJSON_AddNumberToObject(core, "issue_width", c->issue_width);
	cJSON_AddNumberToObject(core, "retire_width", c->retire_width);
	cJSON_AddNumberToObject(core, "rob_size", c->rob_size);
	cJSON_AddNumberToObject(core, "scheduler_size", c->sched_size);
	ports = cJSON_AddArrayToObject(core, "ports");
	for (unsigned q = 0; q < c->nports; q++)
		cJSON_AddItemToArray(ports, cJSON_CreateString(c->port_name[q]));
	port_list(core, "load_ports", c, c->load_ports);
	if (c->vec_load_ports)
		port_list(core, "vector_load_ports", c, c->vec_load_ports);
	port_list(core, "store_address_ports", c, c->store_addr_ports);
	port_list(core, "store_data_ports", c, c->store_data_ports);
	cJSON_AddNumberToObject(core, "load_latency_gpr", c->load_lat_gpr);
	cJSON_AddNumberToObject(core, "load_latency_vec", c->load_lat_vec);
	cJSON_AddNumberToObject(core, "line_split_load_slots", c->line_split_slots);
	cJSON_AddNumberToObject(core, "line_split_load_latency",
				c->line_split_latency);
	cJSON_AddNumberToObject(core, "store_forward_latency", c->store_forward_lat);
	cJSON_AddNumberToObject(core, "wide512_occupancy", c->wide512_occupancy);
	cJSON_AddNumberToObject(core, "load512_slots", c->load512_slots);
	cJSON_AddBoolToObject(core, "move_elimination_gpr", c->move_elim_gpr);
	cJSON_AddBoolToObject(core, "move_elimination_vec", c->move_elim_vec);
	cJSON_AddBoolToObject(core, "zero_idioms", c->zero_idioms);
	cJSON_AddBoolToObject(core, "macro_fusion", c->macro_fusion);
	cJSON_AddBoolToObject(core, "unlaminate_indexed", c->unlaminate_indexed);
	cls = cJSON_AddObjectToObject(core, "classes");
	for (int i = 0; i < DAG_NCLASSES; i++) {
		const struct dag_cost *k = &c->cost[i];
		cJSON *o;

		if (!k->valid)
			continue;
		o = cJSON_AddObjectToObject(cls, dag_class_name((enum dag_class)i));
		cJSON_AddNumberToObject(o, "latency", k->latency);
		cJSON_AddNumberToObject(o, "uops", k->uops);
		port_list(o, "ports", c, k->ports);
		cJSON_AddNumberToObject(o, "occupancy", k->occupancy);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return cli_error("out of memory");
	fprintf(f, "%s\n", text);
	cJSON_free(text);
	return 0;
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
	unsigned long long v;
	FILE *out = NULL;
	int c, rc = 0;

	memset(&r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:m:c:l:t:n:p:k:f:o:h", opts,
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
	if (optind < argc)
		return cli_usage_error(usage_text,
				       "dag: unexpected argument '%s'",
				       argv[optind]);
	if (machine_path && cpu)
		return cli_usage_error(usage_text,
				       "dag: give --machine or --cpu, not both");
	if (!!r.asm_path + !!paper + !!kernel + dump != 1)
		return cli_usage_error(usage_text, "dag: give exactly one of "
				       "--asm, --paper, --kernel, --dump-core");
	if (kernel)
		return cli_error("--kernel '%s': the native kernels' extracted "
				 "loops are not in this build yet; use --asm "
				 "with the kernel's assembly", kernel);
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
				"zen5 or zen)", cpu);
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
	if (dag_asm_parse_file(r.prog, r.asm_path, &err) ||
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
	dag_prog_free(r.prog);
	if (have_machine)
		machine_release(&m);
	return rc;
}
