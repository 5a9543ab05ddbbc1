/*
 * sim_int.h - the cache simulator's private state (only sim/ includes it).
 *
 * Notes:
 *   - One struct sim_cache per cache (L1D, optional L1I, L2 ...).  Every
 *     cache of a hierarchy uses the same line size; a reference is turned
 *     into line numbers (addr >> shift) once, at the top.
 *   - Tags: 8 bytes per way, split in two uint32 arrays per set: a set of W
 *     ways is lo[0..W-1], the low 32 bits of each way's line number, then
 *     hi[0..W-1], bits 32..60 of the line (lines are < 2^61: line size >=
 *     8) with SIM_HI_DIRTY, SIM_HI_PF (brought in by a prefetch, not yet
 *     used by a demand access) and SIM_HI_REUSE (came up from a hit in an
 *     exclusive level; SIM_REPL_SLRU: hit here) on top.  An invalid way
 *     has hi = SIM_HI_INVALID, which no valid way has (its line bits are
 *     above any real line's, and the line 2^61 - 1 never carries
 *     SIM_HI_REUSE).  A search compares lo only, four ways per SSE2
 *     compare, and checks hi on a match.  Outside the set code a way travels as an entry,
 *     (line << SIM_F_SHIFT) | SIM_F_* flags, or SIM_TAG_INVALID.
 *   - LRU, DIP, SLRU and FIFO keep each set's ways in order (most recent /
 *     newest first) with the invalid ways compacted at the end, so the
 *     victim is always the last way.  PLRU and random keep physical way
 *     positions: the victim is the lowest invalid way, else the tree's or
 *     the RNG's choice.
 *   - The access path allocates nothing; the 3C classifier's "seen" set is
 *     the one exception (it grows by doubling, amortised, and only with
 *     classify_3c).
 */
#ifndef PPR_SIM_INT_H
#define PPR_SIM_INT_H

#include <stdint.h>

#include "sim/sim.h"

#define SIM_F_DIRTY UINT64_C(1)
#define SIM_F_PF UINT64_C(2)
#define SIM_F_REUSE UINT64_C(4)
#define SIM_F_MASK UINT64_C(7)
#define SIM_F_SHIFT 3
#define SIM_TAG_INVALID UINT64_MAX
#define SIM_HI_DIRTY UINT32_C(0x80000000)
#define SIM_HI_PF UINT32_C(0x40000000)
#define SIM_HI_REUSE UINT32_C(0x20000000)
#define SIM_HI_LINE UINT32_C(0x1FFFFFFF)
#define SIM_HI_INVALID UINT32_MAX
#define SIM_LINE_NONE UINT64_MAX
#define SIM_NSTREAMS 8

__extension__ typedef unsigned __int128 sim_u128;

struct sim_stream {
	uint64_t last;   /* last line seen by this stream */
	uint64_t next;   /* first line not yet prefetched */
};

/* The 3C classifier of one cache (sim_3c.c). */
struct sim_3c {
	/* lines ever touched by a demand access: open addressing set */
	uint64_t *seen;
	uint64_t seen_cap, seen_n;
	/* fully-associative LRU of the same capacity: hashed, linked */
	uint64_t cap, n;
	uint64_t *fa_line;
	uint32_t *fa_prev, *fa_next, *fa_chain;
	uint32_t *bucket;
	uint64_t nbucket;
	uint32_t head, tail, free_head;
};

struct sim_cache {
	uint32_t *tags;          /* sets * 2 * ways: per set lo[], hi[] */
	uint64_t *plru;          /* per set, SIM_REPL_PLRU only */
	uint64_t nsets;
	uint64_t setmask;        /* nsets - 1 when a power of two */
	uint64_t fm;             /* Lemire fastmod constant otherwise */
	int pow2;
	uint32_t ways;
	uint32_t line_size;
	unsigned depth;          /* 0 for L1D/L1I, 1 for L2 ... */
	enum sim_repl repl;
	enum sim_incl incl;
	enum sim_write write;
	enum sim_prefetch pf;
	enum sim_index index;
	uint32_t pf_degree, pf_distance;
	uint64_t rng;
	uint32_t psel;           /* SIM_REPL_DIP: the duel's counter */
	uint32_t bip_n;          /* SIM_REPL_DIP: bimodal insertions */
	uint32_t lru64;          /* SIM_REPL_DIP: of each 64 sets, those
				    that always insert most recent */
	struct sim_cache *below;  /* NULL: memory */
	/* the caches above this one (smaller depth): back-invalidation */
	struct sim_cache *up[SIM_MAX_LEVELS + 1];
	unsigned nup;
	/* The line a demand access last left most recent in this cache, or
	 * SIM_LINE_NONE; cleared whenever that line leaves (fast path). */
	uint64_t mru_line;
	int mru_wok;             /* a write to mru_line changes nothing */
	struct sim_stream streams[SIM_NSTREAMS];
	unsigned stream_rr;
	struct sim_3c *c3;
	struct sim_level_config cfg;
	struct sim_level_stats st;
};

struct sim_hier {
	struct sim_config cfg;
	unsigned ncaches;                       /* levels + (split ? 1 : 0) */
	struct sim_cache *by_index[SIM_MAX_LEVELS + 1];  /* API order */
	struct sim_cache *l1d, *l1i;            /* l1i NULL unless split */
	struct sim_cache caches[SIM_MAX_LEVELS + 1];
	unsigned shift;                         /* log2 line size */
	uint64_t max_line;
	int one;                                /* SIM_STRADDLE_ONE */
	int track_dirty;                        /* writebacks enabled */
	int fast_ok;                            /* fast path allowed */
	int plain;                              /* access_plain() allowed */
	int plain_lru;                          /* ... and all LRU, modulo */
	uint64_t l0_removed;                    /* lines taken out of L1s */
	/* plain LRU path: demand references per op * PPR_NTAGS + tag and
	 * the depth they hit at (the chain's length: memory), counted into
	 * the levels' stats at the end of each call (lru_flush); lru_used
	 * marks the op/tag pairs seen */
	uint64_t lru_n[PPR_NOPS * PPR_NTAGS][SIM_MAX_LEVELS + 1];
	unsigned lru_used;
	/* the plain LRU path's batch function for this shape, or NULL */
	void (*lru_batch)(struct sim_hier *h, const struct ppr_access *a,
			  size_t n);
	unsigned nbig;                          /* caches with big tag arrays */
	struct sim_cache *big[SIM_MAX_LEVELS + 1];
};

/* sim_3c.c */
struct sim_3c *sim_3c_new(uint64_t lines);
void sim_3c_free(struct sim_3c *c);
void sim_3c_reset(struct sim_3c *c);
/* Record a demand touch of 'line'; returns 1 if it would hit in the
 * fully-associative LRU shadow, and sets *first when never seen before. */
int sim_3c_touch(struct sim_3c *c, uint64_t line, int *first);
uint64_t sim_3c_bytes(const struct sim_3c *c);

#endif
