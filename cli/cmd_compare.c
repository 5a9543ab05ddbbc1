/*
 * cmd_compare.c - `ppr compare`: simulated vs measured cache misses per
 * level, as a table / CSV / JSON and optionally grouped bars in SVG.
 *
 * Simulated side: the JSON of `ppr sim` (levels[].misses) or of `ppr
 * predict` (levels[].misses_regular + misses_irregular, per execution).
 * Measured side: the JSON of `ppr measure --counters ...` (counts are
 * summed over the timed repetitions; divided by its "reps" to give one
 * run, unless --runs says otherwise), or counts measured elsewhere:
 * papi_command_line-style text or `perf stat -x,` CSV, read with the
 * counter import functions of kernels/kernels.h.
 *
 * Level -> event: --map LEVEL=EVENT, else the first event present among
 * per-level defaults (L1: PAPI_L1_DCM, L1-dcache-load-misses; L2:
 * PAPI_L2_DCM, PAPI_L2_TCM, l2_rqsts.miss; L3: PAPI_L3_TCM,
 * LLC-load-misses, LLC-misses).  A level without an event is shown with
 * the simulated count only.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "cli/plot.h"
#include "common/ppr_version.h"
#include "common/xalloc.h"
#include "kernels/kernels.h"

PPR_COMMAND(compare, "simulated vs measured cache misses per level")

static const char usage[] =
	"usage: ppr compare --sim SIM.json --measured FILE [options]\n"
	"\n"
	"Simulated vs measured misses per cache level.\n"
	"  SIM.json: `ppr sim --format json` or `ppr predict --format json`\n"
	"  FILE:     `ppr measure --counters ... --format json`, or\n"
	"            papi_command_line output ('EVENT : value'), or\n"
	"            `perf stat -x,` CSV\n"
	"\n"
	"options:\n"
	"  -s, --sim FILE            simulated side (required)\n"
	"  -M, --measured FILE       measured side (required)\n"
	"      --measured-format F   auto|ppr|papi|perf (default auto: JSON\n"
	"                            is ppr, a line with commas perf, else papi)\n"
	"      --map LEVEL=EVENT     event counting misses of LEVEL (L1D, L2,\n"
	"                            L3 ... as in the simulated file;\n"
	"                            repeatable)\n"
	"      --runs N              divide measured counts by N (default: the\n"
	"                            'reps' of ppr measure JSON, else 1)\n"
	"      --svg FILE            grouped bars (log scale) as SVG\n"
	"  -f, --format FMT          table|csv|json (default table)\n"
	"  -o, --output FILE         write the result to FILE\n"
	"  -h, --help                show this help\n";

#define CMP_MAX_LEVELS 8
#define CMP_MAX_MAPS 8

struct cmp_level {
	char name[32];
	double sim;		/* simulated misses */
	double meas;		/* measured (per run), NaN = no event */
	char event[COUNTER_NAME_MAX + 16];
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static double jnum(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The simulated misses per level; returns the number of levels or -1. */
static int sim_read(const char *path, struct cmp_level *lv, char *machine,
		    size_t mlen)
{
	size_t len;
	char *text = slurp(path, &len);
	const cJSON *levels, *l, *mn;
	cJSON *j;
	int n = 0;

	if (!text)
		return cli_error("cannot read '%s'", path), -1;
	j = cJSON_ParseWithLength(text, len);
	free(text);
	if (!j)
		return cli_error("%s: not valid JSON", path), -1;
	mn = cJSON_GetObjectItemCaseSensitive(j, "machine");
	snprintf(machine, mlen, "%s", cJSON_IsString(mn) ? mn->valuestring :
		 "");
	levels = cJSON_GetObjectItemCaseSensitive(j, "levels");
	if (!cJSON_IsArray(levels)) {
		cJSON_Delete(j);
		return cli_error("%s: field 'levels': missing or not an array "
				 "(expected ppr sim or ppr predict JSON)", path),
		       -1;
	}
	cJSON_ArrayForEach(l, levels) {
		const cJSON *nm = cJSON_GetObjectItemCaseSensitive(l, "name");
		double m = jnum(l, "misses");

		if (n == CMP_MAX_LEVELS)
			break;
		if (!isfinite(m)) {
			double a = jnum(l, "misses_regular");
			double b = jnum(l, "misses_irregular");

			m = (isfinite(a) ? a : 0) + (isfinite(b) ? b : 0);
			if (!isfinite(a) && !isfinite(b)) {
				cJSON_Delete(j);
				return cli_error("%s: level %d: no 'misses' nor "
						 "'misses_regular'", path, n + 1),
				       -1;
			}
		}
		snprintf(lv[n].name, sizeof lv[n].name, "%s",
			 cJSON_IsString(nm) ? nm->valuestring : "?");
		lv[n].sim = m;
		lv[n].meas = NAN;
		lv[n].event[0] = '\0';
		n++;
	}
	cJSON_Delete(j);
	return n;
}

/* The measured counts into set; *reps from ppr measure JSON (else 0). */
static int meas_read(const char *path, const char *fmt,
		     struct counter_set *set, double *reps)
{
	struct ppr_err err = { 0 };
	size_t len, i;
	char *text = slurp(path, &len);
	const char *p;
	int rc = 0;

	*reps = 0;
	memset(set, 0, sizeof *set);
	if (!text)
		return cli_error("cannot read '%s'", path);
	for (p = text; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';)
		p++;
	if (strcmp(fmt, "auto") == 0)
		fmt = *p == '{' ? "ppr" : memchr(text, ',', len) ? "perf" :
		      "papi";
	if (strcmp(fmt, "ppr") == 0) {
		cJSON *j = cJSON_ParseWithLength(text, len);
		const cJSON *ev, *e;

		if (!j) {
			free(text);
			return cli_error("%s: not valid JSON", path);
		}
		*reps = jnum(j, "reps");
		ev = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(j, "counters"),
			"events");
		if (!cJSON_IsArray(ev)) {
			cJSON_Delete(j);
			free(text);
			return cli_error("%s: field 'counters.events': missing "
					 "(ppr measure --counters ... --format "
					 "json)", path);
		}
		i = 0;
		cJSON_ArrayForEach(e, ev) {
			const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e,
									   "name");
			const cJSON *st = cJSON_GetObjectItemCaseSensitive(e,
									   "status");
			double v = jnum(e, "value");

			i++;
			if (set->n == COUNTER_MAX_EVENTS || !cJSON_IsString(nm))
				continue;
			snprintf(set->ev[set->n].name, COUNTER_NAME_MAX, "%s",
				 nm->valuestring);
			if (!isfinite(v) || (cJSON_IsString(st) &&
			    strcmp(st->valuestring, "ok") != 0)) {
				set->ev[set->n].status = COUNTER_UNAVAILABLE;
			} else {
				set->ev[set->n].fvalue = v;
				set->ev[set->n].value = v >= 0 &&
					v < 1.8e19 ? (uint64_t)v : 0;
			}
			set->n++;
		}
		cJSON_Delete(j);
	} else if (strcmp(fmt, "papi") == 0) {
		if (counter_import_papi(set, path, text, len, &err) != 0)
			rc = cli_error_err(&err);
		for (i = 0; i < set->n; i++)
			set->ev[i].fvalue = (double)set->ev[i].value;
	} else if (strcmp(fmt, "perf") == 0) {
		if (counter_import_perf_csv(set, path, text, len, &err) != 0)
			rc = cli_error_err(&err);
		for (i = 0; i < set->n; i++)
			if (!(set->ev[i].fvalue > 0))
				set->ev[i].fvalue = (double)set->ev[i].value;
	} else {
		rc = cli_usage_error(usage, "--measured-format: '%s' is not "
				     "auto, ppr, papi or perf", fmt);
	}
	free(text);
	return rc;
}

/* Event names equal, ignoring case and a perf modifier suffix (":u"). */
static int ev_match(const char *have, const char *want)
{
	size_t lw = strlen(want);

	return strncasecmp(have, want, lw) == 0 &&
	       (have[lw] == '\0' || have[lw] == ':' || have[lw] == '/');
}

static const struct counter_event *ev_find(const struct counter_set *s,
					   const char *want)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (ev_match(s->ev[i].name, want))
			return &s->ev[i];
	return NULL;
}

static const char *const def_events[3][4] = {
	{ "PAPI_L1_DCM", "L1-dcache-load-misses", NULL, NULL },
	{ "PAPI_L2_DCM", "PAPI_L2_TCM", "l2_rqsts.miss", NULL },
	{ "PAPI_L3_TCM", "LLC-load-misses", "LLC-misses", NULL },
};

int cmd_compare(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "sim", required_argument, NULL, 's' },
		{ "measured", required_argument, NULL, 'M' },
		{ "measured-format", required_argument, NULL, 'F' },
		{ "map", required_argument, NULL, 'p' },
		{ "runs", required_argument, NULL, 'r' },
		{ "svg", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *simf = NULL, *measf = NULL, *mfmt = "auto", *svgf = NULL;
	const char *out = NULL, *maps[CMP_MAX_MAPS];
	struct cmp_level lv[CMP_MAX_LEVELS];
	struct counter_set *set;
	enum cli_format fmt = CLI_FMT_TABLE;
	double runs = 0, reps;
	char machine[128];
	size_t nmaps = 0;
	int c, n, i, rc = 0;
	FILE *f;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "s:M:f:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 's': simf = optarg; break;
		case 'M': measf = optarg; break;
		case 'F': mfmt = optarg; break;
		case 'p':
			if (nmaps == CMP_MAX_MAPS || !strchr(optarg, '='))
				return cli_usage_error(usage, "--map: '%s' is not "
						       "LEVEL=EVENT (at most %d)",
						       optarg, CMP_MAX_MAPS);
			maps[nmaps++] = optarg;
			break;
		case 'r':
			if (cli_parse_double(optarg, &runs) != 0 || !(runs > 0))
				return cli_usage_error(usage, "--runs: '%s' is "
						       "not a positive number",
						       optarg);
			break;
		case 'S': svgf = optarg; break;
		case 'f':
			if (cli_format_parse(optarg, &fmt) != 0)
				return cli_usage_error(usage, "--format: '%s' is "
						       "not table, csv or json",
						       optarg);
			break;
		case 'o': out = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		default:
			return cli_usage_error(usage, "compare: unknown or "
					       "incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	if (!simf || !measf)
		return cli_usage_error(usage, "--sim and --measured are required");
	if (optind < argc)
		return cli_usage_error(usage, "unexpected argument '%s'",
				       argv[optind]);
	n = sim_read(simf, lv, machine, sizeof machine);
	if (n < 0)
		return 1;
	set = xcalloc(1, sizeof *set);
	rc = meas_read(measf, mfmt, set, &reps);
	if (rc != 0) {
		free(set);
		return rc;
	}
	if (!(runs > 0))
		runs = reps > 0 ? reps : 1;
	for (i = 0; i < n; i++) {
		const struct counter_event *e = NULL;
		size_t k;

		for (k = 0; k < nmaps; k++) {
			size_t l = (size_t)(strchr(maps[k], '=') - maps[k]);

			if (strlen(lv[i].name) == l &&
			    strncasecmp(maps[k], lv[i].name, l) == 0) {
				e = ev_find(set, maps[k] + l + 1);
				if (!e) {
					cli_error("--map %s: no event '%s' in '%s'",
						  maps[k], maps[k] + l + 1, measf);
					free(set);
					return 1;
				}
			}
		}
		for (k = 0; !e && i < 3 && def_events[i][k]; k++)
			e = ev_find(set, def_events[i][k]);
		if (e && e->status == COUNTER_OK) {
			lv[i].meas = e->fvalue / runs;
			snprintf(lv[i].event, sizeof lv[i].event, "%s", e->name);
		} else if (e) {
			snprintf(lv[i].event, sizeof lv[i].event, "%s "
				 "(unavailable)", e->name);
		}
	}
	free(set);

	f = cli_open_out(out);
	if (!f)
		return 1;
	if (fmt == CLI_FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *arr, *u;
		char *s;

		cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
		cJSON_AddStringToObject(root, "machine", machine);
		cJSON_AddStringToObject(root, "simulated_from", simf);
		cJSON_AddStringToObject(root, "measured_from", measf);
		cJSON_AddNumberToObject(root, "measured_runs_divisor", runs);
		u = cJSON_AddObjectToObject(root, "units");
		cJSON_AddStringToObject(u, "simulated", "misses (lines)");
		cJSON_AddStringToObject(u, "measured", "events per run");
		cJSON_AddStringToObject(u, "error", "(measured - simulated) / "
					"simulated");
		arr = cJSON_AddArrayToObject(root, "levels");
		for (i = 0; i < n; i++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "name", lv[i].name);
			cJSON_AddNumberToObject(o, "simulated", lv[i].sim);
			if (isfinite(lv[i].meas)) {
				cJSON_AddNumberToObject(o, "measured", lv[i].meas);
				cJSON_AddStringToObject(o, "event", lv[i].event);
				if (lv[i].sim > 0)
					cJSON_AddNumberToObject(o, "error",
						(lv[i].meas - lv[i].sim) /
						lv[i].sim);
				else
					cJSON_AddNullToObject(o, "error");
			} else {
				cJSON_AddNullToObject(o, "measured");
				cJSON_AddStringToObject(o, "event", lv[i].event);
				cJSON_AddNullToObject(o, "error");
			}
			cJSON_AddItemToArray(arr, o);
		}
		s = cJSON_Print(root);
		fprintf(f, "%s\n", s);
		free(s);
		cJSON_Delete(root);
	} else if (fmt == CLI_FMT_CSV) {
		fputs("level,simulated,measured,event,error\n", f);
		for (i = 0; i < n; i++) {
			cli_csv_field(f, lv[i].name);
			fprintf(f, ",%.0f,", lv[i].sim);
			if (isfinite(lv[i].meas))
				fprintf(f, "%.6g", lv[i].meas);
			fputc(',', f);
			cli_csv_field(f, lv[i].event);
			fputc(',', f);
			if (isfinite(lv[i].meas) && lv[i].sim > 0)
				fprintf(f, "%.6g", (lv[i].meas - lv[i].sim) /
					lv[i].sim);
			fputc('\n', f);
		}
	} else {
		fprintf(f, "Simulated (%s) vs measured (%s, per run: /%g)\n",
			simf, measf, runs);
		fprintf(f, "%-8s %16s %16s %9s  %s\n", "level", "simulated",
			"measured", "error", "event");
		for (i = 0; i < n; i++) {
			fprintf(f, "%-8s %16.0f ", lv[i].name, lv[i].sim);
			if (isfinite(lv[i].meas)) {
				fprintf(f, "%16.0f ", lv[i].meas);
				if (lv[i].sim > 0)
					fprintf(f, "%+8.1f%%", 100 * (lv[i].meas -
						lv[i].sim) / lv[i].sim);
				else
					fprintf(f, "%9s", "-");
			} else {
				fprintf(f, "%16s %9s", "-", "-");
			}
			fprintf(f, "  %s\n", lv[i].event[0] ? lv[i].event :
				"(no event for this level)");
		}
	}
	if (cli_close_out(f, out) != 0)
		rc = 1;
	if (svgf) {
		struct bar_group g[CMP_MAX_LEVELS];
		static const char *const series[2] = { "simulated (ppr)",
						       "measured" };
		struct ppr_err err = { 0 };
		char title[256];
		FILE *sf = cli_open_out(svgf);

		if (!sf)
			return 1;
		for (i = 0; i < n; i++) {
			g[i].name = lv[i].name;
			g[i].v[0] = lv[i].sim;
			g[i].v[1] = lv[i].meas;
		}
		snprintf(title, sizeof title, "Misses per level%s%s: simulated "
			 "vs measured", machine[0] ? " on " : "", machine);
		if (plot_bars_write(sf, title, "misses (log scale)", series, 2,
				    g, (size_t)n, 1, &err) != 0) {
			cli_error_err(&err);
			rc = 1;
		}
		if (cli_close_out(sf, svgf) != 0)
			rc = 1;
	}
	return rc;
}
