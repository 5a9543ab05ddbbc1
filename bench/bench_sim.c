/*
 * bench_sim.c - simulated accesses per second of the cache simulator.
 *
 * The hierarchy is the paper's Haswell (ppr-model.md section 3), built in
 * code: L1D 32 KiB 8-way, L2 256 KiB 8-way, L3 30 MiB 20-way (24,576 sets)
 * inclusive, 64 B lines, LRU, write-back, prefetch off.  Workloads (issue
 * 2): seq = 50,000,000 loads of 8 B at 0x10000000 + 8*i; rand = 20,000,000
 * loads at 0x10000000 + 8*(xs() >> 41), xorshift64* seeded
 * 0x9E3779B97F4A7C15.  References are generated in memory in batches of
 * 16384 and fed to sim_hier_access_batch(); the clocks run only around
 * the simulator calls, so generation is not counted.  Two clocks: wall
 * (CLOCK_MONOTONIC) and the thread's CPU time (CLOCK_THREAD_CPUTIME_ID),
 * which leaves out the time this process waits for a core on a shared,
 * loaded machine (the load average is printed).  Prints min and median
 * of 5 runs, and the simulator's bytes of state per simulated cache line.
 * Figures only; nothing is asserted.  For instruction counts under
 * valgrind --tool=callgrind, BENCH_SIM_SCALE=k divides the reference
 * counts by k, BENCH_SIM_RUNS=r sets the number of runs (1..5) and
 * BENCH_SIM_ONLY=seq|rand runs one workload.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"

#define BATCH 16384
#define RUNS 5

static uint64_t xs_state;

static uint64_t xs(void)
{
	uint64_t x = xs_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	xs_state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

static double clock_s(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void level(struct sim_level_config *l, const char *name,
		  uint64_t size, uint32_t ways, enum sim_incl incl)
{
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->size = size;
	l->ways = ways;
	l->line_size = 64;
	l->sets = size / 64 / ways;
	l->inclusion = incl;
}

/* seconds (wall, CPU) spent inside the simulator for one run */
static void run(struct sim_hier *h, int random, uint64_t n,
		uint64_t *l3_misses, double *wall, double *cpu)
{
	static struct ppr_access buf[BATCH];
	uint64_t i = 0;

	*wall = *cpu = 0;
	sim_hier_reset(h);
	xs_state = UINT64_C(0x9E3779B97F4A7C15);
	while (i < n) {
		size_t k = 0;
		double w0, c0;

		for (; k < BATCH && i < n; k++, i++) {
			uint64_t off = random ? xs() >> 41 : i;

			buf[k] = (struct ppr_access){
				.addr = 0x10000000 + 8 * off, .size = 8,
				.op = PPR_OP_LOAD, .tag = PPR_TAG_REGULAR };
		}
		w0 = clock_s(CLOCK_MONOTONIC);
		c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
		sim_hier_access_batch(h, buf, k);
		*cpu += clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
		*wall += clock_s(CLOCK_MONOTONIC) - w0;
	}
	*l3_misses = sim_stat_sum(sim_hier_level_stats(h, 2)->misses);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	static const struct {
		const char *name;
		int random;
		uint64_t n;
		double target;
	} loads[] = {
		{ "seq", 0, 50000000, 350e6 },
		{ "rand", 1, 20000000, 25e6 },
	};
	struct sim_config c = { 0 };
	struct ppr_err e = { 0 };
	struct sim_hier *h;
	size_t w;
	const char *env;
	uint64_t scale = 1;
	int runs = RUNS;

	env = getenv("BENCH_SIM_SCALE");
	if (env && strtoull(env, NULL, 10) > 0)
		scale = strtoull(env, NULL, 10);
	env = getenv("BENCH_SIM_RUNS");
	if (env && strtol(env, NULL, 10) >= 1 &&
	    strtol(env, NULL, 10) <= RUNS)
		runs = (int)strtol(env, NULL, 10);
	c.nlevels = 3;
	level(&c.levels[0], "L1D", 32768, 8, SIM_INCL_NINE);
	level(&c.levels[1], "L2", 262144, 8, SIM_INCL_NINE);
	level(&c.levels[2], "L3", 30u << 20, 20, SIM_INCL_INCLUSIVE);
	c.writebacks = 1;
	h = sim_hier_new(&c, &e);
	if (!h) {
		fprintf(stderr, "bench_sim: %s\n", e.msg);
		return 1;
	}
	printf("cache simulator, Haswell hierarchy (L1D 32K/8, L2 256K/8, "
	       "L3 30M/20 inclusive, 64 B, LRU, no prefetch)\n");
	printf("state: %.2f bytes per simulated cache line\n",
	       sim_hier_bytes_per_line(h));
	{
		double la[3];

		if (getloadavg(la, 3) == 3)
			printf("load average %.2f (this machine has %ld "
			       "cores online)\n", la[0],
			       sysconf(_SC_NPROCESSORS_ONLN));
	}
	for (w = 0; w < sizeof(loads) / sizeof(loads[0]); w++) {
		double wall[RUNS], cpu[RUNS];
		uint64_t l3 = 0, n = loads[w].n / scale;
		int r;

		env = getenv("BENCH_SIM_ONLY");
		if (env && strcmp(env, loads[w].name) != 0)
			continue;
		for (r = 0; r < runs; r++) {
			double tw, tc;

			run(h, loads[w].random, n, &l3, &tw, &tc);
			wall[r] = (double)n / tw;
			cpu[r] = (double)n / tc;
		}
		qsort(wall, (size_t)runs, sizeof(wall[0]), cmp_double);
		qsort(cpu, (size_t)runs, sizeof(cpu[0]), cmp_double);
		printf("%-4s %llu accesses (L3 misses %llu), target >= %.0f "
		       "M/s\n", loads[w].name, (unsigned long long)n,
		       (unsigned long long)l3, loads[w].target / 1e6);
		printf("     wall clock: min %.1f M/s, median %.1f M/s, max "
		       "%.1f M/s\n", wall[0] / 1e6, wall[runs / 2] / 1e6,
		       wall[runs - 1] / 1e6);
		printf("     CPU time:   min %.1f M/s, median %.1f M/s, max "
		       "%.1f M/s\n", cpu[0] / 1e6, cpu[runs / 2] / 1e6,
		       cpu[runs - 1] / 1e6);
	}
	sim_hier_free(h);
	return 0;
}
