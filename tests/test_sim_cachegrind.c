/*
 * test_sim_cachegrind.c - the simulator in cachegrind's configuration
 * against valgrind's cachegrind on a real program.
 *
 * The program is this binary run with --child: a small CSR-like kernel
 * (indirect loads, stores, read-modify-writes, straddling loads).  It is
 * run twice under valgrind: once with --tool=lackey --trace-mem=yes (the
 * references, replayed through sim) and once with --tool=cachegrind
 * --cache-sim=yes (the reference counts).  The sim config is
 * machines/compat/cachegrind.json's: split I1/D1 32 KiB 8-way, LL 32 MiB
 * 16-way, 64 B lines, LRU, NINE, no write-backs, cachegrind's straddle
 * convention; a modify counts as a read (Dr = LOAD + MODIFY), see
 * sim/README.md.  Every counter must agree within 0.1%.  Skips when
 * valgrind is missing, under sanitizers, or when already under valgrind.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "tests/t.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#else
#define UNDER_ASAN 0
#endif

/* ---- the child program --------------------------------------------------- */

static volatile uint64_t sink;

static int child(void)
{
	enum { N = 20000, NNZ = 5 };
	uint32_t *col = malloc(N * NNZ * sizeof(*col));
	double *val = malloc(N * NNZ * sizeof(*val));
	double *x = malloc(N * sizeof(*x)), *y = malloc(N * sizeof(*y));
	unsigned char *raw = malloc(64 * 1024 + 64);
	volatile uint64_t *cnt = malloc(4096 * sizeof(*cnt));
	uint64_t s = 88172645463325252u, sum = 0;
	int i, k;

	if (!col || !val || !x || !y || !raw || !cnt)
		return 1;
	for (i = 0; i < N; i++)
		x[i] = i;
	for (i = 0; i < N * NNZ; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		col[i] = (uint32_t)(s % N);
		val[i] = 1.0 / (i + 1);
	}
	for (i = 0; i < 4096; i++)
		cnt[i] = 0;
	for (i = 0; i < N; i++) {
		double t = 0;

		for (k = 0; k < NNZ; k++)
			t += val[i * NNZ + k] * x[col[i * NNZ + k]];
		y[i] = t;
		/* one read-modify-write instruction ('M' in lackey) */
#if defined(__x86_64__)
		__asm__ volatile("addq $1, %0"
				 : "+m"(cnt[col[i * NNZ] % 4096]));
#else
		cnt[col[i * NNZ] % 4096] += 1;
#endif
	}
	memset(raw, 1, 64 * 1024 + 64);
	__asm__ volatile("" ::: "memory");   /* really load raw below */
	for (i = 0; i < 1000; i++) {   /* 8-byte loads straddling lines */
		uint64_t v;

		memcpy(&v, raw + i * 64 + 60, 8);
		sum += v;
	}
	sink = sum + (uint64_t)y[N - 1];
	free(col);
	free(val);
	free(x);
	free(y);
	free(raw);
	free((void *)cnt);
	return 0;
}

/* ---- the parent: replay and compare ------------------------------------- */

static void level(struct sim_level_config *l, const char *name,
		  uint64_t size, uint32_t ways)
{
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->size = size;
	l->ways = ways;
	l->line_size = 64;
	l->sets = size / 64 / ways;
}

/* "==123== D1  misses:   1,234  ( 1,000 rd   +  234 wr)" */
static uint64_t num(const char *p, const char **end)
{
	uint64_t v = 0;

	while (*p && (*p < '0' || *p > '9'))
		p++;
	while ((*p >= '0' && *p <= '9') || *p == ',') {
		if (*p != ',')
			v = v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	*end = p;
	return v;
}

struct cg {
	uint64_t ir, i1mr, ilmr, dr, dw, d1mr, d1mw, dlmr, dlmw;
	int found;
};

static void parse_cg_line(struct cg *c, const char *line)
{
	const char *p, *e;

	if ((p = strstr(line, "I   refs:"))) {
		c->ir = num(p + 9, &e);
		c->found++;
	} else if ((p = strstr(line, "I1  misses:"))) {
		c->i1mr = num(p + 11, &e);
	} else if ((p = strstr(line, "LLi misses:"))) {
		c->ilmr = num(p + 11, &e);
	} else if ((p = strstr(line, "D   refs:"))) {
		num(p + 9, &e);
		c->dr = num(e, &e);
		c->dw = num(e, &e);
	} else if ((p = strstr(line, "D1  misses:"))) {
		num(p + 11, &e);
		c->d1mr = num(e, &e);
		c->d1mw = num(e, &e);
	} else if ((p = strstr(line, "LLd misses:"))) {
		num(p + 11, &e);
		c->dlmr = num(e, &e);
		c->dlmw = num(e, &e);
	}
}

#define VG_CACHE "--I1=32768,8,64 --D1=32768,8,64 --LL=33554432,16,64"

static int run_parent(const char *self)
{
	struct sim_config cfg = { 0 };
	struct sim_hier *h;
	struct cg cg = { 0 };
	char cmd[4096], line[512];
	const struct sim_level_stats *d, *i1, *ll;
	uint64_t records = 0, bad = 0;
	FILE *f;

	if (system("valgrind --version >/dev/null 2>&1") != 0) {
		T_SKIP("valgrind is not installed");
		return t_done();
	}
	if (UNDER_ASAN) {
		T_SKIP("built with sanitizers: valgrind cannot run it");
		return t_done();
	}
	cfg.nlevels = 2;
	level(&cfg.levels[0], "D1", 32768, 8);
	cfg.split_l1 = 1;
	level(&cfg.l1i, "I1", 32768, 8);
	level(&cfg.levels[1], "LL", 33554432, 16);
	cfg.straddle = SIM_STRADDLE_ONE;
	cfg.writebacks = 0;
	h = sim_hier_new(&cfg, NULL);
	T_CHECK(h != NULL);
	if (!h)
		return t_done();

	snprintf(cmd, sizeof(cmd), "valgrind --tool=lackey --trace-mem=yes "
		 "--log-fd=1 '%s' --child 2>/dev/null", self);
	f = popen(cmd, "r");
	T_CHECK(f != NULL);
	if (!f)
		return t_done();
	while (fgets(line, sizeof(line), f)) {
		char kind;
		unsigned long long addr;
		unsigned size;
		struct ppr_access a = { 0 };

		if (line[0] == '=')
			continue;
		if (sscanf(line, " %c %llx,%u", &kind, &addr, &size) != 3) {
			bad++;
			continue;
		}
		a.addr = addr;
		a.size = size;
		switch (kind) {
		case 'I': a.op = PPR_OP_IFETCH; break;
		case 'L': a.op = PPR_OP_LOAD; break;
		case 'S': a.op = PPR_OP_STORE; break;
		case 'M': a.op = PPR_OP_MODIFY; break;
		default: bad++; continue;
		}
		sim_hier_access(h, &a);
		records++;
	}
	T_CHECK(pclose(f) == 0);
	T_CHECK(records > 1000000);
	T_EQ_U64(bad, 0);

	snprintf(cmd, sizeof(cmd), "valgrind --tool=cachegrind --cache-sim=yes "
		 VG_CACHE " --cachegrind-out-file=/dev/null '%s' --child "
		 "2>&1 >/dev/null", self);
	f = popen(cmd, "r");
	T_CHECK(f != NULL);
	if (!f)
		return t_done();
	while (fgets(line, sizeof(line), f))
		parse_cg_line(&cg, line);
	T_CHECK(pclose(f) == 0);
	T_CHECK(cg.found == 1);

	d = sim_hier_level_stats(h, 0);
	i1 = sim_hier_level_stats(h, 1);
	ll = sim_hier_level_stats(h, 2);
	{
		const struct {
			const char *name;
			uint64_t sim, cg;
		} rows[] = {
			{ "I refs", sim_stat_sum(i1->accesses), cg.ir },
			{ "I1mr", sim_stat_sum(i1->misses), cg.i1mr },
			{ "ILmr", sim_stat_op(ll->misses, PPR_OP_IFETCH),
			  cg.ilmr },
			{ "Dr", sim_stat_op(d->accesses, PPR_OP_LOAD) +
				sim_stat_op(d->accesses, PPR_OP_MODIFY), cg.dr },
			{ "Dw", sim_stat_op(d->accesses, PPR_OP_STORE), cg.dw },
			{ "D1mr", sim_stat_op(d->misses, PPR_OP_LOAD) +
				  sim_stat_op(d->misses, PPR_OP_MODIFY),
			  cg.d1mr },
			{ "D1mw", sim_stat_op(d->misses, PPR_OP_STORE),
			  cg.d1mw },
			{ "DLmr", sim_stat_op(ll->misses, PPR_OP_LOAD) +
				  sim_stat_op(ll->misses, PPR_OP_MODIFY),
			  cg.dlmr },
			{ "DLmw", sim_stat_op(ll->misses, PPR_OP_STORE),
			  cg.dlmw },
		};
		size_t k;

		for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
			printf("  %-6s sim %12" PRIu64 "  cachegrind %12" PRIu64
			       "\n", rows[k].name, rows[k].sim, rows[k].cg);
			T_CHECK(rows[k].cg > 0);
			T_NEAR_AT(rows[k].sim, rows[k].cg, 1e-3, k);
		}
	}
#if defined(__x86_64__)
	/* the kernel did produce its modifies */
	T_CHECK(sim_stat_op(d->accesses, PPR_OP_MODIFY) >= 20000);
#endif
	sim_hier_free(h);
	return t_done();
}

int main(int argc, char **argv)
{
	const char *pre = getenv("LD_PRELOAD");

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child();
	if (pre && strstr(pre, "vgpreload")) {
		T_SKIP("already running under valgrind");
		return t_done();
	}
	return run_parent(argv[0]);
}
