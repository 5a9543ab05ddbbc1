/*
 * cmd_machine.c - `ppr machine detect` writes a machine file for the
 * machine it runs on; `ppr machine show` prints one, as likwid-topology
 * prints a topology.
 */
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "common/xalloc.h"
#include "machines/machine.h"
#include "model/model.h"
#include "model/predict.h"

PPR_COMMAND(machine, "describe machines: detect this one, show a machine file")

static const char usage_str[] =
	"usage: ppr machine detect [-o FILE] [--runs N] [--attempts N]\n"
	"                          [--drift-limit PCT] [--name NAME] [--base M.json]\n"
	"                          [--caches auto|sysfs|cpuid] [--sysfs DIR] [--caches-only]\n"
	"                          [--cpu fastest|any|N]\n"
	"       ppr machine detect --clock-only [--runs N] [--cpu fastest|any|N]\n"
	"       ppr machine show M.json [--format table|csv|json]\n";

static const char help_str[] =
	"\n"
	"detect  measures this machine and writes a machine file (stdout without -o):\n"
	"        caches from sysfs (--sysfs DIR, default\n"
	"        /sys/devices/system/cpu/cpu0/cache) or from CPUID; core clock from\n"
	"        dependent register adds (not the TSC): the faster of the best 20 ms\n"
	"        run and the 95th percentile of 400 windows of 0.2 ms (short runs\n"
	"        miss the interruptions, as short kernels do); FMA\n"
	"        peak; read bandwidth of working sets sized for each cache level\n"
	"        and for memory; the part of a shared last level this program\n"
	"        gets (usable_ways: where its read bandwidth has lost a tenth of\n"
	"        its fall to memory's; a level over 64 MiB, as a guest shown its\n"
	"        host's whole L3, is first bracketed by doubling working sets, and\n"
	"        memory's working sets are then 8 times the usable part, at least\n"
	"        256 MiB); memory latency by pointer chase; the bandwidth CSR\n"
	"        SpMV gets from memory by row length (the CSR kernel on banded\n"
	"        matrices of 5-55 nonzeros per row: memory.csr_bandwidth_gbs); the\n"
	"        share of write-backs' bytes that costs memory bandwidth (a read\n"
	"        and a copy stream: memory.writeback_share).  Progress and\n"
	"        the min / median / max of every measurement go to stderr.  Each\n"
	"        figure written is the best of --runs runs (default 7): on a\n"
	"        shared machine interruptions only make a run slower (memory's\n"
	"        bandwidth: of runs at the start and at the end).  The clock\n"
	"        is measured again at the end; when it moved more than\n"
	"        --drift-limit percent (default 3: the host's load changed while\n"
	"        the figures were measured), or read that much under the fastest\n"
	"        reading of the attempts (the host was slow throughout), detection\n"
	"        runs again, at most --attempts times in all (default 3), and the\n"
	"        steadiest attempt is written; a warning says when even that one\n"
	"        is off by more than the limit.\n";

/* (two strings: C99 promises literals of 4095 bytes, no more) */
static const char help2_str[] =
	"        --caches auto (default): sysfs; where it has no cache description\n"
	"        (virtual machines, containers) and no --sysfs was given, CPUID.\n"
	"        sysfs / cpuid: that source only.  CPUID levels whose ways it does\n"
	"        not give (and the levels beyond them) are left out and named on\n"
	"        stderr, never guessed; AMD's legacy leaves never give the L3.  When\n"
	"        a level was left out, detect reports where read bandwidth beyond the\n"
	"        last level described has lost a tenth of its fall to memory's\n"
	"        (not written).\n"
	"        --cpu fastest (default): time the add chains of every CPU this\n"
	"        process may run on (a virtual machine's vCPUs can run at\n"
	"        different clocks) and measure everything on the fastest, as the\n"
	"        benches time kernels on the fastest; N: on CPU N; any: unpinned.\n"
	"        stderr and the file's \"source\" say which CPU was measured.\n"
	"        --caches-only prints the caches and their source, measures nothing.\n"
	"        --clock-only measures the clock alone and prints 'key value' lines\n"
	"        on stdout: clock_ghz (as written), runs_ghz, window_ms, windows,\n"
	"        fastest_window_ghz, p95_window_ghz, median_window_ghz,\n"
	"        uninterrupted, cpu (the CPU measured, or any), and with --cpu\n"
	"        fastest cpuN_ghz for each CPU timed; ran_on_cpu (where the\n"
	"        clock was measured, by sched_getcpu).\n"
	"        --base M.json refreshes a machine file for the host it now runs on:\n"
	"        M.json with this run's clock, memory bandwidth, latency,\n"
	"        write-back share and CSR stream table, and the last level's usable\n"
	"        ways and bandwidth put in; its core model,\n"
	"        branch and far-reference costs and L1/L2 bandwidths are kept.  Its\n"
	"        caches must be this machine's (else an error: another CPU); where\n"
	"        they come from AMD's legacy CPUID leaf, an L2 of the same size keeps\n"
	"        the file's ways when the file's core model is this CPU's, and a\n"
	"        level the leaf left out (the L3) keeps the file's figures.  A\n"
	"        virtual machine's host can change between boots (this project's\n"
	"        test guest ran at 3.48 and at 4.17 GHz): predict with a refreshed\n"
	"        file, e.g. detect --base machines/zen4-epyc.json -o here.json.\n"
	"show    prints a machine file: clock, peak, caches with geometry, policies,\n"
	"        bandwidths and latencies, memory (--format csv: a row per cache\n"
	"        level and one for memory; json: the table's figures, with units\n"
	"        and the ppr version).\n";

static void print_help(void)
{
	fputs(usage_str, stdout);
	fputs(help_str, stdout);
	fputs(help2_str, stdout);
}

static void progress(const char *what, const struct detect_stat *s,
		     const char *unit)
{
	fprintf(stderr, "  %-34s min %9.3f  median %9.3f  max %9.3f %s (%u runs)\n",
		what, s->min, s->median, s->max, unit, s->runs);
}

static const char *role_of(const char *type)
{
	if (!strcmp(type, "Data"))
		return "data";
	if (!strcmp(type, "Instruction"))
		return "instruction";
	return "unified";
}

enum { CACHES_AUTO, CACHES_SYSFS, CACHES_CPUID };

/*
 * The caches, from sysfs or CPUID as --caches says; the source (and what
 * was left out) on stderr and into desc.  Returns 0 or the exit status.
 */
static int detect_caches(int want, const char *sysfs, int sysfs_given,
			 struct detect_cache *caches, unsigned *n, int *partial,
			 int *legacy, char *desc, size_t ndesc)
{
	struct detect_cpuid_note note;
	struct ppr_err err = { 0 };
	int rc;

	*partial = 0;
	*legacy = 0;
	if (want != CACHES_CPUID) {
		rc = detect_caches_sysfs(sysfs, caches, n, &err);
		if (!rc) {
			fprintf(stderr, "  caches from sysfs %s\n", sysfs);
			snprintf(desc, ndesc, "sysfs %s", sysfs);
			return 0;
		}
		/* an explicit directory, or a broken description, is an error */
		if (rc != PPR_ENOENT || want == CACHES_SYSFS || sysfs_given)
			return cli_error_err(&err);
	}
	if (detect_caches_cpuid(caches, n, &note, &err)) {
		if (want == CACHES_CPUID)
			return cli_error_err(&err);
		return cli_error("%s: no cache description found, and CPUID: %s",
				 sysfs, err.msg);
	}
	fprintf(stderr, "  caches from %s%s%s\n", note.source,
		want == CACHES_CPUID ? "" : ": sysfs has none at ",
		want == CACHES_CPUID ? "" : sysfs);
	if (*note.left_out)
		fprintf(stderr, "  caches left out: %s\n", note.left_out);
	snprintf(desc, ndesc, "%s%s%s%s%s", note.source,
		 want == CACHES_CPUID ? "" : " (sysfs has none at ",
		 want == CACHES_CPUID ? "" : sysfs,
		 want == CACHES_CPUID ? "" : ")",
		 *note.left_out ? "; left out: " : "");
	if (*note.left_out) {
		size_t len = strlen(desc);

		snprintf(desc + len, ndesc - len, "%s", note.left_out);
	}
	*partial = note.partial;
	*legacy = note.legacy;
	return 0;
}

/* A clock that moves more than this between the start and the end of
 * `ppr machine detect` makes it detect again, and gets a warning when
 * every attempt moved so (the issue's tolerance for the clock, 3%; the
 * default of --drift-limit) */
#define DRIFT_LIMIT 0.03

/*
 * The coarse pass: read bandwidth over working sets doubling from 'from'
 * (twice the level above), at most to 1.5 times the level's size, until
 * two in a row are under 0.8 of the fastest and within a tenth of each
 * other (the floor, memory's: on the Granite Rapids guest 16.0 and 14.8
 * GB/s at 128 and 256 MiB, against 28 up to 64 MiB; memory's half of the
 * level's or more, so a fall to half is no test).  *lo and *hi bracket
 * the fall: half the last working set within 0.9 of the fastest, and
 * twice that set, for the linear sweep to resolve.
 */
static int coarse_bracket(uint64_t from, uint64_t size, unsigned runs,
			  uint64_t *lo, uint64_t *hi, struct ppr_err *err)
{
	struct detect_stat st;
	double top = 0, prev = 0;
	uint64_t ws, fast = from;
	int rc;

	for (ws = from; ws <= size + size / 2; ws *= 2) {
		if ((rc = detect_read_bandwidth(ws, runs, &st, err)))
			return rc;
		fprintf(stderr, "    %8.1f MiB %8.1f GB/s (median, coarse pass)\n",
			ws / 1048576.0, st.median);
		if (st.median > top)
			top = st.median;
		if (st.median >= 0.9 * top)
			fast = ws;
		if (prev > 0 && prev < 0.8 * top && st.median < 0.8 * top &&
		    fabs(st.median - prev) <= 0.1 * prev)
			break;
		prev = st.median;
	}
	*lo = fast / 2 > from ? fast / 2 : from;
	*hi = 2 * fast;
	return 0;
}

/*
 * Where detect measures (--cpu).  A guest's vCPUs can run at different
 * clocks: on the Zen 5 guest (2026-12-07 15:28) `detect --clock-only`
 * pinned to CPU 0 read 3.352-3.376 GHz in six runs and pinned to CPU 1
 * 3.400-3.434, 1.1-1.7% faster in every pair, while an unpinned run
 * landed on either.  The benches time kernels on the fastest CPU
 * (bench/speed_probe.sh, speed_pick_cpu; the one slow core of 2026-11-27),
 * so by default detect times every CPU's add chains and measures
 * everything on the fastest, and says which (stderr and "source").
 */
enum { CPU_ANY = -1, CPU_FASTEST = -2 };

#define CPU_PROBES 64 /* CPUs timed at most, in order */

struct cpu_choice {
	int cpu;		/* pinned to, or CPU_ANY */
	int n;			/* CPUs timed (0: none) */
	int cpus[CPU_PROBES];
	double ghz[CPU_PROBES];	/* best of 5 runs of 20 ms each */
	char desc[1024];
};

/* Pins the thread as want says and fills ch; 0, or 1 after printing the
 * error. */
static int choose_cpu(int want, struct cpu_choice *ch, struct ppr_err *err)
{
	struct detect_stat st;
	size_t len;
	int i, n, best;

	ch->cpu = want;
	ch->n = 0;
	if (want == CPU_ANY) {
		snprintf(ch->desc, sizeof(ch->desc),
			 "not pinned to a CPU (--cpu any)");
		return 0;
	}
	if (want >= 0) {
		snprintf(ch->desc, sizeof(ch->desc), "measured on CPU %d (--cpu)",
			 want);
		return cli_pin_cpu(want);
	}
	n = cli_allowed_cpus(ch->cpus, CPU_PROBES);
	if (n < 1) {
		cli_warn("cannot read this process's CPUs: detecting unpinned");
		ch->cpu = CPU_ANY;
		snprintf(ch->desc, sizeof(ch->desc), "not pinned to a CPU "
			 "(its CPUs could not be read)");
		return 0;
	}
	if (n == 1) {
		ch->cpu = ch->cpus[0];
		snprintf(ch->desc, sizeof(ch->desc), "measured on CPU %d, the "
			 "only one this process may run on", ch->cpu);
		return 0;
	}
	fprintf(stderr, "  timing the core clock of each of %d CPUs (best of "
		"5 runs of 20 ms)...\n", n);
	for (i = 0; i < n; i++) {
		if (cli_pin_cpu(ch->cpus[i]))
			return 1;
		if (detect_core_clock(5, &st, err))
			return cli_error_err(err);
		ch->ghz[i] = st.max;
		fprintf(stderr, "    CPU %-3d %.3f GHz\n", ch->cpus[i], st.max);
	}
	ch->n = n;
	best = detect_fastest(ch->ghz, (unsigned)n);
	ch->cpu = ch->cpus[best];
	if (cli_pin_cpu(ch->cpu))
		return 1;
	fprintf(stderr, "  measuring on CPU %d, the fastest\n", ch->cpu);
	len = (size_t)snprintf(ch->desc, sizeof(ch->desc), "measured on CPU %d, "
			       "the fastest of %d by their add chains (", ch->cpu, n);
	for (i = 0; i < n && len < sizeof(ch->desc); i++)
		len += (size_t)snprintf(ch->desc + len, sizeof(ch->desc) - len,
					"%sCPU %d %.3f", i ? ", " : "",
					ch->cpus[i], ch->ghz[i]);
	if (len < sizeof(ch->desc))
		snprintf(ch->desc + len, sizeof(ch->desc) - len, " GHz)");
	return 0;
}

/* The core clock: runs of 20 ms, then 400 windows of 0.2 ms; progress and
 * both summaries on stderr.  The clock written is the faster of the runs'
 * best and the windows' 95th percentile (clock_written). */
static int measure_clock(unsigned runs, struct detect_stat *clk,
			 struct detect_clock_windows *cw, struct ppr_err *err)
{
	fprintf(stderr, "  measuring core clock (dependent add chains)...\n");
	if (detect_core_clock(runs, clk, err))
		return -1;
	progress("core clock", clk, "GHz");
	if (detect_clock_windows(400, 2e-4, cw, err))
		return -1;
	fprintf(stderr, "  core clock in %u windows of %.2f ms: fastest %.3f GHz, "
		"95th percentile %.3f, median %.3f; %.0f%% of them not "
		"interrupted (runs shorter than that are timed at the fastest "
		"rate, longer ones at the %.3f GHz above)\n", cw->windows,
		cw->window_s * 1e3, cw->fastest_ghz, cw->p95_ghz, cw->median_ghz,
		100 * cw->uninterrupted, clk->max);
	return 0;
}

/* The clock a machine file gets: the kernels ppr predicts run for
 * microseconds to milliseconds and are timed as the least of many runs,
 * so they run at the rate of uninterrupted short windows, not at the 20 ms
 * runs' rate, which counts the interruptions every such run contains on a
 * shared guest.  On the Zen 5 guest (2026-12-05 17:00) the runs read
 * 3.746 GHz, the windows 3.796 (median) to 3.904 (fastest); a CSR SpMV
 * pass predicted with the refresh's 3.59 GHz (20 ms runs) had a median
 * error of 11.8% on the 42 matrices, 6.6% rescored at 3.80 and 5.3% at
 * 3.90; and the FMA peak read 32.7 flops a cycle at the
 * runs' clock, over the 32 the core issues.  Noise only slows both, so
 * the faster of the two. */
static double clock_written(const struct detect_stat *clk,
			    const struct detect_clock_windows *cw)
{
	return fmax(cw->p95_ghz, clk->max);
}

/* Set obj.key to the number v, replacing what was there. */
static void set_number(cJSON *obj, const char *key, double v)
{
	cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (cJSON_IsNumber(it))
		cJSON_SetNumberValue(it, v);
	else if (it)
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key,
						       cJSON_CreateNumber(v));
	else
		cJSON_AddNumberToObject(obj, key, v);
}

static double num_of(const cJSON *obj, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(it) ? it->valuedouble : -1;
}

/* The entry of a machine document's hierarchy.levels named 'name', or
 * NULL. */
static cJSON *find_level(const cJSON *root, const char *name)
{
	cJSON *e;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "hierarchy"), "levels")) {
		const char *bn = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(e, "name"));

		if (bn && name && !strcmp(bn, name))
			return e;
	}
	return NULL;
}

/* Row lengths of the CSR stream table (memory.csr_bandwidth_gbs): where
 * the bandwidth changes on the zen4-epyc guest (5-9 flat, 11, 15 on) and
 * the row lengths of common FEM matrices. */
static const unsigned csr_rows[] = { 5, 7, 9, 11, 15, 27, 55 };

/* memory.csr_bandwidth_gbs: the CSR kernel's bandwidth on memory-resident
 * banded matrices (detect_csr_bandwidth), best of at most 3 runs. */
static int measure_csr_streams(cJSON *mem, uint64_t ws, unsigned runs,
			       struct ppr_err *err)
{
	cJSON *arr = cJSON_AddArrayToObject(mem, "csr_bandwidth_gbs");
	struct detect_stat st;
	unsigned i;

	fprintf(stderr, "  measuring CSR SpMV streams from memory (banded "
		"matrices, %llu MiB)...\n", (unsigned long long)(ws >> 20));
	for (i = 0; i < sizeof(csr_rows) / sizeof(csr_rows[0]); i++) {
		cJSON *pair = cJSON_CreateArray();
		char what[64];

		if (detect_csr_bandwidth(ws, csr_rows[i], runs < 3 ? runs : 3,
					 &st, err)) {
			cJSON_Delete(pair);
			return -1;
		}
		snprintf(what, sizeof(what), "CSR, %u nonzeros per row",
			 csr_rows[i]);
		progress(what, &st, "GB/s");
		cJSON_AddItemToArray(pair, cJSON_CreateNumber(csr_rows[i]));
		cJSON_AddItemToArray(pair,
				     cJSON_CreateNumber(round(st.max * 10) / 10));
		cJSON_AddItemToArray(arr, pair);
	}
	return 0;
}

/* The name detect gives a cache: L1D / L1I, else L<level>. */
static void level_name(const struct detect_cache *k, char *buf, size_t n)
{
	if (k->level == 1)
		snprintf(buf, n, "L1%c", !strcmp(k->type, "Instruction") ? 'I' : 'D');
	else
		snprintf(buf, n, "L%u", k->level);
}

/* Read and check --base FILE: it must load, and describe the caches
 * detected here (same names, sizes, sets, ways, lines): another CPU's
 * core model and fitted costs would not fit this one.  Where the ways
 * came from AMD's legacy CPUID leaf (legacy), a level 2 or beyond of the
 * same size and line keeps the file's ways and sets when the file's core
 * model is this CPU's (core; detect_base_level_match), and says so on
 * stderr.  Returns the parsed document, or NULL after printing the
 * error. */
static cJSON *base_open(const char *path, const struct detect_cache *caches,
			unsigned n, int legacy, const char *core)
{
	struct machine check = { 0 };
	struct ppr_err err = { 0 };
	cJSON *root;
	char *text = NULL;
	const char *bcore;
	size_t len;
	unsigned i;

	if (machine_read_text(path, &text, &len, &err) ||
	    machine_load_string(path, text, len, &check, &err)) {
		free(text);
		cli_error_err(&err);
		return NULL;
	}
	machine_release(&check);
	root = cJSON_ParseWithLength(text, len);
	free(text);
	if (!root) {
		cli_error("%s: cannot parse the base machine file", path);
		return NULL;
	}
	bcore = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "core"), "name"));
	for (i = 0; i < n; i++) {
		const struct detect_cache *k = &caches[i];
		const char *geo[4] = { "size_bytes", "sets", "ways", "cl_size" };
		double here[4] = { (double)k->size, (double)k->sets,
				   (double)k->ways, (double)k->line_size };
		const cJSON *b;
		char ln[16];
		unsigned g;

		level_name(k, ln, sizeof(ln));
		b = find_level(root, ln);
		if (!b) {
			cli_error("%s: hierarchy.levels: no level '%s', which this "
				  "machine has: the base describes another CPU",
				  path, ln);
			goto fail;
		}
		{
			double in_base[4];

			for (g = 0; g < 4; g++)
				in_base[g] = num_of(b, geo[g]);
			if (detect_base_level_match(k, legacy, in_base) ==
			    DETECT_BASE_SIZE && core && bcore &&
			    !strcmp(core, bcore)) {
				fprintf(stderr, "ppr: base: %s keeps the base's "
					"%.0f ways and %.0f sets: this CPU's legacy "
					"CPUID leaf reads %u-way (the same size and "
					"line, the same core model %s)\n", ln,
					in_base[2], in_base[1], k->ways, core);
				continue;
			}
			for (g = 0; g < 4; g++)
				if (in_base[g] != here[g]) {
					cli_error("%s: hierarchy.levels '%s': '%s' is "
						  "%.0f, this machine's is %.0f: the base "
						  "describes another CPU", path, ln,
						  geo[g], in_base[g], here[g]);
					goto fail;
				}
		}
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

/* The last data (or unified) level of a machine document, or NULL. */
static cJSON *last_data_level(const cJSON *root)
{
	cJSON *l, *last = NULL;

	cJSON_ArrayForEach(l, cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(root, "hierarchy"),
			"levels")) {
		const char *role = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(l, "role"));

		if (!(role && !strcmp(role, "instruction")))
			last = l;
	}
	return last;
}

/*
 * --base FILE: the base machine document root (base_open) with what this
 * run measured of the host (the detected document det) put in: the clock,
 * the last level's usable ways and bandwidth, memory bandwidth, latency
 * and CSR stream table.  Everything else of the base (the core model, the
 * branch and far-reference costs fitted on it, the L1 and L2 bandwidths,
 * which are the core's design: the read kernel does not reach L1's two
 * loads per cycle) is kept.  Where the base has levels beyond the last one
 * detected (a legacy CPUID leaf left the L3 out), those keep the base's
 * figures, and so does the last one detected, which is then not the
 * level memory refills; source says so, with beyond_mib (where read
 * bandwidth beyond the last level detected lost a tenth of its fall; < 0:
 * not measured).  Changes root in place.
 */
static void refresh_base(const char *path, cJSON *root, const cJSON *det,
			 double beyond_mib, const char *name, int name_given,
			 const char *cpu_desc)
{
	const cJSON *dl, *dlast = NULL, *dlevels;
	cJSON *blast = NULL, *bmem, *it;
	char note[4096];
	const char *old_src;
	double old_ghz, old_bw, old_lat, old_wb, new_ghz;

	dlevels = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(det, "hierarchy"), "levels");
	/* the last level detect measured a bandwidth for, and its entry in
	 * the base (base_open checked that every level is there) */
	cJSON_ArrayForEach(dl, dlevels)
		if (cJSON_GetObjectItemCaseSensitive(dl, "bandwidth_bytes_per_cycle"))
			dlast = dl;
	if (dlast)
		blast = find_level(root, cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(dlast, "name")));
	old_ghz = num_of(root, "clock_ghz");
	new_ghz = num_of(det, "clock_ghz");
	set_number(root, "clock_ghz", new_ghz);
	bmem = cJSON_GetObjectItemCaseSensitive(root, "memory");
	if (!bmem)
		bmem = cJSON_AddObjectToObject(root, "memory");
	it = cJSON_GetObjectItemCaseSensitive(det, "memory");
	old_bw = num_of(bmem, "bandwidth_gbs");
	old_lat = num_of(bmem, "latency_ns");
	set_number(bmem, "bandwidth_gbs", num_of(it, "bandwidth_gbs"));
	set_number(bmem, "latency_ns", num_of(it, "latency_ns"));
	old_wb = cJSON_GetObjectItemCaseSensitive(bmem, "writeback_share") ?
		 num_of(bmem, "writeback_share") : 1;
	set_number(bmem, "writeback_share", num_of(it, "writeback_share"));
	{
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(it,
							"csr_bandwidth_gbs");

		cJSON_DeleteItemFromObjectCaseSensitive(bmem, "csr_bandwidth_gbs");
		if (t)
			cJSON_AddItemToObject(bmem, "csr_bandwidth_gbs",
					      cJSON_Duplicate(t, 1));
	}
	snprintf(note, sizeof(note),
		 "; refreshed by ppr %s machine detect --base: clock %.3f -> "
		 "%.3f GHz, memory %.1f -> %.1f GB/s and %.0f -> %.0f ns, "
		 "write-back share %.2f -> %.2f (and its CSR stream table)",
		 PPR_VERSION, old_ghz, new_ghz, old_bw,
		 num_of(it, "bandwidth_gbs"), old_lat, num_of(it, "latency_ns"),
		 old_wb, num_of(it, "writeback_share"));
	if (blast && dlast != cJSON_GetArrayItem(dlevels, 0) &&
	    blast == last_data_level(root)) {
		/* the last level, unless it is the first (its bandwidth is
		 * the core's) or the base has levels beyond it that this
		 * detection left out (below: then it is the core's too) */
		double ow = num_of(blast, "usable_ways");
		double nw = num_of(dlast, "usable_ways");
		double ob = num_of(blast, "bandwidth_bytes_per_cycle");
		double nb = num_of(dlast, "bandwidth_bytes_per_cycle");
		size_t used = strlen(note);

		double owb = cJSON_GetObjectItemCaseSensitive(blast,
				"writeback_share") ? num_of(blast,
				"writeback_share") : 1;
		const cJSON *dwb = cJSON_GetObjectItemCaseSensitive(dlast,
							"writeback_share");

		if (nw > 0)
			set_number(blast, "usable_ways", nw);
		else
			cJSON_DeleteItemFromObjectCaseSensitive(blast, "usable_ways");
		set_number(blast, "bandwidth_bytes_per_cycle", nb);
		if (dwb)
			set_number(blast, "writeback_share",
				   cJSON_GetNumberValue(dwb));
		snprintf(note + used, sizeof(note) - used,
			 ", %s usable ways %.0f -> %.0f, bandwidth %.1f -> %.1f "
			 "B/cy, write-back share %.2f -> %.2f",
			 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(dlast,
									     "name")),
			 ow > 0 ? ow : num_of(blast, "ways"),
			 nw > 0 ? nw : num_of(blast, "ways"), ob, nb, owb,
			 dwb ? cJSON_GetNumberValue(dwb) : owb);
	}
	if (blast) {
		/* the base's levels beyond the last one measured here were
		 * left out of this detection (their ways unknown: a legacy
		 * CPUID leaf): they keep the base's share and bandwidth */
		const cJSON *bl, *blevels = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(root, "hierarchy"),
			"levels");
		int after = 0;

		cJSON_ArrayForEach(bl, blevels) {
			const char *role = cJSON_GetStringValue(
				cJSON_GetObjectItemCaseSensitive(bl, "role"));
			size_t used = strlen(note);
			double uw = num_of(bl, "usable_ways");

			if (bl == blast)
				after = 1;
			if (bl == blast || !after ||
			    (role && !strcmp(role, "instruction")))
				continue;
			snprintf(note + used, sizeof(note) - used,
				 ", %s not measured (left out of the detection): "
				 "the base's usable ways %.0f and bandwidth %.1f "
				 "B/cy kept",
				 cJSON_GetStringValue(
					cJSON_GetObjectItemCaseSensitive(bl, "name")),
				 uw > 0 ? uw : num_of(bl, "ways"),
				 num_of(bl, "bandwidth_bytes_per_cycle"));
			used = strlen(note);
			if (beyond_mib >= 0)
				snprintf(note + used, sizeof(note) - used,
					 " (read bandwidth beyond the level above "
					 "lost a tenth of its fall to memory's at "
					 "%.1f MiB)", beyond_mib);
		}
	}
	{
		size_t used = strlen(note);

		snprintf(note + used, sizeof(note) - used, "; %s", cpu_desc);
	}
	if (name_given)
		cJSON_ReplaceItemInObjectCaseSensitive(root, "name",
						       cJSON_CreateString(name));
	old_src = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root,
									 "source"));
	{
		size_t n = (old_src ? strlen(old_src) : 0) + strlen(note) + 1;
		char *src = xmalloc(n);

		snprintf(src, n, "%s%s", old_src ? old_src : "", note);
		if (cJSON_GetObjectItemCaseSensitive(root, "source"))
			cJSON_ReplaceItemInObjectCaseSensitive(
				root, "source", cJSON_CreateString(src));
		else
			cJSON_AddStringToObject(root, "source", src + 2);
		free(src);
	}
	fprintf(stderr, "ppr: base %s%s\n", path, note + 1);
}

static int detect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "runs", required_argument, NULL, 'r' },
		{ "attempts", required_argument, NULL, 'a' },
		{ "drift-limit", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "caches", required_argument, NULL, 'c' },
		{ "caches-only", no_argument, NULL, 'C' },
		{ "clock-only", no_argument, NULL, 'K' },
		{ "base", required_argument, NULL, 'b' },
		{ "cpu", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out_path = NULL, *name = "detected", *base = NULL;
	const char *sysfs = "/sys/devices/system/cpu/cpu0/cache";
	unsigned long long runs = 7, attempts = 3;
	unsigned attempt = 1, best_attempt = 0;
	double best_drift = 0, best_beyond_mib = -1, drift_limit = DRIFT_LIMIT;
	double best_ghz = 0, fastest = 0, slow;
	cJSON *best = NULL;
	struct detect_cache caches[DETECT_MAX_CACHES];
	struct detect_stat clk, clk_end, fma, bw, bw_end, lat;
	struct detect_clock_windows cw;
	double drift;
	double wb_share = 1, wb_read = 0, wb_copy = 0;
	struct ppr_err err = { 0 };
	unsigned n = 0, i, last;
	double ghz, fpc, l1_bpc, usable_mib, beyond_mib;
	cJSON *root = NULL, *hier, *levels, *mem, *peak, *base_root = NULL;
	char *text = NULL, desc[512], src[4096], cache_desc[1024], cap_desc[256];
	struct machine check = { 0 };
	uint64_t mem_ws;
	FILE *f;
	int c, rc = 1, avx512, want = CACHES_AUTO, sysfs_given = 0;
	int caches_only = 0, clock_only = 0, partial, legacy, name_given = 0, l1_split = 0;
	const char *core_name;
	unsigned cpu_family = 0, cpu_model = 0;
	int want_cpu = CPU_FASTEST;
	struct cpu_choice ch;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out_path = optarg; break;
		case 'n': name = optarg; name_given = 1; break;
		case 'b': base = optarg; break;
		case 's': sysfs = optarg; sysfs_given = 1; break;
		case 'C': caches_only = 1; break;
		case 'K': clock_only = 1; break;
		case 'P':
			if (!strcmp(optarg, "fastest")) {
				want_cpu = CPU_FASTEST;
			} else if (!strcmp(optarg, "any")) {
				want_cpu = CPU_ANY;
			} else {
				char msg[256];

				if (cli_check_cpu(optarg, &want_cpu, msg, sizeof(msg)))
					return cli_usage_error(usage_str,
						"machine detect: --cpu: %s (or fastest, any)", msg);
			}
			break;
		case 'c':
			if (!strcmp(optarg, "auto"))
				want = CACHES_AUTO;
			else if (!strcmp(optarg, "sysfs"))
				want = CACHES_SYSFS;
			else if (!strcmp(optarg, "cpuid"))
				want = CACHES_CPUID;
			else
				return cli_usage_error(usage_str,
					"machine detect: --caches must be auto, sysfs or cpuid, not '%s'",
					optarg);
			break;
		case 'r':
			if (cli_parse_u64(optarg, &runs) || !runs || runs > 64)
				return cli_usage_error(usage_str,
					"machine detect: --runs must be 1..64, not '%s'",
					optarg);
			break;
		case 'a':
			if (cli_parse_u64(optarg, &attempts) || !attempts ||
			    attempts > 10)
				return cli_usage_error(usage_str,
					"machine detect: --attempts must be 1..10, not '%s'",
					optarg);
			break;
		case 'd':
			if (cli_parse_double(optarg, &drift_limit) ||
			    !(drift_limit >= 0 && drift_limit <= 100))
				return cli_usage_error(usage_str,
					"machine detect: --drift-limit must be 0..100 (percent), not '%s'",
					optarg);
			drift_limit /= 100;
			break;
		case 'h': print_help(); return 0;
		default:
			return cli_usage_error(usage_str, "machine detect: "
					       "unknown or incomplete "
					       "option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return cli_usage_error(usage_str, "machine detect: unexpected argument '%s'",
				       argv[optind]);
	if (want == CACHES_CPUID && sysfs_given)
		return cli_usage_error(usage_str,
				       "machine detect: --sysfs needs --caches auto or sysfs");

	if (caches_only && clock_only)
		return cli_usage_error(usage_str,
				       "machine detect: --caches-only and --clock-only exclude each other");
	if (base && (caches_only || clock_only))
		return cli_usage_error(usage_str,
				       "machine detect: --base writes a whole machine file; "
				       "not with --caches-only or --clock-only");
	if (clock_only) {
		if (choose_cpu(want_cpu, &ch, &err))
			return 1;
		if (measure_clock((unsigned)runs, &clk, &cw, &err))
			return cli_error_err(&err);
		printf("clock_ghz %.4f\n", clock_written(&clk, &cw));
		printf("runs_ghz %.4f\n", clk.max);
		printf("window_ms %.3f\n", cw.window_s * 1e3);
		printf("windows %u\n", cw.windows);
		printf("fastest_window_ghz %.4f\n", cw.fastest_ghz);
		printf("p95_window_ghz %.4f\n", cw.p95_ghz);
		printf("median_window_ghz %.4f\n", cw.median_ghz);
		printf("uninterrupted %.3f\n", cw.uninterrupted);
		if (ch.cpu >= 0)
			printf("cpu %d\n", ch.cpu);
		else
			printf("cpu any\n");
		for (i = 0; i < (unsigned)ch.n; i++)
			printf("cpu%d_ghz %.4f\n", ch.cpus[i], ch.ghz[i]);
		printf("ran_on_cpu %d\n", sched_getcpu());
		return 0;
	}
	if (caches_only)
		fprintf(stderr, "ppr: caches of this machine\n");
	else
		fprintf(stderr, "ppr: detecting this machine (%llu runs per figure)\n", runs);
	if ((rc = detect_caches(want, sysfs, sysfs_given, caches, &n, &partial,
				&legacy, cache_desc, sizeof(cache_desc))))
		return rc;
	rc = 1;
	for (i = 0; i < n; i++)
		fprintf(stderr, "  cache L%u %-11s %8llu KiB %3u-way %6llu sets %u B lines\n",
			caches[i].level, caches[i].type,
			(unsigned long long)(caches[i].size >> 10), caches[i].ways,
			(unsigned long long)caches[i].sets, caches[i].line_size);
	core_name = detect_core_name(&cpu_family, &cpu_model);
	if (core_name)
		fprintf(stderr, "  core model: %s (built in; CPUID family %xh "
			"model %xh)\n", core_name, cpu_family, cpu_model);
	else
		fprintf(stderr, "  core model: none built in for CPUID family "
			"%xh model %xh (predictions use zen5's)\n",
			cpu_family, cpu_model);
	if (caches_only)
		return 0;
	/* the base is checked against the caches before the 20 s of
	 * measuring */
	if (base && !(base_root = base_open(base, caches, n, legacy, core_name)))
		return 1;
	if (choose_cpu(want_cpu, &ch, &err)) {
		cJSON_Delete(base_root);
		return 1;
	}
	/* the last data (or unified) level: the one memory refills */
	for (last = n - 1; last > 0 && !strcmp(caches[last].type, "Instruction"); last--)
		;
	mem_ws = caches[last].size * 8 > ((uint64_t)256 << 20) ? caches[last].size * 8
							       : ((uint64_t)256 << 20);
	if (partial && mem_ws < caches[last].size * 256)
		mem_ws = caches[last].size * 256; /* 4x the sweep beyond it */
again:
	/* what an attempt finds, or not (-1: not measured) */
	fpc = 0;
	l1_bpc = 0;
	usable_mib = -1;
	beyond_mib = -1;
	if (measure_clock((unsigned)runs, &clk, &cw, &err))
		goto fail_err;
	/* the clock written; drift and slowness compare the 20 ms runs
	 * (clk.max) with the 20 ms runs at the end */
	ghz = clock_written(&clk, &cw);
	fprintf(stderr, "  measuring FMA peak...\n");
	if (detect_fma_peak(ghz, (unsigned)runs, &fma, &err) == 0) {
		progress("FMA peak (double)", &fma, "flop/cy");
		fpc = fma.max;
	} else {
		cli_warn("%s", err.msg);
	}
	__builtin_cpu_init();
	avx512 = __builtin_cpu_supports("avx512f");

	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "name", name);
	snprintf(desc, sizeof(desc), "measured by ppr %s machine detect", PPR_VERSION);
	cJSON_AddStringToObject(root, "description", desc);
	hier = cJSON_AddObjectToObject(root, "hierarchy");
	cJSON_AddStringToObject(hier, "straddle", "split");
	cJSON_AddBoolToObject(hier, "writebacks", 1);
	levels = cJSON_AddArrayToObject(hier, "levels");
	for (i = 0; i < n; i++)
		if (caches[i].level == 1 && !strcmp(caches[i].type, "Instruction"))
			l1_split = 1;

	for (i = 0; i < n; i++) {
		struct detect_cache *k = &caches[i];
		cJSON *lv = cJSON_CreateObject();
		char lname[16];
		int is_instr = !strcmp(k->type, "Instruction");
		uint64_t ws;

		level_name(k, lname, sizeof(lname));
		cJSON_AddStringToObject(lv, "name", lname);
		/* roles only for a split L1 (a data and an instruction
		 * entry); a lone L1 is the data path (machines/README.md) */
		if (k->level == 1 && l1_split)
			cJSON_AddStringToObject(lv, "role", role_of(k->type));
		cJSON_AddNumberToObject(lv, "size_bytes", (double)k->size);
		cJSON_AddNumberToObject(lv, "sets", (double)k->sets);
		cJSON_AddNumberToObject(lv, "ways", k->ways);
		cJSON_AddNumberToObject(lv, "cl_size", k->line_size);
		cJSON_AddStringToObject(lv, "replacement_policy", "lru");
		cJSON_AddStringToObject(lv, "inclusion", "non_inclusive");
		cJSON_AddBoolToObject(lv, "write_back", 1);
		cJSON_AddBoolToObject(lv, "write_allocate", 1);
		if (!is_instr) {
			char what[64];

			/* Half the level (plus everything above it) stays
			 * resident there and misses the levels above. */
			ws = k->size / 2;
			if (i == last && !partial && k->level >= 2 &&
			    k->size >= (1u << 20)) {
				/* The last level may be shared with cores
				 * outside this machine (other tenants of a
				 * virtual machine's host): measure the part
				 * this program gets, and the level's
				 * bandwidth in half of that. */
				struct detect_capacity cap;
				uint64_t step = k->size / 16, lo = 2 * step;
				uint64_t hi = 24 * step, below = 4 * k->size;
				unsigned w;

				/* a level over DETECT_BIG_LEVEL: swept in two
				   passes (model/model.h) */
				if (k->size > DETECT_BIG_LEVEL && i > 0) {
					fprintf(stderr, "  measuring where %s's read "
						"bandwidth falls (%llu MiB shown: doubling "
						"working sets)...\n", lname,
						(unsigned long long)(k->size >> 20));
					if (coarse_bracket(2 * caches[i - 1].size,
							   k->size, (unsigned)runs,
							   &lo, &hi, &err))
						goto fail_err;
					step = (hi - lo) / 15 & ~(uint64_t)0xffff;
					if (!step)
						step = 0x10000;
					below = 4 * hi;
				}
				fprintf(stderr, "  measuring usable %s capacity "
					"(read bandwidth, %llu..%llu KiB)...\n", lname,
					(unsigned long long)(lo >> 10),
					(unsigned long long)((lo + (hi - lo) / step * step) >> 10));
				if (detect_usable_capacity(lo, hi, step, below,
							   (unsigned)runs, &cap, &err))
					goto fail_err;
				for (w = 0; w < cap.npoints; w++)
					fprintf(stderr, "    %8.1f MiB %8.1f GB/s (median)\n",
						cap.ws[w] / 1048576.0, cap.gbs[w]);
				fprintf(stderr, "  %s %.1f GB/s at most, %.1f GB/s "
					"at %.1f MiB (medians): usable %.1f MiB (a tenth "
					"of the fall lost)\n", lname,
					cap.level_gbs, cap.below_gbs,
					below / 1048576.0,
					cap.bytes / 1048576.0);
				w = detect_usable_ways(cap.bytes,
						       (double)k->size, k->ways);
				if (w < k->ways) {
					cJSON_AddNumberToObject(lv, "usable_ways", w);
					ws = k->size / k->ways * w / 2;
				}
				usable_mib = cap.bytes / 1048576.0;
				/* memory's working sets: 8 times what this
				   program can hold, not the level shown */
				if (k->size > DETECT_BIG_LEVEL)
					mem_ws = detect_beyond_share(cap.bytes);
			}
			snprintf(what, sizeof(what), "read bandwidth %s (%llu KiB)",
				 lname, (unsigned long long)(ws >> 10));
			fprintf(stderr, "  measuring %s...\n", what);
			if (detect_read_bandwidth(ws, (unsigned)runs, &bw, &err))
				goto fail_err;
			progress(what, &bw, "GB/s");
			cJSON_AddNumberToObject(lv, "bandwidth_bytes_per_cycle",
						round(bw.max / ghz * 10) / 10);
			if (k->level == 1)
				l1_bpc = round(bw.max / ghz * 10) / 10;
			/* the first level's fills on its loads: a stream of
			 * loads in it and in the next level (model/predict.c) */
			if (k->level == 1 && i + 1 < n) {
				unsigned j = i + 1;
				double fc, t1, t2;

				while (j < n && !strcmp(caches[j].type,
							"Instruction"))
					j++;
				if (j < n && caches[j].size > k->size) {
					fprintf(stderr, "  measuring fills into %s "
						"(a load stream in %s and in %s)...\n",
						lname, lname, "the next level");
					if (detect_fill_load_cycles(k->size / 4,
							caches[j].size / 2, ghz,
							(unsigned)runs, &fc, &t1,
							&t2, &err))
						goto fail_err;
					fprintf(stderr, "  fills into %s: %.2f cycles "
						"a line with the stream in it, %.2f "
						"from the next level: %.2f a fill "
						"(fill_load_cycles)\n", lname, t1,
						t2, fc);
					cJSON_AddNumberToObject(lv,
						"fill_load_cycles",
						round(fc * 100) / 100);
				}
			}
			/* the last level's write-backs from the level above,
			 * as memory's (below): a read and a copy stream in
			 * the same half of it (model/predict.c) */
			if (i == last && k->level >= 2) {
				double share, rd, cp;

				fprintf(stderr, "  measuring write-backs into %s "
					"(read and copy streams, 2 x %llu KiB)...\n",
					lname, (unsigned long long)(ws / 2 >> 10));
				if (detect_writeback_share(ws / 2, (unsigned)runs < 5 ?
							   (unsigned)runs : 5, &share,
							   &rd, &cp, &err))
					goto fail_err;
				fprintf(stderr, "  write-backs into %s: read %.1f "
					"GB/s, copy %.1f GB/s (bytes copied; best of "
					"each): they take %.2f of its bandwidth "
					"(writeback_share)\n", lname, rd, cp, share);
				cJSON_AddNumberToObject(lv, "writeback_share",
							round(share * 100) / 100);
			}
		}
		cJSON_AddItemToArray(levels, lv);
	}
	if (partial) {
		/* A level nearer memory was left out (its ways are unknown):
		 * say where read bandwidth beyond the last level described
		 * has lost a tenth of its fall to memory's, and write nothing
		 * for it. */
		struct detect_capacity cap;
		uint64_t step = 2 * caches[last].size;
		char lname[16];
		unsigned w;

		if (caches[last].level == 1)
			snprintf(lname, sizeof(lname), "L1D");
		else
			snprintf(lname, sizeof(lname), "L%u", caches[last].level);
		fprintf(stderr, "  measuring read bandwidth beyond %s, where a level "
			"was left out (%llu..%llu KiB)...\n", lname,
			(unsigned long long)(step >> 10),
			(unsigned long long)(32 * step >> 10));
		if (detect_usable_capacity(step, 32 * step, step, mem_ws,
					   (unsigned)runs, &cap, &err))
			goto fail_err;
		for (w = 0; w < cap.npoints; w++)
			fprintf(stderr, "    %8.1f MiB %8.1f GB/s (median)\n",
				cap.ws[w] / 1048576.0, cap.gbs[w]);
		fprintf(stderr, "  beyond %s: %.1f GB/s at most, %.1f GB/s at "
			"%.1f MiB (medians): a tenth of the fall lost at %.1f MiB%s "
			"(not written: the level's ways and sets are unknown)\n",
			lname, cap.level_gbs, cap.below_gbs,
			(double)mem_ws / 1048576.0, cap.bytes / 1048576.0,
			cap.bytes >= (double)cap.ws[cap.npoints - 1] ? " or more" : "");
		beyond_mib = cap.bytes / 1048576.0;
		snprintf(cap_desc, sizeof(cap_desc), "beyond %s (a level left out) "
			 "read bandwidth has lost a tenth of its fall to memory's at %.1f MiB%s",
			 lname, beyond_mib,
			 cap.bytes >= (double)cap.ws[cap.npoints - 1] ? " or more" : "");
	}
	{
		uint64_t ws = mem_ws;

		fprintf(stderr, "  measuring memory read bandwidth (%llu MiB)...\n",
			(unsigned long long)(ws >> 20));
		if (detect_read_bandwidth(ws, (unsigned)runs < 5 ? (unsigned)runs : 5,
					  &bw, &err))
			goto fail_err;
		progress("memory read bandwidth", &bw, "GB/s");
		fprintf(stderr, "  measuring memory latency (pointer chase)...\n");
		if (detect_latency(ws, 3, &lat, &err))
			goto fail_err;
		progress("memory latency", &lat, "ns");
		fprintf(stderr, "  measuring write-backs to memory (read and "
			"copy streams, %llu MiB)...\n",
			(unsigned long long)(ws >> 20));
		if (detect_writeback_share(ws, (unsigned)runs < 5 ?
					   (unsigned)runs : 5, &wb_share,
					   &wb_read, &wb_copy, &err))
			goto fail_err;
		fprintf(stderr, "  write-backs: read %.1f GB/s, copy %.1f GB/s "
			"(bytes copied; best of each): they take %.2f of "
			"their bytes' bandwidth (writeback_share)\n",
			wb_read, wb_copy, wb_share);
		mem = cJSON_AddObjectToObject(root, "memory");
		cJSON_AddNumberToObject(mem, "bandwidth_gbs", round(bw.max * 10) / 10);
		cJSON_AddNumberToObject(mem, "latency_ns", round(lat.min * 10) / 10);
		cJSON_AddNumberToObject(mem, "writeback_share",
					round(wb_share * 100) / 100);
		if (measure_csr_streams(mem, ws, (unsigned)runs, &err))
			goto fail_err;
	}
	/* the clock again at the end: on a shared host it moves with the
	 * other tenants' load (2026-11-28, Zen 4 guest: 3.33-3.62 GHz
	 * between runs minutes apart), and the figures above were measured
	 * in between; the clock written is the first one, whose cycles the
	 * bandwidths per cycle are in */
	fprintf(stderr, "  measuring core clock again...\n");
	if (detect_core_clock((unsigned)runs, &clk_end, &err))
		goto fail_err;
	drift = clk_end.max / clk.max - 1;
	fprintf(stderr, "  core clock at the end: %.3f GHz (%+.1f%% from the "
		"start)\n", clk_end.max, 100 * drift);
	/* memory's read bandwidth again at the end, the faster reading
	 * written: other tenants only slow it down, and on a shared host it
	 * moves for minutes at a time (the Zen 5 guest, 2026-12-06: one
	 * buffer read 26.0-33.5 GB/s over a minute, fresh buffers the same;
	 * readings 29.5 and 40.7 minutes apart), so readings apart in time
	 * catch its unhindered rate more often than runs back to back */
	fprintf(stderr, "  measuring memory read bandwidth again (%llu MiB)...\n",
		(unsigned long long)(mem_ws >> 20));
	if (detect_read_bandwidth(mem_ws, (unsigned)runs < 5 ? (unsigned)runs : 5,
				  &bw_end, &err))
		goto fail_err;
	fprintf(stderr, "  memory read bandwidth at the end: %.1f GB/s (%.1f "
		"at first): %s written\n", bw_end.max, bw.max,
		bw_end.max > bw.max ? "the end's" : "the first");
	if (bw_end.max > bw.max)
		set_number(mem, "bandwidth_gbs", round(bw_end.max * 10) / 10);
	cJSON_AddNumberToObject(root, "clock_ghz", round(ghz * 1000) / 1000);
	cJSON_AddNumberToObject(root, "cores", (double)sysconf(_SC_NPROCESSORS_ONLN));
	peak = cJSON_AddObjectToObject(root, "peak");
	if (fpc > 0) {
		/* report whole flops per cycle: the hardware issues whole FMAs */
		double dp = round(fpc);

		cJSON_AddNumberToObject(peak, "flops_per_cycle_dp", dp);
		cJSON_AddNumberToObject(peak, "flops_per_cycle_sp", 2 * dp);
		cJSON_AddBoolToObject(peak, "fma", 1);
	}
	cJSON_AddNumberToObject(peak, "simd_width_bits", avx512 ? 512 : 256);
	if (l1_bpc > 0)
		cJSON_AddNumberToObject(peak, "load_bytes_per_cycle", l1_bpc);
	if (usable_mib >= 0)
		snprintf(cap_desc, sizeof(cap_desc), "usable capacity of the last "
			 "level: read bandwidth has lost a tenth of the fall from its "
			 "highest to memory's at %.1f MiB (usable_ways)", usable_mib);
	else if (beyond_mib < 0)
		snprintf(cap_desc, sizeof(cap_desc), "usable capacity not measured "
			 "(last level under 1 MiB)");
	snprintf(src, sizeof(src),
		 "ppr machine detect: caches from %s; clock %.3f GHz (dependent "
		 "add chains: the faster of the best of %u runs of 20 ms, %.3f, "
		 "median %.3f, %.3f at the end, and the 95th percentile of 400 "
		 "windows of 0.2 ms, %.3f); "
		 "bandwidths: best of "
		 "repeated read-only runs over half of each data cache level and "
		 "over a set of %llu MiB (memory's: the faster of readings "
		 "at the start and at the end); latency: pointer chase; "
		 "replacement and inclusion are not measured (LRU, non-inclusive "
		 "assumed); %s; core model: %s%s (CPUID family %xh model %xh); "
		 "%s",
		 cache_desc, ghz, clk.runs, clk.max, clk.median, clk_end.max,
		 cw.p95_ghz,
		 (unsigned long long)(mem_ws >> 20), cap_desc,
		 core_name ? "the built-in " : "none built in, zen5's used",
		 core_name ? core_name : "", cpu_family, cpu_model, ch.desc);
	cJSON_AddStringToObject(root, "source", src);
	if (core_name) {
		cJSON *core = machine_core_to_json(dag_core_builtin(core_name));

		if (!core)
			goto fail;
		cJSON_AddItemToObject(root, "core", core);
	}
	/* Keep the attempt whose clock moved least, and detect again while
	 * it moved more than the limit (--drift-limit): the figures of such
	 * an attempt were measured at different clocks (on the Zen 4 guest,
	 * 2026-11-29, one of three runs started at 3.479 GHz and ended at
	 * 3.670, 4.9% under the add chains timed right after it).
	 * An attempt measured wholly in a slow phase moves little from its
	 * start to its end and is still off: on the Zen 5 guest
	 * (2026-12-04) one attempt ran 3.626 -> 3.453 GHz, the next stayed
	 * at 3.446 and was written, 5.0% under the add chains timed right
	 * after it (3.628).  Interruptions and other tenants only slow the
	 * chains, so an attempt whose clock reads more than the limit under
	 * the fastest reading of all attempts (start or end) is as unsteady
	 * as one that moved. */
	fastest = fmax(fastest, fmax(clk.max, clk_end.max));
	slow = 1 - clk.max / fastest;
	if (!best || detect_attempt_offness(clk.max, drift, fastest) <
		     detect_attempt_offness(best_ghz, best_drift, fastest)) {
		cJSON_Delete(best);
		best = root;
		best_drift = drift;
		best_ghz = clk.max;
		best_beyond_mib = beyond_mib;
		best_attempt = attempt;
	} else {
		cJSON_Delete(root);
	}
	root = NULL;
	if (detect_attempt_offness(best_ghz, best_drift, fastest) >
	    drift_limit && attempt < attempts) {
		attempt++;
		if (fabs(drift) >= slow)
			fprintf(stderr, "ppr: the core clock moved %+.1f%% during "
				"detection: detecting again (attempt %u of "
				"%llu)\n", 100 * drift, attempt, attempts);
		else
			fprintf(stderr, "ppr: the core clock read %.1f%% under "
				"the fastest reading so far (%.3f GHz): detecting "
				"again (attempt %u of %llu)\n", 100 * slow,
				fastest, attempt, attempts);
		goto again;
	}
	root = best;
	best = NULL;
	if (attempt > 1)
		fprintf(stderr, "  written: attempt %u of %u, whose clock moved "
			"%+.1f%%\n", best_attempt, attempt, 100 * best_drift);
	if (fabs(best_drift) > drift_limit)
		cli_warn("the core clock moved %+.1f%% during detection%s: the "
			 "host's load changed, so the figures were measured at "
			 "different clocks; run it again when the host is steady",
			 100 * best_drift, attempt > 1 ? " in every attempt" : "");
	else if (1 - best_ghz / fastest > drift_limit)
		cli_warn("the core clock read %.1f%% under the fastest reading "
			 "of %u attempts (%.3f GHz): the host was slow while "
			 "detecting; run it again when the host is steady",
			 100 * (1 - best_ghz / fastest), attempt, fastest);

	if (base) {
		refresh_base(base, base_root, root, best_beyond_mib, name,
			     name_given, ch.desc);
		cJSON_Delete(root);
		root = base_root;
		base_root = NULL;
	}
	text = cJSON_Print(root);
	if (!text)
		goto fail;
	/* What we write must load: check it with the real loader. */
	if (machine_load_string(out_path ? out_path : "(detected)", text,
				strlen(text), &check, &err)) {
		cli_error("%s machine file does not load: %s",
			  base ? "refreshed" : "detected", err.msg);
		goto fail;
	}
	machine_release(&check);
	f = cli_open_out(out_path);
	if (!f)
		goto fail;
	fputs(text, f);
	fputc('\n', f);
	if (cli_close_out(f, out_path))
		goto fail;
	if (out_path)
		fprintf(stderr, "ppr: wrote %s\n", out_path);
	rc = 0;
	goto fail;
fail_err:
	cli_error_err(&err);
fail:
	free(text);
	cJSON_Delete(root);
	cJSON_Delete(best);
	cJSON_Delete(base_root);
	return rc;
}

/*
 * The levels as `machine show` lists them: the split L1's instruction
 * cache second.  show_level sets the simulated level (*L) and the file's
 * (*X) of entry i and returns its physical sets (0 when unknown).
 */
static unsigned show_nlevels(const struct machine *m)
{
	return m->hier.nlevels + (m->hier.split_l1 ? 1 : 0);
}

static uint64_t show_level(const struct machine *m, unsigned i,
			   const struct sim_level_config **L,
			   const struct machine_level **X)
{
	if (m->hier.split_l1 && i == 1) {
		*L = &m->hier.l1i;
		*X = &m->l1i;
	} else {
		unsigned k = (m->hier.split_l1 && i > 1) ? i - 1 : i;

		*L = &m->hier.levels[k];
		*X = &m->level[k];
	}
	return (*X)->ways && (*L)->line_size ? (*X)->size_bytes /
		((uint64_t)(*X)->ways * (*L)->line_size) : 0;
}

static void show_table(const struct machine *m)
{
	static const char *rule =
		"--------------------------------------------------------------------------------\n";
	double bw[SIM_MAX_LEVELS];
	unsigned i, nb;

	nb = machine_fill_bandwidths(m, bw);
	(void)nb;
	fputs(rule, stdout);
	printf("Machine:           %s\n", m->name);
	if (m->description && *m->description)
		printf("Description:       %s\n", m->description);
	printf("File:              %s\n", m->path ? m->path : "");
	printf("Clock:             %.3f GHz\n", m->clock_ghz);
	printf("Cores:             %u\n", m->cores);
	if (m->has_core)
		printf("Core model:        %s (%u-wide, ROB %u, %u ports)\n",
		       m->core.name, m->core.issue_width, m->core.rob_size,
		       m->core.nports);
	else
		printf("Core model:        none in the file (ppr uses %s's)\n",
		       model_machine_core(m)->name);
	if (m->flops_per_cycle_dp > 0)
		printf("Peak (DP):         %.0f flop/cy = %.1f GFLOP/s per core%s\n",
		       m->flops_per_cycle_dp, m->flops_per_cycle_dp * m->clock_ghz,
		       m->fma ? ", with FMA" : "");
	if (m->simd_width_bits)
		printf("SIMD width:        %u bit\n", m->simd_width_bits);
	if (m->load_bytes_per_cycle > 0)
		printf("L1 load/store:     %.0f / %.0f B/cy\n",
		       m->load_bytes_per_cycle, m->store_bytes_per_cycle);
	fputs(rule, stdout);
	puts("Cache Topology");
	fputs(rule, stdout);
	for (i = 0; i < show_nlevels(m); i++) {
		const struct sim_level_config *L;
		const struct machine_level *X;
		uint64_t psets = show_level(m, i, &L, &X);

		printf("Name:              %s\n", L->name);
		if (X->size_bytes >= (1u << 20))
			printf("Size:              %.1f MiB\n", X->size_bytes / 1048576.0);
		else
			printf("Size:              %llu KiB\n",
			       (unsigned long long)(X->size_bytes >> 10));
		printf("Type:              %s\n",
		       L->role == SIM_ROLE_DATA ? "Data cache" :
		       L->role == SIM_ROLE_INSTR ? "Instruction cache" : "Unified cache");
		printf("Associativity:     %u\n", X->ways);
		if (L->ways != X->ways)
			printf("Usable ways:       %u (%.1f MiB; the rest held by "
			       "other cores)\n", L->ways, L->size / 1048576.0);
		else if (psets && L->sets != psets)
			printf("Usable sets:       %llu (%.1f MiB; the rest held "
			       "by other cores: usable_by sets)\n",
			       (unsigned long long)L->sets, L->size / 1048576.0);
		printf("Number of sets:    %llu\n", (unsigned long long)
		       (psets ? psets : L->sets));
		printf("Cache line size:   %u\n", L->line_size);
		if (L->repl == SIM_REPL_DIP && L->lru_sets_share > 0)
			printf("Replacement:       %s, %.0f%% of the sets LRU\n",
			       sim_repl_name(L->repl),
			       100 * L->lru_sets_share);
		else
			printf("Replacement:       %s\n", sim_repl_name(L->repl));
		printf("Inclusion:         %s\n", machine_inclusion_name(L->inclusion));
		printf("Write policy:      %s\n", sim_write_name(L->write));
		printf("Prefetch:          %s\n", sim_prefetch_name(L->prefetch));
		if (X->bandwidth_bytes_per_cycle > 0)
			printf("Bandwidth up:      %.1f B/cy (%.1f GB/s)\n",
			       X->bandwidth_bytes_per_cycle,
			       X->bandwidth_bytes_per_cycle * m->clock_ghz);
		if (X->latency_cycles > 0)
			printf("Latency:           %.0f cy\n", X->latency_cycles);
		if (X->far_miss_cycles > 0)
			printf("Far reference:     %.3g cy when served here\n",
			       X->far_miss_cycles);
		if (X->writeback_share < 1)
			printf("Write-backs in:    %.3g of their bytes' bandwidth\n",
			       X->writeback_share);
		if (X->late_line_cycles > 0)
			printf("Late line:         %.3g cy (vector loads crossing lines)\n",
			       X->late_line_cycles);
		if (X->fill_load_cycles > 0)
			printf("Fill on loads:     %.3g cy a line filled from below\n",
			       X->fill_load_cycles);
		if (X->shared_by_cores > 1)
			printf("Shared by:         %u cores\n", X->shared_by_cores);
		fputs(rule, stdout);
	}
	printf("Memory:            %.2f GB/s sustained (%.2f B/cy)", m->mem_bandwidth_gbs,
	       m->mem_bandwidth_gbs / m->clock_ghz);
	if (m->mem_peak_bandwidth_gbs > 0)
		printf(", %.1f GB/s peak", m->mem_peak_bandwidth_gbs);
	if (m->mem_latency_ns > 0)
		printf(", latency %.0f ns", m->mem_latency_ns);
	if (m->mem_far_miss_cycles > 0)
		printf(", far reference %.3g cy", m->mem_far_miss_cycles);
	if (m->mem_late_line_ns > 0)
		printf(", late line %.3g ns (%.3g cy)", m->mem_late_line_ns,
		       m->mem_late_line_cycles);
	else if (m->mem_late_line_cycles > 0)
		printf(", late line %.3g cy", m->mem_late_line_cycles);
	if (m->mem_far_stream_serial > 0)
		printf(", far references hold up its stream (%.3g)",
		       m->mem_far_stream_serial);
	if (m->mem_stream_jump_cycles > 0)
		printf(", jumps between x's streams %.3g cy",
		       m->mem_stream_jump_cycles);
	if (m->mem_writeback_share < 1)
		printf(", write-backs take %.3g of their bytes' bandwidth",
		       m->mem_writeback_share);
	putchar('\n');
	if (m->csr_bw_points) {
		unsigned k;

		printf("CSR from memory:   ");
		for (k = 0; k < m->csr_bw_points; k++)
			printf("%s%.1f GB/s at %g", k ? ", " : "",
			       m->csr_bw_gbs[k], m->csr_bw_row_nnz[k]);
		printf(" nonzeros per row\n");
	}
	if (m->source && *m->source)
		printf("Source:            %s\n", m->source);
	if (m->val_csr.have) {
		const struct machine_validation *v = &m->val_csr;

		printf("Validated:         CSR SpMV on %u matrices%s%s: median "
		       "|error| %.1f%%, 90%% within %.1f%%, %+.1f%% to "
		       "%+.1f%%", v->all.matrices, v->date[0] ? ", " : "",
		       v->date, 100 * v->all.median_abs,
		       100 * v->all.p90_abs, 100 * v->all.min_err,
		       100 * v->all.max_err);
		if (v->exits.matrices)
			printf("; %u with %.0f%% or more mispredicted loop "
			       "exits: median %.1f%%, %+.1f%% to %+.1f%%",
			       v->exits.matrices, 100 * v->exit_share,
			       100 * v->exits.median_abs,
			       100 * v->exits.min_err,
			       100 * v->exits.max_err);
		putchar('\n');
	}
	if (m->val_bcsr.have) {
		const struct machine_val_bcsr *b = &m->val_bcsr;

		printf("Validated:         BCSR picks on %u matrices%s%s: "
		       "%.3f of the measured best on average, %.3f at least, "
		       "0.95 or more on %u\n", b->matrices,
		       b->date[0] ? ", " : "", b->date, b->mean_share,
		       b->min_share, b->at_least_95);
	}
	if (m->val_conv.have) {
		const struct machine_val_conv *c = &m->val_conv;

		printf("Validated:         convolution%s%s: %u of %u cells "
		       "within 10%%, median |error| %.1f%%, worst %+.1f%%; "
		       "best right at %u of %u sizes\n", c->date[0] ? ", " :
		       "", c->date, c->within_10, c->cells,
		       100 * c->median_abs, 100 * c->worst_err,
		       c->best_right, c->sizes);
	}
	fputs(rule, stdout);
}

/*
 * CSV: one row per cache level (the split L1's instruction cache second,
 * as in the table), then memory.  The caches' geometry is the physical
 * one; usable_ways / usable_sets are what the model simulates when other
 * cores hold the rest.  Numbers a level does not give are empty.
 */
static void csv_num(double v, const char *fmt)
{
	fputc(',', stdout);
	if (v > 0)
		printf(fmt, v);
}

static void show_csv(const struct machine *m)
{
	unsigned i;

	fputs("machine,level,type,size_bytes,ways,usable_ways,sets,usable_sets,"
	      "line_bytes,replacement,inclusion,write_policy,prefetch,"
	      "bandwidth_bytes_per_cycle,bandwidth_gbs,latency_cycles,"
	      "latency_ns\r\n", stdout);
	for (i = 0; i < show_nlevels(m); i++) {
		const struct sim_level_config *L;
		const struct machine_level *X;
		uint64_t psets = show_level(m, i, &L, &X);

		cli_csv_field(stdout, m->name);
		fputc(',', stdout);
		cli_csv_field(stdout, L->name);
		printf(",%s,%llu,%u,%u,%llu,%llu,%u,%s,%s,%s,%s",
		       L->role == SIM_ROLE_DATA ? "data" :
		       L->role == SIM_ROLE_INSTR ? "instruction" : "unified",
		       (unsigned long long)X->size_bytes, X->ways, L->ways,
		       (unsigned long long)(psets ? psets : L->sets),
		       (unsigned long long)L->sets, L->line_size,
		       sim_repl_name(L->repl),
		       machine_inclusion_name(L->inclusion),
		       sim_write_name(L->write), sim_prefetch_name(L->prefetch));
		csv_num(X->bandwidth_bytes_per_cycle, "%.6g");
		csv_num(X->bandwidth_bytes_per_cycle * m->clock_ghz, "%.6g");
		csv_num(X->latency_cycles, "%.6g");
		fputs(",\r\n", stdout);
	}
	cli_csv_field(stdout, m->name);
	fputs(",memory,memory,,,,,,,,,,", stdout);
	csv_num(m->clock_ghz > 0 ? m->mem_bandwidth_gbs / m->clock_ghz : 0,
		"%.6g");
	csv_num(m->mem_bandwidth_gbs, "%.6g");
	csv_num(m->mem_latency_ns * m->clock_ghz, "%.6g");
	csv_num(m->mem_latency_ns, "%.6g");
	fputs("\r\n", stdout);
}

static void show_json(const struct machine *m)
{
	cJSON *root = cJSON_CreateObject(), *lv, *arr, *o;
	unsigned i;
	char *text;

	cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
	cJSON_AddStringToObject(root, "machine", m->name);
	cJSON_AddStringToObject(root, "file", m->path ? m->path : "");
	o = cJSON_AddObjectToObject(root, "units");
	cJSON_AddStringToObject(o, "clock_ghz", "10^9 cycles/s");
	cJSON_AddStringToObject(o, "peak_gflops_dp", "10^9 flop/s");
	cJSON_AddStringToObject(o, "*_bytes", "B");
	cJSON_AddStringToObject(o, "*_cycles", "core cycles");
	cJSON_AddStringToObject(o, "*_bytes_per_cycle", "B per core cycle");
	cJSON_AddStringToObject(o, "*_gbs", "10^9 B/s");
	cJSON_AddStringToObject(o, "*_ns", "ns");
	cJSON_AddNumberToObject(root, "clock_ghz", m->clock_ghz);
	cJSON_AddNumberToObject(root, "cores", m->cores);
	cJSON_AddStringToObject(root, "core_model", model_machine_core(m)->name);
	cJSON_AddBoolToObject(root, "core_model_in_file", m->has_core);
	cJSON_AddNumberToObject(root, "peak_gflops_dp",
				m->flops_per_cycle_dp * m->clock_ghz);
	arr = cJSON_AddArrayToObject(root, "levels");
	for (i = 0; i < show_nlevels(m); i++) {
		const struct sim_level_config *L;
		const struct machine_level *X;
		uint64_t psets = show_level(m, i, &L, &X);

		lv = cJSON_CreateObject();
		cJSON_AddStringToObject(lv, "name", L->name);
		cJSON_AddNumberToObject(lv, "size_bytes", (double)X->size_bytes);
		cJSON_AddNumberToObject(lv, "sets", (double)(psets ? psets :
								L->sets));
		cJSON_AddNumberToObject(lv, "ways", X->ways);
		cJSON_AddNumberToObject(lv, "usable_ways", L->ways);
		cJSON_AddNumberToObject(lv, "usable_sets", (double)L->sets);
		cJSON_AddNumberToObject(lv, "line_bytes", L->line_size);
		cJSON_AddStringToObject(lv, "replacement", sim_repl_name(L->repl));
		if (L->repl == SIM_REPL_DIP)
			cJSON_AddNumberToObject(lv, "lru_sets_share",
						L->lru_sets_share);
		cJSON_AddStringToObject(lv, "inclusion", machine_inclusion_name(L->inclusion));
		cJSON_AddStringToObject(lv, "prefetch", sim_prefetch_name(L->prefetch));
		cJSON_AddNumberToObject(lv, "bandwidth_bytes_per_cycle",
					X->bandwidth_bytes_per_cycle);
		cJSON_AddNumberToObject(lv, "latency_cycles", X->latency_cycles);
		cJSON_AddNumberToObject(lv, "far_miss_cycles",
					X->far_miss_cycles);
		cJSON_AddNumberToObject(lv, "late_line_cycles",
					X->late_line_cycles);
		cJSON_AddNumberToObject(lv, "writeback_share",
					X->writeback_share);
		cJSON_AddNumberToObject(lv, "fill_load_cycles",
					X->fill_load_cycles);
		cJSON_AddItemToArray(arr, lv);
	}
	o = cJSON_AddObjectToObject(root, "memory");
	cJSON_AddNumberToObject(o, "bandwidth_gbs", m->mem_bandwidth_gbs);
	cJSON_AddNumberToObject(o, "peak_bandwidth_gbs", m->mem_peak_bandwidth_gbs);
	cJSON_AddNumberToObject(o, "latency_ns", m->mem_latency_ns);
	cJSON_AddNumberToObject(o, "far_miss_cycles", m->mem_far_miss_cycles);
	cJSON_AddNumberToObject(o, "late_line_cycles", m->mem_late_line_cycles);
	cJSON_AddNumberToObject(o, "late_line_ns", m->mem_late_line_ns);
	cJSON_AddNumberToObject(o, "far_stream_serial",
				m->mem_far_stream_serial);
	cJSON_AddNumberToObject(o, "stream_jump_cycles",
				m->mem_stream_jump_cycles);
	cJSON_AddNumberToObject(o, "writeback_share",
				m->mem_writeback_share);
	if (m->csr_bw_points) {
		cJSON *tab = cJSON_AddArrayToObject(o, "csr_bandwidth_gbs");
		unsigned k;

		for (k = 0; k < m->csr_bw_points; k++) {
			cJSON *pair = cJSON_CreateArray();

			cJSON_AddItemToArray(pair,
					     cJSON_CreateNumber(m->csr_bw_row_nnz[k]));
			cJSON_AddItemToArray(pair, cJSON_CreateNumber(m->csr_bw_gbs[k]));
			cJSON_AddItemToArray(tab, pair);
		}
	}
	o = machine_validation_json(m);
	if (o)
		cJSON_AddItemToObject(root, "validation", o);
	text = cJSON_Print(root);
	if (text)
		puts(text);
	free(text);
	cJSON_Delete(root);
}

static int show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum cli_format fmt = CLI_FMT_TABLE;
	struct machine m = { 0 };
	struct ppr_err err = { 0 };
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_str,
					"machine show: --format must be table, "
					"csv or json");
			break;
		case 'h': print_help(); return 0;
		default:
			return cli_usage_error(usage_str, "machine show: "
					       "unknown or incomplete "
					       "option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error(usage_str, "machine show: expected one machine file");
	if (machine_load(argv[optind], &m, &err))
		return cli_error_err(&err);
	if (fmt == CLI_FMT_JSON)
		show_json(&m);
	else if (fmt == CLI_FMT_CSV)
		show_csv(&m);
	else
		show_table(&m);
	machine_release(&m);
	return 0;
}

int cmd_machine(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(usage_str, "machine: expected 'detect' or 'show'");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_help();
		return 0;
	}
	if (!strcmp(argv[1], "detect"))
		return detect(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return show(argc - 1, argv + 1);
	return cli_usage_error(usage_str, "machine: unknown subcommand '%s'", argv[1]);
}
