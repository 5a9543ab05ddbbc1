/*
 * test_sim.c - the cache simulator: exact agreement with Dinero IV and
 * pycachesim, analytic cases, and a comparison against a deliberately
 * simple reference model on many small random hierarchies.
 *
 * The reference model (ref_*) is written from the Notes of sim/sim.c with
 * none of sim.c's machinery: every way is a struct with a valid bit and
 * explicit use/fill timestamps, victims are found by scanning, the set
 * index uses '%', there is no fast path, no host prefetch, no move-to-front
 * order, and 3C uses a scanned fully-associative array.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "tests/t.h"

/* ---- workloads ----------------------------------------------------------- */

static uint64_t xs_state;

/* xorshift64*: advance the state, return it times the constant */
static uint64_t xs(void)
{
	uint64_t x = xs_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	xs_state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* rand (random != 0) or seq: n loads of 8 bytes, generated in batches */
static void run_workload(struct sim_hier *h, int random, uint64_t n)
{
	static struct ppr_access buf[4096];
	uint64_t i = 0;

	xs_state = UINT64_C(0x9E3779B97F4A7C15);
	while (i < n) {
		size_t k = 0;

		for (; k < 4096 && i < n; k++, i++) {
			uint64_t off = random ? xs() >> 41 : i;

			buf[k] = (struct ppr_access){
				.addr = 0x10000000 + 8 * off, .size = 8,
				.op = PPR_OP_LOAD, .tag = PPR_TAG_REGULAR };
		}
		sim_hier_access_batch(h, buf, k);
	}
}

static void level(struct sim_level_config *l, const char *name,
		  uint64_t size, uint32_t ways, uint32_t line)
{
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->size = size;
	l->ways = ways;
	l->line_size = line;
	l->sets = size / line / ways;
}

static uint64_t misses(const struct sim_hier *h, unsigned k)
{
	return sim_stat_sum(sim_hier_level_stats(h, k)->misses);
}

static uint64_t hits(const struct sim_hier *h, unsigned k)
{
	return sim_stat_sum(sim_hier_level_stats(h, k)->hits);
}

static uint64_t accesses(const struct sim_hier *h, unsigned k)
{
	return sim_stat_sum(sim_hier_level_stats(h, k)->accesses);
}

/* dinero-p2 (l3_mib 32, 16 ways) or haswell-nine (30, 20) */
static struct sim_hier *peer_hier(uint64_t l3_mib, uint32_t l3_ways)
{
	struct sim_config c = { 0 };
	struct ppr_err e = { 0 };
	struct sim_hier *h;

	c.nlevels = 3;
	level(&c.levels[0], "L1", 32768, 8, 64);
	level(&c.levels[1], "L2", 262144, 8, 64);
	level(&c.levels[2], "L3", l3_mib << 20, l3_ways, 64);
	c.writebacks = 1;
	h = sim_hier_new(&c, &e);
	if (!h)
		fprintf(stderr, "sim_hier_new: %s\n", e.msg);
	return h;
}

static void test_peers(void)
{
	struct sim_hier *h = peer_hier(32, 16);

	T_CHECK(h != NULL);
	if (!h)
		return;
	/* Dinero IV and pycachesim on the same trace (issue 2) */
	run_workload(h, 1, 20000000);
	T_EQ_U64(accesses(h, 0), 20000000);
	T_EQ_U64(misses(h, 0), 19990191);
	T_EQ_U64(misses(h, 1), 19921551);
	T_EQ_U64(misses(h, 2), 10169058);
	sim_hier_reset(h);
	T_EQ_U64(accesses(h, 0), 0);
	run_workload(h, 0, 50000000);
	T_EQ_U64(misses(h, 0), 6250000);
	T_EQ_U64(misses(h, 1), 6250000);
	T_EQ_U64(misses(h, 2), 6250000);
	T_EQ_U64(hits(h, 0), 50000000 - 6250000);
	sim_hier_free(h);

	h = peer_hier(30, 20);
	T_CHECK(h != NULL);
	if (!h)
		return;
	T_EQ_U64(sim_hier_level_config(h, 2)->sets, 24576);
	/* one 8-byte word per simulated line, plus a fixed part */
	T_NEAR(sim_hier_bytes_per_line(h), 8.0, 0.01);
	run_workload(h, 1, 20000000);
	T_EQ_U64(misses(h, 0), 19990191);
	T_EQ_U64(misses(h, 1), 19921551);
	T_EQ_U64(misses(h, 2), 10770332);  /* pycachesim */
	sim_hier_free(h);
}

/* ---- analytic cases ------------------------------------------------------ */

static struct sim_hier *small_hier(unsigned nlevels, enum sim_repl repl,
				   enum sim_incl incl)
{
	struct sim_config c = { 0 };
	unsigned k;

	c.nlevels = nlevels;
	for (k = 0; k < nlevels; k++) {
		/* 1 KiB 4-way, 4 KiB 4-way (12 sets: not a power of 2), 16 KiB */
		static const uint64_t sizes[] = { 1024, 3072, 16384, 65536 };

		level(&c.levels[k], "L", sizes[k], 4, 64);
		c.levels[k].repl = repl;
		if (k)
			c.levels[k].inclusion = incl;
	}
	c.writebacks = 1;
	return sim_hier_new(&c, NULL);
}

static void access1(struct sim_hier *h, uint64_t addr, uint32_t size,
		    enum ppr_op op, enum ppr_tag tag)
{
	struct ppr_access a = { .addr = addr, .size = size, .op = (uint8_t)op,
				.tag = (uint8_t)tag };

	sim_hier_access(h, &a);
}

static void test_analytic(void)
{
	enum sim_repl r;

	for (r = SIM_REPL_LRU; r <= SIM_REPL_SLRU; r++) {
		struct sim_hier *h = small_hier(3, r, SIM_INCL_NINE);
		uint64_t nlines = 5000, i, k;

		/* a stream of 8-byte loads misses once per line per level */
		for (i = 0; i < nlines * 8; i++)
			access1(h, 0x40000 + 8 * i, 8, PPR_OP_LOAD,
				PPR_TAG_REGULAR);
		for (k = 0; k < 3; k++)
			T_EQ_U64_AT(misses(h, (unsigned)k), nlines, r);
		T_EQ_U64_AT(accesses(h, 0), nlines * 8, r);
		T_EQ_U64_AT(accesses(h, 1), nlines, r);
		sim_hier_free(h);

		/* a working set that fits always hits after warm-up */
		h = small_hier(2, r, SIM_INCL_NINE);
		for (k = 0; k < 10; k++)
			for (i = 0; i < 1024; i += 4)
				access1(h, 0x1000 + i, 4, PPR_OP_LOAD,
					PPR_TAG_IRREGULAR);
		T_EQ_U64_AT(misses(h, 0), 16, r);
		T_EQ_U64_AT(hits(h, 0), 10 * 256 - 16, r);
		sim_hier_free(h);
	}
	for (r = SIM_REPL_LRU; r <= SIM_REPL_FIFO; r++) {
		struct sim_hier *h;
		uint64_t i;

		if (r == SIM_REPL_PLRU)
			continue;
		/* ways+1 = 5 lines cycling through one set of L1 (4 sets) */
		h = small_hier(1, r, SIM_INCL_NINE);
		for (i = 0; i < 1000; i++)
			access1(h, (i % 5) * 4 * 64, 8, PPR_OP_LOAD,
				PPR_TAG_REGULAR);
		T_EQ_U64_AT(misses(h, 0), 1000, r);
		T_EQ_U64_AT(sim_hier_level_stats(h, 0)->evictions, 1000 - 4, r);
		sim_hier_free(h);
	}
}

/* Inclusion, write policies, straddling, MODIFY, prefetch, 3C by hand. */
static void test_policies_by_hand(void)
{
	struct sim_config c = { 0 };
	const struct sim_level_stats *s0, *s1;
	struct sim_hier *h;
	uint64_t i;

	/* L1 one set of 2 ways, L2 one set of 4 ways, 64 B lines */
	c.nlevels = 2;
	level(&c.levels[0], "L1", 128, 2, 64);
	level(&c.levels[1], "L2", 256, 4, 64);
	c.writebacks = 1;

	/* inclusive: L2 evicting line 0 takes it out of L1 too */
	c.levels[1].inclusion = SIM_INCL_INCLUSIVE;
	h = sim_hier_new(&c, NULL);
	access1(h, 0, 8, PPR_OP_STORE, PPR_TAG_REGULAR);  /* line 0 dirty */
	for (i = 1; i <= 4; i++)       /* lines 1..4: L2 evicts line 0 */
		access1(h, i * 64, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	s1 = sim_hier_level_stats(h, 1);
	T_EQ_U64(s1->back_invalidations, 0);  /* line 0 had left L1 */
	T_EQ_U64(s1->writebacks, 1);          /* written back by L1 */
	sim_hier_reset(h);
	access1(h, 0, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	for (i = 1; i <= 4; i++) {
		access1(h, i * 64, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
		access1(h, 0, 8, PPR_OP_LOAD, PPR_TAG_REGULAR); /* keep L1-hot */
	}
	/* line 0 stays MRU in L1, so L1 hits keep it LRU in L2: evicted at
	 * the fourth new line, then back-invalidated, then missed again */
	s0 = sim_hier_level_stats(h, 0);
	s1 = sim_hier_level_stats(h, 1);
	T_EQ_U64(s1->back_invalidations, 1);
	T_EQ_U64(sim_stat_sum(s0->misses), 6);
	sim_hier_free(h);

	/* exclusive L2: filled by L1 victims; a hit moves the line up */
	c.levels[1].inclusion = SIM_INCL_EXCLUSIVE;
	h = sim_hier_new(&c, NULL);
	for (i = 0; i < 3; i++)   /* line 0 falls out of L1 into L2 */
		access1(h, i * 64, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	access1(h, 0, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	s1 = sim_hier_level_stats(h, 1);
	T_EQ_U64(sim_stat_sum(s1->misses), 3);
	T_EQ_U64(sim_stat_sum(s1->hits), 1);
	T_EQ_U64(s1->bytes_from_below, 0);        /* never filled from mem */
	access1(h, 0, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	T_EQ_U64(sim_stat_sum(sim_hier_level_stats(h, 0)->hits), 1);
	sim_hier_free(h);

	/* write-through / no-write-allocate L1: stores never allocate */
	c.levels[1].inclusion = SIM_INCL_NINE;
	c.levels[0].write = SIM_WRITE_THROUGH_NOALLOCATE;
	h = sim_hier_new(&c, NULL);
	access1(h, 0, 8, PPR_OP_STORE, PPR_TAG_REGULAR);
	access1(h, 0, 8, PPR_OP_STORE, PPR_TAG_REGULAR);
	s0 = sim_hier_level_stats(h, 0);
	s1 = sim_hier_level_stats(h, 1);
	T_EQ_U64(sim_stat_op(s0->misses, PPR_OP_STORE), 2);
	T_EQ_U64(sim_stat_op(s1->accesses, PPR_OP_STORE), 2);
	T_EQ_U64(sim_stat_op(s1->misses, PPR_OP_STORE), 1);
	T_EQ_U64(s0->bytes_to_below, 16);
	access1(h, 0, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);   /* allocates */
	access1(h, 4, 4, PPR_OP_STORE, PPR_TAG_REGULAR);  /* hit, through */
	T_EQ_U64(sim_stat_op(s0->hits, PPR_OP_STORE), 1);
	T_EQ_U64(s0->bytes_to_below, 20);
	T_EQ_U64(s0->writebacks, 0);
	sim_hier_free(h);
	c.levels[0].write = SIM_WRITE_BACK_ALLOCATE;

	/* a store miss is taken by L1: the copy L2 fetched stays clean */
	{
		struct sim_config c2 = c;

		level(&c2.levels[0], "L1", 256, 4, 64);
		level(&c2.levels[1], "L2", 128, 2, 64);
		h = sim_hier_new(&c2, NULL);
		access1(h, 0, 8, PPR_OP_STORE, PPR_TAG_REGULAR);
		access1(h, 64, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
		access1(h, 128, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
		s1 = sim_hier_level_stats(h, 1);
		T_EQ_U64(s1->evictions, 1);
		T_EQ_U64(s1->writebacks, 0);
		T_EQ_U64(sim_stat_op(s1->misses, PPR_OP_STORE), 1);
		sim_hier_free(h);
	}

	/* MODIFY writes: the dirty line is written back when evicted */
	h = sim_hier_new(&c, NULL);
	access1(h, 0, 8, PPR_OP_MODIFY, PPR_TAG_REGULAR);
	access1(h, 64, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	access1(h, 128, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	s0 = sim_hier_level_stats(h, 0);
	T_EQ_U64(sim_stat_op(s0->misses, PPR_OP_MODIFY), 1);
	T_EQ_U64(s0->writebacks, 1);
	T_EQ_U64(s0->bytes_to_below, 64);
	sim_hier_free(h);
	/* ... and vanishes with writebacks off (cachegrind) */
	c.writebacks = 0;
	h = sim_hier_new(&c, NULL);
	access1(h, 0, 8, PPR_OP_MODIFY, PPR_TAG_REGULAR);
	access1(h, 64, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	access1(h, 128, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	T_EQ_U64(sim_hier_level_stats(h, 0)->writebacks, 0);
	sim_hier_free(h);
	c.writebacks = 1;

	/* straddling: split counts two accesses, cachegrind's convention one */
	h = sim_hier_new(&c, NULL);
	access1(h, 60, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	T_EQ_U64(accesses(h, 0), 2);
	T_EQ_U64(misses(h, 0), 2);
	T_EQ_U64(accesses(h, 1), 2);
	sim_hier_free(h);
	c.straddle = SIM_STRADDLE_ONE;
	h = sim_hier_new(&c, NULL);
	access1(h, 60, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	T_EQ_U64(accesses(h, 0), 1);
	T_EQ_U64(misses(h, 0), 1);
	T_EQ_U64(accesses(h, 1), 1);
	T_EQ_U64(misses(h, 1), 1);
	T_EQ_U64(sim_hier_level_stats(h, 1)->bytes_from_below, 128);
	access1(h, 0, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);   /* both resident */
	access1(h, 64, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	T_EQ_U64(hits(h, 0), 2);
	/* one line missing: a miss, and both lines are looked up below */
	access1(h, 128, 8, PPR_OP_LOAD, PPR_TAG_REGULAR); /* evicts line 0 */
	access1(h, 60, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	T_EQ_U64(misses(h, 0), 3);
	T_EQ_U64(hits(h, 1), 1);
	sim_hier_free(h);
	c.straddle = SIM_STRADDLE_SPLIT;

	/* the paper's next-line prefetch into L2 turns a stream's L2 misses
	 * into one, and counts every later prefetch useful */
	c.nlevels = 3;
	level(&c.levels[0], "L1", 1024, 2, 64);
	level(&c.levels[1], "L2", 4096, 4, 64);
	level(&c.levels[2], "L3", 16384, 4, 64);
	c.levels[1].prefetch = SIM_PF_NEXTLINE;
	h = sim_hier_new(&c, NULL);
	for (i = 0; i < 1000 * 8; i++)
		access1(h, 8 * i, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	s1 = sim_hier_level_stats(h, 1);
	T_EQ_U64(misses(h, 0), 1000);
	T_EQ_U64(misses(h, 1), 1);
	T_EQ_U64(s1->prefetches_issued, 1000);
	T_EQ_U64(s1->prefetches_useful, 999);
	T_EQ_U64(misses(h, 2), 1);         /* the prefetch is not a demand */
	T_EQ_U64(sim_hier_level_stats(h, 2)->bytes_from_below, 1001 * 64);
	/* irregular accesses do not trigger it */
	sim_hier_reset(h);
	for (i = 0; i < 1000 * 8; i++)
		access1(h, 8 * i, 8, PPR_OP_LOAD, PPR_TAG_IRREGULAR);
	T_EQ_U64(misses(h, 1), 1000);
	sim_hier_free(h);

	/* stream prefetcher into L1, degree 2 distance 4: a stream misses
	 * only until the prefetches run ahead of it */
	c.levels[1].prefetch = SIM_PF_NONE;
	c.levels[0].prefetch = SIM_PF_STREAM;
	c.levels[0].pf_degree = 2;
	c.levels[0].pf_distance = 4;
	h = sim_hier_new(&c, NULL);
	for (i = 0; i < 100 * 8; i++)
		access1(h, 0x10000 + 8 * i, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	s0 = sim_hier_level_stats(h, 0);
	/* line 0 misses (new stream), line 1 misses and triggers 5,6; line 2
	 * misses (triggers 6,7: 7 new), 3 misses (8), 4 misses (9), then all
	 * lines from 5 on were prefetched */
	T_EQ_U64(misses(h, 0), 5);
	T_EQ_U64(s0->prefetches_issued, 100);   /* lines 5..104 */
	T_EQ_U64(s0->prefetches_useful, 95);
	sim_hier_free(h);
	c.levels[0].prefetch = SIM_PF_NONE;

	/* 3C: a 2-set 2-way L1; lines 0,2,4 share set 0 and cycle */
	c.nlevels = 1;
	level(&c.levels[0], "L1", 256, 2, 64);
	c.classify_3c = 1;
	h = sim_hier_new(&c, NULL);
	for (i = 0; i < 30; i++)
		access1(h, (i % 3) * 128, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	s0 = sim_hier_level_stats(h, 0);
	T_EQ_U64(s0->compulsory, 3);
	T_EQ_U64(s0->conflict, 27);     /* 4 lines fully-associative: hits */
	T_EQ_U64(s0->capacity, 0);
	sim_hier_reset(h);
	for (i = 0; i < 50; i++)   /* 5 lines cycling: beyond 4 lines */
		access1(h, (i % 5) * 64, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
	/* set 1 holds lines 1 and 3 for good; 0, 2, 4 miss in set 0 and in
	 * the 4-line fully-associative LRU: capacity misses */
	T_EQ_U64(s0->compulsory, 5);
	T_EQ_U64(s0->capacity, 27);
	T_EQ_U64(s0->conflict, 0);
	T_EQ_U64(s0->compulsory + s0->capacity + s0->conflict, misses(h, 0));
	sim_hier_free(h);
}

/* Split L1: ifetches go to L1I; an inclusive L2 back-invalidates both. */
static void test_split(void)
{
	struct sim_config c = { 0 };
	struct sim_hier *h;

	c.nlevels = 2;
	level(&c.levels[0], "L1D", 128, 2, 64);
	c.split_l1 = 1;
	level(&c.l1i, "L1I", 128, 2, 64);
	c.l1i.role = SIM_ROLE_INSTR;
	level(&c.levels[1], "L2", 256, 4, 64);
	c.writebacks = 1;
	h = sim_hier_new(&c, NULL);
	T_EQ_U64(sim_hier_level_count(h), 3);
	T_STR(sim_hier_level_config(h, 1)->name, "L1I");
	access1(h, 0, 4, PPR_OP_IFETCH, PPR_TAG_REGULAR);
	access1(h, 0, 4, PPR_OP_IFETCH, PPR_TAG_REGULAR);
	access1(h, 0, 4, PPR_OP_LOAD, PPR_TAG_REGULAR);
	T_EQ_U64(misses(h, 1), 1);
	T_EQ_U64(hits(h, 1), 1);
	T_EQ_U64(misses(h, 0), 1);
	T_EQ_U64(hits(h, 2), 1);   /* the load found the ifetched line */
	T_EQ_U64(accesses(h, 2), 2);
	sim_hier_free(h);
}

/* ---- config errors ------------------------------------------------------- */

static void test_config_errors(void)
{
	static const struct {
		int line;
		uint64_t size, sets;
		uint32_t ways, ls;
		enum sim_repl repl;
		enum sim_incl incl;
		const char *msg;
	} rows[] = {
		{ __LINE__, 1024, 4, 4, 64, SIM_REPL_LRU, SIM_INCL_NINE, NULL },
		{ __LINE__, 1000, 4, 4, 64, SIM_REPL_LRU, SIM_INCL_NINE,
		  "level 1 (L1): size 1000 is not sets x ways x line size = "
		  "1024" },
		{ __LINE__, 960, 4, 4, 60, SIM_REPL_LRU, SIM_INCL_NINE,
		  "level 1 (L1): line size 60 is not a power of two in "
		  "8..1048576" },
		{ __LINE__, 0, 0, 4, 64, SIM_REPL_LRU, SIM_INCL_NINE,
		  "level 1 (L1): sets and ways must be positive" },
		{ __LINE__, 1536, 4, 6, 64, SIM_REPL_PLRU, SIM_INCL_NINE,
		  "level 1 (L1): tree-PLRU needs a power-of-two way count "
		  "<= 64, not 6" },
		{ __LINE__, 1024, 4, 4, 64, SIM_REPL_LRU, SIM_INCL_EXCLUSIVE,
		  "level 1 (L1): the first level cannot be exclusive" },
		{ __LINE__, 1024, 4, 4, 64, (enum sim_repl)9, SIM_INCL_NINE,
		  "level 1 (L1): unknown policy value" },
	};
	size_t k;

	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct sim_config c = { 0 };
		struct ppr_err e = { 0 };
		struct sim_hier *h;

		c.nlevels = 1;
		snprintf(c.levels[0].name, SIM_NAME_MAX, "L1");
		c.levels[0].size = rows[k].size;
		c.levels[0].sets = rows[k].sets;
		c.levels[0].ways = rows[k].ways;
		c.levels[0].line_size = rows[k].ls;
		c.levels[0].repl = rows[k].repl;
		c.levels[0].inclusion = rows[k].incl;
		h = sim_hier_new(&c, &e);
		if (!rows[k].msg) {
			T_CHECK_AT(h != NULL, rows[k].line);
		} else {
			T_CHECK_AT(h == NULL, rows[k].line);
			T_CHECK_AT(e.code == PPR_EINVAL, rows[k].line);
			T_STR_AT(e.msg, rows[k].msg, rows[k].line);
		}
		sim_hier_free(h);
	}
	{
		struct sim_config c = { 0 };
		struct ppr_err e = { 0 };

		c.nlevels = 5;
		T_CHECK(sim_config_check(&c, &e) == PPR_EINVAL);
		T_STR(e.msg, "a hierarchy has 1 to 4 levels, not 5");
		c.nlevels = 2;
		level(&c.levels[0], "L1", 1024, 4, 64);
		level(&c.levels[1], "L2", 4096, 4, 128);
		T_CHECK(sim_config_check(&c, &e) == PPR_EINVAL);
		T_STR(e.msg, "level 2 (L2): line size 128 differs from the "
		      "first level's 64");
	}
	T_STR(sim_repl_name(SIM_REPL_PLRU), "plru");
	T_STR(sim_repl_name(SIM_REPL_DIP), "dip");
	T_STR(sim_repl_name(SIM_REPL_SLRU), "slru");
	T_STR(sim_incl_name(SIM_INCL_EXCLUSIVE), "exclusive");
	T_STR(sim_write_name(SIM_WRITE_THROUGH_NOALLOCATE), "write-through");
	T_STR(sim_prefetch_name(SIM_PF_NEXTLINE), "next-line");
}

/* ---- the reference model -------------------------------------------------- */

struct rway {
	int valid, dirty, pf, reuse;
	uint64_t line, used, filled;
};

struct rcache {
	struct sim_level_config cfg;
	unsigned depth;
	int below;                 /* index into ref.c, -1: memory */
	struct rway *w;            /* sets * ways */
	uint64_t *tree;            /* PLRU bits per set */
	uint64_t rng;
	unsigned psel, bip_n;      /* DIP */
	uint64_t s_last[8], s_next[8];
	int s_valid[8];
	unsigned s_rr;
	/* 3C */
	uint64_t *fa_line, *fa_used;
	uint64_t fa_n;
	unsigned char *seen;
	struct sim_level_stats st;
};

#define REF_SEEN_LINES (1u << 16)

struct ref {
	int n;
	struct rcache c[SIM_MAX_LEVELS + 1];   /* API order */
	int l1d, l1i;
	int one, wb, c3;
	unsigned ls;
	uint64_t clock;
};

static uint64_t ref_set(const struct rcache *c, uint64_t line)
{
	uint64_t x = line;

	if (c->cfg.index == SIM_INDEX_HASH)
		x = x ^ (x >> 17) ^ (x >> 31) ^ (x >> 47);
	return x % c->cfg.sets;
}

static struct rway *ref_ways(struct rcache *c, uint64_t line)
{
	return c->w + ref_set(c, line) * c->cfg.ways;
}

static int ref_find(struct rcache *c, uint64_t line)
{
	struct rway *w = ref_ways(c, line);
	uint32_t i;

	for (i = 0; i < c->cfg.ways; i++)
		if (w[i].valid && w[i].line == line)
			return (int)i;
	return -1;
}

/* tree node n: 0 sends the victim search left, 1 right */
static void ref_tree_touch(struct rcache *c, uint64_t set, uint32_t way)
{
	uint32_t node = way + c->cfg.ways;

	while (node > 1) {
		uint32_t parent = node / 2;
		int came_right = node % 2;

		if (came_right)
			c->tree[set] &= ~(UINT64_C(1) << parent);
		else
			c->tree[set] |= UINT64_C(1) << parent;
		node = parent;
	}
}

/* SLRU keeps the order as ranks in 'used' (0: most recent): way v goes
 * to place q among the set's other valid ways */
static void ref_slru_place(struct rcache *c, uint64_t line, uint32_t v,
			   uint32_t q)
{
	struct rway *w = ref_ways(c, line);
	uint32_t ord[64], n = 0, i, j;

	for (i = 0; i < c->cfg.ways; i++) {
		if (i == v || !w[i].valid)
			continue;
		for (j = n++; j > 0 && w[ord[j - 1]].used > w[i].used; j--)
			ord[j] = ord[j - 1];
		ord[j] = i;
	}
	for (i = 0, j = 0; i <= n; i++)
		w[i == q ? v : ord[j++]].used = i;
}

static void ref_touch(struct ref *r, struct rcache *c, uint64_t line, int i)
{
	if (c->cfg.repl == SIM_REPL_SLRU) {
		ref_ways(c, line)[i].reuse = 1;
		ref_slru_place(c, line, (uint32_t)i, 0);
		return;
	}
	if (c->cfg.repl == SIM_REPL_LRU || c->cfg.repl == SIM_REPL_DIP)
		ref_ways(c, line)[i].used = ++r->clock;
	else if (c->cfg.repl == SIM_REPL_PLRU)
		ref_tree_touch(c, ref_set(c, line), (uint32_t)i);
}

static uint32_t ref_victim(struct rcache *c, uint64_t line)
{
	struct rway *w = ref_ways(c, line);
	uint64_t set = ref_set(c, line);
	uint32_t i, best = 0, ways = c->cfg.ways;

	for (i = 0; i < ways; i++)
		if (!w[i].valid)
			return i;
	switch (c->cfg.repl) {
	case SIM_REPL_LRU:
	case SIM_REPL_DIP:
		for (i = 1; i < ways; i++)
			if (w[i].used < w[best].used)
				best = i;
		return best;
	case SIM_REPL_SLRU:   /* the highest rank */
		for (i = 1; i < ways; i++)
			if (w[i].used > w[best].used)
				best = i;
		return best;
	case SIM_REPL_FIFO:
		for (i = 1; i < ways; i++)
			if (w[i].filled < w[best].filled)
				best = i;
		return best;
	case SIM_REPL_PLRU: {
		uint32_t node = 1;

		while (node < ways)
			node = 2 * node + ((c->tree[set] >> node) & 1);
		return node - ways;
	}
	default: {
		uint64_t x = c->rng;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		c->rng = x;
		return (uint32_t)(((x * UINT64_C(0x2545F4914F6CDD1D)) >> 32) %
				  ways);
	}
	}
}

static void ref_fill(struct ref *r, int ci, uint64_t line, int dirty, int pf,
		     int reuse);

/* DIP from the Notes of sim/sim.c: leaders set % 64 == 0 (LRU insertion)
 * and 33 (bimodal), a 10-bit counter starting at 511, bimodal above 511,
 * every 32nd bimodal fill most recent; the other sets whose residue times
 * 41 mod 64 is below round(64 x lru_sets_share) always LRU. */
static int ref_dip_bimodal(const struct rcache *c, uint64_t set)
{
	if (set % 64 == 0)
		return 0;
	if (set % 64 == 33)
		return 1;
	if ((set % 64) * 41 % 64 < (uint64_t)(c->cfg.lru_sets_share * 64 + 0.5))
		return 0;
	return c->psel > 511;
}

static void ref_dip_miss(struct rcache *c, uint64_t set)
{
	if (set % 64 == 0 && c->psel < 1023)
		c->psel++;
	else if (set % 64 == 33 && c->psel > 0)
		c->psel--;
}

static void ref_write_arrive(struct ref *r, int bi, uint64_t line,
			     uint64_t bytes)
{
	while (bi >= 0) {
		struct rcache *b = &r->c[bi];
		int i = ref_find(b, line);
		int wb = b->cfg.write == SIM_WRITE_BACK_ALLOCATE;

		if (i >= 0 && wb) {
			if (r->wb)
				ref_ways(b, line)[i].dirty = 1;
			return;
		}
		if (i < 0 && wb && b->cfg.inclusion != SIM_INCL_EXCLUSIVE) {
			ref_fill(r, bi, line, r->wb, 0, 0);
			return;
		}
		b->st.bytes_to_below += bytes;
		bi = b->below;
	}
}

static void ref_fill(struct ref *r, int ci, uint64_t line, int dirty, int pf,
		     int reuse)
{
	struct rcache *c = &r->c[ci];
	uint32_t v = ref_victim(c, line);
	struct rway *w = &ref_ways(c, line)[v];
	struct rway old = *w;
	int k, vd;

	w->valid = 1;
	w->line = line;
	w->dirty = dirty;
	w->pf = pf;
	w->reuse = reuse;
	w->used = w->filled = ++r->clock;
	if (c->cfg.repl == SIM_REPL_DIP && !reuse &&
	    ref_dip_bimodal(c, ref_set(c, line)) && ++c->bip_n % 32 != 0) {
		/* least recent: before every other valid way of the set */
		struct rway *sw = ref_ways(c, line);
		uint32_t i;

		for (i = 0; i < c->cfg.ways; i++)
			if (i != v && sw[i].valid && sw[i].used <= w->used)
				w->used = sw[i].used - 1;
	}
	if (c->cfg.repl == SIM_REPL_SLRU) {
		/* a reused line most recent, a new one below the reused
		 * lines but within the most recent half */
		struct rway *sw = ref_ways(c, line);
		uint32_t i, q = 0;

		for (i = 0; i < c->cfg.ways; i++)
			q += i != v && sw[i].valid && sw[i].reuse;
		if (q > c->cfg.ways / 2)
			q = c->cfg.ways / 2;
		ref_slru_place(c, line, v, reuse ? 0 : q);
	}
	if (c->cfg.repl == SIM_REPL_PLRU)
		ref_tree_touch(c, ref_set(c, line), v);
	if (!old.valid)
		return;
	c->st.evictions++;
	vd = old.dirty;
	if (c->cfg.inclusion == SIM_INCL_INCLUSIVE) {
		for (k = 0; k < r->n; k++) {
			struct rcache *a = &r->c[k];
			int i;

			if (a->depth >= c->depth)
				continue;
			i = ref_find(a, old.line);
			if (i < 0)
				continue;
			vd |= ref_ways(a, old.line)[i].dirty;
			ref_ways(a, old.line)[i].valid = 0;
			c->st.back_invalidations++;
		}
	}
	if (c->below >= 0 &&
	    r->c[c->below].cfg.inclusion == SIM_INCL_EXCLUSIVE) {
		struct rcache *b = &r->c[c->below];
		int i = ref_find(b, old.line);

		c->st.bytes_to_below += r->ls;
		if (vd)
			c->st.writebacks++;
		if (i >= 0)
			ref_ways(b, old.line)[i].dirty |= vd;
		else
			ref_fill(r, c->below, old.line, vd, 0, old.reuse);
		return;
	}
	if (vd) {
		c->st.writebacks++;
		c->st.bytes_to_below += r->ls;
		ref_write_arrive(r, c->below, old.line, r->ls);
	}
}

static unsigned ref_walk(struct ref *r, int ci, const uint64_t *lines,
			 const uint32_t *bytes, unsigned n, unsigned op,
			 unsigned tag, int demand, int writes);

static void ref_prefetch(struct ref *r, int ci, uint64_t line)
{
	struct rcache *c = &r->c[ci];
	uint32_t ls = r->ls;
	unsigned d;

	if (ref_find(c, line) >= 0)
		return;
	c->st.prefetches_issued++;
	d = ref_walk(r, c->below, &line, &ls, 1, PPR_OP_LOAD,
		     PPR_TAG_REGULAR, 0, 0);
	ref_fill(r, ci, line, d & 1, 1, (d >> 4) & 1);
	c->st.bytes_from_below += r->ls;
}

static void ref_stream(struct ref *r, int ci, uint64_t line)
{
	struct rcache *c = &r->c[ci];
	uint32_t deg = c->cfg.pf_degree ? c->cfg.pf_degree : 1;
	uint32_t dist = c->cfg.pf_distance ? c->cfg.pf_distance : 1;
	unsigned k, j;

	for (k = 0; k < 8; k++)
		if (c->s_valid[k] && c->s_last[k] == line)
			return;
	for (k = 0; k < 8; k++) {
		if (!c->s_valid[k] || c->s_last[k] + 1 != line)
			continue;
		c->s_last[k] = line;
		for (j = 0; j < deg; j++)
			if (line + dist + j >= c->s_next[k])
				ref_prefetch(r, ci, line + dist + j);
		if (line + dist + deg > c->s_next[k])
			c->s_next[k] = line + dist + deg;
		return;
	}
	c->s_valid[c->s_rr] = 1;
	c->s_last[c->s_rr] = line;
	c->s_next[c->s_rr] = 0;
	c->s_rr = (c->s_rr + 1) % 8;
}

/* 3C: returns 1 if a fully-associative LRU of the same size hits */
static int ref_fa_touch(struct ref *r, struct rcache *c, uint64_t line)
{
	uint64_t cap = c->cfg.sets * c->cfg.ways, k, best = 0;

	for (k = 0; k < c->fa_n; k++) {
		if (c->fa_line[k] == line) {
			c->fa_used[k] = ++r->clock;
			return 1;
		}
	}
	if (c->fa_n < cap) {
		k = c->fa_n++;
	} else {
		for (k = 1; k < cap; k++)
			if (c->fa_used[k] < c->fa_used[best])
				best = k;
		k = best;
	}
	c->fa_line[k] = line;
	c->fa_used[k] = ++r->clock;
	return 0;
}

/* 'writes': a store or modify whose write no level above has taken */
static unsigned ref_walk(struct ref *r, int ci, const uint64_t *lines,
			 const uint32_t *bytes, unsigned n, unsigned op,
			 unsigned tag, int demand, int writes)
{
	struct rcache *c;
	int wt;
	unsigned miss = 0, up = 0, j, d;
	int classified = 0;

	if (ci < 0)
		return 0;
	c = &r->c[ci];
	wt = c->cfg.write == SIM_WRITE_THROUGH_NOALLOCATE;
	if (demand)
		c->st.accesses[op][tag]++;
	for (j = 0; j < n; j++) {
		int i = ref_find(c, lines[j]);

		if (demand && r->c3) {
			int first = !c->seen[lines[j]];
			int fa = ref_fa_touch(r, c, lines[j]);

			c->seen[lines[j]] = 1;
			if (i < 0 && !classified) {
				classified = 1;
				if (first)
					c->st.compulsory++;
				else if (fa)
					c->st.conflict++;
				else
					c->st.capacity++;
			}
		}
		if (i < 0) {
			miss |= 1u << j;
			if (demand && c->cfg.repl == SIM_REPL_DIP)
				ref_dip_miss(c, ref_set(c, lines[j]));
			continue;
		}
		if (demand && ref_ways(c, lines[j])[i].pf) {
			c->st.prefetches_useful++;
			ref_ways(c, lines[j])[i].pf = 0;
		}
		if (c->cfg.inclusion == SIM_INCL_EXCLUSIVE) {
			if (ref_ways(c, lines[j])[i].dirty)
				up |= 1u << j;
			up |= 1u << (4 + j);   /* reused: bits 4.. */
			ref_ways(c, lines[j])[i].valid = 0;
			continue;
		}
		ref_touch(r, c, lines[j], i);
		if (writes && !wt && r->wb)
			ref_ways(c, lines[j])[i].dirty = 1;
	}
	if (!miss) {
		if (demand)
			c->st.hits[op][tag]++;
		if (writes && wt)
			for (j = 0; j < n; j++) {
				c->st.bytes_to_below += bytes[j];
				ref_write_arrive(r, c->below, lines[j],
						 bytes[j]);
			}
	} else {
		if (demand)
			c->st.misses[op][tag]++;
		if (writes && wt) {
			for (j = 0; j < n; j++)
				c->st.bytes_to_below += bytes[j];
			ref_walk(r, c->below, lines, bytes, n, op, tag, demand,
				 1);
		} else {
			int excl = c->cfg.inclusion == SIM_INCL_EXCLUSIVE;

			d = ref_walk(r, c->below, lines, bytes, n, op, tag,
				     demand, excl && writes);
			if (c->cfg.inclusion == SIM_INCL_EXCLUSIVE) {
				up |= d & (miss | miss << 4);
			} else {
				for (j = 0; j < n; j++) {
					if (!(miss & (1u << j)))
						continue;
					ref_fill(r, ci, lines[j],
						 ((d >> j) & 1) ||
						 (writes && r->wb), 0,
						 (d >> (4 + j)) & 1);
					c->st.bytes_from_below += r->ls;
				}
			}
		}
	}
	if (demand && c->cfg.prefetch == SIM_PF_NEXTLINE &&
	    tag == PPR_TAG_REGULAR)
		ref_prefetch(r, ci, lines[n - 1] + 1);
	if (demand && c->cfg.prefetch == SIM_PF_STREAM)
		ref_stream(r, ci, lines[n - 1]);
	return up;
}

static void ref_access(struct ref *r, const struct ppr_access *a)
{
	int ci = (a->op == PPR_OP_IFETCH && r->l1i >= 0) ? r->l1i : r->l1d;
	uint64_t first = a->addr / r->ls;
	uint64_t last = (a->addr + a->size - 1) / r->ls;
	uint64_t lines[2], line;
	uint32_t bytes[2];
	int writes = a->op == PPR_OP_STORE || a->op == PPR_OP_MODIFY;

	if (r->one && last == first + 1) {
		lines[0] = first;
		lines[1] = last;
		bytes[0] = (uint32_t)(last * r->ls - a->addr);
		bytes[1] = a->size - bytes[0];
		ref_walk(r, ci, lines, bytes, 2, a->op, a->tag, 1, writes);
		return;
	}
	for (line = first; line <= last; line++) {
		uint64_t lo = line == first ? a->addr : line * r->ls;
		uint64_t hi = line == last ? a->addr + a->size :
					     (line + 1) * r->ls;

		lines[0] = line;
		bytes[0] = (uint32_t)(hi - lo);
		ref_walk(r, ci, lines, bytes, 1, a->op, a->tag, 1, writes);
	}
}

static void ref_init(struct ref *r, const struct sim_config *cfg)
{
	const struct sim_level_config *order[SIM_MAX_LEVELS + 1];
	unsigned depth[SIM_MAX_LEVELS + 1];
	int n = 0, k, j;

	memset(r, 0, sizeof(*r));
	order[n] = &cfg->levels[0];
	depth[n++] = 0;
	r->l1i = -1;
	if (cfg->split_l1) {
		r->l1i = n;
		order[n] = &cfg->l1i;
		depth[n++] = 0;
	}
	for (k = 1; k < (int)cfg->nlevels; k++) {
		order[n] = &cfg->levels[k];
		depth[n++] = (unsigned)k;
	}
	r->n = n;
	r->l1d = 0;
	r->one = cfg->straddle == SIM_STRADDLE_ONE;
	r->wb = cfg->writebacks;
	r->c3 = cfg->classify_3c;
	r->ls = cfg->levels[0].line_size;
	r->clock = UINT64_C(1) << 40;   /* room below for DIP's least recent */
	for (k = 0; k < n; k++) {
		struct rcache *c = &r->c[k];
		uint64_t lines = order[k]->sets * order[k]->ways;

		c->cfg = *order[k];
		c->depth = depth[k];
		c->below = -1;
		for (j = 0; j < n; j++)
			if (depth[j] == depth[k] + 1)
				c->below = j;
		c->w = calloc(lines, sizeof(*c->w));
		c->tree = calloc(order[k]->sets, sizeof(*c->tree));
		c->rng = c->cfg.seed ? c->cfg.seed :
				       UINT64_C(0x9E3779B97F4A7C15);
		c->psel = 511;
		c->fa_line = calloc(lines, sizeof(*c->fa_line));
		c->fa_used = calloc(lines, sizeof(*c->fa_used));
		c->seen = calloc(REF_SEEN_LINES, 1);
	}
}

static void ref_release(struct ref *r)
{
	int k;

	for (k = 0; k < r->n; k++) {
		free(r->c[k].w);
		free(r->c[k].tree);
		free(r->c[k].fa_line);
		free(r->c[k].fa_used);
		free(r->c[k].seen);
	}
}

/* ---- random configurations against the reference ------------------------ */

static uint64_t rnd_state;

static uint64_t rnd(uint64_t n)
{
	uint64_t x = rnd_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rnd_state = x;
	return ((x * UINT64_C(0x2545F4914F6CDD1D)) >> 11) % n;
}

static void random_level(struct sim_level_config *l, uint32_t ls, int first,
			 int allow_excl, unsigned k)
{
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "C%u", k);
	l->repl = (enum sim_repl)rnd(6);
	/* DIP: up to 40 sets, so that its second leader (set 33) is drawn */
	l->sets = 1 + rnd(l->repl == SIM_REPL_DIP ? 40 : 9);
	if (l->repl == SIM_REPL_PLRU)
		l->ways = 1u << rnd(4);
	else
		l->ways = (uint32_t)(1 + rnd(6));
	l->line_size = ls;
	l->size = l->sets * l->ways * ls;
	l->seed = rnd(3);
	if (l->repl == SIM_REPL_DIP)
		l->lru_sets_share = rnd(3) / 2.0;
	l->inclusion = first ? SIM_INCL_NINE :
		       (enum sim_incl)rnd(allow_excl ? 3 : 2);
	l->write = rnd(4) ? SIM_WRITE_BACK_ALLOCATE :
			    SIM_WRITE_THROUGH_NOALLOCATE;
	l->index = rnd(4) ? SIM_INDEX_MODULO : SIM_INDEX_HASH;
	if (l->inclusion != SIM_INCL_EXCLUSIVE)
		l->prefetch = (enum sim_prefetch)rnd(3);
	l->pf_degree = (uint32_t)rnd(4);
	l->pf_distance = (uint32_t)rnd(4);
}

static int compare_stats(const struct sim_level_stats *a,
			 const struct sim_level_stats *b, int cfgno,
			 unsigned level, uint64_t at)
{
	if (!memcmp(a, b, sizeof(*a)))
		return 0;
	fprintf(stderr, "config %d level %u after %llu accesses: sim and "
		"reference differ: misses %llu/%llu hits %llu/%llu evict "
		"%llu/%llu wb %llu/%llu binv %llu/%llu pf %llu/%llu "
		"useful %llu/%llu from %llu/%llu to %llu/%llu 3c "
		"%llu,%llu,%llu/%llu,%llu,%llu\n",
		cfgno, level, (unsigned long long)at,
		(unsigned long long)sim_stat_sum(a->misses),
		(unsigned long long)sim_stat_sum(b->misses),
		(unsigned long long)sim_stat_sum(a->hits),
		(unsigned long long)sim_stat_sum(b->hits),
		(unsigned long long)a->evictions,
		(unsigned long long)b->evictions,
		(unsigned long long)a->writebacks,
		(unsigned long long)b->writebacks,
		(unsigned long long)a->back_invalidations,
		(unsigned long long)b->back_invalidations,
		(unsigned long long)a->prefetches_issued,
		(unsigned long long)b->prefetches_issued,
		(unsigned long long)a->prefetches_useful,
		(unsigned long long)b->prefetches_useful,
		(unsigned long long)a->bytes_from_below,
		(unsigned long long)b->bytes_from_below,
		(unsigned long long)a->bytes_to_below,
		(unsigned long long)b->bytes_to_below,
		(unsigned long long)a->compulsory,
		(unsigned long long)a->capacity,
		(unsigned long long)a->conflict,
		(unsigned long long)b->compulsory,
		(unsigned long long)b->capacity,
		(unsigned long long)b->conflict);
	return 1;
}

static void test_against_reference(void)
{
	enum { NACC = 3000 };
	static struct ppr_access trace[NACC];
	const char *full = getenv("FULL");
	/* make check-full (FULL=1) tries many more configurations */
	int nconfig = full && !strcmp(full, "1") ? 30000 : 1500;
	int cfgno, bad_configs = 0;
	uint64_t cover[3][6] = { { 0 } };

	rnd_state = UINT64_C(0x1234567887654321);
	for (cfgno = 0; cfgno < nconfig; cfgno++) {
		struct sim_config c = { 0 };
		struct sim_hier *h;
		struct ref r;
		uint32_t ls = 8u << rnd(4);
		uint64_t span;
		unsigned k, nl;
		int i, bad = 0, any_excl = 0;

		c.nlevels = (unsigned)(1 + rnd(4));
		for (k = 0; k < c.nlevels; k++) {
			random_level(&c.levels[k], ls, k == 0, 1, k);
			any_excl |= c.levels[k].inclusion == SIM_INCL_EXCLUSIVE;
		}
		c.split_l1 = (int)rnd(2);
		if (c.split_l1)
			random_level(&c.l1i, ls, 1, 0, 9);
		for (k = 1; k < c.nlevels; k++)   /* victims need write-back */
			if (c.levels[k].inclusion == SIM_INCL_EXCLUSIVE &&
			    (c.levels[k - 1].write != SIM_WRITE_BACK_ALLOCATE ||
			     (k == 1 && c.split_l1 &&
			      c.l1i.write != SIM_WRITE_BACK_ALLOCATE)))
				c.levels[k - 1].write = c.l1i.write =
					SIM_WRITE_BACK_ALLOCATE;
		c.straddle = any_excl ? SIM_STRADDLE_SPLIT :
					(enum sim_straddle)rnd(2);
		c.writebacks = (int)rnd(2);
		c.classify_3c = (int)rnd(2);
		h = sim_hier_new(&c, NULL);
		if (!h) {
			T_CHECK_AT(h != NULL, cfgno);
			continue;
		}
		ref_init(&r, &c);
		for (k = 0; k < c.nlevels; k++) {
			cover[0][c.levels[k].repl]++;
			cover[1][c.levels[k].inclusion]++;
			cover[2][c.levels[k].prefetch]++;
		}
		/* addresses over a few times the total capacity: mixes hits,
		 * conflicts and streams */
		span = (uint64_t)ls * (8 + rnd(200));
		for (i = 0; i < NACC; i++) {
			struct ppr_access *a = &trace[i];
			uint64_t base = rnd(4) ? rnd(span) :
				(i ? trace[i - 1].addr + trace[i - 1].size : 0);

			a->addr = 64 + base % span;
			a->size = (uint32_t)(1 + (rnd(5) ? rnd(8) : rnd(2 * ls)));
			a->op = (uint8_t)rnd(4);
			a->tag = (uint8_t)rnd(2);
		}
		for (i = 0; i < NACC && !bad; i += 500) {
			int j;

			/* sim in batches, reference one by one */
			sim_hier_access_batch(h, trace + i, 500);
			for (j = i; j < i + 500; j++)
				ref_access(&r, &trace[j]);
			nl = sim_hier_level_count(h);
			for (k = 0; k < nl && !bad; k++)
				bad = compare_stats(sim_hier_level_stats(h, k),
						    &r.c[k].st, cfgno, k,
						    (uint64_t)i + 500);
		}
		if (bad) {
			fprintf(stderr, "  nlevels %u split %d straddle %d wb %d "
				"3c %d\n", c.nlevels, c.split_l1, c.straddle,
				c.writebacks, c.classify_3c);
			for (k = 0; k < c.nlevels + (c.split_l1 ? 1 : 0); k++) {
				const struct sim_level_config *l =
					sim_hier_level_config(h, k);

				fprintf(stderr, "  %s sets %llu ways %u ls %u "
					"%s %s %s %s idx %d\n", l->name,
					(unsigned long long)l->sets, l->ways,
					l->line_size, sim_repl_name(l->repl),
					sim_incl_name(l->inclusion),
					sim_write_name(l->write),
					sim_prefetch_name(l->prefetch),
					(int)l->index);
			}
		}
		if (bad) {   /* replay access by access to name the first */
			struct sim_hier *h2 = sim_hier_new(&c, NULL);
			struct ref r2;
			int j, d = 0;

			ref_init(&r2, &c);
			for (j = 0; j < NACC && !d; j++) {
				sim_hier_access(h2, &trace[j]);
				ref_access(&r2, &trace[j]);
				for (k = 0; k < nl && !d; k++)
					d = compare_stats(
						sim_hier_level_stats(h2, k),
						&r2.c[k].st, cfgno, k,
						(uint64_t)j + 1);
			}
			fprintf(stderr, "  first difference at access %d: addr "
				"%llu size %u op %u tag %u\n", j - 1,
				(unsigned long long)trace[j - 1].addr,
				trace[j - 1].size, trace[j - 1].op,
				trace[j - 1].tag);
			ref_release(&r2);
			sim_hier_free(h2);
		}
		bad_configs += bad;
		ref_release(&r);
		sim_hier_free(h);
	}
	T_EQ_U64(bad_configs, 0);
	/* the random configs did cover every policy */
	T_CHECK(cover[0][SIM_REPL_DIP] > 50);
	T_CHECK(cover[0][SIM_REPL_SLRU] > 50);
	T_CHECK(cover[1][SIM_INCL_EXCLUSIVE] > 50);
	T_CHECK(cover[1][SIM_INCL_INCLUSIVE] > 50);
	T_CHECK(cover[2][SIM_PF_STREAM] > 50);
	T_CHECK(cover[2][SIM_PF_NEXTLINE] > 50);
}

/*
 * The hierarchies the plain LRU path serves (every cache LRU with the
 * modulo index, write-back, no prefetch, no exclusive level, no 3C), which
 * the random configurations above rarely draw: associativities up to 24
 * (the tag search and fill shift have their own code for 4, 8, 12, 16 and
 * 20 ways), half of them in the shapes sim.c unrolls (8/8/20, 8/8/16 and
 * 8/8 ways, no split L1), power-of-two and other set counts, inclusive
 * and NINE levels, split L1, both straddle conventions, write-backs on
 * and off.  Traces mix runs inside one line (the counted-in-one-go
 * repeats, with random padding bytes, which must be ignored), streams,
 * random references and every op; batches of varying length and single
 * calls.
 */
static void test_plain_lru_against_reference(void)
{
	enum { NACC = 6000 };
	static struct ppr_access trace[NACC];
	static const uint32_t wayset[] = { 1, 2, 3, 4, 5, 7, 8, 8, 12, 16,
					   16, 20, 20, 24 };
	const char *full = getenv("FULL");
	int nconfig = full && !strcmp(full, "1") ? 4000 : 300;
	int cfgno, bad_configs = 0;

	rnd_state = UINT64_C(0x5EED0F1A7C0FFEE1);
	for (cfgno = 0; cfgno < nconfig; cfgno++) {
		struct sim_config c = { 0 };
		struct sim_hier *h;
		struct ref r;
		uint32_t ls = 8u << rnd(4);
		uint64_t span, total = 0;
		unsigned k, nl;
		int i, bad = 0;

		int shape = (int)rnd(6);   /* < 3: sim.c's unrolled shapes */

		c.nlevels = shape < 3 ? 3u - (shape == 2) : (unsigned)(1 + rnd(4));
		c.split_l1 = shape < 3 ? 0 : (int)rnd(2);
		for (k = 0; k < c.nlevels + 1; k++) {
			struct sim_level_config *l = k < c.nlevels ?
				&c.levels[k] : &c.l1i;

			memset(l, 0, sizeof(*l));
			snprintf(l->name, sizeof(l->name), "P%u", k);
			l->sets = rnd(2) ? UINT64_C(1) << rnd(5) : 1 + rnd(9);
			l->ways = wayset[rnd(sizeof(wayset) /
					     sizeof(wayset[0]))];
			if (shape < 3 && k < c.nlevels)
				l->ways = k < 2 ? 8 : shape == 0 ? 20 : 16;
			l->line_size = ls;
			l->size = l->sets * l->ways * ls;
			l->inclusion = (k == 0 || k == c.nlevels) ?
				       SIM_INCL_NINE :
				       (enum sim_incl)rnd(2);
			total += l->sets * l->ways;
		}
		c.straddle = (enum sim_straddle)rnd(2);
		c.writebacks = (int)rnd(2);
		h = sim_hier_new(&c, NULL);
		if (!h) {
			T_CHECK_AT(h != NULL, cfgno);
			continue;
		}
		ref_init(&r, &c);
		span = (uint64_t)ls * (total / 2 + rnd(3 * total + 8));
		for (i = 0; i < NACC; i++) {
			struct ppr_access *a = &trace[i];
			int kind = (int)rnd(8);

			if (i && kind < 4) {   /* same op, tag, size, line */
				*a = trace[i - 1];
				a->addr = (a->addr & ~(uint64_t)(ls - 1)) +
					  rnd(ls);
				if (a->size > ls ||
				    (a->addr & (ls - 1)) + a->size > ls)
					a->addr &= ~(uint64_t)(ls - 1);
				if (rnd(16) == 0)
					a->op = (uint8_t)rnd(4);
				a->pad = (uint16_t)rnd(65536); /* ignored */
				continue;
			}
			a->addr = 64 + (kind == 4 && i ?
				(trace[i - 1].addr + ls) % span : rnd(span));
			a->size = (uint32_t)(rnd(8) ? UINT64_C(1) << rnd(4) :
					     1 + rnd(2 * ls));
			a->op = (uint8_t)rnd(4);
			a->tag = (uint8_t)rnd(2);
		}
		nl = sim_hier_level_count(h);
		for (i = 0; i < NACC && !bad;) {
			int len = 1 + (int)rnd(rnd(4) ? 700 : 3), j;

			if (len > NACC - i)
				len = NACC - i;
			if (len <= 2) {
				for (j = i; j < i + len; j++)
					sim_hier_access(h, &trace[j]);
			} else {
				sim_hier_access_batch(h, trace + i,
						      (size_t)len);
			}
			for (j = i; j < i + len; j++)
				ref_access(&r, &trace[j]);
			i += len;
			for (k = 0; k < nl && !bad; k++)
				bad = compare_stats(sim_hier_level_stats(h, k),
						    &r.c[k].st, cfgno, k,
						    (uint64_t)i);
		}
		if (bad)
			fprintf(stderr, "  plain LRU: nlevels %u split %d "
				"straddle %d wb %d ways %u/%u/%u/%u sets "
				"%llu/%llu/%llu/%llu\n", c.nlevels, c.split_l1,
				c.straddle, c.writebacks, c.levels[0].ways,
				c.levels[1].ways, c.levels[2].ways,
				c.levels[3].ways,
				(unsigned long long)c.levels[0].sets,
				(unsigned long long)c.levels[1].sets,
				(unsigned long long)c.levels[2].sets,
				(unsigned long long)c.levels[3].sets);
		bad_configs += bad;
		ref_release(&r);
		sim_hier_free(h);
	}
	T_EQ_U64(bad_configs, 0);
}

/* The sink, the batch call and the single call agree; reset is cold. */
static void test_sink_and_batch(void)
{
	static struct ppr_access acc[5000];
	struct sim_hier *a = small_hier(3, SIM_REPL_LRU, SIM_INCL_INCLUSIVE);
	struct sim_hier *b = small_hier(3, SIM_REPL_LRU, SIM_INCL_INCLUSIVE);
	struct ppr_sink sink = sim_hier_sink(a);
	size_t i;
	unsigned k;
	int same = 1;

	rnd_state = 42;
	for (i = 0; i < 5000; i++) {
		acc[i].addr = rnd(3) ? 8 * i : rnd(1 << 16);
		acc[i].size = (uint32_t)(1 + rnd(16));
		acc[i].op = (uint8_t)rnd(4);
		acc[i].tag = (uint8_t)rnd(2);
	}
	T_CHECK(sink.emit(sink.ctx, acc, 2500) == 0);
	T_CHECK(sink.emit(sink.ctx, acc + 2500, 2500) == 0);
	for (i = 0; i < 5000; i++)
		sim_hier_access(b, &acc[i]);
	for (k = 0; k < sim_hier_level_count(a); k++)
		same &= !memcmp(sim_hier_level_stats(a, k),
				sim_hier_level_stats(b, k),
				sizeof(struct sim_level_stats));
	T_CHECK(same);
	T_CHECK(accesses(a, 0) >= 5000);
	sim_hier_reset(a);
	sim_hier_access_batch(a, acc, 5000);
	for (k = 0; k < sim_hier_level_count(a); k++)
		same &= !memcmp(sim_hier_level_stats(a, k),
				sim_hier_level_stats(b, k),
				sizeof(struct sim_level_stats));
	T_CHECK(same);
	T_CHECK(sim_hier_bytes_per_line(a) > 8.0);  /* tags + fixed part */
	T_CHECK(sim_hier_level_stats(a, 3) == NULL);
	sim_hier_free(a);
	sim_hier_free(b);
	sim_hier_free(NULL);
}

/*
 * DIP keeps part of a stream longer than the cache, looped over, where LRU
 * keeps none; with an exclusive level the reuse mark keeps it pass after
 * pass.  SLRU keeps none of the stream, but keeps lines that were hit
 * against it.  Figures: a set holding k lines of the loop and seeing m > k
 * keeps k - 1 under bimodal insertion (the last way takes every other
 * fill), so a pass hits about (k - 1) / m of its lines in the sets that
 * follow the bimodal leader; the LRU leaders (set % 64 == 0) and every
 * 32nd fill placed most recent take a little off.
 */
static uint64_t loop_hits(struct sim_hier *h, unsigned level, uint64_t bytes,
			  unsigned passes, uint64_t *first, uint64_t *last)
{
	uint64_t before = 0, i;
	unsigned p;

	for (p = 0; p < passes; p++) {
		before = hits(h, level);
		for (i = 0; i < bytes; i += 64)
			access1(h, 0x100000 + i, 8, PPR_OP_LOAD,
				PPR_TAG_REGULAR);
		if (p == 2 && first)
			*first = hits(h, level) - before;
	}
	if (last)
		*last = hits(h, level) - before;
	return hits(h, level);
}

/* passes over a loop of 'bytes' at 'base' (regular loads), and after
 * every 'every' bytes of it one of 'nhot' hot lines at 0x800000 in turn
 * (irregular); returns the hot accesses made */
static uint64_t loop_with_hot(struct sim_hier *h, uint64_t base,
			      uint64_t bytes, uint64_t every, unsigned nhot,
			      unsigned passes)
{
	uint64_t i, hot = 0;
	unsigned p;

	for (p = 0; p < passes; p++)
		for (i = 0; i < bytes; i += 64) {
			access1(h, base + i, 8, PPR_OP_LOAD, PPR_TAG_REGULAR);
			if (i % every != 0)
				continue;
			access1(h, 0x800000 + 64 * (hot++ % nhot), 8,
				PPR_OP_LOAD, PPR_TAG_IRREGULAR);
		}
	return hot;
}

static void test_dip(void)
{
	static const enum sim_repl pol[] = { SIM_REPL_LRU, SIM_REPL_DIP,
					     SIM_REPL_SLRU };
	struct sim_config c = { 0 };
	struct sim_hier *h;
	uint64_t p3 = 0, p10 = 0;
	unsigned r;

	/* one level: 128 sets of 4 ways (32 KiB), a loop of 48 KiB: 6 lines
	 * per set, 3 kept, 768 lines a pass, about 3/6 of them hit */
	c.nlevels = 1;
	level(&c.levels[0], "L1", 32768, 4, 64);
	c.levels[0].repl = SIM_REPL_LRU;
	h = sim_hier_new(&c, NULL);
	T_EQ_U64(loop_hits(h, 0, 49152, 10, NULL, NULL), 0);
	sim_hier_free(h);
	c.levels[0].repl = SIM_REPL_DIP;
	h = sim_hier_new(&c, NULL);
	loop_hits(h, 0, 49152, 10, &p3, &p10);
	T_CHECK(p3 >= 768 * 40 / 100 && p3 <= 768 / 2);
	T_CHECK(p10 >= 768 * 40 / 100 && p10 <= 768 / 2);
	sim_hier_free(h);
	/* half the sets LRU: about half of DIP's hits (the followers that
	 * remain bimodal are 31 of 64); all LRU: only the bimodal leaders'
	 * 2 sets of 128 keep their 3 lines */
	{
		uint64_t h3 = 0, h10 = 0, a3 = 0, a10 = 0;

		c.levels[0].lru_sets_share = 0.5;
		h = sim_hier_new(&c, NULL);
		loop_hits(h, 0, 49152, 10, &h3, &h10);
		T_CHECK(h3 * 100 >= p3 * 40 && h3 * 100 <= p3 * 60);
		T_CHECK(h10 * 100 >= p10 * 40 && h10 * 100 <= p10 * 60);
		sim_hier_free(h);
		c.levels[0].lru_sets_share = 1;
		h = sim_hier_new(&c, NULL);
		loop_hits(h, 0, 49152, 10, &a3, &a10);
		T_CHECK(a3 <= 6 && a10 <= 6);
		sim_hier_free(h);
		c.levels[0].lru_sets_share = 1.5;
		T_CHECK(sim_hier_new(&c, NULL) == NULL);
		c.levels[0].lru_sets_share = 0;
	}

	/* L1 1 KiB, L2 4 KiB, L3 64 KiB exclusive (256 sets of 4 ways).  A
	 * loop of 104 KiB (regular), and after every 4th of its lines one
	 * of 128 hot lines in turn (irregular): a hot line comes back after
	 * 640 fills, within L3 but not L2.  LRU keeps the hot lines and none
	 * of the loop.  DIP keeps both: a hot line hit in L3 goes up with the
	 * reuse mark and comes back most recent, where the loop's fills
	 * (placed least recent) do not reach it; without the mark it would
	 * come back least recent and the next fill of its set would take
	 * it. */
	memset(&c, 0, sizeof(c));
	c.nlevels = 3;
	level(&c.levels[0], "L1", 1024, 4, 64);
	level(&c.levels[1], "L2", 4096, 4, 64);
	level(&c.levels[2], "L3", 65536, 4, 64);
	c.levels[2].inclusion = SIM_INCL_EXCLUSIVE;
	for (r = 0; r < 3; r++) {
		uint64_t hh, hs, n;

		c.levels[2].repl = pol[r];
		h = sim_hier_new(&c, NULL);
		n = loop_with_hot(h, 0x100000, 104 * 1024, 256, 128, 10);
		hh = sim_stat_tag(sim_hier_level_stats(h, 2)->hits,
				  PPR_TAG_IRREGULAR);
		hs = sim_stat_tag(sim_hier_level_stats(h, 2)->hits,
				  PPR_TAG_REGULAR);
		/* the hot lines: under LRU every access after the first
		 * round hits in L3, under DIP at least 95% of them (measured
		 * 2026-11-27: 4032 and 3966 of 4032; 1494 without the
		 * mark) */
		if (r == 0)
			T_EQ_U64(hh, n - 128);
		else
			T_CHECK(hh >= (n - 128) * 95 / 100);
		if (r == 0)
			T_EQ_U64(hs, 0);
		else if (r == 1)   /* 3 of about 7.5 lines per set of the
				    * loop's 1664 a pass (5572 in 10) */
			T_CHECK(hs >= 8 * 1664 * 30 / 100);
		else   /* SLRU keeps no line that was never hit */
			T_EQ_U64(hs, 0);
		sim_hier_free(h);
	}

	/* The same L3, one hot line per set (256), hit once in L3 and so
	 * marked; then a loop of 2 MiB with a hot line after every 8th of
	 * its lines: a hot line comes back after 2,304 fills, 9 per set.
	 * LRU loses them all; DIP and SLRU keep them above the loop's
	 * lines (in DIP's bimodal sets; SLRU's half of the ways). */
	for (r = 0; r < 3; r++) {
		uint64_t i, hh0, hh, n;
		unsigned p;

		c.levels[2].repl = pol[r];
		h = sim_hier_new(&c, NULL);
		for (p = 0; p < 2; p++)
			for (i = 0; i < 256; i++)
				access1(h, 0x800000 + 64 * i, 8, PPR_OP_LOAD,
					PPR_TAG_IRREGULAR);
		hh0 = sim_stat_tag(sim_hier_level_stats(h, 2)->hits,
				   PPR_TAG_IRREGULAR);
		n = loop_with_hot(h, 0x1000000, 2048 * 1024, 512, 256, 2);
		hh = sim_stat_tag(sim_hier_level_stats(h, 2)->hits,
				  PPR_TAG_IRREGULAR) - hh0;
		/* measured 2026-11-27: 119, 6,302 and 8,192 of 8,192 */
		if (r == 0)
			T_CHECK(hh <= n / 20);
		else if (r == 1)
			T_CHECK(hh >= n * 70 / 100);
		else
			T_EQ_U64(hh, n);
		sim_hier_free(h);
	}
}

int main(void)
{
	test_config_errors();
	test_analytic();
	test_dip();
	test_policies_by_hand();
	test_split();
	test_against_reference();
	test_plain_lru_against_reference();
	test_sink_and_batch();
	test_peers();
	return t_done();
}
