/*
 * test_dagcore.c - the "core" section of machine files (machines/
 * core_model.c): the shipped files carry the same model as the built-in
 * tables, the paper's counts come out of machines/haswell.json, and a bad
 * core section is one positioned error line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "dag/dag.h"
#include "machines/machine.h"
#include "t.h"

static void same_core(const struct dag_core *a, const struct dag_core *b)
{
	T_STR(a->name, b->name);
	T_EQ_U64(a->issue_width, b->issue_width);
	T_EQ_U64(a->retire_width, b->retire_width);
	T_EQ_U64(a->rob_size, b->rob_size);
	T_EQ_U64(a->bcsr_window, b->bcsr_window);
	T_EQ_U64(a->prf_free_gpr, b->prf_free_gpr);
	T_EQ_U64(a->prf_free_vec, b->prf_free_vec);
	T_EQ_U64(a->load_queue, b->load_queue);
	T_EQ_U64(a->sched_size, b->sched_size);
	T_EQ_U64(a->nports, b->nports);
	for (unsigned q = 0; q < a->nports && q < b->nports; q++)
		T_STR(a->port_name[q], b->port_name[q]);
	T_EQ_U64(a->load_ports, b->load_ports);
	T_EQ_U64(a->vec_load_ports, b->vec_load_ports);
	T_EQ_U64(a->store_addr_ports, b->store_addr_ports);
	T_EQ_U64(a->store_data_ports, b->store_data_ports);
	T_EQ_U64(a->load_lat_gpr, b->load_lat_gpr);
	T_EQ_U64(a->load_lat_vec, b->load_lat_vec);
	T_EQ_U64(a->line_split_slots, b->line_split_slots);
	T_EQ_U64(a->line_split512_slots, b->line_split512_slots);
	T_NEAR(a->issue_rate, b->issue_rate, 0);
	T_EQ_U64(a->fetch_width, b->fetch_width);
	T_NEAR(a->fetch_rate, b->fetch_rate, 0);
	T_EQ_U64(a->op_queue, b->op_queue);
	T_NEAR(a->load_rate, b->load_rate, 0);
	T_NEAR(a->line_split_mean, b->line_split_mean, 0);
	T_EQ_U64(a->line_split_latency, b->line_split_latency);
	T_EQ_U64(a->store_forward_lat, b->store_forward_lat);
	T_EQ_U64(a->wide512_occupancy, b->wide512_occupancy);
	T_EQ_U64(a->load512_slots, b->load512_slots);
	T_EQ_U64(a->move_elim_gpr, b->move_elim_gpr);
	T_EQ_U64(a->move_elim_vec, b->move_elim_vec);
	T_EQ_U64(a->zero_idioms, b->zero_idioms);
	T_EQ_U64(a->macro_fusion, b->macro_fusion);
	T_EQ_U64(a->unlaminate_indexed, b->unlaminate_indexed);
	T_EQ_U64(a->vec_load_mix_width, b->vec_load_mix_width);
	T_EQ_U64(a->vec_load_slots, b->vec_load_slots);
	T_EQ_U64(a->load_holds_queue, b->load_holds_queue);
	T_EQ_U64(a->nqueues, b->nqueues);
	for (unsigned q = 0; q < a->nqueues && q < b->nqueues; q++) {
		T_EQ_U64_AT(a->queue_ports[q], b->queue_ports[q], (int)q);
		T_EQ_U64_AT(a->queue_size[q], b->queue_size[q], (int)q);
	}
	for (int i = 0; i < DAG_NCLASSES; i++) {
		const struct dag_cost *x = &a->cost[i], *y = &b->cost[i];

		T_EQ_U64_AT(x->valid, y->valid, i);
		T_EQ_U64_AT(x->latency, y->latency, i);
		T_EQ_U64_AT(x->uops, y->uops, i);
		T_EQ_U64_AT(x->ports, y->ports, i);
		T_EQ_U64_AT(x->occupancy, y->occupancy, i);
	}
}

static void test_shipped(void)
{
	static const struct {
		const char *file, *core;
	} rows[] = {
		{ "machines/haswell.json", "haswell" },
		{ "machines/zen4-epyc.json", "zen5" },
		{ "machines/zen4-genoa.json", "zen4" },
		{ "machines/zen3-milan.json", "zen4" },
		{ "machines/xeon-gnr.json", "goldencove" },
		{ "machines/xeon-spr.json", "goldencove" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct machine m;
		struct ppr_err err = { 0 };
		char buf[1400];
		int rc = machine_load(rows[i].file, &m, &err);

		if (rc == PPR_ENOENT) {
			T_SKIP("machine files not found (run from the project root)");
			continue;
		}
		if (rc)
			fprintf(stderr, "  %s\n", ppr_err_format(&err, buf, sizeof(buf)));
		T_CHECK(rc == 0);
		if (rc)
			continue;
		T_CHECK(m.has_core);
		same_core(&m.core, dag_core_builtin(rows[i].core));
		/* paper mode on the machine file (ppr-model.md sections 4-5) */
		if (!strcmp(rows[i].core, "haswell")) {
			struct dag_paper p;

			T_CHECK(dag_paper_eval("conv1", &m.core, &p, &err) == 0);
			T_CHECK(p.compute_cycles == 128 && p.memory_cycles == 128);
			T_CHECK(dag_paper_eval("conv2", &m.core, &p, &err) == 0);
			T_CHECK(p.compute_cycles == 16 && p.memory_cycles == 32);
			T_CHECK(dag_paper_eval("conv3", &m.core, &p, &err) == 0);
			T_CHECK(p.compute_cycles == 16 && p.memory_cycles == 16);
			T_CHECK(dag_paper_eval("csr", &m.core, &p, &err) == 0);
			T_CHECK(p.compute_cycles == 1 && p.memory_cycles == 5);
		}
		machine_release(&m);
	}
}

/* A core with every optional limit set, written as a "core" section and
 * read back: the same model (machine_core_to_json is what `ppr dag
 * --dump-core` and `ppr machine detect` write). */
static void test_roundtrip(void)
{
	struct dag_core c = *dag_core_builtin("zen4");
	struct machine m;
	struct ppr_err err = { 0 };
	cJSON *core;
	char *js, *text;
	size_t n;
	static const char head[] = "{\"name\": \"t\", \"hierarchy\": "
		"{\"levels\": [{\"name\": \"L1\", \"size_bytes\": 32768, "
		"\"ways\": 8, \"cl_size\": 64}]}, \"core\": ";

	c.prf_free_gpr = 204;
	c.prf_free_vec = 154;
	c.load_queue = 134;
	core = machine_core_to_json(&c);
	T_CHECK(core != NULL);
	if (!core)
		return;
	js = cJSON_PrintUnformatted(core);
	cJSON_Delete(core);
	T_CHECK(js != NULL);
	if (!js)
		return;
	n = strlen(head) + strlen(js) + 2;
	text = malloc(n);
	T_CHECK(text != NULL);
	if (text) {
		int rc;

		snprintf(text, n, "%s%s}", head, js);
		rc = machine_load_string("t.json", text, strlen(text), &m, &err);
		T_CHECK(rc == 0);
		if (!rc) {
			same_core(&m.core, &c);
			machine_release(&m);
		}
		free(text);
	}
	cJSON_free(js);
}

/* A minimal machine file around a core section. */
#define HEAD "{\"name\": \"t\", \"hierarchy\": {\"levels\": [{\"name\": \"L1\", " \
	"\"size_bytes\": 32768, \"ways\": 8, \"cl_size\": 64}]},\n\"core\": "
#define CORE_OK "{\"issue_width\": 4, \"rob_size\": 100, \"scheduler_size\": 50,\n" \
	"\"ports\": [\"a\", \"b\"], \"load_ports\": [\"a\"], " \
	"\"store_address_ports\": [\"a\"], \"store_data_ports\": [\"b\"],\n" \
	"\"load_latency_gpr\": 4,\n\"classes\": {\"int_alu\": {\"latency\": 1, " \
	"\"ports\": [\"a\", \"b\"]}"

static void test_bad(void)
{
	static const struct {
		int line;
		const char *text;
		const char *err;
	} rows[] = {
		{ __LINE__, HEAD CORE_OK "}}}", NULL },
		{ __LINE__, HEAD CORE_OK "}, \"issue_rate\": 3.5}}", NULL },
		{ __LINE__, HEAD CORE_OK "}, \"line_split_load_slots_mean\": 2.5}}",
		  NULL },
		{ __LINE__, HEAD CORE_OK "}, \"line_split_load_slots_mean\": 0.5}}",
		  "t.json:2:1: core 'core': line-split load slots on average "
		  "must be 1 or more, or 0" },
		{ __LINE__, HEAD CORE_OK "}, \"issue_rate\": 4.5}}",
		  "t.json:5:62: 'issue_rate' must be 1..issue_width (4), or 0" },
		{ __LINE__, HEAD CORE_OK "}, \"rob\": 1}}",
		  "t.json:5:62: unknown key 'rob' in 'core' (allowed: name, "
		  "source, issue_width, issue_rate, retire_width, rob_size, "
		  "scheduler_size, "
		  "ports, load_ports, vector_load_ports, store_address_ports, "
		  "store_data_ports, "
		  "load_latency_gpr, load_latency_vec, "
		  "load_latency_complex_address, load_latency_sign_extend, "
		  "line_split_load_slots, "
		  "line_split_load_latency, line_split_load512_slots, "
		  "line_split_load_slots_mean, "
		  "store_forward_latency, "
		  "wide512_occupancy, load512_slots, move_elimination_gpr, "
		  "move_elimination_vec, zero_idioms, macro_fusion, "
		  "unlaminate_indexed, classes, scheduler_queues, "
		  "load_holds_queue, vector_load_mix_width, vector_load_slots, "
		  "fetch_width, fetch_rate, op_queue, load_rate, "
		  "free_registers_gpr, free_registers_vec, load_queue, bcsr_window)" },
		{ __LINE__, HEAD CORE_OK "}, \"free_registers_gpr\": 204, "
		  "\"free_registers_vec\": 154, \"load_queue\": 134}}", NULL },
		{ __LINE__, HEAD CORE_OK "}, \"free_registers_vec\": -1}}",
		  "t.json:5:62: 'free_registers_vec' must be a non-negative "
		  "integer" },
		{ __LINE__, HEAD CORE_OK "}, \"fetch_width\": 9, "
		  "\"fetch_rate\": 0.94, \"op_queue\": 36, "
		  "\"load_rate\": 2.5}}", NULL },
		{ __LINE__, HEAD CORE_OK "}, \"fetch_rate\": 1.5}}",
		  "t.json:5:62: 'fetch_rate' must be 0..1 (fetch blocks per "
		  "cycle)" },
		{ __LINE__, HEAD CORE_OK "}, \"fetch_width\": 9, "
		  "\"op_queue\": 4}}",
		  "t.json:5:80: 'op_queue' must be at least fetch_width (9), "
		  "or 0" },
		{ __LINE__, HEAD CORE_OK "}, \"load_rate\": -1}}",
		  "t.json:5:62: 'load_rate' must be a non-negative number" },
		{ __LINE__, HEAD CORE_OK "}, \"scheduler_queues\": [{\"ports\": "
		  "[\"a\"], \"size\": 8}, {\"ports\": [\"b\"], \"size\": 4}], "
		  "\"vector_load_mix_width\": 3, \"vector_load_slots\": 2, "
		  "\"load_latency_complex_address\": 1, "
		  "\"load_latency_sign_extend\": 1}}", NULL },
		{ __LINE__, HEAD CORE_OK "}, \"load_latency_sign_extend\": -1}}",
		  "t.json:5:62: 'load_latency_sign_extend' must be a non-negative "
		  "integer" },
		{ __LINE__, HEAD CORE_OK "}, \"scheduler_queues\": [{\"ports\": "
		  "[\"a\"]}]}}",
		  "t.json:5:83: missing required key 'size'" },
		{ __LINE__, HEAD CORE_OK "}, \"scheduler_queues\": [{\"ports\": "
		  "[\"z\"], \"size\": 8}]}}",
		  "t.json:5:94: 'ports': unknown port 'z' (not in 'ports')" },
		{ __LINE__, HEAD CORE_OK "}, \"scheduler_queues\": [4]}}",
		  "t.json:5:83: 'scheduler_queues' items must be objects" },
		{ __LINE__, HEAD CORE_OK ", \"fp_foo\": {\"latency\": 1}}}}",
		  "t.json:5:61: unknown instruction class 'fp_foo' in 'classes'" },
		{ __LINE__, HEAD CORE_OK ", \"fp_add\": {\"latency\": 3, "
		  "\"ports\": [\"c\"]}}}}",
		  "t.json:5:96: 'ports': unknown port 'c' (not in 'ports')" },
		{ __LINE__, HEAD CORE_OK ", \"fp_add\": {\"latency\": 3}}}}",
		  "t.json:5:61: class 'fp_add': 'ports' must name at least one "
		  "port when 'uops' > 0" },
		{ __LINE__, HEAD "{\"issue_width\": 0}}",
		  "t.json:2:10: 'issue_width' must be a positive integer" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct machine m;
		struct ppr_err err = { 0 };
		char buf[1400];
		int rc = machine_load_string("t.json", rows[i].text,
					     strlen(rows[i].text), &m, &err);

		if (!rows[i].err) {
			if (rc)
				fprintf(stderr, "  %s\n",
					ppr_err_format(&err, buf, sizeof(buf)));
			T_CHECK_AT(rc == 0, rows[i].line);
			if (!rc) {
				T_CHECK_AT(m.has_core, rows[i].line);
				T_EQ_U64_AT(m.core.nports, 2, rows[i].line);
				T_CHECK_AT(!m.core.cost[DAG_FP_ADD].valid, rows[i].line);
				machine_release(&m);
			}
			continue;
		}
		T_CHECK_AT(rc == PPR_EFORMAT, rows[i].line);
		T_STR_AT(ppr_err_format(&err, buf, sizeof(buf)), rows[i].err,
			 rows[i].line);
		if (!rc)
			machine_release(&m);
	}
}

int main(void)
{
	test_shipped();
	test_roundtrip();
	test_bad();
	return t_done();
}
