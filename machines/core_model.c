/*
 * core_model.c - the "core" section of a machine file: the in-core model
 * the instruction-DAG scheduler runs on (struct dag_core in dag/dag.h).
 *
 *   "core": {
 *     "name": "haswell",
 *     "source": "where the figures come from",
 *     "issue_width": 4, "issue_rate": 3.5 (optional), "retire_width": 4,
 *     "rob_size": 192, "scheduler_size": 60,
 *     "ports": ["p0", "p1", ...],
 *     "load_ports": ["p2", "p3"], "vector_load_ports": [...] (optional),
 *     "store_address_ports": [...],
 *     "store_data_ports": ["p4"],
 *     "load_latency_gpr": 5, "load_latency_vec": 6,
 *     "line_split_load_slots": 2, "line_split_load_latency": 4,
 *     "line_split_load512_slots": 3 (optional),
 *     "line_split_load_slots_mean": 2.5 (optional),
 *     "store_forward_latency": 5,
 *     "wide512_occupancy": 1, "load512_slots": 1,
 *     "move_elimination_gpr": true, "move_elimination_vec": true,
 *     "zero_idioms": true, "macro_fusion": true, "unlaminate_indexed": true,
 *     "scheduler_queues": [{"ports": ["alu0", ...], "size": 88}, ...]
 *                         (optional), "load_holds_queue": false,
 *     "vector_load_mix_width": 0 (optional),
 *     "vector_load_slots": 0 (optional),
 *     "classes": {
 *       "fp_fma": { "latency": 5, "uops": 1, "ports": ["p0", "p1"],
 *                   "occupancy": 1 },
 *       ...
 *     }
 *   }
 *
 * A class absent from "classes" is not available on the core: scheduling
 * an instruction of that class is an error.  `ppr dag --cpu NAME
 * --dump-core` prints a built-in core in this form.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "dag/dag.h"
#include "machines/machine.h"
#include "machines/machine_int.h"

static const char *const core_keys[] = {
	"name", "source", "issue_width", "issue_rate", "retire_width",
	"rob_size",
	"scheduler_size", "ports", "load_ports", "vector_load_ports",
	"store_address_ports",
	"store_data_ports", "load_latency_gpr", "load_latency_vec",
	"load_latency_complex_address", "load_latency_sign_extend",
	"line_split_load_slots", "line_split_load_latency",
	"line_split_load512_slots", "line_split_load_slots_mean",
	"store_forward_latency", "wide512_occupancy", "load512_slots",
	"move_elimination_gpr", "move_elimination_vec", "zero_idioms",
	"macro_fusion", "unlaminate_indexed", "classes",
	"scheduler_queues", "load_holds_queue", "vector_load_mix_width",
	"vector_load_slots", "fetch_width", "fetch_rate", "op_queue",
	"load_rate", "free_registers_gpr", "free_registers_vec",
	"load_queue", "bcsr_window", NULL
};

static const char *const class_keys[] = { "latency", "uops", "ports",
	"occupancy", NULL };
static const char *const queue_keys[] = { "ports", "size", NULL };

static int port_name_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n >= max)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int port_index(const struct dag_core *c, const char *name)
{
	for (unsigned q = 0; q < c->nports; q++)
		if (!strcmp(c->port_name[q], name))
			return (int)q;
	return -1;
}

/* An array of port names into a mask. */
static int port_mask(const struct machine_json *doc, const cJSON *obj,
		     const char *key, unsigned flags, const struct dag_core *c,
		     uint32_t *out, struct ppr_err *err)
{
	const cJSON *arr, *e;
	uint32_t m = 0;
	int rc;

	if ((rc = machine_json_get_array(doc, obj, key, flags, &arr, err)))
		return rc;
	if (!arr) {
		*out = 0;
		return 0;
	}
	cJSON_ArrayForEach(e, arr) {
		const char *s;
		int q;

		if ((rc = machine_json_item_string(doc, e, key, &s, err)))
			return rc;
		q = port_name_ok(s, sizeof(c->port_name[0])) ? port_index(c, s) : -1;
		if (q < 0)
			return machine_json_fail(doc, e, err, "'%s': unknown port "
						 "'%.*s' (not in 'ports')", key,
						 port_name_ok(s, 64) ? 63 : 0, s);
		m |= 1u << q;
	}
	if (!m && (flags & MACHINE_JSON_REQUIRED))
		return machine_json_fail(doc, arr, err, "'%s' must name at "
					 "least one port", key);
	*out = m;
	return 0;
}

static int get_uint(const struct machine_json *doc, const cJSON *obj,
		    const char *key, unsigned flags, uint64_t def,
		    uint64_t min, uint64_t max, unsigned *out,
		    struct ppr_err *err)
{
	uint64_t v;
	int rc = machine_json_get_u64(doc, obj, key, flags, def, min, max, &v,
				      err);

	if (!rc)
		*out = (unsigned)v;
	return rc;
}

int machine_core_parse(const struct machine_json *doc, const cJSON *obj,
		       struct dag_core *c, struct ppr_err *err)
{
	const cJSON *ports, *classes, *queues = NULL, *e;
	const char *name, *source;
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = machine_json_check_keys(doc, obj, "core", core_keys, err)) ||
	    (rc = machine_json_get_string(doc, obj, "name", 0, "core", &name,
					  err)) ||
	    (rc = machine_json_get_string(doc, obj, "source", 0, "", &source,
					  err)))
		return rc;
	snprintf(c->name, sizeof(c->name), "%.*s", (int)sizeof(c->name) - 1,
		 name);
	if ((rc = get_uint(doc, obj, "issue_width", MACHINE_JSON_REQUIRED, 0,
			   1, 64, &c->issue_width, err)) ||
	    (rc = get_uint(doc, obj, "retire_width", 0, c->issue_width, 1, 64,
			   &c->retire_width, err)) ||
	    (rc = get_uint(doc, obj, "rob_size", MACHINE_JSON_REQUIRED, 0, 1,
			   4096, &c->rob_size, err)) ||
	    (rc = get_uint(doc, obj, "bcsr_window", 0, 0, 0, 4096,
			   &c->bcsr_window, err)) ||
	    (rc = get_uint(doc, obj, "scheduler_size", MACHINE_JSON_REQUIRED,
			   0, 1, 4096, &c->sched_size, err)) ||
	    (rc = machine_json_get_double(doc, obj, "issue_rate",
					  MACHINE_JSON_NONNEG, 0, &c->issue_rate,
					  err)) ||
	    (rc = machine_json_get_array(doc, obj, "ports",
					 MACHINE_JSON_REQUIRED, &ports, err)))
		return rc;
	if (c->issue_rate > c->issue_width ||
	    (c->issue_rate > 0 && c->issue_rate < 1))
		return machine_json_fail(doc, cJSON_GetObjectItemCaseSensitive(
						 obj, "issue_rate"), err,
					 "'issue_rate' must be 1..issue_width "
					 "(%u), or 0", c->issue_width);
	if ((rc = get_uint(doc, obj, "fetch_width", 0, 0, 0, 64,
			   &c->fetch_width, err)) ||
	    (rc = get_uint(doc, obj, "op_queue", 0, 0, 0, 4096,
			   &c->op_queue, err)) ||
	    (rc = get_uint(doc, obj, "free_registers_gpr", 0, 0, 0, 4096,
			   &c->prf_free_gpr, err)) ||
	    (rc = get_uint(doc, obj, "free_registers_vec", 0, 0, 0, 4096,
			   &c->prf_free_vec, err)) ||
	    (rc = get_uint(doc, obj, "load_queue", 0, 0, 0, 4096,
			   &c->load_queue, err)) ||
	    (rc = machine_json_get_double(doc, obj, "load_rate",
					  MACHINE_JSON_NONNEG, 0, &c->load_rate,
					  err)) ||
	    (rc = machine_json_get_double(doc, obj, "fetch_rate",
					  MACHINE_JSON_NONNEG, 0, &c->fetch_rate,
					  err)))
		return rc;
	if (c->fetch_rate > 1)
		return machine_json_fail(doc, cJSON_GetObjectItemCaseSensitive(
						 obj, "fetch_rate"), err,
					 "'fetch_rate' must be 0..1 (fetch "
					 "blocks per cycle)");
	if (c->op_queue && c->op_queue < c->fetch_width)
		return machine_json_fail(doc, cJSON_GetObjectItemCaseSensitive(
						 obj, "op_queue"), err,
					 "'op_queue' must be at least "
					 "fetch_width (%u), or 0", c->fetch_width);
	cJSON_ArrayForEach(e, ports) {
		const char *s;

		if ((rc = machine_json_item_string(doc, e, "ports", &s, err)))
			return rc;
		if (c->nports == DAG_MAX_PORTS)
			return machine_json_fail(doc, e, err, "'ports': at most "
						 "%d ports", DAG_MAX_PORTS);
		if (!port_name_ok(s, sizeof(c->port_name[0])))
			return machine_json_fail(doc, e, err, "'ports': names "
						 "must be 1 to %zu letters, digits "
						 "or '_'",
						 sizeof(c->port_name[0]) - 1);
		if (port_index(c, s) >= 0)
			return machine_json_fail(doc, e, err, "'ports': duplicate "
						 "port '%s'", s);
		snprintf(c->port_name[c->nports], sizeof(c->port_name[0]), "%s", s);
		c->nports++;
	}
	if (!c->nports)
		return machine_json_fail(doc, ports, err, "'ports' must not be "
					 "empty");
	if ((rc = port_mask(doc, obj, "load_ports", MACHINE_JSON_REQUIRED, c,
			    &c->load_ports, err)) ||
	    (rc = port_mask(doc, obj, "vector_load_ports", 0, c,
			    &c->vec_load_ports, err)) ||
	    (rc = port_mask(doc, obj, "store_address_ports",
			    MACHINE_JSON_REQUIRED, c, &c->store_addr_ports, err)) ||
	    (rc = port_mask(doc, obj, "store_data_ports", MACHINE_JSON_REQUIRED,
			    c, &c->store_data_ports, err)) ||
	    (rc = get_uint(doc, obj, "load_latency_gpr", MACHINE_JSON_REQUIRED,
			   0, 1, 1000, &c->load_lat_gpr, err)) ||
	    (rc = get_uint(doc, obj, "load_latency_vec", 0, c->load_lat_gpr, 1,
			   1000, &c->load_lat_vec, err)) ||
	    (rc = get_uint(doc, obj, "load_latency_complex_address", 0, 0, 0,
			   1000, &c->load_lat_complex, err)) ||
	    (rc = get_uint(doc, obj, "load_latency_sign_extend", 0, 0, 0,
			   1000, &c->load_lat_sext, err)) ||
	    (rc = get_uint(doc, obj, "line_split_load_slots", 0, 2, 1, 16,
			   &c->line_split_slots, err)) ||
	    (rc = get_uint(doc, obj, "line_split_load_latency", 0, 0, 0, 1000,
			   &c->line_split_latency, err)) ||
	    (rc = get_uint(doc, obj, "line_split_load512_slots", 0, 0, 0, 16,
			   &c->line_split512_slots, err)) ||
	    (rc = machine_json_get_double(doc, obj,
					  "line_split_load_slots_mean",
					  MACHINE_JSON_NONNEG, 0,
					  &c->line_split_mean, err)) ||
	    (rc = get_uint(doc, obj, "store_forward_latency", 0, 5, 0, 1000,
			   &c->store_forward_lat, err)) ||
	    (rc = get_uint(doc, obj, "wide512_occupancy", 0, 1, 1, 16,
			   &c->wide512_occupancy, err)) ||
	    (rc = get_uint(doc, obj, "load512_slots", 0, 1, 1, 16,
			   &c->load512_slots, err)) ||
	    (rc = machine_json_get_bool(doc, obj, "move_elimination_gpr", 0, 0,
					&c->move_elim_gpr, err)) ||
	    (rc = machine_json_get_bool(doc, obj, "move_elimination_vec", 0, 0,
					&c->move_elim_vec, err)) ||
	    (rc = machine_json_get_bool(doc, obj, "zero_idioms", 0, 0,
					&c->zero_idioms, err)) ||
	    (rc = machine_json_get_bool(doc, obj, "macro_fusion", 0, 0,
					&c->macro_fusion, err)) ||
	    (rc = machine_json_get_bool(doc, obj, "unlaminate_indexed", 0, 0,
					&c->unlaminate_indexed, err)) ||
	    (rc = machine_json_get_bool(doc, obj, "load_holds_queue", 0, 0,
					&c->load_holds_queue, err)) ||
	    (rc = get_uint(doc, obj, "vector_load_mix_width", 0, 0, 0, 64,
			   &c->vec_load_mix_width, err)) ||
	    (rc = get_uint(doc, obj, "vector_load_slots", 0, 0, 0, 16,
			   &c->vec_load_slots, err)) ||
	    (rc = machine_json_get_array(doc, obj, "scheduler_queues", 0,
					 &queues, err)) ||
	    (rc = machine_json_get_object(doc, obj, "classes",
					  MACHINE_JSON_REQUIRED, &classes, err)))
		return rc;
	/* separate scheduler queues: [{"ports": [...], "size": N}, ...] */
	cJSON_ArrayForEach(e, queues) {
		unsigned q = c->nqueues;

		if (q == DAG_MAX_QUEUES)
			return machine_json_fail(doc, e, err, "'scheduler_queues': "
						 "at most %d queues",
						 DAG_MAX_QUEUES);
		if (!cJSON_IsObject(e))
			return machine_json_fail(doc, e, err, "'scheduler_queues' "
						 "items must be objects");
		if ((rc = machine_json_check_keys(doc, e, "scheduler_queues",
						  queue_keys, err)) ||
		    (rc = port_mask(doc, e, "ports", MACHINE_JSON_REQUIRED, c,
				    &c->queue_ports[q], err)) ||
		    (rc = get_uint(doc, e, "size", MACHINE_JSON_REQUIRED, 0, 1,
				   100000, &c->queue_size[q], err)))
			return rc;
		c->nqueues++;
	}
	cJSON_ArrayForEach(e, classes) {
		int k = dag_class_from_name(e->string);
		struct dag_cost *cost;

		if (k < 0)
			return machine_json_fail(doc, e, err, "unknown instruction "
						 "class '%.*s' in 'classes'",
						 port_name_ok(e->string, 64) ? 63 : 0,
						 e->string);
		cost = &c->cost[k];
		if (cost->valid)
			return machine_json_fail(doc, e, err, "duplicate key '%s'",
						 dag_class_name((enum dag_class)k));
		if ((rc = machine_json_check_keys(doc, e, dag_class_name(
						  (enum dag_class)k), class_keys,
						  err)) ||
		    (rc = get_uint(doc, e, "latency", MACHINE_JSON_REQUIRED, 0, 0,
				   1000, &cost->latency, err)) ||
		    (rc = get_uint(doc, e, "uops", 0, 1, 0, 64, &cost->uops,
				   err)) ||
		    (rc = port_mask(doc, e, "ports", 0, c, &cost->ports, err)) ||
		    (rc = get_uint(doc, e, "occupancy", 0, 1, 1, 1000,
				   &cost->occupancy, err)))
			return rc;
		if (cost->uops && !cost->ports)
			return machine_json_fail(doc, e, err, "class '%s': 'ports' "
						 "must name at least one port "
						 "when 'uops' > 0",
						 dag_class_name((enum dag_class)k));
		cost->valid = 1;
	}
	{
		struct ppr_err cerr = { 0 };

		if (dag_core_check(c, &cerr))
			return machine_json_fail(doc, obj, err, "%s", cerr.msg);
	}
	return 0;
}

/* ---- writing ------------------------------------------------------------ */

static void port_list(cJSON *o, const char *key, const struct dag_core *c,
		      uint32_t mask)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);

	for (unsigned q = 0; q < c->nports; q++)
		if (mask & (1u << q))
			cJSON_AddItemToArray(a, cJSON_CreateString(c->port_name[q]));
}

/* The core as a machine file's "core" object (what the loader above
 * reads back); NULL when out of memory. */
cJSON *machine_core_to_json(const struct dag_core *c)
{
	cJSON *core = cJSON_CreateObject(), *ports, *cls;

	if (!core)
		return NULL;
	cJSON_AddStringToObject(core, "name", c->name);
	cJSON_AddNumberToObject(core, "issue_width", c->issue_width);
	if (c->issue_rate > 0)
		cJSON_AddNumberToObject(core, "issue_rate", c->issue_rate);
	if (c->load_rate > 0)
		cJSON_AddNumberToObject(core, "load_rate", c->load_rate);
	if (c->prf_free_gpr)
		cJSON_AddNumberToObject(core, "free_registers_gpr",
					c->prf_free_gpr);
	if (c->prf_free_vec)
		cJSON_AddNumberToObject(core, "free_registers_vec",
					c->prf_free_vec);
	if (c->load_queue)
		cJSON_AddNumberToObject(core, "load_queue", c->load_queue);
	if (c->bcsr_window)
		cJSON_AddNumberToObject(core, "bcsr_window", c->bcsr_window);
	if (c->fetch_width) {
		cJSON_AddNumberToObject(core, "fetch_width", c->fetch_width);
		if (c->fetch_rate > 0)
			cJSON_AddNumberToObject(core, "fetch_rate",
						c->fetch_rate);
		if (c->op_queue)
			cJSON_AddNumberToObject(core, "op_queue", c->op_queue);
	}
	cJSON_AddNumberToObject(core, "retire_width", c->retire_width);
	cJSON_AddNumberToObject(core, "rob_size", c->rob_size);
	cJSON_AddNumberToObject(core, "scheduler_size", c->sched_size);
	ports = cJSON_AddArrayToObject(core, "ports");
	for (unsigned q = 0; q < c->nports; q++)
		cJSON_AddItemToArray(ports, cJSON_CreateString(c->port_name[q]));
	if (c->nqueues) {
		cJSON *qs = cJSON_AddArrayToObject(core, "scheduler_queues");

		for (unsigned q = 0; q < c->nqueues; q++) {
			cJSON *o = cJSON_CreateObject();

			port_list(o, "ports", c, c->queue_ports[q]);
			cJSON_AddNumberToObject(o, "size", c->queue_size[q]);
			cJSON_AddItemToArray(qs, o);
		}
		cJSON_AddBoolToObject(core, "load_holds_queue",
				      c->load_holds_queue);
	}
	port_list(core, "load_ports", c, c->load_ports);
	if (c->vec_load_ports)
		port_list(core, "vector_load_ports", c, c->vec_load_ports);
	port_list(core, "store_address_ports", c, c->store_addr_ports);
	port_list(core, "store_data_ports", c, c->store_data_ports);
	if (c->vec_load_mix_width)
		cJSON_AddNumberToObject(core, "vector_load_mix_width",
					c->vec_load_mix_width);
	if (c->vec_load_slots > 1)
		cJSON_AddNumberToObject(core, "vector_load_slots",
					c->vec_load_slots);
	cJSON_AddNumberToObject(core, "load_latency_gpr", c->load_lat_gpr);
	cJSON_AddNumberToObject(core, "load_latency_vec", c->load_lat_vec);
	cJSON_AddNumberToObject(core, "load_latency_complex_address",
				c->load_lat_complex);
	cJSON_AddNumberToObject(core, "load_latency_sign_extend", c->load_lat_sext);
	cJSON_AddNumberToObject(core, "line_split_load_slots", c->line_split_slots);
	if (c->line_split512_slots)
		cJSON_AddNumberToObject(core, "line_split_load512_slots",
					c->line_split512_slots);
	if (c->line_split_mean > 0)
		cJSON_AddNumberToObject(core, "line_split_load_slots_mean",
					c->line_split_mean);
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
	return core;
}
