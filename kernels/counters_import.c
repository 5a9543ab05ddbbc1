/*
 * counters_import.c - counts measured elsewhere, into a struct counter_set.
 *
 * PAPI: papi_command_line prints, per event, a line "EVENT : value"
 * (name, white space, colon, value) among chatter such as "Successfully
 * added: PAPI_TOT_INS" or "Verification: ..." (no white space before the
 * colon).  A line whose name is followed by " : " must carry a
 * non-negative integer; anything else there is an error.
 *
 * perf: `perf stat -x,` writes one CSV row per event:
 * value,unit,event,run-time,percentage[,metric-value,metric-unit]; the
 * value may be "<not supported>" or "<not counted>".  Lines starting with
 * '#' and blank lines are skipped.
 */
#include "kernels/kernels_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Copy [b, e) trimmed of blanks into out (size n); returns its length. */
static size_t trim_copy(const char *b, const char *e, char *out, size_t n)
{
	size_t len;

	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	len = (size_t)(e - b);
	if (len >= n)
		len = n - 1;
	memcpy(out, b, len);
	out[len] = '\0';
	return (size_t)(e - b);
}

static int parse_u64_strict(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!*s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static int parse_double_strict(const char *s, double *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	/* NaN, inf, negative and >= 2^64 are refused: the count is
	 * converted to uint64_t (fuzzing found 1.1e25 overflowing it). */
	return (errno || *end || !(*v >= 0 && *v < 18446744073709551616.0))
		? -1 : 0;
}

static int add_event(struct counter_set *s, const char *file, long line,
		     const char *name, struct counter_event **out,
		     struct ppr_err *err)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->ev[i].name, name))
			return ppr_err_set(err, PPR_EFORMAT, file, line, 0,
					   "event '%s' appears twice", name);
	if (s->n == COUNTER_MAX_EVENTS)
		return ppr_err_set(err, PPR_EFORMAT, file, line, 0,
				   "more than %d events", COUNTER_MAX_EVENTS);
	*out = &s->ev[s->n++];
	memset(*out, 0, sizeof(**out));
	snprintf((*out)->name, sizeof((*out)->name), "%s", name);
	(*out)->scale = 1.0;
	return 0;
}

/* Iterate lines of buf: sets *b, *e (without the newline / CR). */
static int next_line(const char *buf, size_t len, size_t *pos, const char **b,
		     const char **e)
{
	const char *p, *nl;

	if (*pos >= len)
		return 0;
	p = buf + *pos;
	nl = memchr(p, '\n', len - *pos);
	*b = p;
	*e = nl ? nl : buf + len;
	*pos = (size_t)(*e - buf) + (nl ? 1 : 0);
	if (*e > *b && (*e)[-1] == '\r')
		(*e)--;
	return 1;
}

int counter_import_papi(struct counter_set *s, const char *name,
			const char *buf, size_t len, struct ppr_err *err)
{
	size_t pos = 0;
	const char *b, *e;
	long line = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	snprintf(s->source, sizeof(s->source), "papi-import");
	while (next_line(buf, len, &pos, &b, &e)) {
		const char *colon = NULL, *p;
		char ev[COUNTER_NAME_MAX], val[128];
		struct counter_event *c;
		uint64_t v;

		line++;
		/* "NAME<blank>:" with NAME one token starting the line */
		p = b;
		while (p < e && isspace((unsigned char)*p))
			p++;
		while (p < e && !isspace((unsigned char)*p) && *p != ':')
			p++;
		if (p == b || p >= e || !isspace((unsigned char)*p))
			continue;	/* chatter: no blank before a colon */
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= e || *p != ':')
			continue;
		colon = p;
		if (trim_copy(b, colon, ev, sizeof(ev)) >= sizeof(ev))
			return ppr_err_set(err, PPR_EFORMAT, name, line, 0,
					   "event name longer than %d bytes",
					   COUNTER_NAME_MAX - 1);
		trim_copy(colon + 1, e, val, sizeof(val));
		if (!*val)
			return ppr_err_set(err, PPR_EFORMAT, name, line, 0,
					   "event '%s': missing value after "
					   "':'", ev);
		if (parse_u64_strict(val, &v))
			return ppr_err_set(err, PPR_EFORMAT, name, line, 0,
					   "event '%s': value '%s' is not a "
					   "non-negative integer", ev, val);
		rc = add_event(s, name, line, ev, &c, err);
		if (rc)
			return rc;
		c->value = v;
		c->fvalue = (double)v;
		c->status = COUNTER_OK;
		snprintf(c->native, sizeof(c->native), "%s", ev);
	}
	if (!s->n)
		return ppr_err_set(err, PPR_EFORMAT, name, 0, 0,
				   "no 'EVENT : value' lines found");
	return 0;
}

int counter_import_perf_csv(struct counter_set *s, const char *name,
			    const char *buf, size_t len, struct ppr_err *err)
{
	size_t pos = 0;
	const char *b, *e;
	long line = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	snprintf(s->source, sizeof(s->source), "perf-stat-import");
	while (next_line(buf, len, &pos, &b, &e)) {
		const char *f[8], *fe[8], *p = b;
		char val[128], unit[32], ev[COUNTER_NAME_MAX];
		struct counter_event *c;
		int nf = 0;

		line++;
		while (p < e && isspace((unsigned char)*p))
			p++;
		if (p == e || *p == '#')
			continue;
		p = b;
		while (nf < 8) {
			const char *comma = memchr(p, ',', (size_t)(e - p));

			f[nf] = p;
			fe[nf] = comma ? comma : e;
			nf++;
			if (!comma)
				break;
			p = comma + 1;
		}
		if (nf < 3)
			return ppr_err_set(err, PPR_EFORMAT, name, line, 0,
					   "expected at least 3 comma-separated "
					   "fields (value,unit,event), got %d",
					   nf);
		trim_copy(f[0], fe[0], val, sizeof(val));
		trim_copy(f[1], fe[1], unit, sizeof(unit));
		if (trim_copy(f[2], fe[2], ev, sizeof(ev)) >= sizeof(ev))
			return ppr_err_set(err, PPR_EFORMAT, name, line, 0,
					   "event name longer than %d bytes",
					   COUNTER_NAME_MAX - 1);
		if (!*ev)
			return ppr_err_set(err, PPR_EFORMAT, name, line, 0,
					   "empty event name (field 3)");
		rc = add_event(s, name, line, ev, &c, err);
		if (rc)
			return rc;
		snprintf(c->unit, sizeof(c->unit), "%s", unit);
		snprintf(c->native, sizeof(c->native), "%s", ev);
		if (!strcmp(val, "<not supported>")) {
			c->status = COUNTER_UNAVAILABLE;
			snprintf(c->why, sizeof(c->why),
				 "perf stat: <not supported>");
		} else if (!strcmp(val, "<not counted>")) {
			c->status = COUNTER_NOT_COUNTED;
			snprintf(c->why, sizeof(c->why),
				 "perf stat: <not counted>");
		} else if (!parse_u64_strict(val, &c->value)) {
			c->fvalue = (double)c->value;
			c->status = COUNTER_OK;
		} else if (!parse_double_strict(val, &c->fvalue)) {
			c->value = (uint64_t)(c->fvalue + 0.5);
			c->status = COUNTER_OK;
		} else {
			return ppr_err_set(err, PPR_EFORMAT, name, line, 0,
					   "event '%s': value '%s' is not a "
					   "number", ev, val);
		}
	}
	if (!s->n)
		return ppr_err_set(err, PPR_EFORMAT, name, 0, 0,
				   "no 'value,unit,event' rows found");
	return 0;
}
