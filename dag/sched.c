/*
 * sched.c - the out-of-order scheduler: runs a loop body on a core model
 * cycle by cycle until steady state.
 *
 * Notes:
 * - Each instruction becomes micro-ops: a load (memory source), the
 *   class's operation micro-ops, and a store-address + store-data pair
 *   (memory destination).  Pure loads and stores have no operation
 *   micro-op.  A fused-domain count (micro-fused load+op and store pairs
 *   count once; a macro-fused cmp+jcc counts once) limits rename width
 *   and ROB occupancy; on cores with unlaminate_indexed (Haswell) a
 *   load+op with an index register counts twice.
 * - Renaming keeps true dependencies only.  Zero idioms produce a value
 *   ready at rename and use no port; eliminated moves alias the
 *   destination to the source's producer (so a chain through an
 *   eliminated move keeps its latency: the move is free, not a break).
 * - Each cycle: retire in order (retire width), then issue ready
 *   micro-ops oldest first, then rename/dispatch in order (issue width,
 *   ROB and scheduler capacity).  A micro-op issues when its inputs are
 *   ready and one of its ports is free (the free eligible port with the
 *   fewest busy cycles so far); its result is ready 'latency' cycles
 *   later.  Dividers hold their port for 'occupancy' cycles.
 * - Scheduler capacity: the total sched_size and, on cores with separate
 *   scheduler queues (Zen: ALU and AGU schedulers), each queue's size; a
 *   micro-op leaves its queue when it issues, a load (load_holds_queue)
 *   only when its data returns.  A full queue stalls dispatch, which is
 *   what limits how far the core looks ahead past a long-latency chain.
 * - Physical registers and in-flight loads (prf_free_gpr, prf_free_vec,
 *   load_queue; 0: not modelled): an instruction holds one register per
 *   GPR or vector destination and one entry per load from rename until it
 *   retires (the previous mapping of a destination is freed when the new
 *   writer retires, so in-flight writers are what the free registers
 *   bound); eliminated moves, zero idioms and the restricted modes'
 *   pass-throughs hold none.  A full file stalls dispatch like a full ROB.
 * - Loads per cycle: the load ports, the vector-load subset, and either
 *   of two rules for mixes: vec_load_mix_width caps the loads issued in a
 *   cycle in which a vector/FP load issues; vec_load_slots gives each
 *   cycle one slot per load port and a vector/FP load takes that many
 *   (Zen 5 takes 2 of 4, measured: 2 FP + 2 GPR loads 1.41-1.61 cycles,
 *   4 FP + 2 GPR 2.50, gcc's CSR pair of nonzeros 2.36-2.49).
 * - Memory: loads and stores never alias, except a load whose address is
 *   written exactly like an earlier in-flight store's (same registers
 *   holding the same renamed values, same displacement): it waits for
 *   the store data and costs the store-forwarding latency (spills and
 *   accumulators in memory).
 * - Branches are predicted perfectly: the loop back-edge and, in nested
 *   mode, the exit of the inner loop after its trips.  Forward branches
 *   inside the loop are assumed not taken; their micro-op still issues.
 *   In nested mode, other loops inside the outer loop (the remainder loop
 *   beside an unrolled main loop) are assumed not to run.
 * - Load latency: load_lat_gpr / load_lat_vec, plus load_lat_complex
 *   when the address has a scaled index or base + index + displacement,
 *   plus load_lat_sext for a sign-extending GPR load (Zen 5, measured
 *   with bench/dag_row.sh; 0 on Haswell, whose 5 cycles are the
 *   general case).
 * - Line-crossing loads (vector loads not known aligned) take
 *   line_split_slots load slots (a 64-byte one line_split512_slots
 *   where the core gives it, else the larger of that and load512_slots)
 *   and line_split_latency extra cycles, at
 *   the rate the alignment assumption gives: (size - a) / line of them
 *   split, a the element size, or dag_sched_opts.align_bytes when the
 *   loads are known to start on such boundaries (the convolution's
 *   aligned copies: 16 bytes, 1 in 4 of the 32-byte loads split).
 * - Steady state: the loop runs 'iterations' times and cycles/iteration
 *   is measured between the retirement of the last micro-op of the
 *   iteration at the half-way point and of the last iteration.
 * - S_DAG(compute) / S_DAG(memory) (PPR eq. 1) are the same simulation in
 *   which every micro-op outside the set (FP arithmetic; loads and stores)
 *   becomes a free pass-through: no port, no rename slot, no latency,
 *   dependencies kept transitively.
 * - The critical chain is found statically: the longest-latency path
 *   from a register's value at the top of the iteration to its value at
 *   the bottom (cycles of one or two iterations), with the scheduler's
 *   latencies.
 */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "dag/dag.h"
#include "dag/dag_int.h"

enum ukind { U_LOAD, U_OP, U_STA, U_STD, U_FREE };

#define MAX_TU 24          /* micro-ops of one instruction (gathers) */
#define MAX_DEP (DAG_MAX_SRC + 4)
#define RING 16384
#define NONE UINT64_MAX

/* Template micro-op of one static instruction. */
struct tuop {
	enum ukind kind;
	unsigned lat, occ;
	uint32_t ports;
	int nreg;
	int reg[DAG_MAX_SRC + 2];    /* register inputs */
	int nloc;
	int loc[MAX_TU];             /* inputs: earlier uops of the insn */
	int writes;                  /* 1: writes the insn's dst registers */
	int alias;                   /* eliminated move: dst = this reg */
	int zero;                    /* zero idiom: dst ready at rename */
	int vecld;                   /* load into a vector/FP register */
	int split_cand;              /* load that may cross a line */
	int wide512;                 /* a 64-byte load */
	double split_p;
	int real;                    /* 0: pass-through in restricted mode */
};

struct tinsn {
	int nu;
	struct tuop u[MAX_TU];
	unsigned fused;              /* fused-domain slots */
	int is_load, is_store;
	struct dag_mem mem;
	int has_addr;                /* load/store with an address */
	unsigned char prf[3];        /* held until retirement: GPR and
					vector registers, loads (prf_need) */
};

/* Dynamic micro-op. */
struct duop {
	uint64_t ready;      /* cycle the result is ready; NONE: not issued */
	uint64_t dep[MAX_DEP];
	int ndep;
	int port;            /* port it issued on; -1: none (pass-through) */
	uint32_t ports;      /* eligible ports */
	unsigned lat, occ;
	int state;           /* 0 waiting, 1 issued */
	int fwd;             /* load fed by store forwarding */
	int ld;              /* 0: not a load, 1: GPR load, 2: vector load */
	int q;               /* scheduler queue, -1: none */
};

struct dinsn {
	uint64_t first;      /* first uop id */
	int nu;
	unsigned fused;
	uint64_t iter;
	int last_of_iter;
	unsigned char prf[3]; /* held: GPR and vector registers, loads */
};

struct stq {
	uint64_t sig[4];
	uint64_t std;       /* store-data uop id */
	int valid;
};

enum smode { M_FULL, M_COMPUTE, M_MEMORY };

struct sim {
	const struct dag_prog *p;
	const struct dag_core *c;
	const struct dag_sched_opts *o;
	enum smode mode;
	size_t *seq;          /* static insn per position of one iteration */
	size_t nseq;
	struct tinsn *ti;     /* per static insn (indexed by insn index) */
	double *split_acc;    /* per static insn */
	double split_frac;    /* line_split_mean's fractions so far */
	struct duop *u;       /* ring of RING */
	uint64_t nu;          /* next uop id */
	uint64_t oldest;      /* oldest not-retired uop id */
	struct dinsn *rob;    /* ring of RING */
	uint64_t rob_head, rob_tail;
	unsigned rob_fused;
	unsigned prf_n[3];    /* held: GPR and vector registers, loads */
	uint64_t ren[DAG_NREGS];   /* producer uop id, NONE: ready */
	uint64_t *rs;         /* waiting uop ids, oldest first */
	unsigned rs_total;
	unsigned qn[DAG_MAX_QUEUES];  /* micro-ops waiting per queue */
	uint64_t *hold;               /* loads holding a queue entry until
					 their data returns: release cycle */
	int *hold_q;
	unsigned nhold;
	uint64_t *free_list;  /* pass-through uops not yet resolved */
	unsigned free_n;
	uint64_t port_busy[DAG_MAX_PORTS];
	uint64_t port_cycles[DAG_MAX_PORTS];
	struct stq stq[32];
	unsigned stq_pos;
	uint64_t *iter_done;  /* retire cycle of each iteration */
	uint64_t iters;
	uint64_t splits;
	double ld_credit;     /* load_rate's credit */
	char *ends_block;     /* per static insn: a loop branch (front end
				 only) */
	uint64_t fpos;        /* front end: positions fetched */
	unsigned oq;          /* fused slots fetched, not dispatched */
};

/* ---- templates ----------------------------------------------------------- */

static int is_fp_compute_insn(const struct dag_insn *in)
{
	return dag_class_is_fp_compute(in->cls);
}

/* An address the AGU cannot form on its fast path: a scaled index, or
   base + index + displacement (Zen 5: one more cycle of load latency,
   measured by bench/dag_row.sh).  A gather's vector index is not one. */
static int is_complex_address(const struct dag_mem *m)
{
	int has_index = m->index != DAG_REG_NONE && !dag_reg_is_vec(m->index);

	if (!has_index)
		return 0;
	return m->scale > 1 ||
	       (m->base != DAG_REG_NONE && (m->disp != 0 || m->sym[0]));
}

/* movs{b,w,l}{w,l,q}, movsx, movsxd: a load that sign-extends. */
static int is_sign_extending(const struct dag_insn *in)
{
	const char *m = in->mnem;

	if (strncmp(m, "movs", 4) != 0)
		return 0;
	return !strcmp(m + 4, "x") || !strcmp(m + 4, "xd") ||
	       ((m[4] == 'b' || m[4] == 'w' || m[4] == 'l') &&
		(m[5] == 'w' || m[5] == 'l' || m[5] == 'q') && !m[6]);
}

/*
 * What an instruction holds from rename until it retires: need[0], need[1]
 * the physical registers (prf_free_gpr, prf_free_vec), one per GPR and
 * per vector destination written by a micro-op that is not a pass-through
 * (eliminated moves, zero idioms, and in the restricted S_DAG modes what
 * is outside the set); need[2] its loads (load_queue).
 */
static void prf_need(const struct dag_insn *in, const struct tinsn *t,
		     unsigned char need[3])
{
	int i, j;

	need[0] = need[1] = need[2] = 0;
	for (i = 0; i < t->nu; i++) {
		const struct tuop *tu = &t->u[i];

		if (tu->kind == U_LOAD)
			need[2]++;
		if (!tu->writes || tu->kind == U_FREE)
			continue;
		for (j = 0; j < in->ndst; j++) {
			int r = in->dst[j];

			if (r >= DAG_REG_GPR && r < DAG_REG_GPR + 16)
				need[0]++;
			else if (r >= DAG_REG_VEC && r < DAG_REG_VEC + 32)
				need[1]++;
		}
	}
}

static int tmpl_build(const struct dag_insn *in, const struct dag_core *c,
		      enum smode mode, enum dag_align align,
		      unsigned align_bytes, unsigned line,
		      const struct dag_insn *prev, const struct dag_insn *next,
		      struct tinsn *t,
		      const char *file, struct ppr_err *err)
{
	const struct dag_cost *k = &c->cost[in->cls];
	int li = -1, oi = -1, i, nops;
	int vec_dst = in->ndst && dag_reg_is_vec(in->dst[0]);
	unsigned load_lat = (vec_dst || in->vbits || in->scalar) ?
			    c->load_lat_vec : c->load_lat_gpr;
	int load = (in->flags & DAG_F_LOAD) && !(in->flags & DAG_F_NOACCESS);
	int store = (in->flags & DAG_F_STORE) && !(in->flags & DAG_F_NOACCESS);
	int real_op, real_mem;

	if (in->has_mem && is_complex_address(&in->mem))
		load_lat += c->load_lat_complex;
	if (!vec_dst && !in->vbits && !in->scalar && is_sign_extending(in))
		load_lat += c->load_lat_sext;
	memset(t, 0, sizeof(*t));
	if (!k->valid)
		return ppr_err_set(err, PPR_ENOTSUP, file, in->line, 0,
				   "instruction '%s' (class %s) is not available "
				   "on core '%s'", in->mnem, dag_class_name(in->cls),
				   c->name);
	real_op = mode == M_FULL || (mode == M_COMPUTE && is_fp_compute_insn(in));
	real_mem = mode == M_FULL || mode == M_MEMORY;
	t->is_load = load;
	t->is_store = store;
	t->mem = in->mem;
	t->has_addr = in->has_mem;

	/* macro-fused jcc: the previous instruction's uop does the work */
	if ((in->flags & DAG_F_FUSED) && c->macro_fusion && prev &&
	    !(prev->flags & DAG_F_STORE)) {
		struct tuop *u = &t->u[t->nu++];

		u->kind = U_FREE;
		u->real = 0;
		for (i = 0; i < in->nsrc; i++)
			u->reg[u->nreg++] = in->src[i];
		t->fused = 0;
		return 0;
	}
	/* loads (gathers: one per element) */
	if (load) {
		int n = in->cls == DAG_VEC_GATHER ? (int)in->nelem : 1;

		if (n > MAX_TU - 4)
			n = MAX_TU - 4;
		for (int e = 0; e < n; e++) {
			struct tuop *u = &t->u[t->nu];

			u->kind = U_LOAD;
			u->lat = load_lat;
			u->occ = (in->mem_size >= 64) ? c->load512_slots : 1;
			u->wide512 = in->mem_size >= 64;
			u->ports = c->load_ports;
			if (c->vec_load_ports && (vec_dst || in->vbits || in->scalar ||
						  in->cls == DAG_VEC_GATHER))
				u->ports = c->vec_load_ports;
			u->vecld = vec_dst || in->vbits || in->scalar ||
				   in->cls == DAG_VEC_GATHER;
			if (in->mem.base >= 0)
				u->reg[u->nreg++] = in->mem.base;
			if (in->mem.index >= 0)
				u->reg[u->nreg++] = in->mem.index;
			u->real = real_mem;
			/* line splits */
			if (!(in->flags & DAG_F_ALIGNED) && in->mem_size >= 16 &&
			    in->mem_size <= line && align != DAG_ALIGN_ALIGNED &&
			    !(in->mnem[0] != 'v' && in->cls != DAG_LOAD)) {
				unsigned elem = 4;

				if (strstr(in->mnem, "pd") || strstr(in->mnem, "q"))
					elem = 8;
				/* known start alignment: loads start on
				 * align_bytes boundaries only */
				if (align_bytes > elem && align_bytes < line)
					elem = align_bytes;
				u->split_cand = 1;
				if (align == DAG_ALIGN_SPLIT)
					u->split_p = in->mem_size >= 32 ? 1.0 : 0.0;
				else if (in->mem_size <= elem)
					u->split_p = 0.0;
				else
					u->split_p = (double)(in->mem_size - elem) /
						     (double)line;
			}
			if (in->cls == DAG_LOAD || in->cls == DAG_PREFETCH) {
				/* pure load: writes the destination */
				u->writes = in->cls == DAG_LOAD;
			}
			li = t->nu;
			t->nu++;
		}
		if (in->cls == DAG_LOAD || in->cls == DAG_PREFETCH) {
			/* merge-masked loads and partial loads read the dst too */
			struct tuop *u = &t->u[li];

			for (i = 0; i < in->nsrc && u->nreg < DAG_MAX_SRC + 2; i++)
				u->reg[u->nreg++] = in->src[i];
		}
	}
	/* the operation */
	nops = 0;
	if (in->cls != DAG_LOAD && in->cls != DAG_STORE &&
	    in->cls != DAG_PREFETCH && in->cls != DAG_NOP) {
		int elim = (in->flags & DAG_F_MOVE) &&
			   ((in->cls == DAG_MOV && c->move_elim_gpr) ||
			    (in->cls == DAG_VEC_MOV && c->move_elim_vec));
		int zero = (in->flags & DAG_F_ZERO_IDIOM) && c->zero_idioms;

		if (elim || zero) {
			struct tuop *u = &t->u[t->nu];

			u->kind = U_FREE;
			u->writes = 1;
			u->zero = zero;
			u->alias = elim ? in->src[0] : -1;
			u->real = 0;
			oi = t->nu++;
			nops = 1;
		} else {
			unsigned n = k->uops ? k->uops : 1;

			if (n > (unsigned)(MAX_TU - t->nu - 2))
				n = (unsigned)(MAX_TU - t->nu - 2);
			for (unsigned j = 0; j < n; j++) {
				struct tuop *u = &t->u[t->nu];

				u->kind = k->uops ? U_OP : U_FREE;
				u->lat = k->latency;
				u->occ = k->occupancy;
				if (in->vbits == 512 && c->wide512_occupancy > u->occ &&
				    in->cls >= DAG_FP_ADD)
					u->occ = c->wide512_occupancy;
				u->ports = k->ports;
				/* a gather's merge holds its port per 4 elements */
				if (in->cls == DAG_VEC_GATHER && in->nelem > 4)
					u->occ = u->occ * in->nelem / 4;
				/* cmp/test+jcc macro-fused: the pair runs on a
				   branch port */
				if (next && (next->flags & DAG_F_FUSED) &&
				    c->macro_fusion && !store && n == 1 &&
				    c->cost[DAG_BRANCH].valid)
					u->ports = c->cost[DAG_BRANCH].ports;
				u->real = real_op && k->uops;
				if (j == 0) {
					for (i = 0; i < in->nsrc; i++)
						u->reg[u->nreg++] = in->src[i];
					if (in->cls == DAG_LEA || in->cls == DAG_LEA3) {
						/* address registers already in src */
					}
					for (int e = 0; e < t->nu; e++)
						if (t->u[e].kind == U_LOAD)
							u->loc[u->nloc++] = e;
				} else {
					u->loc[u->nloc++] = t->nu - 1;
				}
				u->writes = j == n - 1;
				oi = t->nu++;
				nops++;
			}
			/* only the last op uop writes; intermediate ones don't */
			for (int e = oi - (int)n + 1; e < oi; e++)
				t->u[e].writes = 0;
		}
	}
	/* store */
	if (store) {
		struct tuop *a = &t->u[t->nu], *d;
		int ai = t->nu++;

		a->kind = U_STA;
		a->lat = 1;
		a->occ = 1;
		a->ports = c->store_addr_ports;
		if (in->mem.index >= 0 && (a->ports & c->load_ports) &&
		    (a->ports & ~c->load_ports))
			a->ports &= c->load_ports;   /* port 7: simple addresses */
		if (in->mem.base >= 0)
			a->reg[a->nreg++] = in->mem.base;
		if (in->mem.index >= 0)
			a->reg[a->nreg++] = in->mem.index;
		a->real = real_mem;
		d = &t->u[t->nu++];
		d->kind = U_STD;
		d->lat = 1;
		d->occ = 1;
		d->ports = c->store_data_ports;
		d->real = real_mem;
		d->loc[d->nloc++] = ai;
		if (oi >= 0)
			d->loc[d->nloc++] = oi;
		else
			for (i = 0; i < in->nsrc; i++)
				d->reg[d->nreg++] = in->src[i];
		if (in->mem_size >= 64)
			d->occ = c->load512_slots;
	}
	if (!t->nu) {
		/* nop and friends: one free uop so the ROB sees it */
		struct tuop *u = &t->u[t->nu++];

		u->kind = U_FREE;
		u->real = 0;
	}
	/* fused-domain slots */
	if (in->cls == DAG_NOP) {
		t->fused = 1;
	} else {
		unsigned f = (unsigned)nops;

		if (load) {
			if (in->cls == DAG_VEC_GATHER)
				f += in->nelem;
			else if (!nops)
				f += 1;              /* pure load */
			else if (c->unlaminate_indexed && in->mem.index >= 0)
				f += 1;              /* un-laminated load+op */
		}
		if (store)
			f += (nops || !load) ? 1 : 0; /* STA+STD micro-fused */
		t->fused = f ? f : 1;
	}
	if (mode != M_FULL) {
		int any = 0;

		for (i = 0; i < t->nu; i++)
			if (t->u[i].real)
				any = 1;
		if (!any)
			t->fused = 0;
	}
	/* in restricted modes non-real uops become free pass-throughs */
	for (i = 0; i < t->nu; i++)
		if (!t->u[i].real && t->u[i].kind != U_FREE) {
			t->u[i].kind = U_FREE;
			t->u[i].lat = 0;
		}
	prf_need(in, t, t->prf);
	return 0;
}

/* ---- dynamic simulation ------------------------------------------------- */

static inline struct duop *U(struct sim *s, uint64_t id)
{
	return &s->u[id % RING];
}

/* Ready time of a producer (0 if retired or never produced). */
static inline uint64_t dep_ready(struct sim *s, uint64_t id)
{
	if (id == NONE || id < s->oldest)
		return 0;
	return U(s, id)->ready;
}

static int deps_issued(struct sim *s, const struct duop *d, uint64_t *maxr)
{
	uint64_t m = 0;

	for (int i = 0; i < d->ndep; i++) {
		uint64_t r = dep_ready(s, d->dep[i]);

		if (r == NONE)
			return 0;
		if (r > m)
			m = r;
	}
	*maxr = m;
	return 1;
}

static void addr_sig(struct sim *s, const struct dag_mem *m, uint64_t sig[4])
{
	uint64_t h = 1469598103934665603ull;

	sig[0] = m->base >= 0 ? s->ren[m->base] : NONE - 1;
	sig[1] = m->index >= 0 ? s->ren[m->index] : NONE - 1;
	sig[2] = ((uint64_t)m->scale << 32) ^ (uint64_t)m->disp ^
		 ((uint64_t)(m->base + 2) << 40) ^ ((uint64_t)(m->index + 2) << 48);
	for (const char *c = m->sym; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	sig[3] = h;
}

/* Scheduler queue of a micro-op with these ports (-1: none). */
static int queue_of(const struct dag_core *c, uint32_t ports)
{
	for (unsigned q = 0; q < c->nqueues; q++)
		if (ports & c->queue_ports[q])
			return (int)q;
	return -1;
}

/* Fused micro-ops dispatched per cycle on average. */
static double dispatch_rate(const struct dag_core *c)
{
	return c->issue_rate > 0 ? c->issue_rate : (double)c->issue_width;
}

/* Dispatch one instruction; returns 0, or 1 if it does not fit. */
static int dispatch(struct sim *s, size_t pos, uint64_t iter, int last,
		    unsigned *slots)
{
	size_t ii = s->seq[pos];
	const struct tinsn *t = &s->ti[ii];
	uint64_t base = s->nu;
	unsigned need_rs = 0, need_q[DAG_MAX_QUEUES] = { 0 };
	uint64_t ld_fwd = NONE;
	uint64_t sig[4];
	int i, j;

	for (i = 0; i < t->nu; i++)
		if (t->u[i].kind != U_FREE) {
			int q = queue_of(s->c, t->u[i].ports);

			need_rs++;
			if (q >= 0)
				need_q[q]++;
		}
	if (t->fused > *slots && *slots < s->c->issue_width)
		return 1;
	if (s->rob_fused + t->fused > s->c->rob_size)
		return 1;
	/* an empty file takes any instruction, as an empty queue does (a
	   gather's loads may outnumber a small load_queue) */
	if ((s->c->prf_free_gpr && s->prf_n[0] &&
	     s->prf_n[0] + t->prf[0] > s->c->prf_free_gpr) ||
	    (s->c->prf_free_vec && s->prf_n[1] &&
	     s->prf_n[1] + t->prf[1] > s->c->prf_free_vec) ||
	    (s->c->load_queue && s->prf_n[2] &&
	     s->prf_n[2] + t->prf[2] > s->c->load_queue))
		return 1;
	if (s->rs_total + need_rs > s->c->sched_size)
		return 1;
	for (unsigned q = 0; q < s->c->nqueues; q++)
		if (need_q[q] && s->qn[q] &&
		    s->qn[q] + need_q[q] > s->c->queue_size[q])
			return 1;
	if (s->nu - s->oldest + (uint64_t)t->nu >= RING - 64 ||
	    s->rob_tail - s->rob_head >= RING - 1)
		return 1;
	if (t->is_load && t->has_addr && s->mode != M_COMPUTE) {
		addr_sig(s, &t->mem, sig);
		for (unsigned q = 0; q < 32; q++)
			if (s->stq[q].valid && !memcmp(s->stq[q].sig, sig, sizeof(sig)) &&
			    s->stq[q].std >= s->oldest)
				ld_fwd = s->stq[q].std;
	}
	for (i = 0; i < t->nu; i++) {
		const struct tuop *tu = &t->u[i];
		struct duop *d = U(s, s->nu);

		memset(d, 0, sizeof(*d));
		d->ready = NONE;
		d->port = -1;
		d->q = -1;
		d->lat = tu->lat;
		d->occ = tu->occ ? tu->occ : 1;
		if (tu->kind == U_LOAD)
			d->ld = tu->vecld ? 2 : 1;
		for (j = 0; j < tu->nreg && d->ndep < MAX_DEP; j++) {
			uint64_t pr = s->ren[tu->reg[j]];

			if (pr != NONE)
				d->dep[d->ndep++] = pr;
		}
		for (j = 0; j < tu->nloc && d->ndep < MAX_DEP; j++)
			d->dep[d->ndep++] = base + (uint64_t)tu->loc[j];
		if (tu->kind == U_LOAD && ld_fwd != NONE && d->ndep < MAX_DEP) {
			d->dep[d->ndep++] = ld_fwd;
			d->fwd = 1;
			d->lat = s->c->store_forward_lat;
		}
		if (tu->kind == U_LOAD && tu->split_cand) {
			s->split_acc[ii] += tu->split_p;
			if (s->split_acc[ii] >= 1.0 - 1e-9) {
				s->split_acc[ii] -= 1.0;
				unsigned sl = s->c->line_split_slots;

				if (tu->wide512 && s->c->line_split512_slots) {
					sl = s->c->line_split512_slots;
				} else if (s->c->line_split_mean >= 1) {
					/* a mean between whole slots: its
					 * floor, and one more slot as its
					 * fractions add up to one */
					double m = s->c->line_split_mean;

					sl = (unsigned)m;
					s->split_frac += m - sl;
					if (s->split_frac >= 1.0 - 1e-9) {
						s->split_frac -= 1.0;
						sl++;
					}
				}

				d->occ = sl > d->occ ? sl : d->occ;
				d->lat += s->c->line_split_latency;
				s->splits++;
			}
		}
		if (tu->kind == U_FREE) {
			if (tu->zero) {
				d->ndep = 0;
				d->ready = 0;
			} else if (d->ndep == 0) {
				d->ready = 0;
			} else {
				s->free_list[s->free_n++] = s->nu;
			}
		} else {
			d->ports = tu->ports;
			d->q = queue_of(s->c, tu->ports);
			if (d->q >= 0)
				s->qn[d->q]++;

			s->rs[s->rs_total++] = s->nu;
		}
		s->nu++;
	}
	/* rename: destinations */
	{
		const struct dag_insn *in = &s->p->insn[ii];

		for (i = 0; i < t->nu; i++) {
			const struct tuop *tu = &t->u[i];

			if (!tu->writes)
				continue;
			for (j = 0; j < in->ndst; j++) {
				if (tu->alias >= 0 && tu->kind == U_FREE && !tu->zero &&
				    in->ndst == 1)
					s->ren[in->dst[j]] = s->ren[tu->alias];
				else if (tu->zero)
					s->ren[in->dst[j]] = NONE;
				else
					s->ren[in->dst[j]] = base + (uint64_t)i;
			}
		}
		/* a fused jcc writes nothing; flags-only writers are covered */
	}
	if (t->is_store && t->has_addr && s->mode != M_COMPUTE) {
		struct stq *q = &s->stq[s->stq_pos++ % 32];

		/* the signature uses the renamed address registers before this
		   instruction's own writes: recompute with the base unchanged
		   (stores rarely write their address registers) */
		addr_sig(s, &t->mem, q->sig);
		for (i = 0; i < t->nu; i++)
			if (t->u[i].kind == U_STD ||
			    (t->u[i].kind == U_FREE && i == t->nu - 1))
				q->std = base + (uint64_t)i;
		q->valid = 1;
	}
	{
		struct dinsn *r = &s->rob[s->rob_tail % RING];

		r->first = base;
		r->nu = t->nu;
		r->fused = t->fused;
		r->iter = iter;
		r->last_of_iter = last;
		for (i = 0; i < 3; i++) {
			r->prf[i] = t->prf[i];
			s->prf_n[i] += t->prf[i];
		}
		s->rob_tail++;
		s->rob_fused += t->fused;
	}
	*slots = t->fused > *slots ? 0 : *slots - t->fused;
	return 0;
}

static void resolve_free(struct sim *s)
{
	unsigned k = 0;

	for (unsigned i = 0; i < s->free_n; i++) {
		struct duop *d = U(s, s->free_list[i]);
		uint64_t m;

		if (deps_issued(s, d, &m))
			d->ready = m;
		else
			s->free_list[k++] = s->free_list[i];
	}
	s->free_n = k;
}

/*
 * Issue: oldest ready micro-op first, each to a free eligible port (the
 * one with the fewest busy cycles so far, to balance shared ports).
 */
/* A rate below a whole count per cycle (load_rate, fetch_rate): a cycle
 * adds the rate to the credit, which is not saved up beyond cap, and may
 * use the credit's whole units, at most cap; the caller takes off what
 * it used. */
static unsigned credit_units(double *credit, double rate, unsigned cap)
{
	unsigned n;

	if (*credit > cap)
		*credit = cap;
	*credit += rate;
	n = (unsigned)(*credit + 1e-9);
	return n < cap ? n : cap;
}

static void issue(struct sim *s, uint64_t cyc)
{
	unsigned k = 0, nfree = 0, nld = 0;
	int vec_now = 0;
	uint32_t free_ports = 0;
	unsigned mix = s->c->vec_load_mix_width;
	unsigned vslots = s->c->vec_load_slots, slots = 0;
	unsigned budget = (unsigned)__builtin_popcount(s->c->load_ports);
	/* sustained loads a cycle below the ports' count */
	unsigned ldmax = s->c->load_rate > 0 ?
			 credit_units(&s->ld_credit, s->c->load_rate, budget) :
			 budget;

	for (unsigned p = 0; p < s->c->nports; p++)
		if (s->port_busy[p] <= cyc) {
			free_ports |= 1u << p;
			nfree++;
		}
	for (unsigned i = 0; i < s->rs_total; i++) {
		uint64_t id = s->rs[i];
		struct duop *d = U(s, id);
		uint32_t cand = d->ports & free_ports;
		uint64_t m;
		int best = -1;

		if (!cand || !deps_issued(s, d, &m) || m > cyc ||
		    (mix && d->ld && (d->ld == 2 || vec_now) && nld >= mix) ||
		    (vslots > 1 && d->ld &&
		     slots + (d->ld == 2 ? vslots : 1) > budget) ||
		    (d->ld && nld >= ldmax)) {
			s->rs[k++] = id;
			continue;
		}
		if (d->ld) {
			nld++;
			vec_now |= d->ld == 2;
			slots += d->ld == 2 ? vslots : 1;
		}
		for (unsigned p = 0; p < s->c->nports; p++)
			if ((cand & (1u << p)) &&
			    (best < 0 || s->port_cycles[p] < s->port_cycles[best]))
				best = (int)p;
		d->port = best;
		if (d->q >= 0 && d->ld && s->c->load_holds_queue) {
			s->hold[s->nhold] = cyc + d->lat;
			s->hold_q[s->nhold++] = d->q;
		} else if (d->q >= 0) {
			s->qn[d->q]--;
		}
		d->ready = cyc + d->lat;
		if (d->fwd && m + d->lat > d->ready)
			d->ready = m + d->lat;
		d->state = 1;
		s->port_busy[best] = cyc + d->occ;
		s->port_cycles[best] += d->occ;
		free_ports &= ~(1u << best);
		nfree--;
	}
	(void)nfree;
	if (s->c->load_rate > 0)
		s->ld_credit -= nld;
	s->rs_total = k;
}

static void retire(struct sim *s, uint64_t cyc)
{
	unsigned done = 0;

	while (s->rob_head < s->rob_tail && done < s->c->retire_width) {
		struct dinsn *r = &s->rob[s->rob_head % RING];
		int ok = 1;

		for (int i = 0; i < r->nu; i++) {
			uint64_t rd = U(s, r->first + (uint64_t)i)->ready;

			if (rd == NONE || rd > cyc) {
				ok = 0;
				break;
			}
		}
		if (!ok)
			break;
		if (r->fused + done > s->c->retire_width && done)
			break;
		done += r->fused ? r->fused : 0;
		s->rob_fused -= r->fused;
		for (int i = 0; i < 3; i++)
			s->prf_n[i] -= r->prf[i];
		if (r->last_of_iter && r->iter < s->iters)
			s->iter_done[r->iter] = cyc;
		s->rob_head++;
		s->oldest = r->first + (uint64_t)r->nu;
	}
}

/*
 * Instructions of the outer loop that belong to another inner loop (a
 * remainder loop beside the chosen one): assumed not to run.
 */
static char *sibling_mask(const struct dag_prog *p, const struct dag_loop *l)
{
	char *skip = xcalloc(p->n, 1);

	for (size_t i = l->outer_begin; i + 1 < l->outer_end; i++) {
		const struct dag_insn *b = &p->insn[i];
		size_t d;

		if (!(b->flags & DAG_F_BRANCH) || b->cls != DAG_BRANCH)
			continue;
		d = dag_branch_dest(p, b);
		if (d == (size_t)-1 || d > i || d <= l->outer_begin ||
		    (d == l->begin && i + 1 == l->end))
			continue;
		if (d >= l->begin && i < l->end)
			continue;          /* inside the chosen loop */
		for (size_t j = d; j <= i; j++)
			skip[j] = 1;
	}
	return skip;
}

/* Build the dynamic sequence of one analysed iteration. */
static size_t *build_seq(const struct dag_prog *p, const struct dag_loop *l,
			 unsigned trips, size_t *n)
{
	size_t cnt = 0, k = 0, *seq;

	if (trips && l->has_outer) {
		char *skip = sibling_mask(p, l);

		cnt = (l->begin - l->outer_begin) +
		      (size_t)trips * (l->end - l->begin) +
		      (l->outer_end - l->end);
		seq = xmalloc(cnt * sizeof(*seq));
		for (size_t i = l->outer_begin; i < l->begin; i++)
			if (!skip[i])
				seq[k++] = i;
		for (unsigned t = 0; t < trips; t++)
			for (size_t i = l->begin; i < l->end; i++)
				seq[k++] = i;
		for (size_t i = l->end; i < l->outer_end; i++)
			if (!skip[i])
				seq[k++] = i;
		free(skip);
		cnt = k;
	} else {
		cnt = l->end - l->begin;
		seq = xmalloc(cnt * sizeof(*seq));
		for (size_t i = l->begin; i < l->end; i++)
			seq[k++] = i;
	}
	*n = cnt;
	return seq;
}

/*
 * Front end: one fetch block a cycle (fetch_rate on average) of at most
 * fetch_width fused slots, ending after a loop branch, into the op queue
 * (op_queue slots) that dispatch drains.  Measured here (Zen 4, loops in
 * L1, 2026-11-26): a loop of 2 to 5 macro-ops runs 1.06 cycles an
 * iteration whatever its body, and a nest of rows of L iterations
 * (L + 1) x 1.06 cycles a row: every block ends at a branch that is ever
 * taken, the exit of the inner loop too.  AMD's op cache delivers 9
 * macro-ops a cycle and dispatch takes 6 (AnandTech's Zen 4 review).
 */
static void fetch(struct sim *s, double *fcredit, uint64_t total)
{
	const struct dag_core *c = s->c;
	unsigned cap = c->op_queue ? c->op_queue : 4 * c->fetch_width;
	unsigned got = 0;

	if (!credit_units(fcredit, c->fetch_rate > 0 ? c->fetch_rate : 1, 1))
		return;
	while (s->fpos < total) {
		size_t ii = s->seq[s->fpos % s->nseq];
		unsigned f = s->ti[ii].fused;

		if (got + f > c->fetch_width || s->oq + f > cap)
			break;
		got += f;
		s->oq += f;
		s->fpos++;
		if (s->ends_block[ii])
			break;
	}
	if (got || s->fpos >= total)
		*fcredit -= 1;
}

/* The rings of one dag_sched_run, lent to its three simulations: they are
 * written before they are read, so one allocation serves all three (an
 * AddressSanitizer build maps and faults in each 3 MiB allocation afresh:
 * three per run made the 64 BCSR kernels' in-core points take 50-70 s
 * there, most of it in page faults and shadow memsets). */
struct rings {
	struct duop *u;
	struct dinsn *rob;
	uint64_t *free_list;
};

static int simulate(const struct dag_prog *p, const size_t *seq, size_t nseq,
		    const struct dag_core *c, const struct dag_sched_opts *o,
		    const struct rings *rg,
		    enum smode mode, uint64_t iters, double *cpi,
		    double *pressure, double *splits_per_iter,
		    struct ppr_err *err)
{
	struct sim s;
	int rc = 0;
	unsigned line = o->line_size ? o->line_size : 64;
	uint64_t cyc = 0, pos = 0, total = iters * nseq;
	uint64_t mid = iters / 2, limit;
	/* the front end limits the whole loop's schedule, not
	   S_DAG(compute) or S_DAG(memory) */
	int fe = c->fetch_width && mode == M_FULL;

	memset(&s, 0, sizeof(s));
	s.p = p;
	s.c = c;
	s.o = o;
	s.mode = mode;
	s.seq = (size_t *)seq;
	s.nseq = nseq;
	s.iters = iters;
	s.ti = xcalloc(p->n, sizeof(*s.ti));
	s.split_acc = xcalloc(p->n, sizeof(double));
	/* The rings are written before they are read (a micro-op and a
	 * reorder-buffer entry are filled whole when dispatched): not
	 * zeroed, since zeroing their 3 MiB took a third of a small
	 * matrix's prediction, which schedules dozens of loops. */
	s.u = rg->u;
	s.rob = rg->rob;
	s.rs = xcalloc(c->sched_size + MAX_TU + 1, sizeof(uint64_t));
	{
		/* a held entry was counted in its queue: at most the
		   queues' capacity, plus one instruction's overshoot */
		size_t nh = MAX_TU + 1;

		for (unsigned q = 0; q < c->nqueues; q++)
			nh += c->queue_size[q] + MAX_TU;
		s.hold = xcalloc(nh, sizeof(uint64_t));
		s.hold_q = xcalloc(nh, sizeof(int));
	}
	s.free_list = rg->free_list;
	s.iter_done = xcalloc(iters, sizeof(uint64_t));
	for (int r = 0; r < DAG_NREGS; r++)
		s.ren[r] = NONE;
	{
		/* templates for every instruction in the sequence */
		char *seen = xcalloc(p->n, 1);

		for (size_t i = 0; i < nseq; i++) {
			size_t ii = seq[i];

			if (seen[ii])
				continue;
			seen[ii] = 1;
			rc = tmpl_build(&p->insn[ii], c, mode, o->align,
					o->align_bytes, line,
					ii ? &p->insn[ii - 1] : NULL,
					ii + 1 < p->n ? &p->insn[ii + 1] : NULL, &s.ti[ii],
					p->file, err);
			if (rc)
				break;
		}
		/* the front end's loop branches: backward conditional
		   branches, once per static instruction */
		if (fe) {
			s.ends_block = xcalloc(p->n, 1);
			for (size_t ii = 0; ii < p->n; ii++) {
				const struct dag_insn *b = &p->insn[ii];
				size_t d;

				if (!seen[ii] || !(b->flags & DAG_F_BRANCH) ||
				    b->cls != DAG_BRANCH)
					continue;
				d = dag_branch_dest(p, b);
				s.ends_block[ii] = d != (size_t)-1 && d <= ii;
			}
		}
		free(seen);
		if (rc)
			goto out;
	}
	/* a generous cycle limit: nothing in a loop body takes 1000 cycles
	   per instruction */
	limit = 1000 * total + 100000;
	{
		uint64_t pc_mid[DAG_MAX_PORTS];
		uint64_t cyc_mid = 0;
		int have_mid = 0;

		memset(pc_mid, 0, sizeof(pc_mid));
		/* dispatch credit: issue_rate slots a cycle on average (the
		 * whole slots of the credit), at most issue_width */
		double rate = dispatch_rate(c), credit = 0, fcredit = 0;

		while (s.rob_head < s.rob_tail || pos < total) {
			unsigned slots, slots0;

			credit += rate;
			if (credit > c->issue_width)
				credit = c->issue_width;
			slots = slots0 = (unsigned)(credit + 1e-9);
			cyc++;
			for (unsigned h = 0; h < s.nhold;) {
				if (s.hold[h] <= cyc) {
					s.qn[s.hold_q[h]]--;
					s.hold[h] = s.hold[--s.nhold];
					s.hold_q[h] = s.hold_q[s.nhold];
				} else {
					h++;
				}
			}
			retire(&s, cyc);
			resolve_free(&s);
			issue(&s, cyc);
			resolve_free(&s);
			while (pos < total && slots > 0 &&
			       (!fe || pos < s.fpos)) {
				uint64_t it = pos / nseq;
				size_t k = (size_t)(pos % nseq);

				if (dispatch(&s, k, it, k == nseq - 1, &slots))
					break;
				if (fe)
					s.oq -= s.ti[seq[k]].fused;
				pos++;
			}
			credit -= slots0 - slots;
			if (fe)
				fetch(&s, &fcredit, total);
			if (!have_mid && mid && s.iter_done[mid - 1]) {
				have_mid = 1;
				cyc_mid = s.iter_done[mid - 1];
				memcpy(pc_mid, s.port_cycles, sizeof(pc_mid));
			}
			if (cyc > limit) {
				rc = ppr_err_set(err, PPR_ELIMIT, p->file, 0, 0,
						 "scheduler did not converge");
				goto out;
			}
		}
		if (!mid || iters - mid < 1)
			*cpi = (double)s.iter_done[iters - 1] / (double)iters;
		else
			*cpi = (double)(s.iter_done[iters - 1] - s.iter_done[mid - 1]) /
			       (double)(iters - mid);
		/* every iteration has fully executed by now */
		for (unsigned q = 0; q < c->nports; q++)
			pressure[q] = (double)s.port_cycles[q] / (double)iters;
		(void)cyc_mid;
		if (splits_per_iter)
			*splits_per_iter = (double)s.splits / (double)iters;
	}
out:
	free(s.ends_block);
	free(s.rs);
	free(s.hold);
	free(s.hold_q);
	free(s.iter_done);
	free(s.ti);
	free(s.split_acc);
	return rc;
}

/* ---- the critical chain (static) ---------------------------------------- */

#define NEG (-1e18)

/*
 * Longest paths over one iteration of seq: for every register r carried
 * in, the latency to each register's value at the bottom.  Then the best
 * cycle of length 1 or 2 (mean per iteration) gives the chain bound; the
 * instructions on a length-1 cycle are listed.
 */
static void chain_find(const struct dag_prog *p, const size_t *seq,
		       size_t nseq, const struct dag_core *c,
		       const struct dag_sched_opts *o, struct dag_result *res)
{
	/* node value: per register, the current producer's distance from
	   every input register, and the predecessor for backtracking */
	size_t n = nseq;
	double (*dist)[DAG_NREGS] = xmalloc((n + 1) * sizeof(*dist));
	long (*pred)[DAG_NREGS] = xmalloc((n + 1) * sizeof(*pred));
	long cur[DAG_NREGS];      /* node holding each register: -1 - r for
				     the input value, else position */
	double M[DAG_NREGS][DAG_NREGS];
	struct tinsn t;
	int r, s2;
	double best = 0;
	int best_r = -1;

	for (r = 0; r < DAG_NREGS; r++) {
		cur[r] = -1 - r;
		dist[n][r] = NEG;
		pred[n][r] = -2;
	}
	for (size_t i = 0; i < n; i++) {
		const struct dag_insn *in = &p->insn[seq[i]];
		unsigned lat = 0;
		int alias_only = 0, zero = 0;

		for (r = 0; r < DAG_NREGS; r++) {
			dist[i][r] = NEG;
			pred[i][r] = -2;
		}
		if (tmpl_build(in, c, M_FULL, o->align, o->align_bytes, 64,
			       seq[i] ? &p->insn[seq[i] - 1] : NULL,
			       seq[i] + 1 < p->n ? &p->insn[seq[i] + 1] : NULL, &t,
			       p->file, NULL))
			continue;
		/* latency through the instruction: load + op chain */
		for (int k = 0; k < t.nu; k++) {
			if (t.u[k].writes) {
				if (t.u[k].kind == U_FREE) {
					zero = t.u[k].zero;
					alias_only = t.u[k].alias >= 0;
				}
			}
		}
		{
			unsigned ll = 0, ol = 0;

			for (int k = 0; k < t.nu; k++) {
				if (t.u[k].kind == U_LOAD)
					ll = t.u[k].lat;
				else if (t.u[k].kind == U_OP)
					ol += t.u[k].writes || t.u[k].lat ? t.u[k].lat : 0;
			}
			lat = ol;
			(void)ll;
		}
		if (zero) {
			for (int d = 0; d < in->ndst; d++)
				cur[in->dst[d]] = (long)n;   /* constant node */
			continue;
		}
		if (!in->ndst)
			continue;
		if (alias_only) {
			/* eliminated move: dst takes the src node as is */
			for (int d = 0; d < in->ndst; d++)
				cur[in->dst[d]] = cur[in->src[0]];
			continue;
		}
		/* register sources (with op latency) and address sources of a
		   load (with load + op latency) */
		{
			int nsrc = 0;
			int srcs[DAG_MAX_SRC + 2];
			unsigned slat[DAG_MAX_SRC + 2];
			unsigned load_lat = 0;

			for (int k = 0; k < t.nu; k++)
				if (t.u[k].kind == U_LOAD)
					load_lat = t.u[k].lat;
			for (int k = 0; k < in->nsrc; k++) {
				srcs[nsrc] = in->src[k];
				slat[nsrc++] = in->cls == DAG_LOAD ? load_lat : lat;
			}
			if ((in->flags & DAG_F_LOAD) && !(in->flags & DAG_F_NOACCESS)) {
				if (in->mem.base >= 0 && in->mem.base != DAG_REG_RIP &&
				    nsrc < DAG_MAX_SRC + 2) {
					srcs[nsrc] = in->mem.base;
					slat[nsrc++] = load_lat + lat;
				}
				if (in->mem.index >= 0 && nsrc < DAG_MAX_SRC + 2) {
					srcs[nsrc] = in->mem.index;
					slat[nsrc++] = load_lat + lat;
				}
			}
			for (int k = 0; k < nsrc; k++) {
				long node = cur[srcs[k]];

				for (r = 0; r < DAG_NREGS; r++) {
					double d0 = node < 0 ? (-1 - node == r ? 0 : NEG)
							     : dist[node][r];

					if (d0 <= NEG / 2)
						continue;
					if (d0 + slat[k] > dist[i][r]) {
						dist[i][r] = d0 + slat[k];
						pred[i][r] = node;
					}
				}
			}
		}
		for (int d = 0; d < in->ndst; d++)
			cur[in->dst[d]] = (long)i;
	}
	for (r = 0; r < DAG_NREGS; r++)
		for (s2 = 0; s2 < DAG_NREGS; s2++) {
			long node = cur[s2];

			if (node < 0)
				M[r][s2] = NEG;   /* unchanged register: no chain */
			else
				M[r][s2] = dist[node][r];
		}
	for (r = 0; r < DAG_NREGS; r++)
		if (M[r][r] > best) {
			best = M[r][r];
			best_r = r;
		}
	/* cycles over two iterations (r -> s -> r) */
	for (r = 0; r < DAG_NREGS; r++)
		for (s2 = 0; s2 < DAG_NREGS; s2++)
			if (s2 != r && M[r][s2] > NEG / 2 && M[s2][r] > NEG / 2 &&
			    (M[r][s2] + M[s2][r]) / 2 > best) {
				best = (M[r][s2] + M[s2][r]) / 2;
				best_r = r;
			}
	res->chain_bound = best;
	res->chain_reg = best_r;
	res->chain_len = 0;
	if (best_r >= 0 && cur[best_r] >= 0) {
		size_t tmp[DAG_MAX_CHAIN];
		unsigned k = 0;
		long node = cur[best_r];

		while (node >= 0 && (size_t)node < n && k < DAG_MAX_CHAIN) {
			tmp[k++] = seq[node];
			node = pred[node][best_r];
		}
		for (unsigned q = 0; q < k; q++)
			res->chain[q] = tmp[k - 1 - q];
		res->chain_len = k;
	}
	free(dist);
	free(pred);
}

/* ---- entry point -------------------------------------------------------- */

int dag_sched_run(const struct dag_prog *p, const struct dag_loop *loop,
		  const struct dag_core *core,
		  const struct dag_sched_opts *opts, struct dag_result *out,
		  struct ppr_err *err)
{
	struct dag_sched_opts o = { 0 };
	struct rings rg = { 0 };
	size_t nseq, *seq = NULL;
	uint64_t iters;
	double pr[DAG_MAX_PORTS], dummy[DAG_MAX_PORTS], splits = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (opts)
		o = *opts;
	if ((rc = dag_core_check(core, err)))
		return rc;
	if (!p->n || loop->end <= loop->begin || loop->end > p->n)
		return ppr_err_set(err, PPR_EINVAL, p->file, 0, 0,
				   "empty loop");
	if (o.inner_trips && !loop->has_outer)
		return ppr_err_set(err, PPR_EINVAL, p->file,
				   p->insn[loop->begin].line, 0,
				   "--inner-trips: loop '%s' has no enclosing "
				   "loop", loop->label);
	seq = build_seq(p, loop, o.inner_trips, &nseq);
	iters = o.iterations ? o.iterations : 200;
	if (o.inner_trips && !o.iterations) {
		iters = 4000 / nseq;
		if (iters < 40)
			iters = 40;
	}
	if (iters < 2)
		iters = 2;
	rg.u = xmalloc(RING * sizeof(*rg.u));
	rg.rob = xmalloc(RING * sizeof(*rg.rob));
	rg.free_list = xmalloc(RING * sizeof(*rg.free_list));
	rc = simulate(p, seq, nseq, core, &o, &rg, M_FULL, iters,
		      &out->cycles_per_iter, pr, &splits, err);
	if (rc)
		goto out;
	rc = simulate(p, seq, nseq, core, &o, &rg, M_COMPUTE, iters,
		      &out->compute_cycles, dummy, NULL, err);
	if (rc)
		goto out;
	rc = simulate(p, seq, nseq, core, &o, &rg, M_MEMORY, iters,
		      &out->memory_cycles, dummy, NULL, err);
	if (rc)
		goto out;
	out->iterations = (unsigned)iters;
	out->split_loads_x1000 = (unsigned)(splits * 1000 + 0.5);
	out->port_bound = 0;
	for (unsigned q = 0; q < core->nports; q++) {
		out->port_pressure[q] = pr[q];
		if (pr[q] > out->port_bound) {
			out->port_bound = pr[q];
			out->bottleneck_port = (int)q;
		}
	}
	/* static counts */
	{
		struct tinsn t;
		double uops = 0, fused = 0;

		for (size_t i = 0; i < nseq; i++) {
			const struct dag_insn *in = &p->insn[seq[i]];

			if (tmpl_build(in, core, M_FULL, o.align, o.align_bytes, 64,
				       seq[i] ? &p->insn[seq[i] - 1] : NULL,
				       seq[i] + 1 < p->n ? &p->insn[seq[i] + 1] : NULL,
				       &t, p->file, NULL) == 0) {
				for (int k = 0; k < t.nu; k++)
					if (t.u[k].kind != U_FREE)
						uops++;
				fused += t.fused;
			}
			out->insns_per_iter++;
			out->flops_per_iter += dag_insn_flops(in);
			if (in->fpk == DAG_FPK_ADD)
				out->adds++;
			else if (in->fpk == DAG_FPK_MUL)
				out->muls++;
			else if (in->fpk == DAG_FPK_FMA)
				out->fmas++;
			if ((in->flags & DAG_F_LOAD) && !(in->flags & DAG_F_NOACCESS) &&
			    in->cls != DAG_CALL)
				out->loads++;
			if ((in->flags & DAG_F_STORE) && in->cls != DAG_CALL)
				out->stores++;
		}
		out->uops_per_iter = uops;
		out->fused_per_iter = fused;
		out->frontend_bound = fused / dispatch_rate(core);
	}
	out->ipc = out->cycles_per_iter > 0 ?
		   out->insns_per_iter / out->cycles_per_iter : 0;
	out->cycles_per_inner = out->cycles_per_iter;
	if (o.inner_trips)
		out->cycles_per_inner = out->cycles_per_iter / o.inner_trips;
	chain_find(p, seq, nseq, core, &o, out);
	/* the bottleneck: the bound closest to the simulated figure */
	{
		double cpi = out->cycles_per_iter;
		double b = out->port_bound;

		out->bottleneck = DAG_BOUND_PORTS;
		if (out->chain_bound > b) {
			b = out->chain_bound;
			out->bottleneck = DAG_BOUND_CHAIN;
		}
		if (out->frontend_bound > b) {
			b = out->frontend_bound;
			out->bottleneck = DAG_BOUND_FRONTEND;
		}
		if (cpi > 1.15 * b + 0.5)
			out->bottleneck = DAG_BOUND_WINDOW;
	}
out:
	free(rg.u);
	free(rg.rob);
	free(rg.free_list);
	free(seq);
	return rc;
}

const char *dag_bottleneck_name(enum dag_bottleneck b)
{
	switch (b) {
	case DAG_BOUND_PORTS: return "ports";
	case DAG_BOUND_CHAIN: return "dependency chain";
	case DAG_BOUND_FRONTEND: return "front end";
	case DAG_BOUND_WINDOW: return "latency (reorder window)";
	}
	return "?";
}
