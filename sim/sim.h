/*
 * sim.h - the cache hierarchy simulator: public interface.
 *
 * A hierarchy is 1..SIM_MAX_LEVELS cache levels plus memory, with an
 * optional split first level (L1I beside L1D).  sim/ never sees JSON: the
 * machine loader fills struct sim_config and passes it in.
 *
 * Ownership: sim_hier_new() returns a hierarchy the caller frees with
 * sim_hier_free() (NULL is a no-op).  The config is copied; arguments are
 * borrowed.  The access path (sim_hier_access*, the sink) allocates nothing.
 */
#ifndef PPR_SIM_H
#define PPR_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "common/ppr_access.h"
#include "common/ppr_err.h"

#define SIM_MAX_LEVELS 4
#define SIM_NAME_MAX 16

enum sim_repl {
	SIM_REPL_LRU = 0,
	SIM_REPL_PLRU,    /* tree pseudo-LRU (ways must be a power of two) */
	SIM_REPL_FIFO,
	SIM_REPL_RANDOM,  /* seeded, reproducible */
	SIM_REPL_DIP,     /* LRU or bimodal insertion by set dueling (a
			     shared last level that keeps part of a stream
			     larger than itself; sim/sim.c Notes) */
	SIM_REPL_SLRU,    /* segmented LRU: reused lines above new ones in
			     the most recent half (sim/sim.c Notes) */
};

/* How this level relates to the levels above it (closer to the core). */
enum sim_incl {
	SIM_INCL_NINE = 0,   /* non-inclusive non-exclusive: no back-invalidation */
	SIM_INCL_INCLUSIVE,  /* evicting a line back-invalidates it above */
	SIM_INCL_EXCLUSIVE,  /* victim cache: filled only by evictions from above */
};

enum sim_write {
	SIM_WRITE_BACK_ALLOCATE = 0,   /* write-back + write-allocate */
	SIM_WRITE_THROUGH_NOALLOCATE,  /* write-through + no-write-allocate */
};

enum sim_prefetch {
	SIM_PF_NONE = 0,
	SIM_PF_NEXTLINE,  /* the paper: on a regular access that misses the
			     level above and hits here, fetch the next line
			     from the level below into this level */
	SIM_PF_STREAM,    /* stream detector: degree lines, distance ahead */
};

enum sim_index {
	SIM_INDEX_MODULO = 0,  /* set = line address mod sets (Dinero IV,
				  pycachesim, cachegrind) */
	SIM_INDEX_HASH,        /* xor-folded hash of the line address */
};

/* Which references a level serves (only meaningful for a split L1). */
enum sim_role {
	SIM_ROLE_UNIFIED = 0,
	SIM_ROLE_DATA,
	SIM_ROLE_INSTR,
};

/* How a reference that straddles two lines is counted. */
enum sim_straddle {
	SIM_STRADDLE_SPLIT = 0, /* two accesses, one per line */
	SIM_STRADDLE_ONE,       /* one access; a miss if either line misses,
				   and the whole reference goes below
				   (cachegrind's convention) */
};

struct sim_level_config {
	char name[SIM_NAME_MAX];    /* "L1D", "L2", "L3" ... */
	enum sim_role role;
	uint64_t size;              /* bytes; must equal sets * ways * line_size */
	uint64_t sets;              /* any positive count, not only powers of 2 */
	uint32_t ways;
	uint32_t line_size;         /* bytes, power of two */
	enum sim_repl repl;
	uint64_t seed;              /* SIM_REPL_RANDOM */
	double lru_sets_share;      /* SIM_REPL_DIP: the share (0..1) of the
				       sets that always insert most recent,
				       as LRU (sim/sim.c Notes); 0: none */
	enum sim_incl inclusion;
	enum sim_write write;
	enum sim_prefetch prefetch;
	uint32_t pf_degree;         /* SIM_PF_STREAM: lines per trigger
				       (0 means 1) */
	uint32_t pf_distance;       /* SIM_PF_STREAM: lines ahead (0: 1) */
	enum sim_index index;
};

struct sim_config {
	/*
	 * levels[0] is the first level (L1D when split_l1, else unified L1),
	 * levels[nlevels-1] the last level before memory.
	 */
	unsigned nlevels;
	struct sim_level_config levels[SIM_MAX_LEVELS];
	int split_l1;                   /* l1i serves PPR_OP_IFETCH */
	struct sim_level_config l1i;
	enum sim_straddle straddle;
	int writebacks;                 /* 1: dirty evictions are written to
					   the level below (and counted);
					   0: they vanish (cachegrind) */
	int classify_3c;                /* compulsory/capacity/conflict */
};

/*
 * Statistics of one level.  Counters are exact integers.  PPR_OP_MODIFY is
 * counted under its own op; cachegrind counts a modify as one data read,
 * so its Dr column is LOAD + MODIFY and Dw is STORE (sim/README.md).
 */
struct sim_level_stats {
	uint64_t accesses[PPR_NOPS][PPR_NTAGS];
	uint64_t hits[PPR_NOPS][PPR_NTAGS];
	uint64_t misses[PPR_NOPS][PPR_NTAGS];
	uint64_t prefetches_issued;
	uint64_t prefetches_useful;   /* prefetched lines later hit by demand */
	uint64_t evictions;
	uint64_t writebacks;          /* dirty lines written to the level below */
	uint64_t back_invalidations;  /* lines invalidated above (inclusive) */
	uint64_t bytes_from_below;    /* fills (demand + prefetch), bytes */
	uint64_t bytes_to_below;      /* write-backs / write-throughs, bytes */
	uint64_t compulsory, capacity, conflict;  /* with classify_3c */
};

struct sim_hier;

/* Validate a config; 0 or PPR_EINVAL with the reason in err. */
int sim_config_check(const struct sim_config *cfg, struct ppr_err *err);

struct sim_hier *sim_hier_new(const struct sim_config *cfg,
			      struct ppr_err *err);
void sim_hier_free(struct sim_hier *h);
/* Back to the cold state (all lines invalid, counters zero). */
void sim_hier_reset(struct sim_hier *h);

/* Simulate references. */
void sim_hier_access(struct sim_hier *h, const struct ppr_access *a);
void sim_hier_access_batch(struct sim_hier *h, const struct ppr_access *a,
			   size_t n);

/* A sink that feeds this hierarchy (ctx = h).  Never fails. */
struct ppr_sink sim_hier_sink(struct sim_hier *h);

/*
 * Levels are numbered 0..n-1 in the order of sim_hier_level_count():
 * with a split L1, L1I comes right after L1D.
 */
unsigned sim_hier_level_count(const struct sim_hier *h);
const struct sim_level_config *sim_hier_level_config(const struct sim_hier *h,
						     unsigned level);
const struct sim_level_stats *sim_hier_level_stats(const struct sim_hier *h,
						   unsigned level);
/* Bytes of simulator state per simulated cache line (for `make bench`). */
double sim_hier_bytes_per_line(const struct sim_hier *h);

/* Printable names of policies (static strings). */
const char *sim_repl_name(enum sim_repl r);
const char *sim_incl_name(enum sim_incl i);
const char *sim_write_name(enum sim_write w);
const char *sim_prefetch_name(enum sim_prefetch p);

/* Sums over ops and/or tags of one counter array. */
uint64_t sim_stat_sum(const uint64_t c[PPR_NOPS][PPR_NTAGS]);
uint64_t sim_stat_op(const uint64_t c[PPR_NOPS][PPR_NTAGS], enum ppr_op op);
uint64_t sim_stat_tag(const uint64_t c[PPR_NOPS][PPR_NTAGS], enum ppr_tag t);

#endif
