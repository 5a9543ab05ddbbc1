/*
 * bcsr_select.c - BCSR block-shape selection with the PPR model: predict
 * all 64 shapes r x c (1..8 each) of SpMV on a machine, fast.
 *
 * Notes:
 * - What differs between shapes is simulated; what is known is computed.
 *   The regular streams (block values nb*r*c*8 B, block column indices
 *   nb*4 B, block row pointers (brows+1)*8 B, y rows*8 B, plus rows*8 B of
 *   write-back when y does not stay in cache) are exact given the block
 *   count nb.  They live in the first level that holds the whole working
 *   set (steady state of repeated SpMVs, as `ppr measure` times them), else
 *   in memory, and move at the narrowest link from there to L2 (eq. 2).
 * - The irregular stream is x: per block, c consecutive doubles at column
 *   J*c.  Only x is simulated, through the machine's levels that cannot
 *   hold the whole working set (a level that holds it has no misses in the
 *   steady state), each capped at 4 MiB (fewer sets, same ways): within a
 *   sampled window the x working set is far below that, and reuse across
 *   the whole sweep cannot hit a level the working set overflows (the
 *   streams flush it).  Levels from the first that holds x twice over are
 *   not simulated either (x's lines stay there: no steady-state misses).
 *   An access to the line the previous access touched is dropped before
 *   the simulator (it hits L1 and counts nothing).
 *   The streams' share of each level is ignored within a window.
 * - Sampling: windows of 840 rows (lcm of 1..8, so every block height
 *   tiles them), uniformly spaced, each preceded by an 840-row warm-up
 *   that is simulated but not counted.  Block counts and x misses are
 *   extrapolated by rows; the block count's relative standard error over
 *   windows is reported per shape (nblocks_rel_err); it measures the
 *   variation between windows, not a systematic difference of the rows
 *   between them (a mesh's boundary rows).  Small matrices are done whole.
 * - In-core time: the compiled kernel of each shape on the DAG, the block
 *   row loop scheduled with its block loop run 1, 2, 3, 4, 6, ... 64 times
 *   (model_nest_points; interpolated at the mean blocks per block row), so
 *   block rows overlap in the reorder window as far as the schedule lets
 *   them.  The whole loop's schedule is a lower bound beside eq. (4)
 *   (core_cycles): S_DAG(compute) and S_DAG(memory) each miss the
 *   accumulator chains that run through both halves.
 * - Branch mispredictions: a block row whose block count differs from the
 *   previous one's ends its inner loop where the predictor does not
 *   expect it: MODEL_BRANCH_MISS_CYCLES each, added after the overlap
 *   (counted in the sampled windows, extrapolated).
 * - The 64 shapes are spread over threads (model_threads_default: the
 *   environment's PPR_THREADS, else the online CPUs, at most 8); each
 *   shape is evaluated independently of the others, so the result is the
 *   same whatever the thread count.
 */
#include "model/predict.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"

#define WIN_ROWS 840
#define SIM_CAP_BYTES (4u << 20)

struct job {
	const struct machine *m;
	const struct csr *a;
	const struct dag_core *core;
	double bw[SIM_MAX_LEVELS];
	unsigned nlev;
	uint64_t *win_start;    /* first row of each window */
	unsigned nwin;
	double row_scale;       /* rows / sampled rows */
	struct model_bcsr_result *out;
	struct model_nest_points *pts;  /* [64], in-core schedules */
	int phase;              /* 0: schedule the points; 1: shapes */
	pthread_mutex_t lock;
	unsigned next;
	int rc;
	struct ppr_err err;
};

/* Unique block columns of block row rows [i0, i1) with width c, merged
 * from the sorted rows; returns their count in js. */
static size_t brow_blocks(const struct csr *a, uint64_t i0, uint64_t i1,
			  unsigned c, uint32_t *js)
{
	uint64_t pos[8], end[8];
	unsigned k, nr = (unsigned)(i1 - i0);
	size_t n = 0;

	for (k = 0; k < nr; k++) {
		pos[k] = a->row_ptr[i0 + k];
		end[k] = a->row_ptr[i0 + k + 1];
	}
	for (;;) {
		uint32_t best = UINT32_MAX;
		int any = 0;

		for (k = 0; k < nr; k++)
			if (pos[k] < end[k]) {
				uint32_t j = a->col_idx[pos[k]] / c;

				if (!any || j < best)
					best = j;
				any = 1;
			}
		if (!any)
			break;
		js[n++] = best;
		for (k = 0; k < nr; k++)
			while (pos[k] < end[k] &&
			       a->col_idx[pos[k]] / c == best)
				pos[k]++;
	}
	return n;
}

static int shape_eval(struct job *jb, unsigned idx, uint32_t *js,
		      struct ppr_err *err)
{
	const struct csr *a = jb->a;
	const struct machine *m = jb->m;
	struct model_bcsr_shape *sh = &jb->out->shape[idx];
	unsigned r = idx / 8 + 1, c = idx % 8 + 1, lvl, w;
	unsigned line = m->hier.levels[0].line_size;
	struct sim_config cfg = m->hier;
	struct sim_hier *h = NULL;
	struct sim_level_stats before[SIM_MAX_LEVELS + 1];
	double blocks_s = 0, sum_w = 0, sum_w2 = 0, changes = 0;
	double brows, nb, foot, xm[MODEL_MAX_LEVELS] = { 0 };
	unsigned home;        /* 1..nlev: level holding everything; nlev+1: memory */
	unsigned nsim;        /* levels simulated for x */
	struct model_work wk = { 0 };
	struct model_kernel_dag kd;
	struct model_ppr_in in = { 0 };
	struct model_ppr_out po;
	int rc;

	sh->r = r;
	sh->c = c;
	brows = ceil((double)a->rows / r);
	/* working set estimate for the home level (with the CSR's nnz) */
	foot = (double)a->nnz * 12 + (double)a->rows * 16 + (double)a->cols * 8;
	home = jb->nlev + 1;
	for (lvl = 0; lvl < jb->nlev; lvl++)
		if ((double)m->hier.levels[lvl].size >= foot) {
			home = lvl + 1;
			break;
		}
	/* simulator over the levels that cannot hold the working set,
	 * from L1 up to the first level that holds x twice over (x alone
	 * is simulated: from there on its lines stay, no misses) */
	nsim = home - 1 < jb->nlev ? home - 1 : jb->nlev;
	for (lvl = 0; lvl < nsim; lvl++)
		if ((double)m->hier.levels[lvl].size >=
		    2.0 * ((double)a->cols + 8) * 8)
			break;
	nsim = lvl;
	if (nsim > 0) {
		unsigned k;

		cfg.nlevels = nsim;
		cfg.split_l1 = 0;
		cfg.classify_3c = 0;
		for (k = 0; k < cfg.nlevels; k++) {
			struct sim_level_config *l = &cfg.levels[k];

			l->prefetch = SIM_PF_NONE;
			if (l->inclusion == SIM_INCL_EXCLUSIVE)
				l->inclusion = SIM_INCL_NINE;
			while (l->size > SIM_CAP_BYTES && l->sets % 2 == 0) {
				l->sets /= 2;
				l->size /= 2;
			}
		}
		h = sim_hier_new(&cfg, err);
		if (!h)
			return err && err->code ? err->code : PPR_EINVAL;
	}
	for (w = 0; w < jb->nwin; w++) {
		uint64_t s0 = jb->win_start[w], i, wu;
		double wb = 0;
		size_t prev_n = SIZE_MAX;

		wu = s0 >= WIN_ROWS ? s0 - WIN_ROWS : 0;
		for (i = wu; i < s0 + WIN_ROWS && i < a->rows; i += r) {
			uint64_t i1 = i + r < a->rows ? i + r : a->rows;
			size_t n = brow_blocks(a, i, i1, c, js), b;
			uint64_t last = UINT64_MAX;

			if (i >= s0 && n != prev_n)
				changes += 1;
			prev_n = n;

			if (i == s0 && h)
				for (lvl = 0; lvl < cfg.nlevels; lvl++)
					before[lvl] = *sim_hier_level_stats(h,
									    lvl);
			if (i >= s0)
				wb += (double)n;
			if (!h)
				continue;
			for (b = 0; b < n; b++) {
				struct ppr_access acc;
				uint64_t addr = (uint64_t)js[b] * c * 8;
				uint64_t l0 = addr / line;
				uint64_t l1 = (addr + c * 8 - 1) / line;

				if (l0 == last && l1 == last)
					continue;
				last = l1;
				acc.addr = addr + 4096; /* x's base */
				acc.size = c * 8;
				acc.op = PPR_OP_LOAD;
				acc.tag = PPR_TAG_IRREGULAR;
				sim_hier_access(h, &acc);
			}
		}
		if (h)
			for (lvl = 0; lvl < cfg.nlevels; lvl++) {
				const struct sim_level_stats *st =
					sim_hier_level_stats(h, lvl);
				const struct sim_level_stats *bf = &before[lvl];

				xm[lvl] += (double)(sim_stat_sum(st->misses) -
					sim_stat_sum(bf->misses));
			}
		blocks_s += wb;
		sum_w += wb;
		sum_w2 += wb * wb;
	}
	sim_hier_free(h);
	nb = blocks_s * jb->row_scale;
	if (jb->nwin == 0 || jb->row_scale <= 1.0)
		nb = blocks_s;
	sh->nblocks = (uint64_t)llround(nb);
	sh->fill = a->nnz ? nb * r * c / (double)a->nnz : 0;
	for (lvl = 0; lvl < MODEL_MAX_LEVELS; lvl++)
		sh->x_misses[lvl] = xm[lvl] * jb->row_scale;
	sh->nblocks_rel_err = 0;
	if (jb->row_scale > 1.0 && jb->nwin > 1 && sum_w > 0) {
		double k = jb->nwin, mean = sum_w / k;
		double var = (sum_w2 - k * mean * mean) / (k - 1);

		if (var < 0)
			var = 0;
		/* finite-population correction: 1 - sampled fraction */
		sh->nblocks_rel_err = sqrt(var / k * (1 - 1 / jb->row_scale)) /
				      mean;
	}

	/* in-core */
	wk.outer_iters = brows;
	wk.inner_flops_per_outer = brows > 0 ? 2.0 * nb * r * c / brows : 0;
	wk.total_flops = 2.0 * nb * r * c;
	rc = model_nest_points_eval(&jb->pts[idx], &wk, &kd, err);
	if (rc)
		return rc;

	/* PPR */
	in.flops = 2.0 * (double)a->nnz;
	in.compute_cycles = kd.compute_cycles;
	in.memory_cycles = kd.memory_cycles;
	/* the whole loop's schedule bounds the time from below: the
	 * halves miss the chains through both (the accumulators) and the
	 * overlap of short inner loops */
	in.core_cycles = fmax(kd.acc_chain_cycles, kd.cycles);
	in.stall_cycles = changes * (jb->nwin && jb->row_scale > 1.0 ?
				     jb->row_scale : 1.0) *
			  MODEL_BRANCH_MISS_CYCLES;
	in.nlevels = jb->nlev;
	in.line_size = line;
	in.clock_ghz = m->clock_ghz;
	for (lvl = 0; lvl < jb->nlev; lvl++) {
		in.bw[lvl] = jb->bw[lvl];
		in.irregular_misses[lvl] = sh->x_misses[lvl];
	}
	if (home > 1) {
		double reg = nb * r * c * 8 + nb * 4 + (brows + 1) * 8 +
			     (double)a->rows * 8;

		if (home > jb->nlev)
			reg += (double)a->rows * 8; /* y write-back */
		in.regular_by_origin[home - 1 <= jb->nlev ? home - 1 :
				     jb->nlev] = reg;
	}
	rc = model_ppr_eval(&in, &po, err);
	if (rc)
		return rc;
	sh->cycles = po.cycles;
	sh->time_s = po.time_s;
	sh->gflops = po.gflops;
	sh->dag_cycles = po.t_process;
	sh->compute_cycles = in.compute_cycles;
	sh->memory_instr_cycles = in.memory_cycles;
	sh->core_cycles = in.core_cycles;
	sh->stall_cycles = in.stall_cycles;
	sh->t_regular = po.t_regular;
	sh->t_irregular = po.t_irregular;
	return 0;
}

static void *worker(void *arg)
{
	struct job *jb = arg;
	uint32_t *js;
	struct ppr_err err;

	memset(&err, 0, sizeof(err));
	js = malloc(sizeof(*js) * (jb->a->cols + 8));
	for (;;) {
		unsigned idx;
		int rc;

		pthread_mutex_lock(&jb->lock);
		idx = jb->next++;
		if (jb->rc || !js)
			idx = 64;
		pthread_mutex_unlock(&jb->lock);
		if (idx >= 64)
			break;
		if (jb->phase == 0) {
			char sym[64];

			snprintf(sym, sizeof(sym), "kern_spmv_bcsr_%ux%u",
				 idx / 8 + 1, idx % 8 + 1);
			rc = model_nest_points_get(sym, jb->core,
						   &jb->pts[idx], &err);
		} else {
			rc = shape_eval(jb, idx, js, &err);
		}
		if (rc) {
			pthread_mutex_lock(&jb->lock);
			if (!jb->rc) {
				jb->rc = rc;
				jb->err = err;
			}
			pthread_mutex_unlock(&jb->lock);
		}
	}
	if (!js) {
		pthread_mutex_lock(&jb->lock);
		if (!jb->rc)
			jb->rc = PPR_ENOMEM;
		pthread_mutex_unlock(&jb->lock);
	}
	free(js);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * The in-core schedules of the 64 kernels depend on the core model and
 * the program (the kernels' code, the scheduler) only, not on the matrix:
 * they are kept in a cache file, so only the first selection on a core
 * model pays for them.  The key hashes the core model's fields and the
 * identity of the running executable (size, modification time, inode:
 * any rebuild invalidates it).  Directory: $PPR_CACHE_DIR (empty: no
 * cache), else $XDG_CACHE_HOME/ppr, else $HOME/.cache/ppr.  A missing,
 * unreadable or malformed file is recomputed; a failed write is ignored.
 */
#define CACHE_MAGIC "ppr-bcsr-incore 2"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t fnv_u(uint64_t h, uint64_t v)
{
	return fnv(h, &v, sizeof(v));
}

static uint64_t cache_key(const struct dag_core *c)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct stat st;
	unsigned i;

	h = fnv(h, CACHE_MAGIC, strlen(CACHE_MAGIC));
	h = fnv(h, c->name, strnlen(c->name, sizeof(c->name)));
	h = fnv_u(h, c->issue_width);
	h = fnv_u(h, c->retire_width);
	h = fnv_u(h, c->rob_size);
	h = fnv_u(h, c->sched_size);
	h = fnv_u(h, c->nports);
	for (i = 0; i < DAG_NCLASSES; i++) {
		h = fnv_u(h, c->cost[i].latency);
		h = fnv_u(h, c->cost[i].uops);
		h = fnv_u(h, c->cost[i].ports);
		h = fnv_u(h, c->cost[i].occupancy);
		h = fnv_u(h, (uint64_t)c->cost[i].valid);
	}
	h = fnv_u(h, c->load_ports);
	h = fnv_u(h, c->vec_load_ports);
	h = fnv_u(h, c->store_addr_ports);
	h = fnv_u(h, c->store_data_ports);
	h = fnv_u(h, c->load_lat_gpr);
	h = fnv_u(h, c->load_lat_vec);
	h = fnv_u(h, c->line_split_slots);
	h = fnv_u(h, c->line_split_latency);
	h = fnv_u(h, c->store_forward_lat);
	h = fnv_u(h, c->wide512_occupancy);
	h = fnv_u(h, c->load512_slots);
	h = fnv_u(h, (uint64_t)c->move_elim_gpr);
	h = fnv_u(h, (uint64_t)c->move_elim_vec);
	h = fnv_u(h, (uint64_t)c->zero_idioms);
	h = fnv_u(h, (uint64_t)c->macro_fusion);
	h = fnv_u(h, (uint64_t)c->unlaminate_indexed);
	if (stat("/proc/self/exe", &st) == 0) {
		h = fnv_u(h, (uint64_t)st.st_size);
		h = fnv_u(h, (uint64_t)st.st_mtim.tv_sec);
		h = fnv_u(h, (uint64_t)st.st_mtim.tv_nsec);
		h = fnv_u(h, (uint64_t)st.st_ino);
	}
	return h;
}

/* Cache file path into buf; 0 when caching is off or no directory. */
static int cache_path(uint64_t key, char *buf, size_t n, int create)
{
	const char *d = getenv("PPR_CACHE_DIR"), *x;
	char dir[4096];
	int k;

	if (d) {
		if (!*d)
			return 0;
		k = snprintf(dir, sizeof(dir), "%s", d);
	} else if ((x = getenv("XDG_CACHE_HOME")) && *x) {
		k = snprintf(dir, sizeof(dir), "%s/ppr", x);
	} else if ((x = getenv("HOME")) && *x) {
		k = snprintf(dir, sizeof(dir), "%s/.cache", x);
		if (k > 0 && (size_t)k < sizeof(dir) && create)
			(void)mkdir(dir, 0777);
		k = snprintf(dir, sizeof(dir), "%s/.cache/ppr", x);
	} else {
		return 0;
	}
	if (k <= 0 || (size_t)k >= sizeof(dir))
		return 0;
	if (create)
		(void)mkdir(dir, 0777);
	k = snprintf(buf, n, "%s/bcsr-incore-%016llx.txt", dir,
		     (unsigned long long)key);
	return k > 0 && (size_t)k < n;
}

#define NPT_VALS (1 + 3 + MODEL_NEST_POINTS * 3 + 1)

static void pt_pack(const struct model_nest_points *p, double *v)
{
	unsigned k, t;

	v[0] = p->flops_per_inner;
	for (k = 0; k < 3; k++)
		v[1 + k] = p->inner[k];
	for (t = 0; t < MODEL_NEST_POINTS; t++)
		for (k = 0; k < 3; k++)
			v[4 + t * 3 + k] = p->nest[t][k];
	v[NPT_VALS - 1] = p->acc_chain;
}

static void pt_unpack(struct model_nest_points *p, const double *v)
{
	unsigned k, t;

	memset(p, 0, sizeof(*p));
	p->flops_per_inner = v[0];
	for (k = 0; k < 3; k++)
		p->inner[k] = v[1 + k];
	for (t = 0; t < MODEL_NEST_POINTS; t++)
		for (k = 0; k < 3; k++)
			p->nest[t][k] = v[4 + t * 3 + k];
	p->acc_chain = v[NPT_VALS - 1];
}

/* 1 when all 64 shapes were read from the cache file. */
static int cache_read(uint64_t key, struct model_nest_points *pts)
{
	char path[4200], line[4096];
	unsigned i, k;
	FILE *f;
	int ok = 1;

	if (!cache_path(key, path, sizeof(path), 0))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f) ||
	    strncmp(line, CACHE_MAGIC, strlen(CACHE_MAGIC)) != 0)
		ok = 0;
	for (i = 0; ok && i < 64; i++) {
		double v[NPT_VALS];
		unsigned r, c;
		char *p = line, *e;

		if (!fgets(line, sizeof(line), f) ||
		    sscanf(line, "%ux%u", &r, &c) != 2 ||
		    r != i / 8 + 1 || c != i % 8 + 1) {
			ok = 0;
			break;
		}
		p = strchr(line, ' ');
		for (k = 0; ok && k < NPT_VALS; k++) {
			if (!p) {
				ok = 0;
				break;
			}
			v[k] = strtod(p, &e);
			if (e == p || !isfinite(v[k]) || v[k] < 0)
				ok = 0;
			p = e;
		}
		if (ok)
			pt_unpack(&pts[i], v);
	}
	fclose(f);
	return ok;
}

static void cache_write(uint64_t key, const struct model_nest_points *pts)
{
	char path[4200], tmp[4300];
	unsigned i, k;
	FILE *f;
	int ok;

	if (!cache_path(key, path, sizeof(path), 1))
		return;
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", CACHE_MAGIC);
	for (i = 0; i < 64; i++) {
		double v[NPT_VALS];

		pt_pack(&pts[i], v);
		fprintf(f, "%ux%u", i / 8 + 1, i % 8 + 1);
		for (k = 0; k < NPT_VALS; k++)
			fprintf(f, " %a", v[k]);
		fputc('\n', f);
	}
	ok = !ferror(f);
	if (fclose(f) != 0)
		ok = 0;
	if (!ok || rename(tmp, path) != 0)
		(void)remove(tmp);
}

/* Run the workers over the 64 items of the job's phase. */
static void run_phase(struct job *jb, unsigned nth)
{
	pthread_t th[8];
	unsigned t, started = 0;

	jb->next = 0;
	for (t = 0; t < nth && t < 8; t++)
		if (pthread_create(&th[t], NULL, worker, jb) == 0)
			started++;
	if (!started)
		worker(jb);
	for (t = 0; t < started; t++)
		pthread_join(th[t], NULL);
}

#define MAX_THREADS 8

int model_threads_default(unsigned *n, struct ppr_err *err)
{
	const char *s = getenv("PPR_THREADS");
	long ncpu;

	if (s) {
		unsigned long long v = 0;
		const char *p = s;

		while (*p >= '0' && *p <= '9' && v <= 1000000)
			v = v * 10 + (unsigned)(*p++ - '0');
		if (p == s || *p || !v || v > 1000000)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "environment variable PPR_THREADS "
					   "'%s': expected a positive integer",
					   s);
		*n = v > MAX_THREADS ? MAX_THREADS : (unsigned)v;
		return 0;
	}
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	*n = ncpu > MAX_THREADS ? MAX_THREADS : (unsigned)ncpu;
	return 0;
}

int model_bcsr_select(const struct machine *m, const struct csr *a,
		      const struct model_bcsr_opts *o,
		      struct model_bcsr_result *out, struct ppr_err *err)
{
	struct job jb;
	unsigned nth = o ? o->threads : 0, i;
	uint64_t key;
	double t0 = now_s(), frac, target;
	uint64_t nwin_all, w;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!nth) {
		rc = model_threads_default(&nth, err);
		if (rc)
			return rc;
	}
	if (!a->rows || !a->nnz)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "BCSR selection: empty matrix");
	if (nth > MAX_THREADS)
		nth = MAX_THREADS;
	memset(&jb, 0, sizeof(jb));
	jb.m = m;
	jb.a = a;
	jb.core = model_machine_core(m);
	jb.out = out;
	jb.nlev = machine_fill_bandwidths(m, jb.bw);
	if (jb.nlev > MODEL_MAX_LEVELS)
		jb.nlev = MODEL_MAX_LEVELS;
	out->rows = a->rows;
	out->cols = a->cols;
	out->nnz = a->nnz;

	/* windows: sample about max(250k nnz, 2%) unless asked otherwise */
	nwin_all = (a->rows + WIN_ROWS - 1) / WIN_ROWS;
	target = o && o->sample > 0 ? o->sample :
		 fmax(250000.0 / (double)a->nnz, 0.02);
	if (target > 1)
		target = 1;
	jb.nwin = (unsigned)ceil(target * (double)nwin_all);
	if (jb.nwin < 1)
		jb.nwin = 1;
	if (jb.nwin >= nwin_all / 2)
		jb.nwin = (unsigned)nwin_all;  /* cheaper to do it all */
	jb.win_start = malloc(sizeof(*jb.win_start) * jb.nwin);
	if (!jb.win_start)
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "out of memory");
	if (jb.nwin == nwin_all) {
		for (w = 0; w < jb.nwin; w++)
			jb.win_start[w] = w * WIN_ROWS;
		jb.row_scale = 1;
	} else {
		for (w = 0; w < jb.nwin; w++)
			jb.win_start[w] = (uint64_t)((w + 0.5) * nwin_all /
						     jb.nwin) * WIN_ROWS;
		frac = (double)jb.nwin * WIN_ROWS / (double)a->rows;
		jb.row_scale = 1 / frac;
	}
	out->sample = 1 / jb.row_scale;
	jb.pts = calloc(64, sizeof(*jb.pts));
	if (!jb.pts) {
		free(jb.win_start);
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "out of memory");
	}
	pthread_mutex_init(&jb.lock, NULL);
	key = cache_key(jb.core);
	out->incore_cached = cache_read(key, jb.pts);
	if (!out->incore_cached) {
		jb.phase = 0;
		run_phase(&jb, nth);
		if (!jb.rc)
			cache_write(key, jb.pts);
	}
	if (!jb.rc) {
		jb.phase = 1;
		run_phase(&jb, nth);
	}
	pthread_mutex_destroy(&jb.lock);
	free(jb.win_start);
	free(jb.pts);
	if (jb.rc) {
		if (err)
			*err = jb.err;
		return jb.rc;
	}
	out->pick = 0;
	for (i = 1; i < 64; i++)
		if (out->shape[i].cycles < out->shape[out->pick].cycles)
			out->pick = i;
	out->speedup = out->shape[out->pick].cycles > 0 ?
		       out->shape[0].cycles / out->shape[out->pick].cycles : 1;
	out->wall_s = now_s() - t0;
	return 0;
}
