/*
 * sim_3c.c - compulsory / capacity / conflict classification of misses.
 *
 * Notes:
 *   - Hill's 3C model, per cache, over the demand lines looked up at that
 *     cache: a miss is compulsory if the line was never looked up there
 *     before; otherwise a conflict miss if a fully-associative LRU cache of
 *     the same number of lines, fed the same demand lines, would have hit;
 *     otherwise a capacity miss.  Prefetches, write-backs and
 *     back-invalidations do not enter the shadow cache.
 *   - A reference that straddles two lines (SIM_STRADDLE_ONE) is
 *     classified by the first line that missed.
 *   - The shadow is a hash table over a fixed node pool (no allocation per
 *     access); the "seen" set grows by doubling, so it allocates, amortised,
 *     as new lines appear: the one allocation on the access path, and only
 *     when 3C is asked for.  Memory: 8 bytes per distinct line ever seen
 *     (x2 slack) plus 24 bytes per shadow line.
 */
#include <string.h>

#include "common/xalloc.h"
#include "sim/sim_int.h"

#define NIL UINT32_MAX

static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return x;
}

struct sim_3c *sim_3c_new(uint64_t lines)
{
	struct sim_3c *c = xcalloc(1, sizeof(*c));

	c->cap = lines;
	c->nbucket = 1;
	while (c->nbucket < 2 * lines)
		c->nbucket <<= 1;
	c->fa_line = xmalloc(lines * sizeof(*c->fa_line));
	c->fa_prev = xmalloc(lines * sizeof(*c->fa_prev));
	c->fa_next = xmalloc(lines * sizeof(*c->fa_next));
	c->fa_chain = xmalloc(lines * sizeof(*c->fa_chain));
	c->bucket = xmalloc(c->nbucket * sizeof(*c->bucket));
	c->seen_cap = 1024;
	c->seen = xcalloc(c->seen_cap, sizeof(*c->seen));
	sim_3c_reset(c);
	return c;
}

void sim_3c_free(struct sim_3c *c)
{
	if (!c)
		return;
	free(c->fa_line);
	free(c->fa_prev);
	free(c->fa_next);
	free(c->fa_chain);
	free(c->bucket);
	free(c->seen);
	free(c);
}

void sim_3c_reset(struct sim_3c *c)
{
	uint64_t i;

	for (i = 0; i < c->nbucket; i++)
		c->bucket[i] = NIL;
	memset(c->seen, 0, c->seen_cap * sizeof(*c->seen));
	c->seen_n = 0;
	c->n = 0;
	c->head = c->tail = NIL;
}

uint64_t sim_3c_bytes(const struct sim_3c *c)
{
	return sizeof(*c) + c->cap * (8 + 4 + 4 + 4) + c->nbucket * 4 +
	       c->seen_cap * 8;
}

/* Insert line into the seen set; return 1 if it was new. */
static int seen_add(struct sim_3c *c, uint64_t line)
{
	uint64_t key = line + 1, m, i;

	if (2 * (c->seen_n + 1) > c->seen_cap) {
		uint64_t *old = c->seen, oldcap = c->seen_cap, k;

		c->seen_cap *= 2;
		c->seen = xcalloc(c->seen_cap, sizeof(*c->seen));
		m = c->seen_cap - 1;
		for (k = 0; k < oldcap; k++) {
			if (!old[k])
				continue;
			for (i = mix(old[k]) & m; c->seen[i]; i = (i + 1) & m)
				;
			c->seen[i] = old[k];
		}
		free(old);
	}
	m = c->seen_cap - 1;
	for (i = mix(key) & m; c->seen[i]; i = (i + 1) & m)
		if (c->seen[i] == key)
			return 0;
	c->seen[i] = key;
	c->seen_n++;
	return 1;
}

static void list_unlink(struct sim_3c *c, uint32_t x)
{
	if (c->fa_prev[x] != NIL)
		c->fa_next[c->fa_prev[x]] = c->fa_next[x];
	else
		c->head = c->fa_next[x];
	if (c->fa_next[x] != NIL)
		c->fa_prev[c->fa_next[x]] = c->fa_prev[x];
	else
		c->tail = c->fa_prev[x];
}

static void list_push_front(struct sim_3c *c, uint32_t x)
{
	c->fa_prev[x] = NIL;
	c->fa_next[x] = c->head;
	if (c->head != NIL)
		c->fa_prev[c->head] = x;
	c->head = x;
	if (c->tail == NIL)
		c->tail = x;
}

int sim_3c_touch(struct sim_3c *c, uint64_t line, int *first)
{
	uint64_t b = mix(line) & (c->nbucket - 1);
	uint32_t x, *pp;

	*first = seen_add(c, line);
	for (x = c->bucket[b]; x != NIL; x = c->fa_chain[x]) {
		if (c->fa_line[x] == line) {
			if (c->head != x) {
				list_unlink(c, x);
				list_push_front(c, x);
			}
			return 1;
		}
	}
	if (c->n < c->cap) {
		x = (uint32_t)c->n++;
	} else {
		uint64_t ob;

		x = c->tail;
		list_unlink(c, x);
		ob = mix(c->fa_line[x]) & (c->nbucket - 1);
		for (pp = &c->bucket[ob]; *pp != x; pp = &c->fa_chain[*pp])
			;
		*pp = c->fa_chain[x];
	}
	c->fa_line[x] = line;
	c->fa_chain[x] = c->bucket[b];
	c->bucket[b] = x;
	list_push_front(c, x);
	return 0;
}
