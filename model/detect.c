/*
 * detect.c - measure the machine ppr runs on: caches from sysfs or CPUID,
 * the core clock, FMA peak, read bandwidth per working-set size, load
 * latency.
 *
 * Notes:
 * - Cycles come from chains of dependent instructions whose latency is a
 *   known number of core cycles (integer add: 1 cycle), timed with the
 *   thread's CPU-time clock (CLOCK_THREAD_CPUTIME_ID).  The TSC runs at a fixed rate that is not the core
 *   clock (here about 2.6 GHz against 3.7 GHz under load), so it is never
 *   used as a cycle counter.
 * - Bandwidth kernels are x86-64 inline assembly so the compiler can
 *   neither vectorise them differently nor delete the loads: 256-bit aligned
 *   loads into registers that are never used (as likwid-bench's "load"
 *   kernel does), 8 loads per 256 bytes.  Without AVX, 128-bit loads.
 * - Each run repeats the kernel until at least min_seconds have passed, so
 *   timer resolution does not matter; runs are summarised by min / median /
 *   max.  The machine is shared and virtualised: take the median.
 * - The pointer chase asks for transparent huge pages (madvise); where the
 *   kernel refuses, the latency includes TLB misses.
 * - Nothing here needs hardware performance counters.
 * - Usable capacity: on a virtual machine the last level is shared with
 *   the host's other tenants, whose lines take part of it; a read sweep
 *   over working sets finds where the bandwidth starts to fall from the
 *   level's (its highest point in the sweep) toward the memory's: the
 *   first working set past that highest point whose bandwidth has lost
 *   a tenth (DETECT_CAPACITY_FALL) of the difference, and `ppr machine
 *   detect` writes that share of the ways as the level's usable_ways.
 *   Since 2026-11-27 the fall counts for good only: the crossing follows
 *   the last working set still at or above that threshold, not the
 *   first below it.  On the Zen 4 host four quiet refreshes read 5-6
 *   ways (sweeps smooth within 3% up to 10 MiB; the threshold is about
 *   7% under the top), while refreshes on a busy night read 3, 5 and 6,
 *   and with 3 de2010 was predicted at DRAM speed (+97%) where it ran
 *   from the L3.  Those sweeps were not kept; a point a few percent low
 *   early in the sweep is the likely cause (the quiet sweeps' first
 *   points already vary by 3-5%), and the first-point rule ends the level
 *   at such a point.
 *   Halfway, the rule until 2026-11-25, is too late for SpMV: a sequential
 *   read keeps part of its lines in the L3 well past the point where an
 *   SpMV, with its other streams, gets none.  Measured on the zen4-epyc
 *   guest (32 MiB L3, 2026-11-25 13:30): two sweeps fall halfway at 30 MiB
 *   (15 ways), while CSR SpMV of laplace3d (ppr measure) runs at 0.29-0.35
 *   ns per nonzero up to a 19.8 MB working set (n = 57) and at 0.46,
 *   0.58, 0.61 and 0.77 ns at 21.9, 24.2, 28.0 and 54.8 MB; the tenth
 *   gives 18.0 and 20.8 MiB in the same two sweeps (9 and 10 ways).  The
 *   earlier guest fell halfway at 12-23 MiB.
 * - Caches come from sysfs (cpu0/cache/index*), which Linux builds from
 *   CPUID.  Virtual machines and containers may have no such directory
 *   (a Firecracker guest on an EPYC family 1Ah has none); then CPUID is
 *   read directly: Intel leaf 4; AMD 0x8000001D when TOPOEXT is set and
 *   it lists caches (both give what sysfs would); else AMD's legacy
 *   0x80000005/0x80000006.  The legacy L3 is never used: the leaf does not
 *   say which cores share it, and that Firecracker guest reads 1016 x 512
 *   KiB (the socket's L3, associativity code 9 "see 0x8000001D", which it
 *   hides) where a core's complex has 32 MiB.  A level with unknown ways
 *   (code 9 without 0x8000001D, reserved code 7, fully associative) is
 *   left out, never guessed, and with it every data level beyond, so the
 *   hierarchy has no hole; the result says what was left out and whether
 *   a level nearer memory is missing (partial), and `ppr machine detect`
 *   then reports the read-bandwidth capacity beyond the last level it
 *   describes instead of a usable_ways.  Legacy figures can differ from
 *   0x8000001D's: that guest's legacy L2 reads code 6 (8-way, 2048 sets)
 *   where the earlier guest's sysfs (zen4-epyc.json) said 16-way.
 */
#include "model/model.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "common/xalloc.h"
#include "kernels/kernels.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

/*
 * The thread's CPU time, not wall time: time the thread spends descheduled
 * (this machine is shared) does not count, so a figure does not drop when
 * another process takes the core.
 */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void summarise(double *v, unsigned n, struct detect_stat *st)
{
	qsort(v, n, sizeof(*v), cmp_double);
	st->runs = n;
	st->min = v[0];
	st->max = v[n - 1];
	st->median = (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- sysfs ---------------------------------------------------------- */

static int read_line(const char *dir, const char *name, char *buf, size_t n)
{
	char path[1024];
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = 0;
	return 0;
}

static int read_u64(const char *dir, const char *name, uint64_t *out,
		    struct ppr_err *err)
{
	char buf[64], *end;
	unsigned long long v;
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_line(dir, name, buf, sizeof(buf)))
		return ppr_err_set(err, PPR_EIO, path, 0, 0,
				   "cannot read: %s", strerror(errno));
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return ppr_err_set(err, PPR_EFORMAT, path, 1, 0,
				   "'%s' is not a number", buf);
	/* sizes are printed as e.g. "48K" or "1024K" or "32M" */
	if (*end == 'K')
		v <<= 10, end++;
	else if (*end == 'M')
		v <<= 20, end++;
	else if (*end == 'G')
		v <<= 30, end++;
	if (*end)
		return ppr_err_set(err, PPR_EFORMAT, path, 1, 0,
				   "'%s' is not a number", buf);
	*out = v;
	return 0;
}

int detect_caches_sysfs(const char *root, struct detect_cache *out,
			unsigned *n, struct ppr_err *err)
{
	unsigned i, k = 0;
	int rc;

	for (i = 0; i < 16 && k < DETECT_MAX_CACHES; i++) {
		char dir[900], probe[32];
		uint64_t v;
		struct detect_cache *c = &out[k];

		snprintf(dir, sizeof(dir), "%s/index%u", root, i);
		if (read_line(dir, "level", probe, sizeof(probe)))
			break;
		memset(c, 0, sizeof(*c));
		if ((rc = read_u64(dir, "level", &v, err)))
			return rc;
		c->level = (unsigned)v;
		if (read_line(dir, "type", c->type, sizeof(c->type)))
			return ppr_err_set(err, PPR_EIO, dir, 0, 0,
					   "cannot read cache type");
		if ((rc = read_u64(dir, "size", &c->size, err)) ||
		    (rc = read_u64(dir, "number_of_sets", &c->sets, err)))
			return rc;
		if ((rc = read_u64(dir, "ways_of_associativity", &v, err)))
			return rc;
		c->ways = (uint32_t)v;
		if ((rc = read_u64(dir, "coherency_line_size", &v, err)))
			return rc;
		c->line_size = (uint32_t)v;
		k++;
	}
	if (!k)
		return ppr_err_set(err, PPR_ENOENT, root, 0, 0,
				   "no cache description found");
	*n = k;
	return 0;
}

/* ---- CPUID ---------------------------------------------------------- */

/*
 * Register layouts, from AMD64 Architecture Programmer's Manual vol. 3
 * (pub. 24594), appendix E "Obtaining Processor Information Via the CPUID
 * Instruction": Fn8000_0005 (L1), Fn8000_0006 (L2, L3) with its table
 * "L2/L3 Cache and TLB Associativity Field Encoding", Fn8000_001D (cache
 * topology), Fn8000_0001 ECX bit 22 TopologyExtensions; and Intel SDM
 * vol. 2A, CPUID leaf 04H "Deterministic Cache Parameters", whose layout
 * 0x8000001D repeats:
 *
 *   leaf 4 / 0x8000001D, subleaf i: EAX 4:0 type (0 = no more caches,
 *     1 data, 2 instruction, 3 unified), 7:5 level, 9 fully associative;
 *     EBX 11:0 line - 1, 21:12 partitions - 1, 31:22 ways - 1;
 *     ECX sets - 1.
 *   0x80000005 ECX (L1D), EDX (L1I): 31:24 size KiB, 23:16 ways
 *     (0 reserved, 0xFF fully associative), 7:0 line bytes.
 *   0x80000006 ECX (L2): 31:16 size KiB, 15:12 associativity code,
 *     7:0 line; EDX (L3): 31:18 size in 512 KiB units, 15:12 code, 7:0
 *     line.  Codes: 0 disabled, 1 direct mapped, 2, 3, 4 ways, 5 6-way,
 *     6 8-way, 7 reserved, 8 16-way, 9 "see Fn8000_001D", A 32-way,
 *     B 48-way, C 64-way, D 96-way, E 128-way, F fully associative.
 */
int detect_amd_assoc(unsigned code)
{
	static const int ways[16] = {
		0, 1, 2, 3, 4, 6, 8, DETECT_ASSOC_RESERVED,
		16, DETECT_ASSOC_SEE_1D, 32, 48, 64, 96, 128, DETECT_ASSOC_FULL,
	};

	return ways[code & 15];
}

#define NO_CUT UINT_MAX

__attribute__((format(printf, 2, 3)))
static void note_add(struct detect_cpuid_note *note, const char *fmt, ...)
{
	size_t len = strlen(note->left_out), cap = sizeof(note->left_out);
	va_list ap;

	if (len && len + 2 < cap) {
		memcpy(note->left_out + len, "; ", 3);
		len += 2;
	}
	if (len + 1 >= cap)
		return;
	va_start(ap, fmt);
	vsnprintf(note->left_out + len, cap - len, fmt, ap);
	va_end(ap);
}

/* "L1D", "L1I", "L1", "L2" ...: the names `ppr machine detect` writes. */
static const char *level_name(unsigned level, const char *type, char *buf,
			      size_t n)
{
	if (level == 1 && strcmp(type, "Unified"))
		snprintf(buf, n, "L1%c", type[0] == 'I' ? 'I' : 'D');
	else
		snprintf(buf, n, "L%u", level);
	return buf;
}

static const char *size_text(uint64_t bytes, char *buf, size_t n)
{
	if (bytes >= (1u << 20) && !(bytes & ((1u << 20) - 1)))
		snprintf(buf, n, "%llu MiB", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, n, "%llu KiB", (unsigned long long)(bytes >> 10));
	return buf;
}

struct cpuid_acc {
	struct detect_cache *out;
	unsigned k;
	unsigned cut;             /* lowest data/unified level left out */
	struct detect_cpuid_note *note;
};

/* A level that exists but is not described: left out, and for a data or
 * unified level everything beyond it too. */
__attribute__((format(printf, 4, 5)))
static void leave_out(struct cpuid_acc *a, unsigned level, const char *type,
		      const char *fmt, ...)
{
	char name[16], why[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	note_add(a->note, "%s %s", level_name(level, type, name, sizeof(name)),
		 why);
	if (strcmp(type, "Instruction") && level < a->cut)
		a->cut = level;
}

/* Add a level whose geometry is known, if it is one the simulator takes. */
static void take(struct cpuid_acc *a, unsigned level, const char *type,
		 uint64_t size, uint64_t ways, uint64_t line, const char *from)
{
	struct detect_cache *c;
	char sz[32];

	size_text(size, sz, sizeof(sz));
	if (!level || level > 7 || !size || !ways || line < 8 ||
	    line > 1048576 || (line & (line - 1)) || ways > UINT32_MAX ||
	    size % (ways * line)) {
		leave_out(a, level, type, "%s %llu-way %llu B lines (%s): not a "
			  "whole number of sets", sz, (unsigned long long)ways,
			  (unsigned long long)line, from);
		return;
	}
	if (a->k == DETECT_MAX_CACHES) {
		leave_out(a, level, type, "%s (%s): more than %d caches", sz,
			  from, DETECT_MAX_CACHES);
		return;
	}
	c = &a->out[a->k++];
	memset(c, 0, sizeof(*c));
	c->level = level;
	snprintf(c->type, sizeof(c->type), "%s", type);
	c->size = size;
	c->ways = (uint32_t)ways;
	c->line_size = (uint32_t)line;
	c->sets = size / (ways * line);
}

static const char *const det_type[4] = {
	NULL, "Data", "Instruction", "Unified"
};

/* Subleaves before the first null one (type 0). */
static unsigned det_count(const uint32_t (*sub)[4])
{
	unsigned i = 0;

	while (i < DETECT_CPUID_SUBLEAVES && (sub[i][0] & 0x1f))
		i++;
	return i;
}

static void decode_det(const uint32_t (*sub)[4], const char *leaf,
		       struct cpuid_acc *a)
{
	unsigned i, cnt = det_count(sub);

	for (i = 0; i < cnt; i++) {
		uint32_t eax = sub[i][0], ebx = sub[i][1];
		unsigned t = eax & 0x1f, level = (eax >> 5) & 7;
		uint64_t line = (ebx & 0xfff) + 1;
		uint64_t parts = ((ebx >> 12) & 0x3ff) + 1;
		uint64_t ways = ((ebx >> 22) & 0x3ff) + 1;
		uint64_t sets = (uint64_t)sub[i][2] + 1;
		char from[48];

		snprintf(from, sizeof(from), "%s subleaf %u", leaf, i);
		if (t > 3) {
			note_add(a->note, "%s: cache type %u (reserved)", from, t);
			continue;
		}
		if (eax & (1u << 9)) {
			leave_out(a, level, det_type[t], "(%s): fully associative, "
				  "not a geometry ppr simulates from CPUID", from);
			continue;
		}
		take(a, level, det_type[t], line * parts * ways * sets, ways,
		     line, from);
	}
}

/* 0x80000005 ECX / EDX. */
static void legacy_l1(uint32_t reg, const char *type, const char *from,
		      struct cpuid_acc *a)
{
	uint64_t size = (uint64_t)(reg >> 24) << 10;
	unsigned assoc = (reg >> 16) & 0xff;

	if (!size)
		leave_out(a, 1, type, "(%s): size 0, not reported", from);
	else if (!assoc)
		leave_out(a, 1, type, "(%s): associativity 0 (reserved)", from);
	else if (assoc == 0xff)
		leave_out(a, 1, type, "(%s): fully associative (0xFF), not "
			  "believable for a cache, not simulated", from);
	else
		take(a, 1, type, size, assoc, reg & 0xff, from);
}

/* Why an 0x80000006 associativity code gives no ways, or NULL. */
static const char *code_why(int ways, int topoext)
{
	switch (ways) {
	case DETECT_ASSOC_SEE_1D:
		return topoext ? "code 9, 'see 0x8000001D', which lists no caches"
			       : "code 9, 'see 0x8000001D', which this CPU does "
				 "not provide (no TOPOEXT)";
	case DETECT_ASSOC_FULL:
		return "code 0xF, fully associative: not believable for a "
		       "cache this size";
	case DETECT_ASSOC_RESERVED:
		return "code 7, reserved";
	}
	return NULL;
}

static void decode_legacy(const struct detect_cpuid_regs *r, int topoext,
			  struct cpuid_acc *a)
{
	static const char l3_why[] =
		"the legacy leaf does not say which cores share it (under a "
		"hypervisor it can be the whole socket's L3, not a core's share)";
	uint32_t ecx = r->amd_l2l3[2], edx = r->amd_l2l3[3];
	uint64_t size;
	int ways;
	char sz[32];
	const char *why;

	legacy_l1(r->amd_l1[2], "Data", "0x80000005 ECX", a);
	legacy_l1(r->amd_l1[3], "Instruction", "0x80000005 EDX", a);
	if (r->max_ext_leaf < 0x80000006) {
		leave_out(a, 2, "Unified", "and beyond: no CPUID 0x80000006");
		return;
	}
	/* L2 */
	size = (uint64_t)(ecx >> 16) << 10;
	ways = detect_amd_assoc((ecx >> 12) & 15);
	size_text(size, sz, sizeof(sz));
	if (ways == 0 || !size)
		note_add(a->note, "L2: disabled or absent (0x80000006 ECX: "
			 "%s, associativity code %u)", sz, (ecx >> 12) & 15);
	else if ((why = code_why(ways, topoext)))
		leave_out(a, 2, "Unified", "%s (0x80000006 ECX): associativity "
			  "%s", sz, why);
	else
		take(a, 2, "Unified", size, (uint64_t)ways, ecx & 0xff,
		     "0x80000006 ECX");
	/*
	 * L3: never taken.  The legacy leaf does not say which cores share
	 * the L3, and a hypervisor may pass the host's figure through: on a
	 * Firecracker guest of an EPYC family 1Ah it reads 1016 x 512 KiB
	 * (the socket's L3) where a core's complex has 32 MiB.
	 */
	size = (uint64_t)(edx >> 18) << 19;
	ways = detect_amd_assoc((edx >> 12) & 15);
	if (!size || ways == 0)
		return; /* no L3 */
	size_text(size, sz, sizeof(sz));
	why = code_why(ways, topoext);
	if (why)
		leave_out(a, 3, "Unified", "%s (0x80000006 EDX): associativity "
			  "%s, and %s", sz, why, l3_why);
	else
		leave_out(a, 3, "Unified", "%s %d-way (0x80000006 EDX): %s", sz,
			  ways, l3_why);
}

int detect_caches_cpuid_decode(const struct detect_cpuid_regs *r,
			       struct detect_cache *out, unsigned *n,
			       struct detect_cpuid_note *note,
			       struct ppr_err *err)
{
	struct detect_cpuid_note local;
	struct cpuid_acc a;
	unsigned i, j;
	int l1d = 0;

	if (!note)
		note = &local;
	memset(note, 0, sizeof(*note));
	a.out = out;
	a.k = 0;
	a.cut = NO_CUT;
	a.note = note;
	if (!strcmp(r->vendor, "GenuineIntel")) {
		note->source = "CPUID leaf 4 (Intel deterministic cache parameters)";
		if (r->max_leaf < 4 || !det_count(r->det_leaf4))
			return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
					   "CPUID leaf 4 lists no caches (max "
					   "leaf %u; a hypervisor may hide them)",
					   r->max_leaf);
		decode_det(r->det_leaf4, "leaf 4", &a);
	} else if (!strcmp(r->vendor, "AuthenticAMD") ||
		   !strcmp(r->vendor, "HygonGenuine")) {
		int topoext = r->max_ext_leaf >= 0x80000001 &&
			      (r->ext1_ecx >> 22 & 1);

		if (topoext && r->max_ext_leaf >= 0x8000001d &&
		    det_count(r->det_amd)) {
			note->source = "CPUID 0x8000001D (AMD cache topology)";
			decode_det(r->det_amd, "0x8000001D", &a);
		} else {
			if (r->max_ext_leaf < 0x80000005)
				return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
						   "CPUID has no cache leaves "
						   "(max extended leaf 0x%x)",
						   r->max_ext_leaf);
			note->source = topoext ?
				"CPUID 0x80000005/0x80000006 (AMD legacy cache "
				"leaves; 0x8000001D lists no caches)" :
				"CPUID 0x80000005/0x80000006 (AMD legacy cache "
				"leaves; no TOPOEXT, so no 0x8000001D)";
			note->legacy = 1;
			decode_legacy(r, topoext, &a);
		}
	} else {
		return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
				   "CPU vendor '%s': ppr reads the CPUID cache "
				   "leaves of GenuineIntel, AuthenticAMD and "
				   "HygonGenuine only", r->vendor);
	}
	/* No hole in the hierarchy: what lies beyond a level left out goes
	 * too (the simulator would send that level's hits to the next). */
	for (i = j = 0; i < a.k; i++) {
		char name[16];

		if (strcmp(out[i].type, "Instruction") && out[i].level > a.cut) {
			note_add(note, "%s: beyond the left-out L%u",
				 level_name(out[i].level, out[i].type, name,
					    sizeof(name)), a.cut);
			continue;
		}
		if (out[i].level == 1 && strcmp(out[i].type, "Instruction"))
			l1d = 1;
		out[j++] = out[i];
	}
	note->partial = a.cut != NO_CUT;
	if (!l1d)
		return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
				   "%s: no usable first-level data cache%s%s",
				   note->source, *note->left_out ? ": " : "",
				   note->left_out);
	*n = j;
	return 0;
}

/*
 * A machine file's level against a detected cache (`ppr machine detect
 * --base`).  The legacy L2 code is a hypervisor's to fill: the Firecracker
 * guest of an EPYC family 1Ah reads code 6 (8-way, 2048 sets) for the 1
 * MiB L2 whose 0x8000001D, on the earlier guest of the same CPU, said
 * 16-way (zen4-epyc.json, from its sysfs).  So a legacy level's size and
 * line size must agree, and its ways and sets are the file's.
 */
int detect_base_level_match(const struct detect_cache *k, int legacy,
			    const double geo[4])
{
	if (geo[0] != (double)k->size || geo[3] != (double)k->line_size)
		return DETECT_BASE_OTHER;
	if (geo[1] == (double)k->sets && geo[2] == (double)k->ways)
		return DETECT_BASE_SAME;
	return legacy && k->level >= 2 ? DETECT_BASE_SIZE : DETECT_BASE_OTHER;
}

#if defined(__x86_64__)
/* A deterministic cache leaf (4, 0x8000001D): subleaves up to the first
 * with cache type 0 (no more caches), that one included. */
static void cpuid_subleaves(unsigned leaf,
			    uint32_t out[DETECT_CPUID_SUBLEAVES][4])
{
	unsigned a, b, c, d, i;

	for (i = 0; i < DETECT_CPUID_SUBLEAVES; i++) {
		__cpuid_count(leaf, i, a, b, c, d);
		out[i][0] = a;
		out[i][1] = b;
		out[i][2] = c;
		out[i][3] = d;
		if (!(a & 0x1f))
			break;
	}
}

static void cpuid_read(struct detect_cpuid_regs *r)
{
	unsigned a, b, c, d, max;
	int amd;

	memset(r, 0, sizeof(*r));
	__cpuid(0, a, b, c, d);
	r->max_leaf = a;
	memcpy(r->vendor, &b, 4);
	memcpy(r->vendor + 4, &d, 4);
	memcpy(r->vendor + 8, &c, 4);
	if (!strcmp(r->vendor, "GenuineIntel") && r->max_leaf >= 4)
		cpuid_subleaves(4, r->det_leaf4);
	__cpuid(0x80000000, max, b, c, d);
	if (max < 0x80000000 || max > 0x8000ffff)
		return; /* no extended leaves */
	r->max_ext_leaf = max;
	if (max >= 0x80000001) {
		__cpuid(0x80000001, a, b, c, d);
		r->ext1_ecx = c;
	}
	if (max >= 0x80000005) {
		__cpuid(0x80000005, a, b, c, d);
		r->amd_l1[0] = a, r->amd_l1[1] = b;
		r->amd_l1[2] = c, r->amd_l1[3] = d;
	}
	if (max >= 0x80000006) {
		__cpuid(0x80000006, a, b, c, d);
		r->amd_l2l3[0] = a, r->amd_l2l3[1] = b;
		r->amd_l2l3[2] = c, r->amd_l2l3[3] = d;
	}
	amd = !strcmp(r->vendor, "AuthenticAMD") ||
	      !strcmp(r->vendor, "HygonGenuine");
	/* 0x8000001D only with TOPOEXT: without it the leaf is undefined. */
	if (amd && (r->ext1_ecx >> 22 & 1) && max >= 0x8000001d)
		cpuid_subleaves(0x8000001d, r->det_amd);
}
#endif

int detect_caches_cpuid(struct detect_cache *out, unsigned *n,
			struct detect_cpuid_note *note, struct ppr_err *err)
{
#if defined(__x86_64__)
	struct detect_cpuid_regs r;

	cpuid_read(&r);
	return detect_caches_cpuid_decode(&r, out, n, note, err);
#else
	(void)out; (void)n;
	if (note)
		memset(note, 0, sizeof(*note));
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "cache description from CPUID needs x86-64");
#endif
}

/* ---- core model ----------------------------------------------------- */

const char *detect_core_decode(const char *vendor, uint32_t eax,
			       uint32_t leaf7_edx, unsigned *family,
			       unsigned *model)
{
	/* leaf 7 EDX: AVX512-FP16 bit 23, AMX-TILE bit 24 (Intel SDM,
	   CPUID) */
	const uint32_t spr_class = 1u << 23 | 1u << 24;
	unsigned base_fam = eax >> 8 & 0xf, fam = base_fam;
	unsigned mod = eax >> 4 & 0xf;

	/* display family and model (AMD and Intel manuals, CPUID leaf 1) */
	if (base_fam == 0xf)
		fam += eax >> 20 & 0xff;
	if (base_fam == 0xf || base_fam == 0x6)
		mod |= (eax >> 16 & 0xf) << 4;
	if (family)
		*family = fam;
	if (model)
		*model = mod;
	if (!strcmp(vendor, "AuthenticAMD")) {
		if (fam == 0x1a)
			return "zen5";
		if (fam == 0x19 && ((mod >= 0x10 && mod <= 0x1f) ||
				    (mod >= 0x60 && mod <= 0x7f) ||
				    (mod >= 0xa0 && mod <= 0xaf)))
			return "zen4";
	} else if (!strcmp(vendor, "GenuineIntel") && fam == 6) {
		if (mod == 0x3c || mod == 0x3f || mod == 0x45 || mod == 0x46)
			return "haswell";
		if (mod == 0x8f || mod == 0xcf || mod == 0xad || mod == 0xae)
			return "goldencove";
		/* AMX and AVX512-FP16 together: only the Sapphire Rapids
		   class of server cores has both */
		if ((leaf7_edx & spr_class) == spr_class)
			return "goldencove";
	}
	return NULL;
}

const char *detect_core_name(unsigned *family, unsigned *model)
{
#if defined(__x86_64__)
	struct detect_cpuid_regs r;
	unsigned a, b, c, d;

	cpuid_read(&r);
	if (r.max_leaf >= 1) {
		uint32_t eax1, edx7 = 0;

		__cpuid(1, a, b, c, d);
		eax1 = a;
		if (r.max_leaf >= 7) {
			__cpuid_count(7, 0, a, b, c, d);
			edx7 = d;
		}
		return detect_core_decode(r.vendor, eax1, edx7, family, model);
	}
#endif
	if (family)
		*family = 0;
	if (model)
		*model = 0;
	return NULL;
}

/* ---- core clock ----------------------------------------------------- */

#if defined(__x86_64__)
/*
 * 100 dependent adds per iteration: 100 cycles (latency 1).  The addend
 * is a register, not an immediate: Intel's Golden Cove and its successors
 * (Sapphire, Emerald and Granite Rapids P-cores) do 64-bit adds of small
 * immediates in the renamer at no latency (uops.info's Alder Lake-P
 * measurements of INC_R64 and ADD_R64_I8), so a chain of "addq $1" ran
 * 5.9 adds a cycle on this project's Granite Rapids guest (2026-12-01:
 * 20.5 G a second, against 3.48 G for register adds, imul chains / 3 and
 * adds of a large immediate alike) and detect wrote a 20 GHz clock.
 */
static void add_chain(uint64_t iters)
{
	uint64_t x = 0, one = 1;

	/* "one" comes in through the asm, so the compiler cannot make it
	   an immediate */
	__asm__ volatile("" : "+r"(one));
	while (iters--)
		__asm__ volatile(".rept 100\n\taddq %1, %0\n\t.endr"
				 : "+r"(x) : "r"(one));
	__asm__ volatile("" : : "r"(x));
}
#endif

double detect_attempt_offness(double ghz, double drift, double fastest)
{
	double slow = fastest > 0 && ghz < fastest ? 1 - ghz / fastest : 0;

	return fabs(drift) > slow ? fabs(drift) : slow;
}

int detect_fastest(const double *ghz, unsigned n)
{
	int best = -1;
	unsigned i;

	for (i = 0; i < n; i++)
		if (ghz[i] > 0 && (best < 0 || ghz[i] > ghz[best]))
			best = (int)i;
	return best;
}

int detect_core_clock(unsigned runs, struct detect_stat *ghz,
		      struct ppr_err *err)
{
#if defined(__x86_64__)
	double v[64];
	uint64_t iters = 1000000;
	unsigned r;

	if (!runs || runs > 64)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64");
	add_chain(iters); /* warm up: let the clock ramp */
	for (r = 0; r < runs; r++) {
		double t0, t;

		/* grow the chain until a run takes >= 20 ms */
		for (;;) {
			t0 = now_s();
			add_chain(iters);
			t = now_s() - t0;
			if (t >= 0.02)
				break;
			iters *= 2;
		}
		v[r] = (double)iters * 100 / t / 1e9;
	}
	summarise(v, runs, ghz);
	return 0;
#else
	(void)runs; (void)ghz;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "clock measurement needs x86-64");
#endif
}

int detect_clock_windows_summarise(double *ghz, unsigned n,
				   struct detect_clock_windows *out)
{
	unsigned i, fast = 0;
	struct detect_stat st;

	if (!n)
		return PPR_EINVAL;
	summarise(ghz, n, &st);
	for (i = 0; i < n; i++)
		if (ghz[i] >= 0.98 * st.max)
			fast++;
	out->windows = n;
	out->fastest_ghz = st.max;
	out->median_ghz = st.median;
	/* ghz is sorted: the rank floor(0.95 (n - 1)), so one fast window
	   in twenty may lie above it (the 21st fastest of 400) */
	out->p95_ghz = ghz[(unsigned)(0.95 * (n - 1))];
	out->uninterrupted = (double)fast / n;
	return 0;
}

int detect_clock_windows(unsigned n, double window_s,
			 struct detect_clock_windows *out,
			 struct ppr_err *err)
{
#if defined(__x86_64__)
	double *v, t0, t;
	uint64_t iters = 64;
	unsigned i;

	if (!n || n > 100000 || !(window_s > 0) || window_s > 1)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "clock windows: 1..100000 windows of "
				   "(0, 1] s");
	add_chain(1000000); /* let the clock ramp */
	/* iterations of 100 adds that take about window_s */
	for (;;) {
		t0 = now_s();
		add_chain(iters);
		t = now_s() - t0;
		if (t >= window_s / 4 || iters > ((uint64_t)1 << 40))
			break;
		iters *= 2;
	}
	if (t > 0)
		iters = (uint64_t)((double)iters * window_s / t) + 1;
	v = malloc(sizeof(*v) * n);
	if (!v)
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "out of memory");
	for (i = 0; i < n; i++) {
		t0 = now_s();
		add_chain(iters);
		t = now_s() - t0;
		v[i] = t > 0 ? (double)iters * 100 / t / 1e9 : 0;
	}
	detect_clock_windows_summarise(v, n, out);
	out->window_s = (double)iters * 100 / (out->median_ghz * 1e9);
	free(v);
	return 0;
#else
	(void)n; (void)window_s; (void)out;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "clock measurement needs x86-64");
#endif
}

/* ---- FMA peak ------------------------------------------------------- */

#if defined(__x86_64__)
/* 12 independent vfmadd231pd ymm chains: 12 FMAs x 4 doubles x 2 flops. */
static void fma_chains(uint64_t iters)
{
	__asm__ volatile(
		"vxorpd %%ymm0, %%ymm0, %%ymm0\n\t"
		"vmovapd %%ymm0, %%ymm1\n\tvmovapd %%ymm0, %%ymm2\n\t"
		"vmovapd %%ymm0, %%ymm3\n\tvmovapd %%ymm0, %%ymm4\n\t"
		"vmovapd %%ymm0, %%ymm5\n\tvmovapd %%ymm0, %%ymm6\n\t"
		"vmovapd %%ymm0, %%ymm7\n\tvmovapd %%ymm0, %%ymm8\n\t"
		"vmovapd %%ymm0, %%ymm9\n\tvmovapd %%ymm0, %%ymm10\n\t"
		"vmovapd %%ymm0, %%ymm11\n\tvmovapd %%ymm0, %%ymm12\n\t"
		"vmovapd %%ymm0, %%ymm13\n\t"
		"1:\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm0\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm1\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm2\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm3\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm4\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm5\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm6\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm7\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm8\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm9\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm10\n\t"
		"vfmadd231pd %%ymm12, %%ymm13, %%ymm11\n\t"
		"decq %0\n\t"
		"jnz 1b\n\t"
		"vzeroupper\n\t"
		: "+r"(iters)
		:
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "cc");
}
/* The same with 512-bit registers (AVX-512F): 12 x 8 doubles x 2 flops. */
static void fma_chains512(uint64_t iters)
{
	__asm__ volatile(
		"vpxorq %%zmm0, %%zmm0, %%zmm0\n\t"
		"vmovapd %%zmm0, %%zmm1\n\tvmovapd %%zmm0, %%zmm2\n\t"
		"vmovapd %%zmm0, %%zmm3\n\tvmovapd %%zmm0, %%zmm4\n\t"
		"vmovapd %%zmm0, %%zmm5\n\tvmovapd %%zmm0, %%zmm6\n\t"
		"vmovapd %%zmm0, %%zmm7\n\tvmovapd %%zmm0, %%zmm8\n\t"
		"vmovapd %%zmm0, %%zmm9\n\tvmovapd %%zmm0, %%zmm10\n\t"
		"vmovapd %%zmm0, %%zmm11\n\tvmovapd %%zmm0, %%zmm12\n\t"
		"vmovapd %%zmm0, %%zmm13\n\t"
		"1:\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm0\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm1\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm2\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm3\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm4\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm5\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm6\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm7\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm8\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm9\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm10\n\t"
		"vfmadd231pd %%zmm12, %%zmm13, %%zmm11\n\t"
		"decq %0\n\t"
		"jnz 1b\n\t"
		"vzeroupper\n\t"
		: "+r"(iters)
		:
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "cc");
}
#endif

int detect_fma_peak(double clock_ghz, unsigned runs, struct detect_stat *fpc,
		    struct ppr_err *err)
{
#if defined(__x86_64__)
	double v[64];
	uint64_t iters = 100000;
	unsigned r;
	int wide;

	if (!runs || runs > 64 || !(clock_ghz > 0))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64 and the clock positive");
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
		return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
				   "this CPU has no AVX2/FMA: FMA peak not measured");
	wide = __builtin_cpu_supports("avx512f");
	fma_chains(iters);
	for (r = 0; r < runs; r++) {
		double t0, t, f256, f512 = 0;

		for (;;) {
			t0 = now_s();
			fma_chains(iters);
			t = now_s() - t0;
			if (t >= 0.02)
				break;
			iters *= 2;
		}
		f256 = (double)iters * 12 * 8 / (t * clock_ghz * 1e9);
		if (wide) {
			t0 = now_s();
			fma_chains512(iters);
			t = now_s() - t0;
			f512 = (double)iters * 12 * 16 / (t * clock_ghz * 1e9);
		}
		v[r] = fmax(f256, f512);
	}
	summarise(v, runs, fpc);
	return 0;
#else
	(void)clock_ghz; (void)runs; (void)fpc;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "FMA peak measurement needs x86-64");
#endif
}

/* ---- read and copy streams ----------------------------------------- */

#if defined(__x86_64__)
static void load_avx(const char *p, const char *end)
{
	__asm__ volatile(
		"1:\n\t"
		"vmovdqa 0(%0), %%ymm0\n\tvmovdqa 32(%0), %%ymm1\n\t"
		"vmovdqa 64(%0), %%ymm2\n\tvmovdqa 96(%0), %%ymm3\n\t"
		"vmovdqa 128(%0), %%ymm4\n\tvmovdqa 160(%0), %%ymm5\n\t"
		"vmovdqa 192(%0), %%ymm6\n\tvmovdqa 224(%0), %%ymm7\n\t"
		"addq $256, %0\n\t"
		"cmpq %1, %0\n\t"
		"jb 1b\n\t"
		"vzeroupper\n\t"
		: "+r"(p)
		: "r"(end)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "cc", "memory");
}

static void load_sse(const char *p, const char *end)
{
	__asm__ volatile(
		"1:\n\t"
		"movdqa 0(%0), %%xmm0\n\tmovdqa 16(%0), %%xmm1\n\t"
		"movdqa 32(%0), %%xmm2\n\tmovdqa 48(%0), %%xmm3\n\t"
		"movdqa 64(%0), %%xmm4\n\tmovdqa 80(%0), %%xmm5\n\t"
		"movdqa 96(%0), %%xmm6\n\tmovdqa 112(%0), %%xmm7\n\t"
		"movdqa 128(%0), %%xmm0\n\tmovdqa 144(%0), %%xmm1\n\t"
		"movdqa 160(%0), %%xmm2\n\tmovdqa 176(%0), %%xmm3\n\t"
		"movdqa 192(%0), %%xmm4\n\tmovdqa 208(%0), %%xmm5\n\t"
		"movdqa 224(%0), %%xmm6\n\tmovdqa 240(%0), %%xmm7\n\t"
		"addq $256, %0\n\t"
		"cmpq %1, %0\n\t"
		"jb 1b\n\t"
		: "+r"(p)
		: "r"(end)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "cc", "memory");
}

/* the copies of detect_writeback_share */
static void copy_avx(char *d, const char *p, const char *end)
{
	__asm__ volatile(
		"1:\n\t"
		"vmovdqa 0(%1), %%ymm0\n\tvmovdqa 32(%1), %%ymm1\n\t"
		"vmovdqa 64(%1), %%ymm2\n\tvmovdqa 96(%1), %%ymm3\n\t"
		"vmovdqa %%ymm0, 0(%0)\n\tvmovdqa %%ymm1, 32(%0)\n\t"
		"vmovdqa %%ymm2, 64(%0)\n\tvmovdqa %%ymm3, 96(%0)\n\t"
		"addq $128, %1\n\t"
		"addq $128, %0\n\t"
		"cmpq %2, %1\n\t"
		"jb 1b\n\t"
		"vzeroupper\n\t"
		: "+r"(d), "+r"(p)
		: "r"(end)
		: "xmm0", "xmm1", "xmm2", "xmm3", "cc", "memory");
}

static void copy_sse(char *d, const char *p, const char *end)
{
	__asm__ volatile(
		"1:\n\t"
		"movdqa 0(%1), %%xmm0\n\tmovdqa 16(%1), %%xmm1\n\t"
		"movdqa 32(%1), %%xmm2\n\tmovdqa 48(%1), %%xmm3\n\t"
		"movdqa %%xmm0, 0(%0)\n\tmovdqa %%xmm1, 16(%0)\n\t"
		"movdqa %%xmm2, 32(%0)\n\tmovdqa %%xmm3, 48(%0)\n\t"
		"addq $64, %1\n\t"
		"addq $64, %0\n\t"
		"cmpq %2, %1\n\t"
		"jb 1b\n\t"
		: "+r"(d), "+r"(p)
		: "r"(end)
		: "xmm0", "xmm1", "xmm2", "xmm3", "cc", "memory");
}

/* Seconds per pass of the read (dst NULL) or the copy of 'bytes' (a
 * multiple of 256), over at least 0.02 s of passes: *reps passes,
 * doubled until they take that long (kept for the caller's next run). */
static double stream_pass_s(char *dst, const char *src, uint64_t bytes,
			    int avx, uint64_t *reps)
{
	uint64_t k;
	double t0, t;

	for (;;) {
		t0 = now_s();
		for (k = 0; k < *reps; k++) {
			if (!dst && avx)
				load_avx(src, src + bytes);
			else if (!dst)
				load_sse(src, src + bytes);
			else if (avx)
				copy_avx(dst, src, src + bytes);
			else
				copy_sse(dst, src, src + bytes);
		}
		t = now_s() - t0;
		if (t >= 0.02)
			return t / (double)*reps;
		*reps *= 2;
	}
}

/* A stream's bytes: a multiple of 256 (the kernels' step), 4 KiB at
 * least. */
static uint64_t stream_bytes(uint64_t bytes)
{
	bytes = (bytes + 255) & ~(uint64_t)255;
	return bytes < 4096 ? 4096 : bytes;
}
#endif

int detect_read_bandwidth(uint64_t bytes, unsigned runs,
			  struct detect_stat *gbs, struct ppr_err *err)
{
#if defined(__x86_64__)
	double v[64];
	char *buf;
	uint64_t reps = 1;
	unsigned r;
	int avx;

	if (!runs || runs > 64)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64");
	bytes = stream_bytes(bytes);
	buf = xaligned_alloc(bytes);
	memset(buf, 1, bytes);
	__builtin_cpu_init();
	avx = __builtin_cpu_supports("avx");
	for (r = 0; r < runs; r++)
		v[r] = (double)bytes /
		       stream_pass_s(NULL, buf, bytes, avx, &reps) / 1e9;
	free(buf);
	summarise(v, runs, gbs);
	return 0;
#else
	(void)bytes; (void)runs; (void)gbs;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "bandwidth measurement needs x86-64");
#endif
}

/* ---- write-backs to memory ----------------------------------------- */

int detect_writeback_share(uint64_t bytes, unsigned runs, double *share,
			   double *read_gbs, double *copy_gbs,
			   struct ppr_err *err)
{
#if defined(__x86_64__)
	const uint64_t span = (uint64_t)2 << 20;
	double rd = 0, cp = 0;
	uint64_t rreps = 1, creps = 1;
	char *buf, *dst;
	unsigned r;
	int avx;

	if (!runs || runs > 64)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64");
	bytes = stream_bytes(bytes);
	/* the destination 1 MiB past a multiple of 2 MiB from the source:
	 * streams nearly a multiple of a large power of two apart run
	 * slower here (kernels/table.c, setup_conv) */
	buf = xaligned_alloc(2 * bytes + span);
	dst = buf + bytes + ((span / 2 - bytes % span + span) % span);
	memset(buf, 1, bytes);
	memset(dst, 0, bytes);
	__builtin_cpu_init();
	avx = __builtin_cpu_supports("avx");
	for (r = 0; r < runs; r++) {
		double tr = stream_pass_s(NULL, buf, bytes, avx, &rreps);
		double tc = stream_pass_s(dst, buf, bytes, avx, &creps);

		if ((double)bytes / tr > rd)
			rd = (double)bytes / tr;
		if ((double)bytes / tc > cp)
			cp = (double)bytes / tc;
	}
	free(buf);
	*read_gbs = rd / 1e9;
	*copy_gbs = cp / 1e9;
	*share = fmin(1, fmax(0, rd / cp - 2));
	return 0;
#else
	(void)bytes; (void)runs; (void)share; (void)read_gbs; (void)copy_gbs;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "bandwidth measurement needs x86-64");
#endif
}

/* ---- L1 fills on the loads ------------------------------------------- */

#if defined(__x86_64__)
/* Per 64-byte line of p: the line's two 32-byte halves and four loads of
 * the two lines at s, which stay in L1 (6 loads a line). */
static void fill_avx(const char *p, const char *end, const char *s)
{
	__asm__ volatile(
		"1:\n\t"
		"vmovdqa 0(%0), %%ymm0\n\tvmovdqa 32(%0), %%ymm1\n\t"
		"vmovdqa 0(%2), %%ymm2\n\tvmovdqa 32(%2), %%ymm3\n\t"
		"vmovdqa 64(%2), %%ymm4\n\tvmovdqa 96(%2), %%ymm5\n\t"
		"addq $64, %0\n\t"
		"cmpq %1, %0\n\t"
		"jb 1b\n\t"
		"vzeroupper\n\t"
		: "+r"(p)
		: "r"(end), "r"(s)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "cc",
		  "memory");
}

/* The same with 16-byte loads: the line's four quarters and four loads
 * of the line at s (8 loads a line). */
static void fill_sse(const char *p, const char *end, const char *s)
{
	__asm__ volatile(
		"1:\n\t"
		"movdqa 0(%0), %%xmm0\n\tmovdqa 16(%0), %%xmm1\n\t"
		"movdqa 32(%0), %%xmm2\n\tmovdqa 48(%0), %%xmm3\n\t"
		"movdqa 0(%2), %%xmm4\n\tmovdqa 16(%2), %%xmm5\n\t"
		"movdqa 32(%2), %%xmm4\n\tmovdqa 48(%2), %%xmm5\n\t"
		"addq $64, %0\n\t"
		"cmpq %1, %0\n\t"
		"jb 1b\n\t"
		: "+r"(p)
		: "r"(end), "r"(s)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "cc",
		  "memory");
}

/* Cycles per line of the fill stream over 'bytes' of buf, the best of
 * 'runs' runs of at least 0.02 s each. */
static double fill_cycles_per_line(const char *buf, uint64_t bytes,
				   const char *s, int avx, double ghz,
				   unsigned runs)
{
	double best = 0;
	uint64_t reps = 1, k;
	unsigned r;

	for (r = 0; r < runs; r++) {
		double t0, t;

		for (;;) {
			t0 = now_s();
			for (k = 0; k < reps; k++) {
				if (avx)
					fill_avx(buf, buf + bytes, s);
				else
					fill_sse(buf, buf + bytes, s);
			}
			t = now_s() - t0;
			if (t >= 0.02)
				break;
			reps *= 2;
		}
		t /= (double)reps;
		if (!r || t < best)
			best = t;
	}
	return best * ghz * 1e9 / ((double)bytes / 64);
}
#endif

int detect_fill_load_cycles(uint64_t l1_bytes, uint64_t l2_bytes,
			    double clock_ghz, unsigned runs, double *cycles,
			    double *l1_cpl, double *l2_cpl,
			    struct ppr_err *err)
{
#if defined(__x86_64__)
	char *buf, *s;
	int avx;

	if (!runs || runs > 64)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64");
	if (!(clock_ghz > 0) || l1_bytes < 4096 || l2_bytes <= l1_bytes)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "fill measurement: a clock and two working "
				   "sets, the first of 4 KiB at least");
	l1_bytes &= ~(uint64_t)63;
	l2_bytes &= ~(uint64_t)63;
	buf = xaligned_alloc(l2_bytes + 4096);
	s = buf + l2_bytes;
	memset(buf, 1, l2_bytes + 4096);
	__builtin_cpu_init();
	avx = __builtin_cpu_supports("avx");
	*l1_cpl = fill_cycles_per_line(buf, l1_bytes, s, avx, clock_ghz,
				       runs);
	*l2_cpl = fill_cycles_per_line(buf, l2_bytes, s, avx, clock_ghz,
				       runs);
	free(buf);
	*cycles = fmax(0, *l2_cpl - *l1_cpl);
	return 0;
#else
	(void)l1_bytes; (void)l2_bytes; (void)clock_ghz; (void)runs;
	(void)cycles; (void)l1_cpl; (void)l2_cpl;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "fill measurement needs x86-64");
#endif
}

/* ---- usable capacity of a shared level ------------------------------ */

double detect_capacity_crossing(const uint64_t *ws, const double *gbs,
				unsigned n, double level_gbs,
				double below_gbs)
{
	double thr = level_gbs - DETECT_CAPACITY_FALL * (level_gbs - below_gbs);
	unsigned i, top = 0;

	if (!n)
		return 0;
	for (i = 1; i < n; i++)
		if (gbs[i] > gbs[top])
			top = i;
	if (gbs[top] < thr)
		return (double)ws[0];
	/* the fall for good: past the last point at or above the
	 * threshold, so one working set measured slow between ones at the
	 * level's speed (a neighbour's burst) does not end the level */
	for (i = n - 1; i > top; i--)
		if (gbs[i] >= thr)
			break;
	if (i == n - 1)
		return (double)ws[n - 1];
	return (double)ws[i] + (gbs[i] - thr) / (gbs[i] - gbs[i + 1]) *
	       (double)(ws[i + 1] - ws[i]);
}

uint64_t detect_beyond_share(double usable)
{
	uint64_t b = (uint64_t)(8 * usable) & ~(uint64_t)0xfffff;

	return b < ((uint64_t)256 << 20) ? (uint64_t)256 << 20 : b;
}

unsigned detect_usable_ways(double usable, double size, unsigned ways)
{
	double u;

	if (!(size > 0) || !ways)
		return 0;
	u = usable / size * ways;
	if (!(u >= 1))
		return 1;
	return u >= ways ? ways : (unsigned)lround(u);
}

int detect_usable_capacity(uint64_t lo, uint64_t hi, uint64_t step,
			   uint64_t below, unsigned runs,
			   struct detect_capacity *out, struct ppr_err *err)
{
	struct detect_stat st = { 0 };
	uint64_t ws;
	unsigned i;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!lo || !step || hi < lo || below <= hi ||
	    (hi - lo) / step + 1 > DETECT_MAX_POINTS)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "capacity sweep: need 0 < lo <= hi < below "
				   "and at most %d working sets",
				   DETECT_MAX_POINTS);
	for (ws = lo; ws <= hi; ws += step) {
		if ((rc = detect_read_bandwidth(ws, runs, &st, err)))
			return rc;
		out->ws[out->npoints] = ws;
		out->gbs[out->npoints++] = st.median;
	}
	if ((rc = detect_read_bandwidth(below, runs, &st, err)))
		return rc;
	out->below_gbs = st.median;
	out->level_gbs = out->gbs[0];
	for (i = 1; i < out->npoints; i++)
		if (out->gbs[i] > out->level_gbs)
			out->level_gbs = out->gbs[i];
	out->bytes = detect_capacity_crossing(out->ws, out->gbs,
					      out->npoints, out->level_gbs,
					      out->below_gbs);
	return 0;
}

/* ---- CSR SpMV streams from memory ----------------------------------- */

/*
 * The native CSR kernel on gen:banded matrices with rows of row_nnz
 * nonzeros (bw = (row_nnz - 1) / 2) and about 'bytes' of matrix and
 * vectors: compulsory bytes over the least time of 'runs' timed runs at
 * the fastest code placement (kernels/README.md).  Such a matrix streams
 * everything but x, whose band stays in L1.  Measured here: 26 GB/s at 5-9
 * nonzeros per row, 38-39 at 15-55 (model/predict.c).
 */
int detect_csr_bandwidth(uint64_t bytes, unsigned row_nnz, unsigned runs,
			 struct detect_stat *gbs, struct ppr_err *err)
{
	struct kernel_params p;
	struct kernel_run *run = NULL;
	struct measure_opts mo;
	struct measure_result res;
	char spec[96];
	uint64_t rows;
	double v[64];
	unsigned r;
	int rc;

	if (row_nnz < 1 || row_nnz % 2 == 0 || !runs || runs > 64 ||
	    bytes < ((uint64_t)1 << 20))
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "CSR bandwidth: need an odd row length, "
				   "1..64 runs and at least 1 MiB");
	rows = bytes / (12 * (uint64_t)row_nnz + 24);
	snprintf(spec, sizeof(spec), "gen:banded:n=%llu,bw=%u",
		 (unsigned long long)rows, (row_nnz - 1) / 2);
	memset(&p, 0, sizeof(p));
	p.kernel = "spmv-csr";
	p.input = spec;
	if ((rc = kernel_run_new(&p, &run, err)))
		return rc;
	memset(&mo, 0, sizeof(mo));
	mo.reps = 3;
	mo.warmup = 1;
	mo.code_mode = MEASURE_CODE_BEST;
	for (r = 0; r < runs; r++) {
		if ((rc = kernel_measure(run, &mo, &res, err))) {
			kernel_run_free(run);
			return rc;
		}
		/* the placements are screened once */
		mo.code_mode = res.code_offset >= 0 ? MEASURE_CODE_FIXED
						    : MEASURE_CODE_LINKED;
		mo.code_offset = res.code_offset;
		v[r] = kernel_run_bytes(run) / res.time_min_s / 1e9;
	}
	kernel_run_free(run);
	summarise(v, runs, gbs);
	return 0;
}

/* ---- latency -------------------------------------------------------- */

/* The chase's set-up and its timed loop are outside AddressSanitizer's
 * instrumentation: its check of each access's shadow byte (32 MiB of
 * shadow for a 256 MiB set, read at random) made the chase 20 times slower
 * on the Zen 5 guest of 2026-12-05 (5.4-6.2 us a load against 0.30), so an
 * ASan build measured the shadow, not the memory, and spent 20 s more on
 * the set-up's random swaps and links.  Every index below is under nlines
 * by construction (j <= i < nlines); UBSan still checks both. */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define PPR_NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#ifndef PPR_NO_ASAN
#define PPR_NO_ASAN
#endif

/* Links the lines of buf (nlines of 64 bytes) into one random cycle:
 * Fisher-Yates over perm with xorshift64, then each line points to the
 * next in perm's order. */
PPR_NO_ASAN static void link_cycle(void **buf, size_t *perm, size_t nlines)
{
	const size_t stride = 64 / sizeof(void *);
	uint64_t x = 88172645463325252ull;
	size_t i;

	for (i = 0; i < nlines; i++)
		perm[i] = i;
	for (i = nlines - 1; i > 0; i--) {
		size_t j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % (i + 1);
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < nlines; i++)
		buf[perm[i] * stride] = &buf[perm[(i + 1) % nlines] * stride];
}

/* Follows 'steps' links from p. */
PPR_NO_ASAN static void *chase(void *p, uint64_t steps)
{
	uint64_t k;

	for (k = 0; k < steps; k++)
		p = *(void **)p;
	return p;
}

int detect_latency(uint64_t bytes, unsigned runs, struct detect_stat *ns,
		   struct ppr_err *err)
{
	double v[64];
	size_t nlines, *perm;
	void **buf;
	uint64_t warm, steps;
	unsigned r;

	if (!runs || runs > 64 || bytes < 4096)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "runs must be 1..64 and the set >= 4 KiB");
	nlines = bytes / 64;
	if (posix_memalign((void **)&buf, (size_t)2 << 20, nlines * 64))
		return ppr_err_set(err, PPR_ENOMEM, NULL, 0, 0,
				   "cannot allocate %llu bytes for the chase",
				   (unsigned long long)bytes);
	/* Huge pages where the kernel allows them, so the chase measures the
	 * memory, not page walks (4 KiB pages over 256 MiB miss the TLB on
	 * nearly every load). */
	madvise(buf, nlines * 64, MADV_HUGEPAGE);
	perm = xmalloc(nlines * sizeof(*perm));
	link_cycle(buf, perm, nlines);
	free(perm);
	/* Each run warms with up to 2^20 steps (the lines of a 64 MiB cache,
	 * so the cache holds random lines of the set, not the tail the set-up
	 * wrote last) and times up to 2^21: at 100-300 ns a load that is
	 * 0.2-0.6 s, a mean over two million lines. */
	warm = nlines < ((uint64_t)1 << 20) ? nlines : (uint64_t)1 << 20;
	steps = nlines * 4 + 100000;
	if (steps > (uint64_t)1 << 21)
		steps = (uint64_t)1 << 21;
	for (r = 0; r < runs; r++) {
		void **p = &buf[0];
		double t0, t;

		p = chase(p, warm);
		t0 = now_s();
		p = chase(p, steps);
		t = now_s() - t0;
		__asm__ volatile("" : : "r"(p));
		v[r] = t / (double)steps * 1e9;
	}
	free(buf);
	summarise(v, runs, ns);
	return 0;
}
