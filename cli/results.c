/*
 * results.c - results.jsonl reader (see results.h).
 */
#include "cli/results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plot.h"
#include "common/xalloc.h"

static void bad_add(struct results *r, const char *path, long line,
		    const char *why)
{
	char buf[1024];

	snprintf(buf, sizeof buf, "%s:%ld: %s", path, line, why);
	if (r->nbad == r->capbad) {
		r->capbad = r->capbad ? 2 * r->capbad : 8;
		r->bad = xrealloc(r->bad, r->capbad * sizeof *r->bad);
	}
	r->bad[r->nbad++] = xstrdup(buf);
}

static const char *str_member(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Check one parsed line; NULL if fine, else the reason. */
static const char *rec_fill(struct result_rec *rc, cJSON *j)
{
	const cJSON *key, *res;
	const char *st;

	if (!cJSON_IsObject(j))
		return "record is not a JSON object";
	key = cJSON_GetObjectItemCaseSensitive(j, "key");
	if (!cJSON_IsObject(key))
		return "field 'key': missing or not an object";
	rc->input = str_member(key, "input");
	if (!rc->input)
		return "field 'key.input': missing or not a string";
	rc->machine = str_member(key, "machine");
	rc->kernel = str_member(key, "kernel");
	rc->options = str_member(key, "options");
	if (!rc->machine)
		rc->machine = "";
	if (!rc->kernel)
		rc->kernel = "";
	if (!rc->options)
		rc->options = "";
	st = str_member(j, "status");
	if (!st)
		return "field 'status': missing or not a string";
	if (strcmp(st, "ok") == 0) {
		rc->ok = 1;
	} else if (strcmp(st, "error") == 0) {
		rc->ok = 0;
	} else {
		return "field 'status': neither \"ok\" nor \"error\"";
	}
	res = cJSON_GetObjectItemCaseSensitive(j, "result");
	rc->result = cJSON_IsObject(res) ? res : NULL;
	if (rc->ok && !rc->result)
		return "field 'result': an \"ok\" record needs a result object";
	rc->error = str_member(j, "error");
	if (!rc->error)
		rc->error = "";
	return NULL;
}

int results_load(struct results *r, const char *path, struct ppr_err *err)
{
	FILE *f = fopen(path, "rb");
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	ssize_t len;
	char *pathcopy;

	if (!f)
		return ppr_err_set(err, errno == ENOENT ? PPR_ENOENT : PPR_EIO,
				   path, 0, 0, "cannot open: %s",
				   strerror(errno));
	pathcopy = xstrdup(path);
	while ((len = getline(&line, &cap, f)) >= 0) {
		struct result_rec rc;
		const char *why, *end = NULL;
		cJSON *j;
		size_t i;
		int blank = 1;

		lineno++;
		for (i = 0; i < (size_t)len; i++)
			if (line[i] != ' ' && line[i] != '\t' &&
			    line[i] != '\r' && line[i] != '\n')
				blank = 0;
		if (blank)
			continue;
		if (memchr(line, '\0', (size_t)len)) {
			bad_add(r, path, lineno, "NUL byte in the line");
			continue;
		}
		j = cJSON_ParseWithOpts(line, &end, 0);
		if (!j) {
			char why2[128];
			const char *ep = cJSON_GetErrorPtr();
			long col = ep && ep >= line && ep <= line + len ?
				   (long)(ep - line) + 1 : 0;

			snprintf(why2, sizeof why2, "not valid JSON (near "
				 "column %ld)", col);
			bad_add(r, path, lineno, why2);
			continue;
		}
		while (end && (*end == ' ' || *end == '\t' || *end == '\r' ||
			       *end == '\n'))
			end++;
		if (end && *end) {
			cJSON_Delete(j);
			bad_add(r, path, lineno, "text after the JSON object "
				"(two records on one line?)");
			continue;
		}
		memset(&rc, 0, sizeof rc);
		why = rec_fill(&rc, j);
		if (why) {
			cJSON_Delete(j);
			bad_add(r, path, lineno, why);
			continue;
		}
		rc.file = pathcopy;
		rc.line = lineno;
		rc.json = j;
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 16;
			r->rec = xrealloc(r->rec, r->cap * sizeof *r->rec);
		}
		r->rec[r->n++] = rc;
	}
	free(line);
	if (ferror(f)) {
		fclose(f);
		/* keep pathcopy alive if records point to it; else free */
		if (r->n == 0 || r->rec[r->n - 1].file != pathcopy)
			free(pathcopy);
		return ppr_err_set(err, PPR_EIO, path, lineno, 0,
				   "read error: %s", strerror(errno));
	}
	fclose(f);
	if (r->n == 0 || r->rec[r->n - 1].file != pathcopy)
		free(pathcopy);
	return 0;
}

void results_free(struct results *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (i + 1 == r->n || r->rec[i + 1].file != r->rec[i].file)
			free(r->rec[i].file);
		cJSON_Delete(r->rec[i].json);
	}
	for (i = 0; i < r->nbad; i++)
		free(r->bad[i]);
	free(r->rec);
	free(r->bad);
	memset(r, 0, sizeof *r);
}

double results_num(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const cJSON *results_time_range(const cJSON *result)
{
	const cJSON *e = cJSON_IsObject(result) ?
			 cJSON_GetObjectItemCaseSensitive(result,
							  "expected_error") :
			 NULL;
	const cJSON *r = cJSON_IsObject(e) ?
			 cJSON_GetObjectItemCaseSensitive(e, "time_range_s") :
			 NULL;

	return cJSON_IsObject(r) ? r : NULL;
}

int results_roof_point(const cJSON *result, double *oi, double *gflops,
		       double *gflops_meas, const char **level)
{
	const cJSON *roof, *levels, *lv;
	double flops = results_num(result, "flops"), dram = NAN;

	*oi = NAN;
	*gflops = results_num(result, "gflops");
	*gflops_meas = results_num(result, "measured_gflops");
	*level = "DRAM";
	if (!(flops > 0) || !(*gflops > 0))
		return PPR_ENOENT;
	roof = cJSON_GetObjectItemCaseSensitive(result, "roofline");
	if (cJSON_IsObject(roof))
		dram = results_num(roof, "dram_intensity");
	if (dram > 0 && isfinite(dram)) {
		*oi = dram;
		return 0;
	}
	levels = cJSON_GetObjectItemCaseSensitive(result, "levels");
	if (cJSON_IsArray(levels)) {
		double bytes = 0;
		const char *name = NULL;

		/* the deepest level with traffic into it */
		cJSON_ArrayForEach(lv, levels) {
			double b = results_num(lv, "bytes_regular");
			double bi = results_num(lv, "bytes_irregular");
			double t = (isfinite(b) ? b : 0) +
				   (isfinite(bi) ? bi : 0);

			if (t > 0) {
				bytes = t;
				name = str_member(lv, "name");
			}
		}
		if (bytes > 0) {
			*oi = flops / bytes;
			*level = name ? name : "cache";
			return 0;
		}
	}
	return PPR_ENOENT;
}

/* "RxC" -> r, c in 1..8; 0 on success. */
static int shape_parse(const char *s, int *r, int *c)
{
	char x;

	if (!s || strlen(s) != 3)
		return -1;
	x = s[1];
	if ((x != 'x' && x != 'X') || s[0] < '1' || s[0] > '8' || s[2] < '1' ||
	    s[2] > '8')
		return -1;
	*r = s[0] - '0';
	*c = s[2] - '0';
	return 0;
}

static void shape_put(const cJSON *o, int r, int c, struct heat_grid *pred,
		      struct heat_grid *meas, int *has_meas)
{
	double p = results_num(o, "predicted_gflops");
	double m = results_num(o, "measured_gflops");

	if (!isfinite(p))
		p = results_num(o, "gflops");
	pred->v[r - 1][c - 1] = p;
	if (isfinite(m)) {
		meas->v[r - 1][c - 1] = m;
		*has_meas = 1;
	}
}

int results_heat_grids(const cJSON *result, struct heat_grid *pred,
		       struct heat_grid *meas, int *has_meas)
{
	const cJSON *shapes = cJSON_GetObjectItemCaseSensitive(result,
							       "shapes");
	const cJSON *o;
	int r, c, any = 0;
	double best = -HUGE_VAL;

	heat_grid_clear(pred);
	heat_grid_clear(meas);
	*has_meas = 0;
	if (cJSON_IsArray(shapes)) {
		cJSON_ArrayForEach(o, shapes)
			if (shape_parse(str_member(o, "shape"), &r, &c) == 0) {
				shape_put(o, r, c, pred, meas, has_meas);
				any = 1;
			}
	} else if (cJSON_IsObject(shapes)) {
		cJSON_ArrayForEach(o, shapes)
			if (shape_parse(o->string, &r, &c) == 0) {
				shape_put(o, r, c, pred, meas, has_meas);
				any = 1;
			}
	}
	if (!any)
		return PPR_ENOENT;
	if (shape_parse(str_member(result, "pick"), &r, &c) == 0) {
		pred->mark_r = r;
		pred->mark_c = c;
	}
	if (shape_parse(str_member(result, "measured_best"), &r, &c) == 0) {
		meas->mark_r = r;
		meas->mark_c = c;
	} else if (*has_meas) {
		/* no measured_best given: the largest measured value */
		for (r = 0; r < HEAT_N; r++)
			for (c = 0; c < HEAT_N; c++)
				if (meas->v[r][c] > best) {
					best = meas->v[r][c];
					meas->mark_r = r + 1;
					meas->mark_c = c + 1;
				}
	}
	return 0;
}
