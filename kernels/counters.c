/*
 * counters.c - hardware counters: PAPI preset -> native event mapping
 * through libpfm4, the perf_event backend, and the fake backend.
 *
 * Mapping: each PAPI preset has, per PMU family (libpfm4 PMU name prefix),
 * a list of native candidates tried in order; the first that libpfm4
 * encodes wins.  If none does (or the core PMU is unknown, as in a VM
 * where libpfm4 only sees the "perf" PMU), the generic perf event is used
 * where one exists.  Sources: Intel SDM vol. 3B ch. 19 and the libpfm4
 * event tables (hsw, skl, skx, icl, spr), AMD PPR for family 17h/19h
 * (zen1..zen4).  PAPI_L2_DCM on Intel is L2_RQSTS:MISS, which also counts
 * code and prefetch misses (PAPI derives a data-only figure from two
 * events); PAPI_LD_INS/PAPI_SR_INS through the generic perf events are
 * L1D read/write accesses, an approximation of retired loads/stores.
 */
#include "kernels/kernels_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

#include "common/xalloc.h"

struct preset_row {
	const char *preset;
	const char *family;	/* PMU name prefix; "" = generic perf */
	const char *cand[3];
};

static const struct preset_row preset_table[] = {
	/* Intel core PMUs (hsw, bdw, skl, skx, clx, icl, icx, spr, ...) */
	{ "PAPI_TOT_CYC", "intel", { "UNHALTED_CORE_CYCLES" } },
	{ "PAPI_TOT_INS", "intel", { "INSTRUCTION_RETIRED" } },
	{ "PAPI_L1_DCM", "intel", { "L1D:REPLACEMENT" } },
	{ "PAPI_L2_DCM", "intel", { "L2_RQSTS:MISS", "L2_RQSTS:ALL_DEMAND_MISS" } },
	{ "PAPI_L3_TCM", "intel", { "LONGEST_LAT_CACHE:MISS" } },
	{ "PAPI_LD_INS", "intel", { "MEM_INST_RETIRED:ALL_LOADS",
				    "MEM_UOPS_RETIRED:ALL_LOADS" } },
	{ "PAPI_SR_INS", "intel", { "MEM_INST_RETIRED:ALL_STORES",
				    "MEM_UOPS_RETIRED:ALL_STORES" } },
	/* AMD family 17h/19h (zen1..zen4); the L3 is off-core on Zen */
	{ "PAPI_TOT_CYC", "amd64_fam", { "CYCLES_NOT_IN_HALT" } },
	{ "PAPI_TOT_INS", "amd64_fam", { "RETIRED_INSTRUCTIONS" } },
	{ "PAPI_L2_DCM", "amd64_fam",
	  { "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C" } },
	{ "PAPI_LD_INS", "amd64_fam", { "LS_DISPATCH:LD_DISPATCH" } },
	{ "PAPI_SR_INS", "amd64_fam", { "LS_DISPATCH:STORE_DISPATCH" } },
	/* generic perf events (any CPU whose kernel driver has them) */
	{ "PAPI_TOT_CYC", "", { "perf::PERF_COUNT_HW_CPU_CYCLES" } },
	{ "PAPI_TOT_INS", "", { "perf::PERF_COUNT_HW_INSTRUCTIONS" } },
	{ "PAPI_L1_DCM", "", { "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS" } },
	{ "PAPI_L3_TCM", "", { "perf::PERF_COUNT_HW_CACHE_MISSES" } },
	{ "PAPI_LD_INS", "", { "perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS" } },
	{ "PAPI_SR_INS", "", { "perf::PERF_COUNT_HW_CACHE_L1D:WRITE:ACCESS" } },
};

static const char *const intel_pmus[] = {
	"hsw", "bdw", "skl", "skx", "clx", "icl", "icx", "spr", "emr",
	"adl_glc", "rpl", "tgl", "cpx", "snb", "ivb", "nhm", "wsm", NULL,
};

static int pfm_ready(void)
{
	static int state;	/* 0 untried, 1 ok, -1 failed */

	if (!state)
		state = pfm_initialize() == PFM_SUCCESS ? 1 : -1;
	return state > 0;
}

static int family_match(const char *family, const char *pmu)
{
	size_t i, n;

	if (!pmu || !*pmu)
		return 0;
	if (!strcmp(family, "intel")) {
		for (i = 0; intel_pmus[i]; i++) {
			n = strlen(intel_pmus[i]);
			if (!strncmp(pmu, intel_pmus[i], n) &&
			    (pmu[n] == '\0' || pmu[n] == '_'))
				return 1;
		}
		return 0;
	}
	return !strncmp(pmu, family, strlen(family));
}

/* The active core PMU libpfm4 detected ("" if none, e.g. in a VM). */
static const char *active_core_pmu(void)
{
	static char name[64];
	static int done;
	pfm_pmu_info_t info;
	int i;

	if (done)
		return name;
	done = 1;
	if (!pfm_ready())
		return name;
	pfm_for_all_pmus(i) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(i, &info) != PFM_SUCCESS)
			continue;
		if (info.is_present && info.type == PFM_PMU_TYPE_CORE) {
			snprintf(name, sizeof(name), "%s", info.name);
			break;
		}
	}
	return name;
}

/* Encode one fully or partly qualified event; 0 or libpfm4 error. */
static int encode(const char *ev, struct perf_event_attr *attr, char *fstr_out,
		  size_t n)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int rc;

	memset(&arg, 0, sizeof(arg));
	memset(attr, 0, sizeof(*attr));
	arg.attr = attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(ev, PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (rc == PFM_SUCCESS && fstr_out)
		snprintf(fstr_out, n, "%s", fstr ? fstr : ev);
	free(fstr);
	return rc;
}

static int resolve_attr(const char *name, const char *pmu, char *native,
			size_t native_len, struct perf_event_attr *attr,
			struct ppr_err *err)
{
	char buf[256];
	size_t i;
	int j, rc = PFM_ERR_NOTFOUND, is_preset;

	if (!pfm_ready())
		return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
				   "libpfm4 failed to initialise");
	if (!pmu)
		pmu = active_core_pmu();
	is_preset = !strncmp(name, "PAPI_", 5);
	if (is_preset) {
		int known = 0;

		for (i = 0; i < sizeof(preset_table) / sizeof(preset_table[0]); i++) {
			const struct preset_row *row = &preset_table[i];

			if (strcmp(row->preset, name))
				continue;
			known = 1;
			if (row->family[0] && !family_match(row->family, pmu))
				continue;
			for (j = 0; j < 3 && row->cand[j]; j++) {
				if (row->family[0])
					snprintf(buf, sizeof(buf), "%s::%s", pmu,
						 row->cand[j]);
				else
					snprintf(buf, sizeof(buf), "%s",
						 row->cand[j]);
				rc = encode(buf, attr, native, native_len);
				if (rc == PFM_SUCCESS)
					return 0;
			}
		}
		if (!known)
			return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
					   "unknown PAPI preset '%s' (known: "
					   "PAPI_L1_DCM, PAPI_L2_DCM, "
					   "PAPI_L3_TCM, PAPI_TOT_CYC, "
					   "PAPI_TOT_INS, PAPI_LD_INS, "
					   "PAPI_SR_INS)", name);
		return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
				   "no native event for '%s' on PMU '%s' "
				   "(and no generic perf event)", name,
				   *pmu ? pmu : "(none detected)");
	}
	if (*pmu && !strstr(name, "::")) {
		snprintf(buf, sizeof(buf), "%s::%s", pmu, name);
		if (encode(buf, attr, native, native_len) == PFM_SUCCESS)
			return 0;
	}
	rc = encode(name, attr, native, native_len);
	if (rc == PFM_SUCCESS)
		return 0;
	return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
			   "libpfm4 cannot encode event '%s': %s", name,
			   pfm_strerror(rc));
}

int counter_event_resolve(const char *name, const char *pmu, char *native,
			  size_t native_len, struct ppr_err *err)
{
	struct perf_event_attr attr;

	return resolve_attr(name, pmu, native, native_len, &attr, err);
}

int counter_set_parse(struct counter_set *s, const char *list,
		      struct ppr_err *err)
{
	const char *p = list;

	memset(s, 0, sizeof(*s));
	if (!list || !*list)
		return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
				   "empty counter list");
	while (1) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (!len)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "empty event name in '%s'", list);
		if (len >= COUNTER_NAME_MAX)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "event name too long in '%s'", list);
		if (s->n == COUNTER_MAX_EVENTS)
			return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
					   "more than %d events in '%s'",
					   COUNTER_MAX_EVENTS, list);
		memcpy(s->ev[s->n].name, p, len);
		s->ev[s->n].name[len] = '\0';
		s->ev[s->n].scale = 1.0;
		s->n++;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -100;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

char *counter_explain_unavailable(int errnum, char *buf, size_t n)
{
	int par = read_paranoid();
	char ps[64];

	if (par == -100)
		snprintf(ps, sizeof(ps), "perf_event_paranoid unreadable");
	else
		snprintf(ps, sizeof(ps), "perf_event_paranoid = %d", par);
	switch (errnum) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		snprintf(buf, n, "the kernel exposes no hardware PMU for this "
			 "event (perf_event_open: %s): typical of a virtual "
			 "machine without PMU pass-through, where `perf stat` "
			 "prints <not supported>; %s", strerror(errnum), ps);
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, n, "perf_event_open: %s: %s; counting user-space "
			 "events needs perf_event_paranoid <= 2 or "
			 "CAP_PERFMON", strerror(errnum), ps);
		break;
	case ENOSYS:
		snprintf(buf, n, "perf_event_open is not available in this "
			 "kernel (%s)", strerror(errnum));
		break;
	default:
		snprintf(buf, n, "perf_event_open: %s; %s", strerror(errnum),
			 ps);
		break;
	}
	return buf;
}

/* ---- perf_event backend ----------------------------------------------- */

struct perf_state {
	size_t n;
	int fd[COUNTER_MAX_EVENTS];
};

static int perf_open(struct counter_backend *b, struct counter_set *s,
		     struct ppr_err *err)
{
	struct perf_state *st = xcalloc(1, sizeof(*st));
	const char *pmu = getenv("PPR_PMU");
	size_t i;

	b->state = st;
	snprintf(s->source, sizeof(s->source), "perf_event");
	snprintf(s->pmu, sizeof(s->pmu), "%s",
		 pmu && *pmu ? pmu : (pfm_ready() ? active_core_pmu() : ""));
	for (i = 0; i < COUNTER_MAX_EVENTS; i++)
		st->fd[i] = -1;
	st->n = s->n;
	for (i = 0; i < s->n; i++) {
		struct counter_event *ev = &s->ev[i];
		struct perf_event_attr attr;
		struct ppr_err e2;
		long fd;
		int rc;

		rc = resolve_attr(ev->name, pmu && *pmu ? pmu : NULL,
				  ev->native, sizeof(ev->native), &attr, &e2);
		if (rc) {
			ev->status = COUNTER_UNAVAILABLE;
			kern_strlcpy(ev->why, e2.msg, sizeof(ev->why));
			return ppr_err_set(err, rc, NULL, 0, 0, "%s", e2.msg);
		}
		attr.size = sizeof(attr);
		attr.disabled = 1;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
		if (fd < 0) {
			char why[400];
			int en = errno;

			counter_explain_unavailable(en, why, sizeof(why));
			size_t k;

			ev->status = COUNTER_UNAVAILABLE;
			kern_strlcpy(ev->why, why, sizeof(ev->why));
			/* Still show what the other events would map to. */
			for (k = i + 1; k < s->n; k++)
				if (resolve_attr(s->ev[k].name,
						 pmu && *pmu ? pmu : NULL,
						 s->ev[k].native,
						 sizeof(s->ev[k].native),
						 &attr, NULL))
					s->ev[k].native[0] = '\0';
			return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
					   "hardware counters unavailable: "
					   "cannot open %s (%s): %s", ev->name,
					   ev->native, why);
		}
		st->fd[i] = (int)fd;
	}
	return 0;
}

static int perf_start(struct counter_backend *b)
{
	struct perf_state *st = b->state;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (ioctl(st->fd[i], PERF_EVENT_IOC_ENABLE, 0))
			return PPR_EIO;
	return 0;
}

static int perf_stop(struct counter_backend *b)
{
	struct perf_state *st = b->state;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (ioctl(st->fd[i], PERF_EVENT_IOC_DISABLE, 0))
			return PPR_EIO;
	return 0;
}

static int perf_read(struct counter_backend *b, struct counter_set *s)
{
	struct perf_state *st = b->state;
	size_t i;

	for (i = 0; i < st->n && i < s->n; i++) {
		uint64_t v[3];
		struct counter_event *ev = &s->ev[i];

		if (read(st->fd[i], v, sizeof(v)) != (ssize_t)sizeof(v))
			return PPR_EIO;
		if (v[2] == 0) {
			ev->status = COUNTER_NOT_COUNTED;
			snprintf(ev->why, sizeof(ev->why),
				 "never scheduled on a counter");
			continue;
		}
		ev->scale = (double)v[1] / (double)v[2];
		ev->value = (uint64_t)((double)v[0] * ev->scale + 0.5);
		ev->fvalue = (double)ev->value;
		ev->status = COUNTER_OK;
	}
	return 0;
}

static void perf_close(struct counter_backend *b)
{
	struct perf_state *st = b->state;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < COUNTER_MAX_EVENTS; i++)
		if (st->fd[i] >= 0)
			close(st->fd[i]);
	free(st);
	b->state = NULL;
}

/* ---- fake backend ----------------------------------------------------- */

struct fake_state {
	size_t n;
	int running;
	uint64_t count[COUNTER_MAX_EVENTS];
};

static int fake_open(struct counter_backend *b, struct counter_set *s,
		     struct ppr_err *err)
{
	struct fake_state *st = xcalloc(1, sizeof(*st));
	const char *pmu = getenv("PPR_PMU");
	size_t i;

	(void)err;
	b->state = st;
	st->n = s->n;
	snprintf(s->source, sizeof(s->source), "fake");
	snprintf(s->pmu, sizeof(s->pmu), "%s", pmu ? pmu : "");
	for (i = 0; i < s->n; i++) {
		struct counter_event *ev = &s->ev[i];

		/* Show the mapping a real run would use, when it resolves. */
		if (counter_event_resolve(ev->name, pmu && *pmu ? pmu : NULL,
					  ev->native, sizeof(ev->native), NULL))
			snprintf(ev->native, sizeof(ev->native), "fake::%s",
				 ev->name);
	}
	return 0;
}

static int fake_start(struct counter_backend *b)
{
	struct fake_state *st = b->state;

	if (st->running)
		return PPR_EINVAL;
	st->running = 1;
	return 0;
}

static int fake_stop(struct counter_backend *b)
{
	struct fake_state *st = b->state;
	size_t i;

	if (!st->running)
		return PPR_EINVAL;
	st->running = 0;
	for (i = 0; i < st->n; i++)
		st->count[i] += 1000 * (uint64_t)(i + 1);
	return 0;
}

static int fake_read(struct counter_backend *b, struct counter_set *s)
{
	struct fake_state *st = b->state;
	size_t i;

	for (i = 0; i < st->n && i < s->n; i++) {
		s->ev[i].value = st->count[i];
		s->ev[i].fvalue = (double)st->count[i];
		s->ev[i].scale = 1.0;
		s->ev[i].status = COUNTER_OK;
	}
	return 0;
}

static void fake_close(struct counter_backend *b)
{
	free(b->state);
	b->state = NULL;
}

int counter_backend_init(struct counter_backend *b, const char *name,
			 struct ppr_err *err)
{
	memset(b, 0, sizeof(*b));
	if (!name || !*name)
		name = getenv("PPR_COUNTERS");
	if (!name || !*name || !strcmp(name, "perf")) {
		b->name = "perf_event";
		b->open = perf_open;
		b->start = perf_start;
		b->stop = perf_stop;
		b->read = perf_read;
		b->close = perf_close;
		return 0;
	}
	if (!strcmp(name, "fake")) {
		b->name = "fake";
		b->open = fake_open;
		b->start = fake_start;
		b->stop = fake_stop;
		b->read = fake_read;
		b->close = fake_close;
		return 0;
	}
	return ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
			   "unknown counter backend '%s' (perf or fake)", name);
}
