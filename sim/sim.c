/*
 * sim.c - the multi-level cache hierarchy: construction and the access path.
 *
 * Notes: what is modelled, and in which order (tests/test_sim.c holds an
 * independent reference model written from this text):
 *   - Caches hold line numbers (address >> log2(line size)); every cache of
 *     a hierarchy has the same line size.  Set = line mod sets (or a hash of
 *     the line, SIM_INDEX_HASH), for any set count.
 *   - A reference [addr, addr+size) touches every line it covers.  With
 *     SIM_STRADDLE_SPLIT each line is a separate access, in address order,
 *     each counted once at every level it reaches.  With SIM_STRADDLE_ONE a
 *     reference spanning two lines is one access: both lines are looked up
 *     (both update state), it is a miss if either misses, and on a miss both
 *     lines are looked up in the next level (cachegrind, cg_sim.c).  Only
 *     the lines that missed are filled.  A reference spanning three or more
 *     lines is split in both modes.
 *   - PPR_OP_MODIFY (valgrind lackey 'M') is one access that writes: it is
 *     counted under MODIFY and behaves like a store (cachegrind counts it as
 *     one data write; see sim/README.md).  IFETCH goes to L1I when split.
 *   - Demand access at a cache: count it; look the line(s) up; a hit
 *     updates replacement state (LRU, DIP: most recent; SLRU: most
 *     recent, marked reused; PLRU: tree bits point away; FIFO, random:
 *     nothing), clears the prefetched mark (counting a useful prefetch)
 *     and, for a write into a write-back cache, sets the dirty bit.  A hit
 *     in an exclusive cache removes the line, which moves up with its
 *     dirty bit and a reuse mark (kept with the line until it leaves the
 *     level it is filled into).  On a miss the reference goes to the next
 *     level (memory counts nothing); when it comes back the missed lines
 *     are filled here (not in an exclusive cache), dirty if the access
 *     writes or the line came dirty from an exclusive level.  A write is
 *     taken by the first write-back level it reaches: the levels below
 *     that one only supply the line (and count a store access/miss), so
 *     their copies stay clean.
 *   - Write-through caches never allocate on a write: a write hit stays
 *     clean and its bytes are forwarded below; a write miss continues below
 *     as a demand access without filling this level.  A forwarded write (or
 *     a write-back) arriving at a level that holds the line marks it dirty
 *     (write-back level; replacement state untouched) or passes it on
 *     (write-through); a write-back level that lacks it allocates it without
 *     a fetch (a full-line write); an exclusive level passes it on.
 *   - Fill: choose the victim (an invalid way first; LRU, DIP, SLRU: least
 *     recent; FIFO: oldest fill; PLRU: the tree; random: xorshift64* draw
 *     mod ways), place the new line (most recent; DIP, SLRU: see below),
 *     then dispose of the victim: an inclusive cache back-invalidates it
 *     in every cache above (a dirty copy above makes the victim dirty);
 *     then it goes into an exclusive level below (victim cache, clean or
 *     dirty, with its reuse mark), or, if dirty and writebacks are on, is
 *     written back below.  With writebacks off no dirty bit is ever kept
 *     (cachegrind models no write-backs).
 *   - DIP (dynamic insertion: Qureshi, Jaleel, Patt, Steely, Emer,
 *     "Adaptive insertion policies for high performance caching", ISCA
 *     2007; the reuse mark for an exclusive level after Gaur, Chaudhuri,
 *     Subramoney, ISCA 2011): LRU order and hits, but a fill is placed
 *     either most recent (LRU insertion) or least recent (bimodal: every
 *     32nd such fill of the cache most recent).  Sets with set % 64 == 0
 *     always insert most recent, sets with set % 64 == 33 bimodally; a
 *     demand miss in the first kind counts the duel's 10-bit counter up
 *     (saturating at 1023), in the second kind down; the other sets insert
 *     bimodally while the counter is above 511 (it starts at 511).  A fill
 *     carrying the reuse mark (the line was hit in an exclusive level, and
 *     comes back to it as a victim) is always placed most recent.  A
 *     stream longer than the cache, looped over, then keeps the lines the
 *     bimodal sets hold instead of none (LRU), while lines that are hit
 *     stay as under LRU.  With lru_sets_share s, round(64 s) of every 64
 *     sets (the LRU leader among them) always insert most recent: the
 *     level keeps about 1 - s of what DIP keeps of such a stream, and the
 *     hit lines as both do.  A machine whose last level keeps DIP's share
 *     on some days and none on others is predicted between the two:
 *     zen4-genoa.json's L3 has s = 0.75, fitted (model/README.md,
 *     2026-11-28).
 *   - SLRU (segmented LRU: Karedla, Love, Wherry, IEEE Computer 27(3),
 *     1994, with half the ways protected): LRU order; a line hit here, or
 *     filled with the reuse mark, is marked reused and goes most recent; a
 *     fill without the mark goes below the set's reused lines (not
 *     counting the victim), but no lower than place ways / 2 (0: most
 *     recent), so reused lines sink out of the upper half only under
 *     other reused lines.  A stream longer than the cache keeps nothing,
 *     as under LRU, and cannot push out lines that were hit.
 *   - Prefetch (after the demand access at that level is done):
 *     SIM_PF_NEXTLINE, on a REGULAR demand access looked up at this level
 *     (which at L2 means it missed L1), fetches line+1 into this level if
 *     absent.  SIM_PF_STREAM keeps 8 ascending streams per level: an access
 *     to line L that continues a stream (L = last+1) prefetches lines
 *     L+distance .. L+distance+degree-1 that were not prefetched before;
 *     otherwise it starts a new stream (round robin).  A prefetch looks the
 *     line up below without counting demand statistics (a hit there updates
 *     replacement), fills every non-exclusive level it missed, and marks the
 *     line in the target level as prefetched.  No page boundaries, no
 *     descending streams, no prefetch into exclusive levels.
 *   - Not modelled: timing, MSHRs, multiple cores/coherence, TLBs, partial
 *     line validity, write-combining, adaptive replacement other than DIP
 *     and SLRU, prefetch throttling.  Prefetches and write-backs are not
 *     counted as accesses.
 *   - The access path allocates nothing (3C's "seen" set aside).
 *   - Fast path: a reference within the line that the last demand access
 *     left most recent in L1 is a hit that changes no state (exact for every
 *     policy here: a repeated MRU touch is idempotent), except that a write
 *     must set the dirty bit: stores take it only when that is already so.
 *     A DIP L1 takes it only when the fill put the line most recent, an
 *     SLRU L1 never (its next hit marks the line).
 *     Disabled when L1 prefetches or 3C is on.  Hierarchies without
 *     prefetch, exclusive or write-through levels and 3C run single-line
 *     references through a loop (access_plain) that does what the
 *     recursive walk does, in the same order.
 *   - Plain LRU hierarchies (the above, and every cache LRU with the modulo
 *     index: Haswell, dinero-p2, haswell-nine, cachegrind) take their own
 *     batch path (batch_lru_t): a single-line reference that misses the
 *     fast path does the same lookups, fills and victims in the same order
 *     (lru_access), with the move to the front, the shift and the
 *     back-invalidation written out; the references after it with the same
 *     size, op and tag inside the same line are fast-path hits, counted in
 *     one addition; the demand counts of the batch are kept per op, tag and
 *     depth of the hit and added to the levels' statistics at the end of
 *     the call (lru_flush).  The 8/8/20, 8/8/16 and 8/8-way shapes without
 *     a split L1 have instances with the ways as constants, level by level
 *     (lru_access_t); references straddling lines take the general walk.
 */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/xalloc.h"
#include "sim/sim_int.h"

#define DEFAULT_SEED UINT64_C(0x9E3779B97F4A7C15)

/* ---- set index ----------------------------------------------------------- */

static inline uint64_t line_hash(uint64_t x)
{
	return x ^ (x >> 17) ^ (x >> 31) ^ (x >> 47);
}

static inline uint64_t set_of(const struct sim_cache *c, uint64_t line)
{
	uint64_t x = line;

	if (__builtin_expect(c->index == SIM_INDEX_HASH, 0))
		x = line_hash(x);
	if (c->pow2)
		return x & c->setmask;
	/* Lemire, Kaser, Kurz: "Faster remainder by direct computation"
	 * (2019): exact for 32-bit numerator and divisor. */
	if (c->fm && x <= UINT32_MAX)
		return (uint64_t)(((sim_u128)(c->fm * x) * c->nsets) >> 64);
	return x % c->nsets;
}

/* ---- one set ------------------------------------------------------------- */

/*
 * A set of W ways is 2W uint32 (sim_int.h): lo[0..W-1], the low 32 bits of
 * each way's line, then hi[0..W-1], the line's higher bits with the dirty
 * and prefetched flags on top; an invalid way has hi = SIM_HI_INVALID.  A
 * search compares the low halves only (four ways per SSE2 compare) and
 * checks hi on a match.  The general code moves a way around as an entry,
 * (line << SIM_F_SHIFT) | SIM_F_* flags, or SIM_TAG_INVALID.
 */
static inline uint32_t *set_at(const struct sim_cache *c, uint64_t set)
{
	return c->tags + set * 2 * c->ways;
}

static inline uint64_t ent_get(const uint32_t *s, uint32_t w, uint32_t i)
{
	uint32_t hi = s[w + i];

	if (hi == SIM_HI_INVALID)
		return SIM_TAG_INVALID;
	return (((uint64_t)(hi & SIM_HI_LINE) << 32 | s[i]) << SIM_F_SHIFT) |
	       (hi >> 31) | (hi >> 29 & SIM_F_PF) | (hi >> 27 & SIM_F_REUSE);
}

static inline void ent_put(uint32_t *s, uint32_t w, uint32_t i, uint64_t e)
{
	if (e == SIM_TAG_INVALID) {
		s[i] = SIM_HI_INVALID;
		s[w + i] = SIM_HI_INVALID;
		return;
	}
	s[i] = (uint32_t)(e >> SIM_F_SHIFT);
	/* the last line never carries the reuse mark: with every flag on,
	 * its hi would read as SIM_HI_INVALID */
	if (__builtin_expect((e & SIM_F_REUSE) != 0, 0) &&
	    (uint32_t)(e >> (32 + SIM_F_SHIFT)) == SIM_HI_LINE)
		e &= ~SIM_F_REUSE;
	s[w + i] = (uint32_t)(e >> (32 + SIM_F_SHIFT)) |
		   (uint32_t)(e & SIM_F_DIRTY) << 31 |
		   (uint32_t)(e & SIM_F_PF) << 29 |
		   (uint32_t)(e & SIM_F_REUSE) << 27;
}

/* Tag search: the way of 'line' in the set, or -1. */
static inline __attribute__((always_inline)) int
find_scan(const uint32_t *s, uint32_t w, uint64_t line)
{
	uint32_t lo = (uint32_t)line, hk = (uint32_t)(line >> 32), i;

	for (i = 0; i < w; i++)
		if (s[i] == lo && (s[w + i] & SIM_HI_LINE) == hk)
			return (int)i;
	return -1;
}

#if defined(__SSE2__)
/* w % 4 == 0 (the set is 16-byte aligned): the low halves, four ways per
 * compare with SSE2 (every x86-64) and a single branch at the end, so a
 * miss, the common case below L1, costs no branch per step; a possible
 * match goes to the exact scan. */
static inline __attribute__((always_inline)) int
find_sse2(const uint32_t *s, uint32_t w, uint64_t line)
{
	const __m128i k = _mm_set1_epi32((int)(uint32_t)line);
	__m128i any = _mm_setzero_si128();
	uint32_t i;

	for (i = 0; i < w; i += 4)
		any = _mm_or_si128(any, _mm_cmpeq_epi32(
			_mm_load_si128((const __m128i *)(const void *)(s + i)),
			k));
	if (!_mm_movemask_epi8(any))
		return -1;
	return find_scan(s, w, line);
}
#define FIND4(s, w, line) find_sse2(s, w, line)
#else
#define FIND4(s, w, line) find_scan(s, w, line)
#endif

static inline __attribute__((always_inline)) int
way_find(const uint32_t *s, uint32_t ways, uint64_t line)
{
	switch (ways) {
	case 1: return find_scan(s, 1, line);
	case 2: return find_scan(s, 2, line);
	case 4: return FIND4(s, 4, line);
	case 8: return FIND4(s, 8, line);
	case 12: return FIND4(s, 12, line);
	case 16: return FIND4(s, 16, line);
	case 20: return FIND4(s, 20, line);
	default:
		break;
	}
	return find_scan(s, ways, line);
}

#if defined(__SSE2__)
/* a[1..w-1] = a[0..w-2] for a constant w % 4 == 0, 8 <= w <= 20, a
 * 16-byte aligned: everything is loaded before anything is stored (the
 * last vector is the one ending at a[w-2], so no store passes a[w-1]) */
static inline __attribute__((always_inline)) void
shift_sse2(uint32_t *a, uint32_t w)
{
	__m128i v[4], u;
	uint32_t k, nv = w / 4 - 1;

	for (k = 0; k < nv; k++)
		v[k] = _mm_load_si128((const __m128i *)(const void *)(a + 4 * k));
	u = _mm_loadu_si128((const __m128i *)(const void *)(a + w - 5));
	for (k = 0; k < nv; k++)
		_mm_storeu_si128((__m128i *)(void *)(a + 4 * k + 1), v[k]);
	_mm_storeu_si128((__m128i *)(void *)(a + w - 4), u);
}
#define SHIFT4(s, w) (shift_sse2(s, w), shift_sse2((s) + (w), w))
#else
#define SHIFT4(s, w) set_shift_any(s, w)
#endif

static inline void set_shift_any(uint32_t *s, uint32_t w)
{
	memmove(s + 1, s, (size_t)(w - 1) * sizeof(*s));
	memmove(s + w + 1, s + w, (size_t)(w - 1) * sizeof(*s));
}

/* The fill's shift: every way one place older, way 0 free, the last way
 * (the LRU/FIFO victim) overwritten. */
static inline __attribute__((always_inline)) void
set_shift(uint32_t *s, uint32_t w)
{
	switch (w) {
	case 8: SHIFT4(s, 8); return;
	case 12: SHIFT4(s, 12); return;
	case 16: SHIFT4(s, 16); return;
	case 20: SHIFT4(s, 20); return;
	default:
		break;
	}
	set_shift_any(s, w);
}

/* Way i to the front, ways 0..i-1 one place older (an LRU hit). */
static inline __attribute__((always_inline)) void
set_to_front(uint32_t *s, uint32_t w, uint32_t i)
{
	uint32_t lo = s[i], hi = s[w + i];

	for (; i > 0; i--) {
		s[i] = s[i - 1];
		s[w + i] = s[w + i - 1];
	}
	s[0] = lo;
	s[w] = hi;
}

/* Take way i out, ways i+1.. one place younger, the last way invalid. */
static inline void set_remove(uint32_t *s, uint32_t w, uint32_t i)
{
	for (; i + 1 < w; i++) {
		s[i] = s[i + 1];
		s[w + i] = s[w + i + 1];
	}
	s[w - 1] = SIM_HI_INVALID;
	s[2 * w - 1] = SIM_HI_INVALID;
}

static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

static inline void plru_touch(uint64_t *bits, uint32_t ways, uint32_t way)
{
	uint32_t n = way + ways;

	while (n > 1) {
		uint32_t p = n >> 1;

		if (n & 1)
			*bits &= ~(UINT64_C(1) << p);  /* point left, away */
		else
			*bits |= UINT64_C(1) << p;     /* point right */
		n = p;
	}
}

static inline uint32_t plru_victim(uint64_t bits, uint32_t ways)
{
	uint32_t n = 1;

	while (n < ways)
		n = 2 * n + (uint32_t)((bits >> n) & 1);
	return n - ways;
}

/* A hit on way i: update replacement state, return the way's new index. */
static inline uint32_t way_touch(struct sim_cache *c, uint64_t set,
				 uint32_t *s, uint32_t i)
{
	switch (c->repl) {
	case SIM_REPL_LRU:
	case SIM_REPL_DIP:
		set_to_front(s, c->ways, i);
		return 0;
	case SIM_REPL_SLRU:
		if ((s[c->ways + i] & SIM_HI_LINE) != SIM_HI_LINE)
			s[c->ways + i] |= SIM_HI_REUSE;
		set_to_front(s, c->ways, i);
		return 0;
	case SIM_REPL_PLRU:
		plru_touch(&c->plru[set], c->ways, i);
		return i;
	default:
		return i;
	}
}

static inline int repl_ordered(const struct sim_cache *c)
{
	return c->repl == SIM_REPL_LRU || c->repl == SIM_REPL_FIFO ||
	       c->repl == SIM_REPL_DIP || c->repl == SIM_REPL_SLRU;
}

/* SIM_REPL_DIP's leader sets: set % 64 == 0 always inserts most recent
 * (LRU), set % 64 == 33 bimodally; the other sets follow the leaders
 * with fewer misses (DIP_PSEL_MAX + 1 values, the upper half: bimodal),
 * except the lru64 of every 64 that always insert most recent (the
 * residues scattered by an odd multiplier, so that a stream's
 * consecutive sets alternate). */
#define DIP_LEADER_LRU 0
#define DIP_LEADER_BIP 33
#define DIP_PSEL_MAX 1023u
#define DIP_BIP_EVERY 32u
#define DIP_SCATTER 41u

static inline int dip_bimodal(const struct sim_cache *c, uint64_t set)
{
	switch (set & 63) {
	case DIP_LEADER_LRU:
		return 0;
	case DIP_LEADER_BIP:
		return 1;
	default:
		if ((((uint32_t)set & 63) * DIP_SCATTER & 63) < c->lru64)
			return 0;
		return c->psel > DIP_PSEL_MAX / 2;
	}
}

/* A demand miss in a SIM_REPL_DIP cache: the duel's count. */
static inline void dip_miss(struct sim_cache *c, uint64_t set)
{
	if ((set & 63) == DIP_LEADER_LRU && c->psel < DIP_PSEL_MAX)
		c->psel++;
	else if ((set & 63) == DIP_LEADER_BIP && c->psel > 0)
		c->psel--;
}

static inline void way_remove(struct sim_cache *c, uint32_t *s, uint32_t i)
{
	if (repl_ordered(c))
		set_remove(s, c->ways, i);
	else
		ent_put(s, c->ways, i, SIM_TAG_INVALID);
}

/* Place entry v in the set, return the entry it replaced (maybe invalid). */
static inline uint64_t way_insert(struct sim_cache *c, uint64_t set,
				  uint32_t *s, uint64_t v)
{
	uint32_t ways = c->ways, w;
	uint64_t old;

	if (__builtin_expect(c->repl == SIM_REPL_DIP, 0) &&
	    !(v & SIM_F_REUSE) && dip_bimodal(c, set) &&
	    ++c->bip_n % DIP_BIP_EVERY != 0) {
		/* least recent: after the last valid way, or over it */
		for (w = 0; w + 1 < ways; w++)
			if (s[ways + w] == SIM_HI_INVALID)
				break;
		old = ent_get(s, ways, w);
		ent_put(s, ways, w, v);
		return old;
	}
	if (__builtin_expect(c->repl == SIM_REPL_SLRU, 0) &&
	    !(v & SIM_F_REUSE)) {
		/* below the reused lines, within the most recent half; the
		 * last way is invalid or the victim: not counted */
		uint32_t q = 0, k;

		for (k = 0; k + 1 < ways; k++)
			q += s[ways + k] != SIM_HI_INVALID &&
			     (s[ways + k] & SIM_HI_REUSE);
		if (q > ways / 2)
			q = ways / 2;
		old = ent_get(s, ways, ways - 1);
		for (k = ways - 1; k > q; k--) {
			s[k] = s[k - 1];
			s[ways + k] = s[ways + k - 1];
		}
		ent_put(s, ways, q, v);
		return old;
	}
	if (repl_ordered(c)) {
		old = ent_get(s, ways, ways - 1);
		set_shift(s, ways);
		ent_put(s, ways, 0, v);
		return old;
	}
	for (w = 0; w < ways; w++)
		if (s[ways + w] == SIM_HI_INVALID)
			break;
	if (w == ways) {
		if (c->repl == SIM_REPL_PLRU)
			w = plru_victim(c->plru[set], ways);
		else
			w = (uint32_t)((rng_next(&c->rng) >> 32) % ways);
	}
	old = ent_get(s, ways, w);
	ent_put(s, ways, w, v);
	if (c->repl == SIM_REPL_PLRU)
		plru_touch(&c->plru[set], ways, w);
	return old;
}

/* ---- the hierarchy ------------------------------------------------------- */

static void fill(struct sim_hier *h, struct sim_cache *c, uint64_t line,
		 uint64_t flags);

static void write_arrive(struct sim_hier *h, struct sim_cache *b,
			 uint64_t line, uint64_t bytes)
{
	while (b) {
		uint32_t *s = set_at(b, set_of(b, line));
		int i = way_find(s, b->ways, line);

		if (i >= 0 && b->write == SIM_WRITE_BACK_ALLOCATE) {
			if (h->track_dirty)
				s[b->ways + (uint32_t)i] |= SIM_HI_DIRTY;
			return;
		}
		if (i < 0 && b->write == SIM_WRITE_BACK_ALLOCATE &&
		    b->incl != SIM_INCL_EXCLUSIVE) {
			fill(h, b, line, h->track_dirty ? SIM_F_DIRTY : 0);
			return;
		}
		/* write-through, or absent from an exclusive level: pass on */
		b->st.bytes_to_below += bytes;
		b = b->below;
	}
}

static uint64_t back_invalidate(struct sim_hier *h, struct sim_cache *c,
				uint64_t line)
{
	uint64_t dirty = 0;
	unsigned k;

	for (k = 0; k < c->nup; k++) {
		struct sim_cache *a = c->up[k];
		uint32_t *s = set_at(a, set_of(a, line));
		int i = way_find(s, a->ways, line);

		if (i < 0)
			continue;
		dirty |= s[a->ways + (uint32_t)i] >> 31;
		way_remove(a, s, (uint32_t)i);
		if (a->mru_line == line)
			a->mru_line = SIM_LINE_NONE;
		if (a->depth == 0)
			h->l0_removed++;
		c->st.back_invalidations++;
	}
	return dirty;
}

/* Dispose of the victim 'old' (a valid entry) that a fill pushed out. */
static __attribute__((noinline)) void evict(struct sim_hier *h,
					    struct sim_cache *c, uint64_t old)
{
	uint64_t vline, vdirty;
	struct sim_cache *b = c->below;

	c->st.evictions++;
	vline = old >> SIM_F_SHIFT;
	vdirty = old & SIM_F_DIRTY;
	if (c->mru_line == vline)
		c->mru_line = SIM_LINE_NONE;
	if (c->incl == SIM_INCL_INCLUSIVE)
		vdirty |= back_invalidate(h, c, vline);
	if (b && b->incl == SIM_INCL_EXCLUSIVE) {
		uint32_t *bs = set_at(b, set_of(b, vline));
		int i = way_find(bs, b->ways, vline);

		c->st.bytes_to_below += c->line_size;
		if (vdirty)
			c->st.writebacks++;
		if (i >= 0)
			bs[b->ways + (uint32_t)i] |= vdirty ? SIM_HI_DIRTY : 0;
		else
			fill(h, b, vline, vdirty | (old & SIM_F_REUSE));
		return;
	}
	if (vdirty) {
		c->st.writebacks++;
		c->st.bytes_to_below += c->line_size;
		write_arrive(h, b, vline, c->line_size);
	}
}

static inline void fill_at(struct sim_hier *h, struct sim_cache *c,
			   uint64_t set, uint32_t *s, uint64_t line,
			   uint64_t flags)
{
	uint64_t old = way_insert(c, set, s, (line << SIM_F_SHIFT) | flags);

	if (old != SIM_TAG_INVALID)
		evict(h, c, old);
}

static void fill(struct sim_hier *h, struct sim_cache *c, uint64_t line,
		 uint64_t flags)
{
	uint64_t set = set_of(c, line);

	fill_at(h, c, set, set_at(c, set), line, flags);
}

static void prefetch(struct sim_hier *h, struct sim_cache *c, uint64_t line);

static void stream_update(struct sim_hier *h, struct sim_cache *c,
			  uint64_t line)
{
	unsigned k;
	uint32_t j;

	for (k = 0; k < SIM_NSTREAMS; k++)
		if (c->streams[k].last == line)
			return;
	for (k = 0; k < SIM_NSTREAMS; k++) {
		struct sim_stream *s = &c->streams[k];
		uint64_t end;

		if (s->last == SIM_LINE_NONE || s->last + 1 != line)
			continue;
		s->last = line;
		for (j = 0; j < c->pf_degree; j++) {
			uint64_t p = line + c->pf_distance + j;

			if (p >= s->next)
				prefetch(h, c, p);
		}
		end = line + c->pf_distance + c->pf_degree;
		if (end > s->next)
			s->next = end;
		return;
	}
	c->streams[c->stream_rr].last = line;
	c->streams[c->stream_rr].next = 0;
	c->stream_rr = (c->stream_rr + 1) % SIM_NSTREAMS;
}

/*
 * The walk: n (1 or 2) lines looked up at c as one access.  mode:
 * WALK_DEMAND (count it, trigger prefetchers) and WALK_WRITE (the write of
 * a store or modify that no level above has taken yet).  Returns a mask of
 * the lines that come up dirty from an exclusive level, and in bits
 * WALK_REUSE_BIT.. those that came up from a hit in one.
 */
#define WALK_REUSE_BIT 4
#define WALK_DEMAND 1
#define WALK_WRITE 2

static unsigned walk(struct sim_hier *h, struct sim_cache *c,
		     const uint64_t *lines, const uint32_t *bytes, unsigned n,
		     unsigned op, unsigned tag, int mode)
{
	int demand = mode & WALK_DEMAND;
	int w = (mode & WALK_WRITE) != 0;
	unsigned missmask = 0, dirty_up = 0, j;
	int resident_last = 1;
	uint64_t l0_removed = h->l0_removed;

	if (!c)
		return 0;
	if (demand)
		c->st.accesses[op][tag]++;
	for (j = 0; j < n; j++) {
		uint64_t set = set_of(c, lines[j]);
		uint32_t *s = set_at(c, set), *hi = s + c->ways;
		int i = way_find(s, c->ways, lines[j]);
		uint32_t u;

		if (demand && c->c3) {
			int first = 0;
			int fa_hit = sim_3c_touch(c->c3, lines[j], &first);

			if (i < 0 && !(missmask)) {
				if (first)
					c->st.compulsory++;
				else if (fa_hit)
					c->st.conflict++;
				else
					c->st.capacity++;
			}
		}
		if (i < 0) {
			missmask |= 1u << j;
			if (__builtin_expect(c->repl == SIM_REPL_DIP, 0) &&
			    demand)
				dip_miss(c, set);
			continue;
		}
		if (demand && (hi[i] & SIM_HI_PF)) {
			c->st.prefetches_useful++;
			hi[i] &= ~SIM_HI_PF;
		}
		if (c->incl == SIM_INCL_EXCLUSIVE) {
			if (hi[i] & SIM_HI_DIRTY)
				dirty_up |= 1u << j;
			dirty_up |= 1u << (WALK_REUSE_BIT + j);
			way_remove(c, s, (uint32_t)i);
			continue;
		}
		u = way_touch(c, set, s, (uint32_t)i);
		if (w && c->write == SIM_WRITE_BACK_ALLOCATE && h->track_dirty)
			hi[u] |= SIM_HI_DIRTY;
	}
	if (!missmask) {
		if (demand)
			c->st.hits[op][tag]++;
		if (w && c->write == SIM_WRITE_THROUGH_NOALLOCATE) {
			for (j = 0; j < n; j++) {
				c->st.bytes_to_below += bytes[j];
				write_arrive(h, c->below, lines[j], bytes[j]);
			}
		}
	} else {
		if (demand)
			c->st.misses[op][tag]++;
		if (w && c->write == SIM_WRITE_THROUGH_NOALLOCATE) {
			for (j = 0; j < n; j++)
				c->st.bytes_to_below += bytes[j];
			walk(h, c->below, lines, bytes, n, op, tag, mode);
			resident_last = !(missmask >> (n - 1) & 1);
		} else {
			/* a write-back level takes the write: below it
			 * the line is only read */
			unsigned dmask = walk(h, c->below, lines, bytes, n, op,
					      tag, c->incl == SIM_INCL_EXCLUSIVE ?
					      mode : demand);

			if (c->incl == SIM_INCL_EXCLUSIVE) {
				dirty_up |= dmask & (missmask |
						     missmask << WALK_REUSE_BIT);
			} else {
				for (j = 0; j < n; j++) {
					uint64_t f = 0;

					if (!(missmask >> j & 1))
						continue;
					if ((dmask >> j & 1) ||
					    (w && h->track_dirty))
						f = SIM_F_DIRTY;
					if (dmask >> (WALK_REUSE_BIT + j) & 1)
						f |= SIM_F_REUSE;
					fill(h, c, lines[j], f);
					c->st.bytes_from_below += c->line_size;
				}
			}
		}
	}
	if (demand && c->pf != SIM_PF_NONE) {
		if (c->pf == SIM_PF_NEXTLINE) {
			if (tag == PPR_TAG_REGULAR)
				prefetch(h, c, lines[n - 1] + 1);
		} else {
			stream_update(h, c, lines[n - 1]);
		}
	}
	if (demand && c->depth == 0) {
		/* Work below may have taken the line out again (an inclusive
		 * level's back-invalidation, or the fill of the other line of
		 * a straddling pair): look before trusting it. */
		if (resident_last && h->l0_removed != l0_removed) {
			uint32_t *s = set_at(c, set_of(c, lines[n - 1]));

			resident_last = way_find(s, c->ways,
						 lines[n - 1]) >= 0;
		}
		/* After a straddling pair the most recent line is the one
		 * filled last, which need not be lines[1]: no fast path.
		 * DIP may have filled the line least recent: a hit on it
		 * moves it, so no fast path either. */
		if (resident_last && n == 1 && c->repl == SIM_REPL_DIP)
			resident_last = way_find(set_at(c, set_of(c, lines[0])),
						 c->ways, lines[0]) == 0;
		/* SLRU: the next hit marks the line reused */
		if (c->repl == SIM_REPL_SLRU)
			resident_last = 0;
		if (resident_last && n == 1) {
			c->mru_line = lines[n - 1];
			c->mru_wok = c->write == SIM_WRITE_BACK_ALLOCATE &&
				     (w || !h->track_dirty);
		} else {
			c->mru_line = SIM_LINE_NONE;
		}
	}
	return dirty_up;
}

static void prefetch(struct sim_hier *h, struct sim_cache *c, uint64_t line)
{
	uint32_t ls = c->line_size;
	unsigned d;

	if (line > h->max_line)
		return;
	if (way_find(set_at(c, set_of(c, line)), c->ways, line) >= 0)
		return;
	c->st.prefetches_issued++;
	d = walk(h, c->below, &line, &ls, 1, PPR_OP_LOAD, PPR_TAG_REGULAR, 0);
	fill(h, c, line, SIM_F_PF | ((d & 1) ? SIM_F_DIRTY : 0) |
			 ((d >> WALK_REUSE_BIT & 1) ? SIM_F_REUSE : 0));
	c->st.bytes_from_below += c->line_size;
}

/* ---- the public access path ---------------------------------------------- */

/*
 * The walk of one line through a plain hierarchy (no prefetch, no
 * exclusive or write-through level, no 3C), as a loop: the same lookups,
 * counts and fills, in the same order, as walk().
 */
static void access_plain(struct sim_hier *h, struct sim_cache *c,
			 uint64_t line, unsigned op, unsigned tag)
{
	struct sim_cache *top = c, *miss_c[SIM_MAX_LEVELS + 1];
	uint32_t *miss_s[SIM_MAX_LEVELS + 1];
	uint64_t miss_set[SIM_MAX_LEVELS + 1], l0_removed = h->l0_removed;
	int w = op == PPR_OP_STORE || op == PPR_OP_MODIFY;
	uint64_t dirty = (w && h->track_dirty) ? SIM_F_DIRTY : 0;
	unsigned d = 0;

	for (; c; c = c->below) {
		uint64_t set = set_of(c, line);
		uint32_t *s = set_at(c, set);
		int i = way_find(s, c->ways, line);

		c->st.accesses[op][tag]++;
		if (i >= 0) {
			uint32_t u = way_touch(c, set, s, (uint32_t)i);

			c->st.hits[op][tag]++;
			if (!d && dirty)
				s[c->ways + u] |= SIM_HI_DIRTY;
			break;
		}
		c->st.misses[op][tag]++;
		miss_c[d] = c;
		miss_s[d] = s;
		miss_set[d] = set;
		d++;
	}
	while (d--) {
		c = miss_c[d];
		fill_at(h, c, miss_set[d], miss_s[d], line, d ? 0 : dirty);
		c->st.bytes_from_below += c->line_size;
	}
	top->mru_line = line;
	top->mru_wok = w || !h->track_dirty;
	if (h->l0_removed != l0_removed &&
	    way_find(set_at(top, set_of(top, line)), top->ways, line) < 0)
		top->mru_line = SIM_LINE_NONE;
}

/*
 * The plain LRU path (h->plain_lru: every cache LRU with the modulo index,
 * and access_plain()'s conditions): no policy switches, the hit's move to
 * the front, the fill's shift and the eviction inline.  Same lookups,
 * fills and victims, in the same order, as access_plain().
 */

/* set_of() for the modulo index */
static inline __attribute__((always_inline)) uint64_t
set_mod(const struct sim_cache *c, uint64_t line)
{
	if (c->pow2)
		return line & c->setmask;
	if (c->fm && line <= UINT32_MAX)
		return (uint64_t)(((sim_u128)(c->fm * line) * c->nsets) >> 64);
	return line % c->nsets;
}

/* evict() for a plain LRU hierarchy: the victim vline left c */
static inline __attribute__((always_inline)) void
evict_plain(struct sim_hier *h, struct sim_cache *c, uint64_t vline,
	    uint32_t vdirty)
{
	c->st.evictions++;
	if (c->mru_line == vline)
		c->mru_line = SIM_LINE_NONE;
	if (c->nup && c->incl == SIM_INCL_INCLUSIVE) {
		/* back_invalidate() for LRU, modulo caches above */
		unsigned k;

		for (k = 0; k < c->nup; k++) {
			struct sim_cache *a = c->up[k];
			uint32_t *s = set_at(a, set_mod(a, vline));
			int i = way_find(s, a->ways, vline);

			if (i < 0)
				continue;
			vdirty |= s[a->ways + (uint32_t)i] >> 31;
			set_remove(s, a->ways, (uint32_t)i);
			if (a->mru_line == vline)
				a->mru_line = SIM_LINE_NONE;
			if (a->depth == 0)
				h->l0_removed++;
			c->st.back_invalidations++;
		}
	}
	if (vdirty) {
		c->st.writebacks++;
		c->st.bytes_to_below += c->line_size;
		write_arrive(h, c->below, vline, c->line_size);
	}
}

/*
 * One single-line reference of a plain LRU hierarchy (h->plain_lru),
 * from its first-level cache 'top' down: the lookups, fills and victims
 * of access_plain(), in the same order, without the statistics of the
 * demand access itself.  Returns the depth it hit at (the number of
 * levels of the chain if it went to memory); the caller counts accesses,
 * hits, misses and fill bytes from that (lru_flush).
 */
static inline __attribute__((always_inline)) unsigned
lru_access(struct sim_hier *h, struct sim_cache *top, uint64_t line, int w)
{
	struct sim_cache *c = top, *miss_c[SIM_MAX_LEVELS + 1];
	uint32_t *miss_s[SIM_MAX_LEVELS + 1];
	uint64_t l0_removed = h->l0_removed;
	uint32_t dirty = (w && h->track_dirty) ? SIM_HI_DIRTY : 0;
	uint32_t lo = (uint32_t)line, hi = (uint32_t)(line >> 32);
	unsigned d = 0, hd;

	do {
		uint32_t *s = set_at(c, set_mod(c, line));
		int i = way_find(s, c->ways, line);

		if (i >= 0) {
			if (!d)
				s[c->ways + (uint32_t)i] |= dirty;
			set_to_front(s, c->ways, (uint32_t)i);
			break;
		}
		miss_c[d] = c;
		miss_s[d] = s;
		d++;
		c = c->below;
	} while (c);
	hd = d;
	while (d--) {
		uint32_t *s = miss_s[d], ways, vlo, vhi;

		c = miss_c[d];
		ways = c->ways;
		vlo = s[ways - 1];
		vhi = s[2 * ways - 1];
		set_shift(s, ways);
		s[0] = lo;
		s[ways] = hi | (d ? 0 : dirty);
		if (vhi != SIM_HI_INVALID)
			evict_plain(h, c,
				    (uint64_t)(vhi & SIM_HI_LINE) << 32 | vlo,
				    vhi >> 31);
	}
	top->mru_line = line;
	top->mru_wok = w || !h->track_dirty;
	if (h->l0_removed != l0_removed &&
	    way_find(set_at(top, set_mod(top, line)), top->ways, line) < 0)
		top->mru_line = SIM_LINE_NONE;
	return hd;
}

/*
 * The plain LRU path is written once, as always-inline templates, and
 * instantiated for a few common shapes with the level count and every
 * level's associativity as constants (nl = 2 or 3: one chain L1 .. Lnl, no
 * split L1; ways wk at depth k), written out level by level so every set's
 * search and shift has a constant trip count; nl = 0 is the general
 * instance, which reads the chain and the ways from the caches.
 */

/* Back-invalidation of vline in cache a (depth k, ways constant) on
 * behalf of the inclusive cache c below it. */
static inline __attribute__((always_inline)) uint32_t
binv_t(struct sim_hier *h, struct sim_cache *c, struct sim_cache *a,
       unsigned k, uint32_t ways, uint64_t vline)
{
	uint32_t *s = a->tags + set_mod(a, vline) * 2 * ways, dirty;
	int i = way_find(s, ways, vline);

	if (i < 0)
		return 0;
	dirty = s[ways + (uint32_t)i] >> 31;
	set_remove(s, ways, (uint32_t)i);
	if (k == 0) {
		if (a->mru_line == vline)
			a->mru_line = SIM_LINE_NONE;
		h->l0_removed++;
	}
	c->st.back_invalidations++;
	return dirty;
}

/* The fill of 'line' (lo, hi with flags) into set s of cache c at depth d
 * of a shape, and the disposal of its victim (evict_plain(): c->up[] is
 * L1 .. L(d), in order, when there is no split L1). */
static inline __attribute__((always_inline)) void
fill_t(struct sim_hier *h, struct sim_cache *c, unsigned d, uint32_t *s,
       uint32_t ways, uint32_t lo, uint32_t hi, uint32_t w0, uint32_t w1)
{
	uint32_t vlo = s[ways - 1], vhi = s[2 * ways - 1], vdirty;
	uint64_t vline;

	set_shift(s, ways);
	s[0] = lo;
	s[ways] = hi;
	if (vhi == SIM_HI_INVALID)
		return;
	vline = (uint64_t)(vhi & SIM_HI_LINE) << 32 | vlo;
	vdirty = vhi >> 31;
	c->st.evictions++;
	if (d == 0 && c->mru_line == vline)
		c->mru_line = SIM_LINE_NONE;
	if (d > 0 && c->incl == SIM_INCL_INCLUSIVE) {
		vdirty |= binv_t(h, c, c->up[0], 0, w0, vline);
		if (d > 1)
			vdirty |= binv_t(h, c, c->up[1], 1, w1, vline);
	}
	if (vdirty) {
		c->st.writebacks++;
		c->st.bytes_to_below += c->line_size;
		write_arrive(h, c->below, vline, c->line_size);
	}
}

/* lru_access() for shape (nl, w0, w1, w2), nl = 2 or 3 */
static inline __attribute__((always_inline)) unsigned
lru_access_t(struct sim_hier *h, struct sim_cache *top, uint64_t line, int w,
	     unsigned nl, uint32_t w0, uint32_t w1, uint32_t w2)
{
	struct sim_cache *c0 = top, *c1 = c0->below, *c2 = NULL;
	uint32_t *s0, *s1 = NULL, *s2 = NULL;
	uint64_t l0_removed = h->l0_removed;
	uint32_t dirty = (w && h->track_dirty) ? SIM_HI_DIRTY : 0;
	uint32_t lo = (uint32_t)line, hi = (uint32_t)(line >> 32);
	unsigned hd = nl;
	int i;

	s0 = c0->tags + set_mod(c0, line) * 2 * w0;
	i = way_find(s0, w0, line);
	if (i >= 0) {
		s0[w0 + (uint32_t)i] |= dirty;
		set_to_front(s0, w0, (uint32_t)i);
		hd = 0;
	} else {
		s1 = c1->tags + set_mod(c1, line) * 2 * w1;
		i = way_find(s1, w1, line);
		if (i >= 0) {
			set_to_front(s1, w1, (uint32_t)i);
			hd = 1;
		} else if (nl > 2) {
			c2 = c1->below;
			s2 = c2->tags + set_mod(c2, line) * 2 * w2;
			i = way_find(s2, w2, line);
			if (i >= 0) {
				set_to_front(s2, w2, (uint32_t)i);
				hd = 2;
			}
		}
	}
	/* fills from the deepest level that missed up, as walk() */
	if (nl > 2 && hd > 2)
		fill_t(h, c2, 2, s2, w2, lo, hi, w0, w1);
	if (hd > 1)
		fill_t(h, c1, 1, s1, w1, lo, hi, w0, w1);
	if (hd > 0)
		fill_t(h, c0, 0, s0, w0, lo, hi | dirty, w0, w1);
	top->mru_line = line;
	top->mru_wok = w || !h->track_dirty;
	if (h->l0_removed != l0_removed &&
	    way_find(top->tags + set_mod(top, line) * 2 * w0, w0, line) < 0)
		top->mru_line = SIM_LINE_NONE;
	return hd;
}

/*
 * The demand counts of the plain LRU path: h->lru_n[op][tag][d] references
 * hit at depth d of their chain (d = chain length: memory).  Each level of
 * the chain saw the ones that reached it, hit the ones that stopped there,
 * missed and filled the others.
 */
static void lru_flush(struct sim_hier *h)
{
	unsigned op, tag, d;

	for (op = 0; op < PPR_NOPS; op++) {
		struct sim_cache *top = (op == PPR_OP_IFETCH && h->l1i) ?
					h->l1i : h->l1d;

		for (tag = 0; tag < PPR_NTAGS; tag++) {
			unsigned ot = op * PPR_NTAGS + tag;
			uint64_t *n = h->lru_n[ot], reach = 0;
			struct sim_cache *c;

			if (!(h->lru_used >> ot & 1))
				continue;
			for (d = 0; d <= SIM_MAX_LEVELS; d++)
				reach += n[d];
			for (c = top, d = 0; c; c = c->below, d++) {
				c->st.accesses[op][tag] += reach;
				c->st.hits[op][tag] += n[d];
				reach -= n[d];
				c->st.misses[op][tag] += reach;
				c->st.bytes_from_below += reach * c->line_size;
			}
			memset(n, 0, (SIM_MAX_LEVELS + 1) * sizeof(*n));
		}
	}
	h->lru_used = 0;
}

static void access_slow(struct sim_hier *h, const struct ppr_access *a);
static inline void host_prefetch_sets(const struct sim_hier *h,
				      const struct ppr_access *a);

/*
 * Ask the host for the sets of the reference PF_AHEAD places ahead (see
 * host_prefetch_sets), unless it is near this one (the host's own
 * prefetcher finds those).
 */
#define PF_AHEAD 16

/* size, op and tag of a reference as one number (the padding left out) */
static inline __attribute__((always_inline)) uint64_t
ref_meta(const struct ppr_access *r)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t m;

	memcpy(&m, &r->size, sizeof(m));
	return m << 16;
#else
	return (uint64_t)r->size | (uint64_t)r->op << 32 |
	       (uint64_t)r->tag << 40;
#endif
}

/*
 * sim_hier_access_batch() for a plain LRU hierarchy.  A reference inside
 * the line its first-level cache holds most recent (and, for a write,
 * already dirty or not tracked) is a hit that changes nothing, and so is
 * every following reference of the same op and tag inside that line: a
 * run is counted in one addition.  References that straddle lines take
 * the general walk.
 */
static inline __attribute__((always_inline)) void
batch_lru_t(struct sim_hier *h, const struct ppr_access *a, size_t n,
	    unsigned nl, uint32_t w0, uint32_t w1, uint32_t w2)
{
	unsigned shift = h->shift;
	uint64_t ls = (uint64_t)1 << shift, lmask = ls - 1;
	const struct ppr_access *r = a, *e = a + n, *p;
	unsigned used = 0;

	while (r < e) {
		unsigned ot = (unsigned)(r->op & 3) << 1 | (r->tag & 1);
		uint64_t *cnt = h->lru_n[ot];
		struct sim_cache *top = (!nl && ot >> 1 == PPR_OP_IFETCH &&
					 h->l1i) ? h->l1i : h->l1d;
		uint64_t line = r->addr >> shift, size = r->size + !r->size;
		int w = r->op & 1;   /* PPR_OP_STORE, PPR_OP_MODIFY */
		uint64_t lo, lim, meta;

		/* (size 0 counts as 1 byte; a reference past the end of the
		 * address space straddles too) */
		if (__builtin_expect((r->addr & lmask) + size > ls, 0)) {
			access_slow(h, r);
			r++;
			continue;
		}
		used |= 1u << ot;
		if (line != top->mru_line || (w && !top->mru_wok)) {
			if (h->nbig && e - r > PF_AHEAD &&
			    (r[PF_AHEAD].addr >> shift) - line + 4 > 8)
				host_prefetch_sets(h, r + PF_AHEAD);
			cnt[nl ? lru_access_t(h, top, line, w, nl, w0, w1, w2) :
				 lru_access(h, top, line, w)]++;
			if (top->mru_line != line) {
				r++;
				continue;
			}
		} else {
			cnt[0]++;
		}
		/* the run of references with the same size, op and tag
		 * inside the line (with the size fixed, one comparison bounds
		 * the address), two per step */
		lo = line << shift;
		lim = ls - size;
		meta = ref_meta(r);
		p = r + 1;
		if (p < e && p->addr - lo <= lim && ref_meta(p) == meta) {
			for (p++; e - p >= 2; p += 2) {
				uint64_t x0 = p[0].addr - lo;
				uint64_t x1 = p[1].addr - lo;

				if ((x0 > x1 ? x0 : x1) > lim ||
				    ((ref_meta(p) ^ meta) |
				     (ref_meta(p + 1) ^ meta)))
					break;
			}
			if (p < e && p->addr - lo <= lim &&
			    ref_meta(p) == meta)
				p++;
		}
		cnt[0] += (uint64_t)(p - r) - 1;
		r = p;
	}
	h->lru_used |= used;
	lru_flush(h);
}

/* the instances (sim_hier_new picks one: h->lru_batch) */
static void batch_lru_any(struct sim_hier *h, const struct ppr_access *a,
			  size_t n)
{
	batch_lru_t(h, a, n, 0, 0, 0, 0);
}

static void batch_lru_8_8_20(struct sim_hier *h, const struct ppr_access *a,
			     size_t n)
{
	batch_lru_t(h, a, n, 3, 8, 8, 20);  /* Haswell */
}

static void batch_lru_8_8_16(struct sim_hier *h, const struct ppr_access *a,
			     size_t n)
{
	batch_lru_t(h, a, n, 3, 8, 8, 16);  /* dinero-p2 */
}

static void batch_lru_8_8(struct sim_hier *h, const struct ppr_access *a,
			  size_t n)
{
	batch_lru_t(h, a, n, 2, 8, 8, 0);
}

static void access_slow(struct sim_hier *h, const struct ppr_access *a)
{
	unsigned op = a->op & 3, tag = a->tag & 1;
	struct sim_cache *c = (op == PPR_OP_IFETCH && h->l1i) ? h->l1i : h->l1d;
	uint64_t size = a->size ? a->size : 1;
	uint64_t first = a->addr >> h->shift, last, line, lines[2];
	uint64_t lmask = ((uint64_t)1 << h->shift) - 1;
	uint32_t bytes[2];
	int mode = WALK_DEMAND;

	if (op == PPR_OP_STORE || op == PPR_OP_MODIFY)
		mode |= WALK_WRITE;
	if (a->addr + (size - 1) < a->addr)
		last = h->max_line;
	else
		last = (a->addr + size - 1) >> h->shift;
	if (first == last && h->plain) {
		access_plain(h, c, first, op, tag);
		return;
	}
	if (first == last) {
		lines[0] = first;
		bytes[0] = (uint32_t)size;
		walk(h, c, lines, bytes, 1, op, tag, mode);
		return;
	}
	if (h->one && last == first + 1) {
		lines[0] = first;
		lines[1] = last;
		bytes[0] = (uint32_t)(lmask + 1 - (a->addr & lmask));
		bytes[1] = (uint32_t)(size - bytes[0]);
		walk(h, c, lines, bytes, 2, op, tag, mode);
		return;
	}
	for (line = first;; line++) {
		uint64_t lo = line == first ? a->addr & lmask : 0;
		uint64_t hi = line == last ? ((a->addr + size - 1) & lmask) :
					     lmask;

		lines[0] = line;
		bytes[0] = (uint32_t)(hi - lo + 1);
		walk(h, c, lines, bytes, 1, op, tag, mode);
		if (line == last)
			break;
	}
}

/* op and tag of a reference as one number, to compare runs */
static inline unsigned optag(const struct ppr_access *a)
{
	return (unsigned)a->op << 8 | a->tag;
}

/*
 * The fast path: n references from a[0] on that hit the line the last
 * demand access left most recent in their first-level cache; returns how
 * many it took (0: a[0] needs the slow path).  A run of the same op and
 * tag is counted in one go.  A reference of size 0 counts as 1 byte, as
 * in the slow path.
 */
static inline size_t access_fast(struct sim_hier *h,
				 const struct ppr_access *a, size_t n)
{
	unsigned op = a->op & 3, tag = a->tag & 1, ot;
	struct sim_cache *c = (op == PPR_OP_IFETCH && h->l1i) ? h->l1i : h->l1d;
	uint64_t lo, ls = c->line_size, off;
	size_t j;

	if (!h->fast_ok || c->mru_line == SIM_LINE_NONE ||
	    !(op == PPR_OP_LOAD || op == PPR_OP_IFETCH || c->mru_wok))
		return 0;
	lo = c->mru_line << h->shift;
	off = a->addr - lo;
	if (off >= ls || off + a->size > ls)
		return 0;
	ot = optag(a);
	for (j = 1; j < n; j++) {
		off = a[j].addr - lo;
		if (off >= ls || off + a[j].size > ls || optag(&a[j]) != ot)
			break;
	}
	c->st.accesses[op][tag] += j;
	c->st.hits[op][tag] += j;
	return j;
}

void sim_hier_access(struct sim_hier *h, const struct ppr_access *a)
{
	if (h->lru_batch) {
		h->lru_batch(h, a, 1);
		return;
	}
	if (!access_fast(h, a, 1))
		access_slow(h, a);
}

/*
 * Ask the host to load the sets that reference a will use below L1.  The
 * set of a line does not depend on the simulation state, so the sets of a
 * reference PF_AHEAD places ahead can be fetched while the current one is
 * simulated: large tag arrays (a 30 MiB L3 has 3.75 MiB of tags) then cost
 * memory bandwidth instead of one memory latency per level per reference.
 */

static inline void host_prefetch_sets(const struct sim_hier *h,
				      const struct ppr_access *a)
{
	uint64_t line = a->addr >> h->shift;
	unsigned k;

	for (k = 0; k < h->nbig; k++) {
		const struct sim_cache *c = h->big[k];
		const char *p = (const char *)set_at(c, set_of(c, line));
		size_t off, len = (size_t)c->ways * 2 * sizeof(*c->tags);

		for (off = 0; off < len; off += 64)
			__builtin_prefetch(p + off);
		__builtin_prefetch(p + len - 1);
	}
}

void sim_hier_access_batch(struct sim_hier *h, const struct ppr_access *a,
			   size_t n)
{
	size_t i = 0;

	if (h->lru_batch) {
		h->lru_batch(h, a, n);
		return;
	}
	while (i < n) {
		size_t k = access_fast(h, a + i, n - i);

		if (k) {
			i += k;
			continue;
		}
		/* (a nearby line's sets are found by the host's own
		 * prefetcher: skip the work for streams) */
		if (h->nbig && i + PF_AHEAD < n &&
		    (a[i + PF_AHEAD].addr >> h->shift) -
		    (a[i].addr >> h->shift) + 4 > 8)
			host_prefetch_sets(h, &a[i + PF_AHEAD]);
		access_slow(h, &a[i]);
		i++;
	}
}

static int sink_emit(void *ctx, const struct ppr_access *acc, size_t n)
{
	sim_hier_access_batch(ctx, acc, n);
	return 0;
}

struct ppr_sink sim_hier_sink(struct sim_hier *h)
{
	struct ppr_sink s = { .emit = sink_emit, .ctx = h };

	return s;
}

/* ---- construction -------------------------------------------------------- */

static unsigned log2u(uint64_t x)
{
	unsigned k = 0;

	while ((UINT64_C(1) << k) < x)
		k++;
	return k;
}

static void cache_reset(struct sim_cache *c)
{
	unsigned k;

	/* lo and hi all ones: every way invalid */
	memset(c->tags, 0xFF, (size_t)(c->nsets * c->ways) * 2 *
			      sizeof(*c->tags));
	if (c->plru)
		memset(c->plru, 0, c->nsets * sizeof(*c->plru));
	memset(&c->st, 0, sizeof(c->st));
	c->rng = c->cfg.seed ? c->cfg.seed : DEFAULT_SEED;
	c->psel = DIP_PSEL_MAX / 2;
	c->bip_n = 0;
	c->mru_line = SIM_LINE_NONE;
	c->mru_wok = 0;
	for (k = 0; k < SIM_NSTREAMS; k++) {
		c->streams[k].last = SIM_LINE_NONE;
		c->streams[k].next = 0;
	}
	c->stream_rr = 0;
	if (c->c3)
		sim_3c_reset(c->c3);
}

static void cache_init(struct sim_cache *c, const struct sim_level_config *lc,
		       unsigned depth, int classify)
{
	memset(c, 0, sizeof(*c));
	c->cfg = *lc;
	c->nsets = lc->sets;
	c->ways = lc->ways;
	c->line_size = lc->line_size;
	c->depth = depth;
	c->repl = lc->repl;
	c->lru64 = (uint32_t)(lc->lru_sets_share * 64 + 0.5);
	c->incl = lc->inclusion;
	c->write = lc->write;
	c->pf = lc->prefetch;
	c->index = lc->index;
	c->pf_degree = lc->pf_degree ? lc->pf_degree : 1;
	c->pf_distance = lc->pf_distance ? lc->pf_distance : 1;
	c->pow2 = (c->nsets & (c->nsets - 1)) == 0;
	c->setmask = c->nsets - 1;
	if (!c->pow2 && c->nsets <= UINT32_MAX)
		c->fm = UINT64_MAX / c->nsets + 1;
	c->tags = xaligned_alloc((size_t)(c->nsets * c->ways) * 2 *
				 sizeof(*c->tags));
	if (c->repl == SIM_REPL_PLRU)
		c->plru = xcalloc((size_t)c->nsets, sizeof(*c->plru));
	if (classify)
		c->c3 = sim_3c_new(c->nsets * c->ways);
	cache_reset(c);
}

struct sim_hier *sim_hier_new(const struct sim_config *cfg,
			      struct ppr_err *err)
{
	struct sim_hier *h;
	unsigned k, n = 0;

	if (sim_config_check(cfg, err))
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->cfg = *cfg;
	h->shift = log2u(cfg->levels[0].line_size);
	h->max_line = UINT64_MAX >> h->shift;
	h->one = cfg->straddle == SIM_STRADDLE_ONE;
	h->track_dirty = cfg->writebacks != 0;
	cache_init(&h->caches[n], &cfg->levels[0], 0, cfg->classify_3c);
	h->l1d = &h->caches[n];
	h->by_index[n++] = h->l1d;
	if (cfg->split_l1) {
		cache_init(&h->caches[n], &cfg->l1i, 0, cfg->classify_3c);
		h->l1i = &h->caches[n];
		h->by_index[n++] = h->l1i;
	}
	for (k = 1; k < cfg->nlevels; k++) {
		cache_init(&h->caches[n], &cfg->levels[k], k,
			   cfg->classify_3c);
		h->by_index[n] = &h->caches[n];
		n++;
	}
	h->ncaches = n;
	/* link each cache to the next deeper one */
	for (k = 0; k < n; k++) {
		struct sim_cache *c = h->by_index[k];
		unsigned j;

		c->below = NULL;
		c->nup = 0;
		for (j = 0; j < n; j++) {
			if (h->by_index[j]->depth == c->depth + 1)
				c->below = h->by_index[j];
			if (h->by_index[j]->depth < c->depth)
				c->up[c->nup++] = h->by_index[j];
		}
	}
	/* caches whose tags outgrow a host L1 get their sets prefetched */
	for (k = 0; k < n; k++) {
		struct sim_cache *c = h->by_index[k];

		if (c->nsets * c->ways * 2 * sizeof(*c->tags) > 64 * 1024)
			h->big[h->nbig++] = c;
	}
	h->plain = !cfg->classify_3c;
	for (k = 0; k < n; k++) {
		struct sim_cache *c = h->by_index[k];

		if (c->pf != SIM_PF_NONE || c->incl == SIM_INCL_EXCLUSIVE ||
		    c->write != SIM_WRITE_BACK_ALLOCATE ||
		    c->repl == SIM_REPL_DIP || c->repl == SIM_REPL_SLRU)
			h->plain = 0;
	}
	h->plain_lru = h->plain;
	for (k = 0; k < n; k++)
		if (h->by_index[k]->repl != SIM_REPL_LRU ||
		    h->by_index[k]->index != SIM_INDEX_MODULO)
			h->plain_lru = 0;
	if (h->plain_lru) {
		static const struct {
			unsigned nl;
			uint32_t w[3];
			void (*fn)(struct sim_hier *, const struct ppr_access *,
				   size_t);
		} shapes[] = {
			{ 3, { 8, 8, 20 }, batch_lru_8_8_20 },
			{ 3, { 8, 8, 16 }, batch_lru_8_8_16 },
			{ 2, { 8, 8, 0 }, batch_lru_8_8 },
		};
		size_t s;

		h->lru_batch = batch_lru_any;
		for (s = 0; !h->l1i && s < sizeof(shapes) / sizeof(shapes[0]);
		     s++) {
			int same = shapes[s].nl == cfg->nlevels;

			for (k = 0; same && k < cfg->nlevels; k++)
				same = h->by_index[k]->ways == shapes[s].w[k];
			if (same) {
				h->lru_batch = shapes[s].fn;
				break;
			}
		}
	}
	h->fast_ok = !cfg->classify_3c && h->l1d->pf == SIM_PF_NONE &&
		     (!h->l1i || h->l1i->pf == SIM_PF_NONE);
	return h;
}

void sim_hier_free(struct sim_hier *h)
{
	unsigned k;

	if (!h)
		return;
	for (k = 0; k < h->ncaches; k++) {
		free(h->by_index[k]->tags);
		free(h->by_index[k]->plru);
		sim_3c_free(h->by_index[k]->c3);
	}
	free(h);
}

void sim_hier_reset(struct sim_hier *h)
{
	unsigned k;

	for (k = 0; k < h->ncaches; k++)
		cache_reset(h->by_index[k]);
}

unsigned sim_hier_level_count(const struct sim_hier *h)
{
	return h->ncaches;
}

const struct sim_level_config *sim_hier_level_config(const struct sim_hier *h,
						     unsigned level)
{
	return level < h->ncaches ? &h->by_index[level]->cfg : NULL;
}

const struct sim_level_stats *sim_hier_level_stats(const struct sim_hier *h,
						   unsigned level)
{
	return level < h->ncaches ? &h->by_index[level]->st : NULL;
}

double sim_hier_bytes_per_line(const struct sim_hier *h)
{
	uint64_t bytes = sizeof(*h), lines = 0;
	unsigned k;

	for (k = 0; k < h->ncaches; k++) {
		const struct sim_cache *c = h->by_index[k];

		lines += c->nsets * c->ways;
		bytes += c->nsets * c->ways * 2 * sizeof(*c->tags);
		if (c->plru)
			bytes += c->nsets * sizeof(*c->plru);
		if (c->c3)
			bytes += sim_3c_bytes(c->c3);
	}
	return lines ? (double)bytes / (double)lines : 0.0;
}
