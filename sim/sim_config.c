/*
 * sim_config.c - validation of a hierarchy config, policy names, counter sums.
 *
 * Notes:
 *   - What the simulator accepts (sim.c's Notes say what it then models):
 *     1..SIM_MAX_LEVELS levels; every cache has sets >= 1, ways >= 1, a
 *     power-of-two line size between 8 B and 1 MiB, the same line size as
 *     the others, and size = sets x ways x line size.  Tree-PLRU needs a
 *     power-of-two way count of at most 64.  The first level (and L1I)
 *     cannot be exclusive; an exclusive level cannot prefetch and the
 *     level above it must be write-back (its victims fill it); the straddle
 *     convention SIM_STRADDLE_ONE (cachegrind's) needs no exclusive level.
 *   - pf_degree and pf_distance of 0 mean 1.
 */
#include <stdio.h>

#include "sim/sim_int.h"

static int check_level(const struct sim_level_config *l, const char *what,
		       uint32_t line_size, int first, struct ppr_err *err)
{
	uint64_t bytes;

	if (l->sets < 1 || l->ways < 1)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: sets and ways must be positive", what);
	if (l->line_size < 8 || l->line_size > (1u << 20) ||
	    (l->line_size & (l->line_size - 1)))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: line size %u is not a power of two "
				   "in 8..1048576", what, l->line_size);
	if (l->line_size != line_size)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: line size %u differs from the first "
				   "level's %u", what, l->line_size, line_size);
	if (l->sets > UINT64_MAX / l->ways / l->line_size)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: size overflows", what);
	bytes = l->sets * l->ways * l->line_size;
	if (bytes != l->size)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: size %llu is not sets x ways x line "
				   "size = %llu", what,
				   (unsigned long long)l->size,
				   (unsigned long long)bytes);
	if (bytes / l->line_size > (UINT64_C(1) << 34))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: more than 2^34 lines", what);
	if ((unsigned)l->repl > SIM_REPL_SLRU ||
	    (unsigned)l->inclusion > SIM_INCL_EXCLUSIVE ||
	    (unsigned)l->write > SIM_WRITE_THROUGH_NOALLOCATE ||
	    (unsigned)l->prefetch > SIM_PF_STREAM ||
	    (unsigned)l->index > SIM_INDEX_HASH)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: unknown policy value", what);
	if (!(l->lru_sets_share >= 0 && l->lru_sets_share <= 1))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: LRU sets' share %g is not within 0..1",
				   what, l->lru_sets_share);
	if (l->repl == SIM_REPL_PLRU &&
	    (l->ways > 64 || (l->ways & (l->ways - 1))))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: tree-PLRU needs a power-of-two way "
				   "count <= 64, not %u", what, l->ways);
	if (first && l->inclusion == SIM_INCL_EXCLUSIVE)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: the first level cannot be exclusive",
				   what);
	if (l->inclusion == SIM_INCL_EXCLUSIVE && l->prefetch != SIM_PF_NONE)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: an exclusive level cannot prefetch",
				   what);
	if (l->pf_degree > 64 || l->pf_distance > 4096)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "%s: prefetch degree > 64 or distance > "
				   "4096", what);
	return 0;
}

int sim_config_check(const struct sim_config *cfg, struct ppr_err *err)
{
	char what[64];
	unsigned k;
	int rc;

	if (!cfg || cfg->nlevels < 1 || cfg->nlevels > SIM_MAX_LEVELS)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "a hierarchy has 1 to %d levels, not %u",
				   SIM_MAX_LEVELS, cfg ? cfg->nlevels : 0);
	for (k = 0; k < cfg->nlevels; k++) {
		const struct sim_level_config *l = &cfg->levels[k];

		snprintf(what, sizeof(what), "level %u (%.*s)", k + 1,
			 SIM_NAME_MAX, l->name[0] ? l->name : "?");
		rc = check_level(l, what, cfg->levels[0].line_size, k == 0,
				 err);
		if (rc)
			return rc;
		if (cfg->straddle == SIM_STRADDLE_ONE &&
		    l->inclusion == SIM_INCL_EXCLUSIVE)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "%s: cachegrind's straddle "
					   "convention needs no exclusive "
					   "level", what);
	}
	for (k = 1; k < cfg->nlevels; k++) {
		if (cfg->levels[k].inclusion != SIM_INCL_EXCLUSIVE)
			continue;
		if (cfg->levels[k - 1].write != SIM_WRITE_BACK_ALLOCATE ||
		    (k == 1 && cfg->split_l1 &&
		     cfg->l1i.write != SIM_WRITE_BACK_ALLOCATE))
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "level %u (%.*s): the level above "
					   "an exclusive level must be "
					   "write-back", k + 1, SIM_NAME_MAX,
					   cfg->levels[k].name);
	}
	if (cfg->split_l1) {
		rc = check_level(&cfg->l1i, "L1I", cfg->levels[0].line_size, 1,
				 err);
		if (rc)
			return rc;
	}
	if (cfg->classify_3c) {
		for (k = 0; k < cfg->nlevels; k++)
			if (cfg->levels[k].sets * cfg->levels[k].ways >=
			    UINT32_MAX)
				return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
						   "level %u: 3C classification "
						   "needs fewer than 2^32 lines",
						   k + 1);
	}
	if ((unsigned)cfg->straddle > SIM_STRADDLE_ONE)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "unknown straddle mode %u",
				   (unsigned)cfg->straddle);
	return 0;
}

const char *sim_repl_name(enum sim_repl r)
{
	static const char *const names[] = { "lru", "plru", "fifo", "random",
					     "dip", "slru" };

	return (unsigned)r < 6 ? names[r] : "?";
}

const char *sim_incl_name(enum sim_incl i)
{
	static const char *const names[] = { "nine", "inclusive",
					     "exclusive" };

	return (unsigned)i < 3 ? names[i] : "?";
}

const char *sim_write_name(enum sim_write w)
{
	static const char *const names[] = { "write-back",
					     "write-through" };

	return (unsigned)w < 2 ? names[w] : "?";
}

const char *sim_prefetch_name(enum sim_prefetch p)
{
	static const char *const names[] = { "none", "next-line", "stream" };

	return (unsigned)p < 3 ? names[p] : "?";
}

uint64_t sim_stat_sum(const uint64_t c[PPR_NOPS][PPR_NTAGS])
{
	uint64_t s = 0;
	unsigned o, t;

	for (o = 0; o < PPR_NOPS; o++)
		for (t = 0; t < PPR_NTAGS; t++)
			s += c[o][t];
	return s;
}

uint64_t sim_stat_op(const uint64_t c[PPR_NOPS][PPR_NTAGS], enum ppr_op op)
{
	uint64_t s = 0;
	unsigned t;

	if ((unsigned)op >= PPR_NOPS)
		return 0;
	for (t = 0; t < PPR_NTAGS; t++)
		s += c[op][t];
	return s;
}

uint64_t sim_stat_tag(const uint64_t c[PPR_NOPS][PPR_NTAGS], enum ppr_tag t)
{
	uint64_t s = 0;
	unsigned o;

	if ((unsigned)t >= PPR_NTAGS)
		return 0;
	for (o = 0; o < PPR_NOPS; o++)
		s += c[o][t];
	return s;
}
