/*
 * machine.c - the machine file loader: JSON text -> struct machine.
 *
 * Notes:
 *   - The file's vocabulary is documented key by key in machines/README.md;
 *     the tables below (allowed keys, enum strings, defaults) are the
 *     authority and the README follows them.
 *   - Everything the simulator is given is checked here first, with an
 *     error naming the key: geometry (size = sets x ways x cl_size, a
 *     power-of-two line size shared by all levels), level count, policy
 *     combinations the simulator does not model (write-back without
 *     write-allocate), and tree-PLRU's power-of-two ways.
 *   - A split first level is written as two entries of "levels", one with
 *     "role": "data" and one with "role": "instruction", in either order,
 *     first in the list.
 *   - The cJSON tree lives only inside machine_load_string(); the result
 *     is plain structs and xstrdup'ed strings.
 */
#include "machines/machine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "machines/machine_int.h"

#define MACHINE_MAX_FILE (16u << 20)

static const char *const top_keys[] = {
	"name", "description", "source", "clock_ghz", "cores", "hierarchy",
	"memory", "peak", "core", "branch", "validation", NULL
};
static const char *const validation_keys[] = {
	"spmv_csr", "bcsr_pick", "conv", NULL
};
static const char *const val_conv_keys[] = {
	"date", "command", "cells", "within_10", "median_abs_error",
	"worst_error", "worst_cell", "sizes", "best_right", NULL
};
static const char *const val_bcsr_keys[] = {
	"date", "command", "matrices", "at_least_95", "mean_share",
	"min_share", "min_matrix", "min_pick", "min_best", "close_min_share",
	"cost_mean", NULL
};
static const char *const val_keys[] = {
	"date", "command", "exit_share", "all", "exits", "rest", NULL
};
static const char *const val_group_keys[] = {
	"matrices", "median_abs_error", "p90_abs_error", "min_error",
	"min_matrix", "max_error", "max_matrix", NULL
};
static const char *const branch_keys[] = {
	"loop_exit_miss_cycles", "learned_exit_changes",
	"learned_exit_trips", "csr_unlearned_exponent", "csr_unlearned_max",
	"bcsr_learned_exit_changes", "history_rows", NULL
};
static const char *const hier_keys[] = {
	"levels", "straddle", "writebacks", "transfers_overlap",
	"bcsr_hidden_share", "bcsr_miss_load_ratio", NULL
};
static const char *const level_keys[] = {
	"name", "role", "size_bytes", "sets", "ways", "cl_size",
	"replacement_policy", "seed", "inclusion", "write_back",
	"write_allocate", "prefetch", "prefetch_degree", "prefetch_distance",
	"index", "bandwidth_bytes_per_cycle", "latency_cycles",
	"far_miss_cycles", "late_line_cycles", "shared_by_cores",
	"usable_ways", "usable_by", "lru_sets_share", "writeback_share",
	"fill_load_cycles", NULL
};
static const char *const mem_keys[] = {
	"bandwidth_gbs", "peak_bandwidth_gbs", "latency_ns", "far_miss_cycles",
	"late_line_cycles", "late_line_ns", "csr_bandwidth_gbs",
	"far_stream_serial", "writeback_share", "stream_jump_cycles",
	NULL
};
static const char *const peak_keys[] = {
	"flops_per_cycle_dp", "flops_per_cycle_sp", "simd_width_bits", "fma",
	"load_bytes_per_cycle", "store_bytes_per_cycle", NULL
};

static const struct machine_json_enum repl_tab[] = {
	{ "lru", SIM_REPL_LRU }, { "plru", SIM_REPL_PLRU },
	{ "fifo", SIM_REPL_FIFO }, { "random", SIM_REPL_RANDOM },
	{ "dip", SIM_REPL_DIP }, { "slru", SIM_REPL_SLRU }, { NULL, 0 }
};
static const struct machine_json_enum incl_tab[] = {
	{ "non_inclusive", SIM_INCL_NINE },
	{ "inclusive", SIM_INCL_INCLUSIVE },
	{ "exclusive", SIM_INCL_EXCLUSIVE },
	{ NULL, 0 }
};
static const struct machine_json_enum pf_tab[] = {
	{ "none", SIM_PF_NONE }, { "next_line", SIM_PF_NEXTLINE },
	{ "stream", SIM_PF_STREAM }, { NULL, 0 }
};
static const struct machine_json_enum index_tab[] = {
	{ "modulo", SIM_INDEX_MODULO }, { "hash", SIM_INDEX_HASH },
	{ NULL, 0 }
};
/* How a level's usable share is simulated (usable_ways, below). */
enum { USABLE_BY_WAYS, USABLE_BY_SETS };
static const struct machine_json_enum usable_tab[] = {
	{ "ways", USABLE_BY_WAYS }, { "sets", USABLE_BY_SETS }, { NULL, 0 }
};
static const struct machine_json_enum role_tab[] = {
	{ "unified", SIM_ROLE_UNIFIED }, { "data", SIM_ROLE_DATA },
	{ "instruction", SIM_ROLE_INSTR }, { NULL, 0 }
};
static const struct machine_json_enum straddle_tab[] = {
	{ "split", SIM_STRADDLE_SPLIT }, { "one", SIM_STRADDLE_ONE },
	{ NULL, 0 }
};

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* The error for a share (key of object o, read as non-negative) over 1. */
static int over_one(const struct machine_json *doc, const cJSON *o,
		    const char *key, double v, struct ppr_err *err)
{
	return machine_json_fail(doc, machine_json_member(o, key), err,
				 "'%s' must be between 0 and 1, got %g", key,
				 v);
}

/* late_line_cycles becomes the core model's load latency (model/
 * predict.c), which the core model keeps to 1000 cycles. */
#define MACHINE_MAX_LATE_LINE 1000

static int late_too_long(const struct machine_json *doc, const cJSON *o,
			 double v, struct ppr_err *err)
{
	return machine_json_fail(doc, machine_json_member(o,
				 "late_line_cycles"), err,
				 "'late_line_cycles' must be at most %d, got "
				 "%g", MACHINE_MAX_LATE_LINE, v);
}

/* A line's fill blocks the loads for a few cycles; more than this is a
 * typo (bytes for cycles). */
#define MACHINE_MAX_FILL_LOAD 64

/* One entry of "levels" into *lc and *ml. */
static int parse_level(const struct machine_json *doc, const cJSON *o,
		       struct sim_level_config *lc, struct machine_level *ml,
		       struct ppr_err *err)
{
	const char *name;
	uint64_t size, sets, ways, cl, seed, deg, dist, shared, usable;
	double fill_load;
	int role, repl, incl, pf, idx, wb, wa, by, rc;
	double bw, lat, far, late, lru_share, wbs;
	size_t k;

	if ((rc = machine_json_check_keys(doc, o, "levels[]", level_keys, err)))
		return rc;
	if ((rc = machine_json_get_string(doc, o, "name", MACHINE_JSON_REQUIRED,
					  NULL, &name, err)))
		return rc;
	if (!name[0] || strlen(name) >= SIM_NAME_MAX)
		return machine_json_fail(doc, machine_json_member(o, "name"),
					 err, "'name' must be 1 to %d "
					 "characters", SIM_NAME_MAX - 1);
	for (k = 0; name[k]; k++)
		if ((unsigned char)name[k] < 32 ||
		    (unsigned char)name[k] >= 127)
			return machine_json_fail(doc,
				machine_json_member(o, "name"), err,
				"'name' must be printable ASCII");
	if ((rc = machine_json_get_enum(doc, o, "role", 0, role_tab,
					SIM_ROLE_UNIFIED, &role, err)) ||
	    (rc = machine_json_get_u64(doc, o, "size_bytes",
				       MACHINE_JSON_REQUIRED, 0, 1, UINT64_MAX,
				       &size, err)) ||
	    (rc = machine_json_get_u64(doc, o, "ways", MACHINE_JSON_REQUIRED,
				       0, 1, UINT32_MAX, &ways, err)) ||
	    (rc = machine_json_get_u64(doc, o, "cl_size",
				       MACHINE_JSON_REQUIRED, 0, 1, UINT32_MAX,
				       &cl, err)) ||
	    (rc = machine_json_get_u64(doc, o, "sets", 0, 0, 1, UINT64_MAX,
				       &sets, err)))
		return rc;
	if (!is_pow2(cl))
		return machine_json_fail(doc, machine_json_member(o, "cl_size"),
					 err, "'cl_size' must be a power of two"
					 " (got %llu)", (unsigned long long)cl);
	if (cl < 8 || cl > (1u << 20))
		return machine_json_fail(doc, machine_json_member(o, "cl_size"),
					 err, "'cl_size' must be in 8..1048576 "
					 "(got %llu)", (unsigned long long)cl);
	if (!sets) {
		/* derived from size / (ways x cl_size), which must be exact */
		if (size % (ways * cl))
			return machine_json_fail(doc,
				machine_json_member(o, "size_bytes"), err,
				"'size_bytes' must be a multiple of ways x "
				"cl_size (%llu x %llu = %llu), got %llu",
				(unsigned long long)ways,
				(unsigned long long)cl,
				(unsigned long long)(ways * cl),
				(unsigned long long)size);
		sets = size / (ways * cl);
	} else if (sets > UINT64_MAX / ways / cl || sets * ways * cl != size) {
		return machine_json_fail(doc,
			machine_json_member(o, "size_bytes"), err,
			"'size_bytes' must equal sets x ways x cl_size "
			"(%llu x %llu x %llu), got %llu",
			(unsigned long long)sets, (unsigned long long)ways,
			(unsigned long long)cl, (unsigned long long)size);
	}
	if ((rc = machine_json_get_enum(doc, o, "replacement_policy", 0,
					repl_tab, SIM_REPL_LRU, &repl, err)) ||
	    (rc = machine_json_get_u64(doc, o, "seed", 0, 1, 0, UINT64_MAX,
				       &seed, err)) ||
	    (rc = machine_json_get_enum(doc, o, "inclusion", 0, incl_tab,
					SIM_INCL_NINE, &incl, err)) ||
	    (rc = machine_json_get_bool(doc, o, "write_back", 0, 1, &wb,
					err)) ||
	    (rc = machine_json_get_bool(doc, o, "write_allocate", 0, 1, &wa,
					err)) ||
	    (rc = machine_json_get_enum(doc, o, "prefetch", 0, pf_tab,
					SIM_PF_NONE, &pf, err)) ||
	    (rc = machine_json_get_u64(doc, o, "prefetch_degree", 0, 1, 1,
				       64, &deg, err)) ||
	    (rc = machine_json_get_u64(doc, o, "prefetch_distance", 0, 1, 1,
				       4096, &dist, err)) ||
	    (rc = machine_json_get_enum(doc, o, "index", 0, index_tab,
					SIM_INDEX_MODULO, &idx, err)) ||
	    (rc = machine_json_get_double(doc, o, "bandwidth_bytes_per_cycle",
					  MACHINE_JSON_NONNEG, 0, &bw, err)) ||
	    (rc = machine_json_get_double(doc, o, "latency_cycles",
					  MACHINE_JSON_NONNEG, 0, &lat, err)) ||
	    (rc = machine_json_get_double(doc, o, "far_miss_cycles",
					  MACHINE_JSON_NONNEG, 0, &far, err)) ||
	    (rc = machine_json_get_double(doc, o, "late_line_cycles",
					  MACHINE_JSON_NONNEG, 0, &late, err)) ||
	    (rc = machine_json_get_u64(doc, o, "shared_by_cores", 0, 1, 1,
				       UINT32_MAX, &shared, err)) ||
	    (rc = machine_json_get_u64(doc, o, "usable_ways", 0, ways, 1,
				       ways, &usable, err)) ||
	    (rc = machine_json_get_enum(doc, o, "usable_by", 0, usable_tab,
					USABLE_BY_WAYS, &by, err)) ||
	    (rc = machine_json_get_double(doc, o, "lru_sets_share",
					  MACHINE_JSON_NONNEG, 0, &lru_share,
					  err)) ||
	    (rc = machine_json_get_double(doc, o, "writeback_share",
					  MACHINE_JSON_NONNEG, 1, &wbs, err)) ||
	    (rc = machine_json_get_double(doc, o, "fill_load_cycles",
					  MACHINE_JSON_NONNEG, 0, &fill_load,
					  err)))
		return rc;
	if (fill_load > MACHINE_MAX_FILL_LOAD)
		return machine_json_fail(doc,
			machine_json_member(o, "fill_load_cycles"), err,
			"'fill_load_cycles' must be at most %d, got %g",
			MACHINE_MAX_FILL_LOAD, fill_load);
	if (wbs > 1)
		return over_one(doc, o, "writeback_share", wbs, err);
	if (lru_share > 1)
		return over_one(doc, o, "lru_sets_share", lru_share, err);
	if (late > MACHINE_MAX_LATE_LINE)
		return late_too_long(doc, o, late, err);
	if (machine_json_member(o, "lru_sets_share") && repl != SIM_REPL_DIP)
		return machine_json_fail(doc,
			machine_json_member(o, "lru_sets_share"), err,
			"'lru_sets_share' needs \"replacement_policy\": \"dip\"");
	if (sets * ways > (UINT64_C(1) << 34))
		return machine_json_fail(doc,
			machine_json_member(o, "size_bytes"), err,
			"'size_bytes' must hold at most 2^34 lines");
	if (repl == SIM_REPL_PLRU && (!is_pow2(ways) || ways > 64))
		return machine_json_fail(doc,
			machine_json_member(o, "replacement_policy"), err,
			"'replacement_policy' \"plru\" needs a power-of-two "
			"'ways' <= 64 (got %llu)", (unsigned long long)ways);
	if (incl == SIM_INCL_EXCLUSIVE && pf != SIM_PF_NONE)
		return machine_json_fail(doc,
			machine_json_member(o, "prefetch"), err,
			"'prefetch' must be \"none\" in an exclusive level");
	if (wb != wa)
		return machine_json_fail(doc,
			machine_json_member(o, "write_allocate"), err,
			"'write_allocate' must equal 'write_back': only "
			"write-back + write-allocate and write-through + "
			"no-write-allocate are simulated");

	if (repl == SIM_REPL_PLRU && usable != ways && !is_pow2(usable))
		return machine_json_fail(doc,
			machine_json_member(o, "usable_ways"), err,
			"'usable_ways' must be a power of two with \"plru\" "
			"replacement (got %llu)", (unsigned long long)usable);

	/*
	 * usable_ways < ways: the level is shared with cores the described
	 * program does not run on (other tenants of a virtual machine's
	 * host), whose lines hold the other ways; it is simulated with the
	 * same sets and the usable ways only.
	 */
	memset(lc, 0, sizeof(*lc));
	snprintf(lc->name, sizeof(lc->name), "%s", name);
	lc->role = (enum sim_role)role;
	lc->size = sets * usable * cl;
	lc->sets = sets;
	lc->ways = (uint32_t)usable;
	/*
	 * usable_by "sets": the share as that share of the sets, all ways
	 * kept.  With few ways usable, a sweep just over the share stays in
	 * the sets it gives no more lines than ways: on the Granite Rapids
	 * guest (2 of 16 ways, 62 MB) the simulator kept 31% of the 79 MB
	 * matrix of fem3d n=40 dof=2, which ran as if its L3 kept none
	 * (CSR 7.36 ms measured; 5.11 ms predicted with the ways, 7.31 with
	 * the sets, 2026-12-02).
	 */
	if (by == USABLE_BY_SETS && usable != ways) {
		uint64_t s2 = (sets * usable + ways / 2) / ways;

		lc->sets = s2 ? s2 : 1;
		lc->ways = (uint32_t)ways;
		lc->size = lc->sets * ways * cl;
	}
	lc->line_size = (uint32_t)cl;
	lc->repl = (enum sim_repl)repl;
	lc->seed = seed;
	lc->lru_sets_share = lru_share;
	lc->inclusion = (enum sim_incl)incl;
	lc->write = wb ? SIM_WRITE_BACK_ALLOCATE : SIM_WRITE_THROUGH_NOALLOCATE;
	lc->prefetch = (enum sim_prefetch)pf;
	lc->pf_degree = (uint32_t)deg;
	lc->pf_distance = (uint32_t)dist;
	lc->index = (enum sim_index)idx;
	ml->bandwidth_bytes_per_cycle = bw;
	ml->latency_cycles = lat;
	ml->far_miss_cycles = far;
	ml->late_line_cycles = late;
	ml->writeback_share = wbs;
	ml->fill_load_cycles = fill_load;
	ml->shared_by_cores = (unsigned)shared;
	ml->size_bytes = size;
	ml->ways = (uint32_t)ways;
	return 0;
}

static int parse_hierarchy(const struct machine_json *doc, const cJSON *h,
			   struct machine *m, struct ppr_err *err)
{
	const cJSON *levels, *e, *first = NULL;
	int straddle, rc, wbs;
	unsigned n = 0, k = 0, i, ref_cl = 0;
	int have_i = 0, have_d = 0;

	if ((rc = machine_json_check_keys(doc, h, "hierarchy", hier_keys,
					  err)) ||
	    (rc = machine_json_get_array(doc, h, "levels",
					 MACHINE_JSON_REQUIRED, &levels,
					 err)) ||
	    (rc = machine_json_get_enum(doc, h, "straddle", 0, straddle_tab,
					SIM_STRADDLE_SPLIT, &straddle, err)) ||
	    (rc = machine_json_get_bool(doc, h, "writebacks", 0, 1, &wbs,
					err)) ||
	    (rc = machine_json_get_bool(doc, h, "transfers_overlap", 0, 0,
					&m->transfers_overlap, err)) ||
	    (rc = machine_json_get_double(doc, h, "bcsr_hidden_share",
					  MACHINE_JSON_NONNEG, 0,
					  &m->bcsr_hidden_share, err)) ||
	    (rc = machine_json_get_double(doc, h, "bcsr_miss_load_ratio",
					  MACHINE_JSON_NONNEG, 0,
					  &m->bcsr_miss_load_ratio, err)))
		return rc;
	if (m->bcsr_hidden_share > 1)
		return over_one(doc, h, "bcsr_hidden_share",
				m->bcsr_hidden_share, err);
	if (m->bcsr_miss_load_ratio > 1)
		return over_one(doc, h, "bcsr_miss_load_ratio",
				m->bcsr_miss_load_ratio, err);
	m->hier.straddle = (enum sim_straddle)straddle;
	m->hier.writebacks = wbs;
	m->hier.classify_3c = 0;

	for (e = levels->child; e; e = e->next)
		n++;
	if (n == 0)
		return machine_json_fail(doc, levels, err,
					 "'levels' must have at least one "
					 "cache level");

	for (e = levels->child; e; e = e->next, k++) {
		struct sim_level_config lc;
		struct machine_level ml;

		if ((rc = parse_level(doc, e, &lc, &ml, err)))
			return rc;
		if (!first)
			first = e;
		if (!ref_cl)
			ref_cl = lc.line_size;
		if (lc.line_size != ref_cl)
			return machine_json_fail(doc,
				machine_json_member(e, "cl_size"), err,
				"'cl_size' must be the same in every level "
				"(%u in the first), got %u", ref_cl,
				lc.line_size);
		if (lc.role != SIM_ROLE_UNIFIED && k > 1)
			return machine_json_fail(doc,
				machine_json_member(e, "role"), err,
				"'role' \"%s\" is only allowed in the first two "
				"entries of 'levels' (a split L1)",
				lc.role == SIM_ROLE_DATA ? "data"
							 : "instruction");
		if (ml.fill_load_cycles > 0 &&
		    (lc.role == SIM_ROLE_INSTR || m->hier.nlevels > 0))
			return machine_json_fail(doc,
				machine_json_member(e, "fill_load_cycles"),
				err,
				"'fill_load_cycles' belongs to the first data "
				"level (the one the loads read), not \"%s\"",
				lc.name);
		if (lc.role == SIM_ROLE_INSTR) {
			if (have_i)
				return machine_json_fail(doc,
					machine_json_member(e, "role"), err,
					"'role' \"instruction\" may appear "
					"only once");
			have_i = 1;
			m->hier.l1i = lc;
			m->l1i = ml;
			continue;
		}
		if (lc.role == SIM_ROLE_DATA)
			have_d = 1;
		for (i = 0; i < m->hier.nlevels; i++)
			if (!strcmp(m->hier.levels[i].name, lc.name))
				break;
		if (i < m->hier.nlevels ||
		    (have_i && !strcmp(m->hier.l1i.name, lc.name)))
			return machine_json_fail(doc,
				machine_json_member(e, "name"), err,
				"'name' must be unique: \"%s\" is used twice",
				lc.name);
		if (m->hier.nlevels == SIM_MAX_LEVELS)
			return machine_json_fail(doc, e, err,
				"'levels' must have at most %d cache levels "
				"(plus an optional instruction cache)",
				SIM_MAX_LEVELS);
		if (m->hier.nlevels == 0 &&
		    lc.inclusion == SIM_INCL_EXCLUSIVE)
			return machine_json_fail(doc,
				machine_json_member(e, "inclusion"), err,
				"'inclusion' \"exclusive\" needs a level above:"
				" not allowed in the first level");
		if (lc.inclusion == SIM_INCL_EXCLUSIVE &&
		    m->hier.straddle == SIM_STRADDLE_ONE)
			return machine_json_fail(doc,
				machine_json_member(e, "inclusion"), err,
				"'inclusion' \"exclusive\" cannot be combined "
				"with 'straddle' \"one\"");
		if (lc.inclusion == SIM_INCL_EXCLUSIVE && m->hier.nlevels &&
		    (m->hier.levels[m->hier.nlevels - 1].write !=
		     SIM_WRITE_BACK_ALLOCATE ||
		     (m->hier.nlevels == 1 && have_i &&
		      m->hier.l1i.write != SIM_WRITE_BACK_ALLOCATE)))
			return machine_json_fail(doc,
				machine_json_member(e, "inclusion"), err,
				"'inclusion' \"exclusive\" needs write-back "
				"levels above it");
		if (m->hier.nlevels == 0 && lc.prefetch == SIM_PF_NEXTLINE)
			return machine_json_fail(doc,
				machine_json_member(e, "prefetch"), err,
				"'prefetch' \"next_line\" needs a level above:"
				" not allowed in the first level");
		m->level[m->hier.nlevels] = ml;
		m->hier.levels[m->hier.nlevels++] = lc;
	}
	if (have_i != have_d || (have_i && !m->hier.nlevels))
		return machine_json_fail(doc, first, err,
			"a split L1 needs one 'role' \"data\" and one 'role' "
			"\"instruction\" entry");
	if (!have_i && m->hier.nlevels)
		m->hier.levels[0].role = SIM_ROLE_UNIFIED;
	m->hier.split_l1 = have_i;
	if (!have_i) {
		/* a complete, inert L1I config */
		m->hier.l1i = m->hier.levels[0];
		snprintf(m->hier.l1i.name, sizeof(m->hier.l1i.name), "L1I");
		m->hier.l1i.role = SIM_ROLE_INSTR;
	}
	/* Backstop: whatever the simulator would refuse is refused here,
	 * so sim_hier_new() never fails on a loaded machine. */
	{
		struct ppr_err serr = { 0 };

		if (sim_config_check(&m->hier, &serr))
			return machine_json_fail(doc, levels, err,
						 "'levels': %s", serr.msg);
	}
	return 0;
}

/* memory.csr_bandwidth_gbs: [[nonzeros per row, GB/s], ...], row lengths
 * strictly increasing, both positive, 1..MACHINE_CSR_BW_MAX pairs. */
static int parse_csr_bandwidth(const struct machine_json *doc,
			       const cJSON *mem, struct machine *m,
			       struct ppr_err *err)
{
	const cJSON *arr = NULL, *e;
	unsigned n = 0;
	int rc;

	if ((rc = machine_json_get_array(doc, mem, "csr_bandwidth_gbs", 0, &arr,
					 err)) || !arr)
		return rc;
	if (!cJSON_GetArraySize(arr))
		return machine_json_fail(doc, arr, err,
					 "'csr_bandwidth_gbs' must not be empty");
	cJSON_ArrayForEach(e, arr) {
		if (n == MACHINE_CSR_BW_MAX)
			return machine_json_fail(doc, e, err,
						 "'csr_bandwidth_gbs' has more "
						 "than %d pairs",
						 MACHINE_CSR_BW_MAX);
		if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2)
			return machine_json_fail(doc, e, err,
						 "'csr_bandwidth_gbs' entries "
						 "must be [nonzeros per row, "
						 "GB/s] pairs");
		if ((rc = machine_json_item_double(doc, cJSON_GetArrayItem(e, 0),
						   "nonzeros per row",
						   MACHINE_JSON_POSITIVE,
						   &m->csr_bw_row_nnz[n], err)) ||
		    (rc = machine_json_item_double(doc, cJSON_GetArrayItem(e, 1),
						   "GB/s", MACHINE_JSON_POSITIVE,
						   &m->csr_bw_gbs[n], err)))
			return rc;
		if (n && m->csr_bw_row_nnz[n] <= m->csr_bw_row_nnz[n - 1])
			return machine_json_fail(doc, e, err,
						 "'csr_bandwidth_gbs' row lengths "
						 "must increase");
		n++;
	}
	m->csr_bw_points = n;
	return 0;
}

double machine_csr_bandwidth(const struct machine *m, double row_nnz)
{
	unsigned i, n = m->csr_bw_points;

	if (!n)
		return m->mem_bandwidth_gbs;
	if (row_nnz <= m->csr_bw_row_nnz[0])
		return m->csr_bw_gbs[0];
	for (i = 1; i < n; i++)
		if (row_nnz <= m->csr_bw_row_nnz[i]) {
			double f = (row_nnz - m->csr_bw_row_nnz[i - 1]) /
				   (m->csr_bw_row_nnz[i] -
				    m->csr_bw_row_nnz[i - 1]);

			return m->csr_bw_gbs[i - 1] +
			       f * (m->csr_bw_gbs[i] - m->csr_bw_gbs[i - 1]);
		}
	return m->csr_bw_gbs[n - 1];
}

/* One group of the validation (struct machine_val_group); absent when
 * optional and not in the file (g->matrices stays 0). */
static int parse_val_group(const struct machine_json *doc, const cJSON *v,
			   const char *key, unsigned flags,
			   struct machine_val_group *g, struct ppr_err *err)
{
	const cJSON *o;
	const char *mn, *mx;
	uint64_t n;
	int rc;

	if ((rc = machine_json_get_object(doc, v, key, flags, &o, err)))
		return rc;
	if (!o)
		return 0;
	if ((rc = machine_json_check_keys(doc, o, key, val_group_keys,
					  err)) ||
	    (rc = machine_json_get_u64(doc, o, "matrices",
				       MACHINE_JSON_REQUIRED, 0, 1,
				       1u << 30, &n, err)) ||
	    (rc = machine_json_get_double(doc, o, "median_abs_error",
					  MACHINE_JSON_REQUIRED |
					  MACHINE_JSON_NONNEG, 0,
					  &g->median_abs, err)) ||
	    (rc = machine_json_get_double(doc, o, "p90_abs_error",
					  MACHINE_JSON_REQUIRED |
					  MACHINE_JSON_NONNEG, 0,
					  &g->p90_abs, err)) ||
	    (rc = machine_json_get_double(doc, o, "min_error",
					  MACHINE_JSON_REQUIRED, 0,
					  &g->min_err, err)) ||
	    (rc = machine_json_get_double(doc, o, "max_error",
					  MACHINE_JSON_REQUIRED, 0,
					  &g->max_err, err)) ||
	    (rc = machine_json_get_string(doc, o, "min_matrix", 0, "", &mn,
					  err)) ||
	    (rc = machine_json_get_string(doc, o, "max_matrix", 0, "", &mx,
					  err)))
		return rc;
	/* an error is predicted / measured - 1: above -1 */
	if (g->min_err <= -1)
		return machine_json_fail(doc, machine_json_member(o,
					 "min_error"), err, "'min_error' must "
					 "be above -1 (predicted / measured "
					 "- 1), got %g", g->min_err);
	if (g->max_err < g->min_err)
		return machine_json_fail(doc, machine_json_member(o,
					 "max_error"), err, "'max_error' (%g) "
					 "must not be below 'min_error' (%g)",
					 g->max_err, g->min_err);
	if (g->p90_abs < g->median_abs)
		return machine_json_fail(doc, machine_json_member(o,
					 "p90_abs_error"), err,
					 "'p90_abs_error' (%g) must not be "
					 "below 'median_abs_error' (%g)",
					 g->p90_abs, g->median_abs);
	if (g->p90_abs > fmax(-g->min_err, g->max_err) * (1 + 1e-9))
		return machine_json_fail(doc, machine_json_member(o,
					 "p90_abs_error"), err,
					 "'p90_abs_error' (%g) must not be "
					 "above the largest error (%g)",
					 g->p90_abs,
					 fmax(-g->min_err, g->max_err));
	g->matrices = (unsigned)n;
	g->min_matrix = xstrdup(mn);
	g->max_matrix = xstrdup(mx);
	return 0;
}

/* A validation member's keys checked, and its "date" and "command" (""
 * if not given) copied. */
static int parse_val_head(const struct machine_json *doc, const cJSON *o,
			  const char *name, const char *const *keys,
			  char **date, char **cmd, struct ppr_err *err)
{
	const char *d, *c;
	int rc;

	if ((rc = machine_json_check_keys(doc, o, name, keys, err)) ||
	    (rc = machine_json_get_string(doc, o, "date", 0, "", &d, err)) ||
	    (rc = machine_json_get_string(doc, o, "command", 0, "", &c,
					  err)))
		return rc;
	*date = xstrdup(d);
	*cmd = xstrdup(c);
	return 0;
}

/* A count of a validation member that cannot exceed another: 'key' (k)
 * at most 'of' (n). */
static int val_count_le(const struct machine_json *doc, const cJSON *o,
			const char *key, uint64_t k, const char *of,
			uint64_t n, struct ppr_err *err)
{
	if (k <= n)
		return 0;
	return machine_json_fail(doc, machine_json_member(o, key), err,
				 "'%s' (%llu) must not exceed '%s' (%llu)",
				 key, (unsigned long long)k, of,
				 (unsigned long long)n);
}

/* The validation's "bcsr_pick" (struct machine_val_bcsr). */
static int parse_val_bcsr(const struct machine_json *doc, const cJSON *o,
			  struct machine_val_bcsr *b, struct ppr_err *err)
{
	const char *mm, *mp, *mb;
	uint64_t n, k;
	int rc;

	if ((rc = parse_val_head(doc, o, "bcsr_pick", val_bcsr_keys, &b->date,
				 &b->command, err)) ||
	    (rc = machine_json_get_u64(doc, o, "matrices",
				       MACHINE_JSON_REQUIRED, 0, 1, 1u << 30,
				       &n, err)) ||
	    (rc = machine_json_get_u64(doc, o, "at_least_95",
				       MACHINE_JSON_REQUIRED, 0, 0, 1u << 30,
				       &k, err)) ||
	    (rc = machine_json_get_double(doc, o, "mean_share",
					  MACHINE_JSON_REQUIRED |
					  MACHINE_JSON_POSITIVE, 0,
					  &b->mean_share, err)) ||
	    (rc = machine_json_get_double(doc, o, "min_share",
					  MACHINE_JSON_REQUIRED |
					  MACHINE_JSON_POSITIVE, 0,
					  &b->min_share, err)) ||
	    (rc = machine_json_get_string(doc, o, "min_matrix", 0, "", &mm,
					  err)) ||
	    (rc = machine_json_get_string(doc, o, "min_pick", 0, "", &mp,
					  err)) ||
	    (rc = machine_json_get_string(doc, o, "min_best", 0, "", &mb,
					  err)) ||
	    (rc = machine_json_get_double(doc, o, "close_min_share",
					  MACHINE_JSON_NONNEG, 0,
					  &b->close_min_share, err)) ||
	    (rc = machine_json_get_double(doc, o, "cost_mean",
					  MACHINE_JSON_NONNEG, 0,
					  &b->cost_mean, err)))
		return rc;
	b->min_matrix = xstrdup(mm);
	b->min_pick = xstrdup(mp);
	b->min_best = xstrdup(mb);
	if ((rc = val_count_le(doc, o, "at_least_95", k, "matrices", n, err)))
		return rc;
	/* a share is the pick's measured GFLOPS over the best's: 0..1 */
	if (b->mean_share > 1 || b->min_share > b->mean_share)
		return machine_json_fail(doc, machine_json_member(o,
					 b->mean_share > 1 ? "mean_share" :
					 "min_share"), err, "the shares must "
					 "satisfy 0 < 'min_share' <= "
					 "'mean_share' <= 1, got %g and %g",
					 b->min_share, b->mean_share);
	if (b->close_min_share > 1)
		return machine_json_fail(doc, machine_json_member(o,
					 "close_min_share"), err,
					 "'close_min_share' must be at most 1, "
					 "got %g", b->close_min_share);
	b->matrices = (unsigned)n;
	b->at_least_95 = (unsigned)k;
	b->have = 1;
	return 0;
}

/* The validation's "conv" (struct machine_val_conv). */
static int parse_val_conv(const struct machine_json *doc, const cJSON *o,
			  struct machine_val_conv *c, struct ppr_err *err)
{
	const char *wc;
	uint64_t cells, within, sizes, right;
	int rc;

	if ((rc = parse_val_head(doc, o, "conv", val_conv_keys, &c->date,
				 &c->command, err)) ||
	    (rc = machine_json_get_u64(doc, o, "cells",
				       MACHINE_JSON_REQUIRED, 0, 1, 1u << 20,
				       &cells, err)) ||
	    (rc = machine_json_get_u64(doc, o, "within_10",
				       MACHINE_JSON_REQUIRED, 0, 0, 1u << 20,
				       &within, err)) ||
	    (rc = machine_json_get_double(doc, o, "median_abs_error",
					  MACHINE_JSON_REQUIRED |
					  MACHINE_JSON_NONNEG, 0,
					  &c->median_abs, err)) ||
	    (rc = machine_json_get_double(doc, o, "worst_error",
					  MACHINE_JSON_REQUIRED, 0,
					  &c->worst_err, err)) ||
	    (rc = machine_json_get_string(doc, o, "worst_cell", 0, "", &wc,
					  err)) ||
	    (rc = machine_json_get_u64(doc, o, "sizes",
				       MACHINE_JSON_REQUIRED, 0, 1, 1u << 20,
				       &sizes, err)) ||
	    (rc = machine_json_get_u64(doc, o, "best_right",
				       MACHINE_JSON_REQUIRED, 0, 0, 1u << 20,
				       &right, err)))
		return rc;
	c->worst_cell = xstrdup(wc);
	if ((rc = val_count_le(doc, o, "within_10", within, "cells", cells,
			       err)) ||
	    (rc = val_count_le(doc, o, "best_right", right, "sizes", sizes,
			       err)))
		return rc;
	/* an error is predicted / measured - 1: above -1; the worst is
	 * the largest |error|, so not below the median */
	if (c->worst_err <= -1)
		return machine_json_fail(doc, machine_json_member(o,
					 "worst_error"), err, "'worst_error' "
					 "must be above -1 (predicted / "
					 "measured - 1), got %g", c->worst_err);
	if (fabs(c->worst_err) < c->median_abs * (1 - 1e-9))
		return machine_json_fail(doc, machine_json_member(o,
					 "worst_error"), err, "'worst_error' "
					 "(%g) must not be smaller in "
					 "magnitude than 'median_abs_error' "
					 "(%g)", c->worst_err, c->median_abs);
	c->cells = (unsigned)cells;
	c->within_10 = (unsigned)within;
	c->sizes = (unsigned)sizes;
	c->best_right = (unsigned)right;
	c->have = 1;
	return 0;
}

/* The validation's "spmv_csr" (struct machine_validation). */
static int parse_val_csr(const struct machine_json *doc, const cJSON *o,
			 struct machine_validation *v, struct ppr_err *err)
{
	const cJSON *at;
	int rc;

	if ((rc = parse_val_head(doc, o, "spmv_csr", val_keys, &v->date,
				 &v->command, err)) ||
	    (rc = machine_json_get_double(doc, o, "exit_share",
					  MACHINE_JSON_NONNEG, 0,
					  &v->exit_share, err)))
		return rc;
	if ((rc = parse_val_group(doc, o, "all", MACHINE_JSON_REQUIRED,
				  &v->all, err)) ||
	    (rc = parse_val_group(doc, o, "exits", 0, &v->exits, err)) ||
	    (rc = parse_val_group(doc, o, "rest", 0, &v->rest, err)))
		return rc;
	at = machine_json_member(o, "exit_share");
	if ((v->exits.matrices || v->rest.matrices) &&
	    !(v->exit_share > 0 && v->exit_share <= 1))
		return machine_json_fail(doc, at ? at : o, err,
					 "'exit_share' must be above 0 and at "
					 "most 1 with 'exits' or 'rest' (the "
					 "share of mispredicted loop exits "
					 "that splits them), got %g",
					 v->exit_share);
	if (v->exits.matrices + v->rest.matrices > v->all.matrices)
		return machine_json_fail(doc, machine_json_member(o, "all"),
					 err, "'all' has %u matrices, fewer "
					 "than 'exits' and 'rest' together "
					 "(%u)", v->all.matrices,
					 v->exits.matrices + v->rest.matrices);
	v->have = 1;
	return 0;
}

/* The "validation" section: its members, each optional. */
static int parse_validation(const struct machine_json *doc, const cJSON *val,
			    struct machine *m, struct ppr_err *err)
{
	const cJSON *csr, *bcsr, *conv;
	int rc;

	if ((rc = machine_json_check_keys(doc, val, "validation",
					  validation_keys, err)) ||
	    (rc = machine_json_get_object(doc, val, "conv", 0, &conv,
					  err)) ||
	    (conv && (rc = parse_val_conv(doc, conv, &m->val_conv, err))) ||
	    (rc = machine_json_get_object(doc, val, "bcsr_pick", 0, &bcsr,
					  err)) ||
	    (bcsr && (rc = parse_val_bcsr(doc, bcsr, &m->val_bcsr, err))) ||
	    (rc = machine_json_get_object(doc, val, "spmv_csr", 0, &csr,
					  err)) ||
	    (csr && (rc = parse_val_csr(doc, csr, &m->val_csr, err))))
		return rc;
	return 0;
}

static int parse_doc(const struct machine_json *doc, struct machine *m,
		     struct ppr_err *err)
{
	const cJSON *root = doc->root, *h, *mem, *peak, *core, *branch, *val;
	const char *name, *desc, *src;
	uint64_t cores, simd;
	int rc;

	if ((rc = machine_json_check_keys(doc, root, "machine file", top_keys,
					  err)) ||
	    (rc = machine_json_get_string(doc, root, "name",
					  MACHINE_JSON_REQUIRED, NULL, &name,
					  err)) ||
	    (rc = machine_json_get_string(doc, root, "description", 0, "",
					  &desc, err)) ||
	    (rc = machine_json_get_string(doc, root, "source", 0, "", &src,
					  err)) ||
	    (rc = machine_json_get_double(doc, root, "clock_ghz",
					  MACHINE_JSON_POSITIVE, 0,
					  &m->clock_ghz, err)) ||
	    (rc = machine_json_get_u64(doc, root, "cores", 0, 1, 1, 1u << 20,
				       &cores, err)) ||
	    (rc = machine_json_get_object(doc, root, "hierarchy",
					  MACHINE_JSON_REQUIRED, &h, err)) ||
	    (rc = machine_json_get_object(doc, root, "memory", 0, &mem,
					  err)) ||
	    (rc = machine_json_get_object(doc, root, "peak", 0, &peak, err)) ||
	    (rc = machine_json_get_object(doc, root, "core", 0, &core, err)) ||
	    (rc = machine_json_get_object(doc, root, "branch", 0, &branch,
					  err)) ||
	    (rc = machine_json_get_object(doc, root, "validation", 0, &val,
					  err)))
		return rc;
	if (val && (rc = parse_validation(doc, val, m, err)))
		return rc;
	m->loop_exit_miss_cycles = MACHINE_LOOP_EXIT_MISS_CYCLES;
	m->learned_exit_changes = MACHINE_LEARNED_EXIT_CHANGES;
	m->learned_exit_trips = 0;
	m->csr_unlearned_exponent = 1;
	m->csr_unlearned_max = 1;
	m->bcsr_learned_exit_changes = -1;
	m->exit_history_rows = 0;
	if (branch &&
	    ((rc = machine_json_check_keys(doc, branch, "branch", branch_keys,
					   err)) ||
	     (rc = machine_json_get_double(doc, branch,
					   "loop_exit_miss_cycles",
					   MACHINE_JSON_NONNEG,
					   MACHINE_LOOP_EXIT_MISS_CYCLES,
					   &m->loop_exit_miss_cycles, err)) ||
	     (rc = machine_json_get_double(doc, branch, "learned_exit_changes",
					   MACHINE_JSON_NONNEG,
					   MACHINE_LEARNED_EXIT_CHANGES,
					   &m->learned_exit_changes, err)) ||
	     (rc = machine_json_get_double(doc, branch, "learned_exit_trips",
					   MACHINE_JSON_NONNEG, 0,
					   &m->learned_exit_trips, err)) ||
	     (rc = machine_json_get_double(doc, branch,
					   "csr_unlearned_exponent",
					   MACHINE_JSON_POSITIVE, 1,
					   &m->csr_unlearned_exponent, err)) ||
	     (rc = machine_json_get_double(doc, branch, "csr_unlearned_max",
					   MACHINE_JSON_POSITIVE, 1,
					   &m->csr_unlearned_max, err)) ||
	     (rc = machine_json_get_double(doc, branch,
					   "bcsr_learned_exit_changes",
					   MACHINE_JSON_NONNEG, -1,
					   &m->bcsr_learned_exit_changes,
					   err)) ||
	     (rc = machine_json_get_double(doc, branch, "history_rows",
					   MACHINE_JSON_NONNEG, 0,
					   &m->exit_history_rows, err))))
		return rc;
	if (m->exit_history_rows > MACHINE_MAX_HISTORY_ROWS ||
	    m->exit_history_rows != floor(m->exit_history_rows))
		return machine_json_fail(doc, machine_json_member(branch,
					 "history_rows"), err,
					 "'history_rows' must be a whole number "
					 "from 0 to %d, got %g",
					 MACHINE_MAX_HISTORY_ROWS,
					 m->exit_history_rows);
	if (m->csr_unlearned_max > 1)
		return machine_json_fail(doc, machine_json_member(branch,
					 "csr_unlearned_max"), err,
					 "'csr_unlearned_max' must be between 0 "
					 "and 1, got %g", m->csr_unlearned_max);
	if (core) {
		if ((rc = machine_core_parse(doc, core, &m->core, err)))
			return rc;
		m->has_core = 1;
	}
	if (!name[0])
		return machine_json_fail(doc, machine_json_member(root, "name"),
					 err, "'name' must not be empty");
	m->cores = (unsigned)cores;
	if ((rc = parse_hierarchy(doc, h, m, err)))
		return rc;
	if (mem &&
	    ((rc = machine_json_check_keys(doc, mem, "memory", mem_keys,
					   err)) ||
	     (rc = machine_json_get_double(doc, mem, "bandwidth_gbs",
					   MACHINE_JSON_REQUIRED |
					   MACHINE_JSON_POSITIVE, 0,
					   &m->mem_bandwidth_gbs, err)) ||
	     (rc = machine_json_get_double(doc, mem, "peak_bandwidth_gbs",
					   MACHINE_JSON_NONNEG, 0,
					   &m->mem_peak_bandwidth_gbs, err)) ||
	     (rc = machine_json_get_double(doc, mem, "latency_ns",
					   MACHINE_JSON_NONNEG, 0,
					   &m->mem_latency_ns, err)) ||
	     (rc = machine_json_get_double(doc, mem, "far_miss_cycles",
					   MACHINE_JSON_NONNEG, 0,
					   &m->mem_far_miss_cycles, err)) ||
	     (rc = machine_json_get_double(doc, mem, "late_line_cycles",
					   MACHINE_JSON_NONNEG, 0,
					   &m->mem_late_line_cycles, err)) ||
	     (rc = machine_json_get_double(doc, mem, "late_line_ns",
					   MACHINE_JSON_NONNEG, 0,
					   &m->mem_late_line_ns, err)) ||
	     (rc = machine_json_get_double(doc, mem, "far_stream_serial",
					   MACHINE_JSON_NONNEG, 0,
					   &m->mem_far_stream_serial, err)) ||
	     (rc = machine_json_get_double(doc, mem, "stream_jump_cycles",
					   MACHINE_JSON_NONNEG, 0,
					   &m->mem_stream_jump_cycles, err)) ||
	     (rc = machine_json_get_double(doc, mem, "writeback_share",
					   MACHINE_JSON_NONNEG, 1,
					   &m->mem_writeback_share, err)) ||
	     (rc = parse_csr_bandwidth(doc, mem, m, err))))
		return rc;
	if (mem && machine_json_member(mem, "late_line_cycles") &&
	    machine_json_member(mem, "late_line_ns"))
		return machine_json_fail(doc, machine_json_member(mem,
					 "late_line_ns"), err,
					 "give 'late_line_cycles' or "
					 "'late_line_ns', not both");
	/* memory's latency is the DRAM's, in ns: in cycles at this clock
	 * (the file's clock_ghz, which nothing changes after the load) */
	if (m->mem_late_line_ns > 0) {
		if (!(m->clock_ghz > 0))
			return machine_json_fail(doc, machine_json_member(mem,
				"late_line_ns"), err,
				"'late_line_ns' needs clock_ghz");
		if (m->mem_late_line_ns * m->clock_ghz > MACHINE_MAX_LATE_LINE)
			return machine_json_fail(doc, machine_json_member(mem,
				"late_line_ns"), err,
				"'late_line_ns' must be at most %d cycles at "
				"clock_ghz %g, got %g ns (%g cycles)",
				MACHINE_MAX_LATE_LINE, m->clock_ghz,
				m->mem_late_line_ns,
				m->mem_late_line_ns * m->clock_ghz);
		m->mem_late_line_cycles = m->mem_late_line_ns * m->clock_ghz;
	}
	if (m->mem_late_line_cycles > MACHINE_MAX_LATE_LINE)
		return late_too_long(doc, mem, m->mem_late_line_cycles, err);
	if (!mem)
		m->mem_writeback_share = 1;
	else if (m->mem_writeback_share > 1)
		return over_one(doc, mem, "writeback_share",
				m->mem_writeback_share, err);
	if (peak &&
	    ((rc = machine_json_check_keys(doc, peak, "peak", peak_keys,
					   err)) ||
	     (rc = machine_json_get_double(doc, peak, "flops_per_cycle_dp",
					   MACHINE_JSON_NONNEG, 0,
					   &m->flops_per_cycle_dp, err)) ||
	     (rc = machine_json_get_double(doc, peak, "flops_per_cycle_sp",
					   MACHINE_JSON_NONNEG, 0,
					   &m->flops_per_cycle_sp, err)) ||
	     (rc = machine_json_get_u64(doc, peak, "simd_width_bits", 0, 0, 0,
					4096, &simd, err)) ||
	     (rc = machine_json_get_bool(doc, peak, "fma", 0, 0, &m->fma,
					 err)) ||
	     (rc = machine_json_get_double(doc, peak, "load_bytes_per_cycle",
					   MACHINE_JSON_NONNEG, 0,
					   &m->load_bytes_per_cycle, err)) ||
	     (rc = machine_json_get_double(doc, peak, "store_bytes_per_cycle",
					   MACHINE_JSON_NONNEG, 0,
					   &m->store_bytes_per_cycle, err))))
		return rc;
	if (peak) {
		if (simd & (simd - 1) || (simd && simd < 64))
			return machine_json_fail(doc,
				machine_json_member(peak, "simd_width_bits"),
				err, "'simd_width_bits' must be 0 or a power "
				"of two >= 64");
		m->simd_width_bits = (unsigned)simd;
	}
	m->name = xstrdup(name);
	m->description = xstrdup(desc);
	m->source = xstrdup(src);
	return 0;
}

int machine_load_string(const char *name, const char *text, size_t len,
			struct machine *out, struct ppr_err *err)
{
	struct machine_json doc;
	struct machine m;
	int rc;

	memset(&m, 0, sizeof(m));
	rc = machine_json_parse(&doc, name, text, len, err);
	if (rc)
		return rc;
	rc = parse_doc(&doc, &m, err);
	machine_json_release(&doc);
	if (rc) {
		machine_release(&m);
		return rc;
	}
	m.path = xstrdup(name);
	*out = m;
	return 0;
}

int machine_read_text(const char *path, char **text, size_t *len,
		      struct ppr_err *err)
{
	FILE *f = NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0, got;
	int rc;

	f = fopen(path, "rb");
	if (!f)
		return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
				   "cannot open machine file '%s': %s", path,
				   strerror(errno));
	for (;;) {
		if (n == cap) {
			if (cap >= MACHINE_MAX_FILE) {
				rc = ppr_err_set(err, PPR_ELIMIT, path, 0, 0,
						 "machine file larger than "
						 "%u MiB",
						 MACHINE_MAX_FILE >> 20);
				goto fail;
			}
			cap = cap ? 2 * cap : 8192;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		rc = ppr_err_set(err, PPR_EIO, path, 0, 0,
				 "cannot read machine file: %s",
				 strerror(errno));
		goto fail;
	}
	fclose(f);
	*text = buf;
	*len = n;
	return 0;
fail:
	if (f)
		fclose(f);
	free(buf);
	return rc;
}

int machine_load(const char *path, struct machine *out, struct ppr_err *err)
{
	char *buf;
	size_t n;
	int rc;

	rc = machine_read_text(path, &buf, &n, err);
	if (rc)
		return rc;
	rc = machine_load_string(path, buf, n, out, err);
	free(buf);
	return rc;
}

static const char *enum_name(const struct machine_json_enum *tab, int v)
{
	for (; tab->name; tab++)
		if (tab->value == v)
			return tab->name;
	return "?";
}

const char *machine_repl_name(enum sim_repl r)
{
	return enum_name(repl_tab, (int)r);
}

const char *machine_inclusion_name(enum sim_incl i)
{
	return enum_name(incl_tab, (int)i);
}

void machine_val_group_add(cJSON *o, const struct machine_val_group *g)
{
	cJSON_AddNumberToObject(o, "matrices", g->matrices);
	cJSON_AddNumberToObject(o, "median_abs_error", g->median_abs);
	cJSON_AddNumberToObject(o, "p90_abs_error", g->p90_abs);
	cJSON_AddNumberToObject(o, "min_error", g->min_err);
	cJSON_AddStringToObject(o, "min_matrix", g->min_matrix);
	cJSON_AddNumberToObject(o, "max_error", g->max_err);
	cJSON_AddStringToObject(o, "max_matrix", g->max_matrix);
}

cJSON *machine_val_bcsr_json(const struct machine_val_bcsr *b)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "date", b->date);
	cJSON_AddStringToObject(o, "command", b->command);
	cJSON_AddNumberToObject(o, "matrices", b->matrices);
	cJSON_AddNumberToObject(o, "at_least_95", b->at_least_95);
	cJSON_AddNumberToObject(o, "mean_share", b->mean_share);
	cJSON_AddNumberToObject(o, "min_share", b->min_share);
	cJSON_AddStringToObject(o, "min_matrix", b->min_matrix);
	cJSON_AddStringToObject(o, "min_pick", b->min_pick);
	cJSON_AddStringToObject(o, "min_best", b->min_best);
	cJSON_AddNumberToObject(o, "close_min_share", b->close_min_share);
	cJSON_AddNumberToObject(o, "cost_mean", b->cost_mean);
	return o;
}

cJSON *machine_val_conv_json(const struct machine_val_conv *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "date", c->date);
	cJSON_AddStringToObject(o, "command", c->command);
	cJSON_AddNumberToObject(o, "cells", c->cells);
	cJSON_AddNumberToObject(o, "within_10", c->within_10);
	cJSON_AddNumberToObject(o, "median_abs_error", c->median_abs);
	cJSON_AddNumberToObject(o, "worst_error", c->worst_err);
	cJSON_AddStringToObject(o, "worst_cell", c->worst_cell);
	cJSON_AddNumberToObject(o, "sizes", c->sizes);
	cJSON_AddNumberToObject(o, "best_right", c->best_right);
	return o;
}

cJSON *machine_validation_json(const struct machine *m)
{
	const struct machine_validation *v = &m->val_csr;
	cJSON *root, *o;

	if (!v->have && !m->val_bcsr.have && !m->val_conv.have)
		return NULL;
	root = cJSON_CreateObject();
	if (v->have) {
		o = cJSON_AddObjectToObject(root, "spmv_csr");
		cJSON_AddStringToObject(o, "date", v->date);
		cJSON_AddStringToObject(o, "command", v->command);
		cJSON_AddNumberToObject(o, "exit_share", v->exit_share);
		machine_val_group_add(cJSON_AddObjectToObject(o, "all"), &v->all);
		if (v->exits.matrices)
			machine_val_group_add(cJSON_AddObjectToObject(o,
					      "exits"), &v->exits);
		if (v->rest.matrices)
			machine_val_group_add(cJSON_AddObjectToObject(o,
					      "rest"), &v->rest);
	}
	if (m->val_bcsr.have)
		cJSON_AddItemToObject(root, "bcsr_pick",
				      machine_val_bcsr_json(&m->val_bcsr));
	if (m->val_conv.have)
		cJSON_AddItemToObject(root, "conv",
				      machine_val_conv_json(&m->val_conv));
	return root;
}

const char *machine_val_when(char *buf, size_t n, const char *date,
			     const char *command)
{
	int d = date && date[0], c = command && command[0];

	if (!d && !c)
		return "";
	snprintf(buf, n, " (%s%s%s)", d ? date : "", d && c ? ", " : "",
		 c ? command : "");
	return buf;
}

const char *machine_prefetch_name(enum sim_prefetch p)
{
	return enum_name(pf_tab, (int)p);
}

void machine_release(struct machine *m)
{
	if (!m)
		return;
	free(m->name);
	free(m->description);
	free(m->source);
	free(m->path);
	free(m->val_csr.date);
	free(m->val_csr.command);
	free(m->val_csr.all.min_matrix);
	free(m->val_csr.all.max_matrix);
	free(m->val_csr.exits.min_matrix);
	free(m->val_csr.exits.max_matrix);
	free(m->val_csr.rest.min_matrix);
	free(m->val_csr.rest.max_matrix);
	free(m->val_bcsr.date);
	free(m->val_bcsr.command);
	free(m->val_bcsr.min_matrix);
	free(m->val_bcsr.min_pick);
	free(m->val_bcsr.min_best);
	free(m->val_conv.date);
	free(m->val_conv.command);
	free(m->val_conv.worst_cell);
	memset(m, 0, sizeof(*m));
}

unsigned machine_fill_bandwidths(const struct machine *m,
				 double bw[SIM_MAX_LEVELS])
{
	unsigned i, n = m->hier.nlevels;

	for (i = 0; i + 1 < n; i++)
		bw[i] = m->level[i + 1].bandwidth_bytes_per_cycle;
	if (n)
		bw[n - 1] = m->clock_ghz > 0
			    ? m->mem_bandwidth_gbs / m->clock_ghz : 0;
	return n;
}
