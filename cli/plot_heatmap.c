/*
 * plot_heatmap.c - the 8x8 BCSR block-shape heatmap: rows r = 1..8 (block
 * rows) top to bottom, columns c = 1..8 left to right, the GFLOPS of each
 * shape written in its cell on a colour scale shared by the predicted and
 * (when given) the measured grid, the predicted pick / the measured best
 * outlined with a thick border.  Each grid has its own colour scale.
 */
#include "cli/plot.h"

#include <math.h>
#include <string.h>

#include "cli/results.h"
#include "cli/svg.h"

void heat_grid_clear(struct heat_grid *g)
{
	int r, c;

	for (r = 0; r < HEAT_N; r++)
		for (c = 0; c < HEAT_N; c++)
			g->v[r][c] = NAN;
	g->mark_r = g->mark_c = 0;
}

#define CELL 54.0
#define GAP 30.0

static void grid_range(const struct heat_grid *g, double *lo, double *hi)
{
	int r, c;

	if (!g)
		return;
	for (r = 0; r < HEAT_N; r++)
		for (c = 0; c < HEAT_N; c++)
			if (isfinite(g->v[r][c])) {
				*lo = fmin(*lo, g->v[r][c]);
				*hi = fmax(*hi, g->v[r][c]);
			}
}

static void grid_draw(struct svg *s, double x0, double y0,
		      const struct heat_grid *g, const char *caption,
		      const char *kind, const char *mark_cls,
		      const char *mark_name, double lo, double hi)
{
	char cls[64], st[96], buf[32], col[8];
	int r, c;

	svg_group_begin(s, kind);
	svg_text(s, x0 + HEAT_N * CELL / 2, y0 - 30, "middle", 0,
		 "grid-caption", "font-size:15px;font-weight:bold", caption);
	for (c = 1; c <= HEAT_N; c++) {
		snprintf(buf, sizeof buf, "c=%d", c);
		svg_text(s, x0 + (c - 0.5) * CELL, y0 - 8, "middle", 0,
			 "tick-label", NULL, buf);
	}
	for (r = 1; r <= HEAT_N; r++) {
		snprintf(buf, sizeof buf, "r=%d", r);
		svg_text(s, x0 - 8, y0 + (r - 0.5) * CELL + 4, "end", 0,
			 "tick-label", NULL, buf);
	}
	snprintf(cls, sizeof cls, "heat-cell heat-%s", kind + 5);
	for (r = 0; r < HEAT_N; r++) {
		for (c = 0; c < HEAT_N; c++) {
			double v = g->v[r][c], t;
			double x = x0 + c * CELL, y = y0 + r * CELL;

			if (!isfinite(v)) {
				svg_rect(s, x, y, CELL, CELL, cls,
					 "fill:#dddddd;stroke:#ffffff");
				svg_text(s, x + CELL / 2, y + CELL / 2 + 4,
					 "middle", 0, "heat-value",
					 "fill:#666", "n/a");
				continue;
			}
			t = hi > lo ? (v - lo) / (hi - lo) : 1;
			svg_colour_map(t, col);
			snprintf(st, sizeof st, "fill:%s;stroke:#ffffff", col);
			svg_rect(s, x, y, CELL, CELL, cls, st);
			svg_fmt_num(v, buf, sizeof buf);
			snprintf(st, sizeof st, "fill:%s", svg_colour_ink(t));
			svg_text(s, x + CELL / 2, y + CELL / 2 + 4, "middle", 0,
				 "heat-value", st, buf);
		}
	}
	if (g->mark_r >= 1 && g->mark_r <= HEAT_N && g->mark_c >= 1 &&
	    g->mark_c <= HEAT_N) {
		double x = x0 + (g->mark_c - 1) * CELL;
		double y = y0 + (g->mark_r - 1) * CELL;

		svg_rect(s, x + 2, y + 2, CELL - 4, CELL - 4, mark_cls,
			 "fill:none;stroke:#e8000b;stroke-width:4");
		snprintf(buf, sizeof buf, "%s: %dx%d", mark_name, g->mark_r,
			 g->mark_c);
		svg_text(s, x0 + HEAT_N * CELL / 2, y0 + HEAT_N * CELL + 22,
			 "middle", 0, "mark-label",
			 "font-size:13px;fill:#e8000b", buf);
	}
	svg_group_end(s);
}

int plot_heatmap_write(FILE *f, const char *title,
		       const struct heat_grid *pred,
		       const struct heat_grid *meas, struct ppr_err *err)
{
	double lo = HUGE_VAL, hi = -HUGE_VAL, mlo = HUGE_VAL, mhi = -HUGE_VAL;
	double w, h, x0 = 70, y0 = 80;
	struct svg s;
	int rc;

	if (!pred) {
		ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
			    "heatmap: no predicted grid");
		return PPR_EINVAL;
	}
	/* each grid on its own colour scale: the ranking within a grid is
	 * what the picture is for, and predicted and measured GFLOP/s may
	 * differ in level (a machine file for another CPU, for one) */
	grid_range(pred, &lo, &hi);
	if (!(lo <= hi))
		lo = 0, hi = 1;
	grid_range(meas, &mlo, &mhi);
	if (!(mlo <= mhi))
		mlo = 0, mhi = 1;
	w = x0 + HEAT_N * CELL + 110 + (meas ? GAP + HEAT_N * CELL + 110 : 0);
	h = y0 + HEAT_N * CELL + 50;
	svg_begin(&s, f, w, h, title ? title : "BCSR block shapes");
	svg_text(&s, w / 2, 24, "middle", 0, "chart-title",
		 "font-size:17px;font-weight:bold",
		 title ? title : "BCSR block shapes");
	grid_draw(&s, x0, y0, pred, "predicted GFLOP/s (r x c blocks)",
		  "heat-pred", "heat-pick", "pick", lo, hi);
	svg_colour_scale(&s, x0 + HEAT_N * CELL + 20, y0, 22, HEAT_N * CELL,
			 lo, hi, "GFLOP/s");
	if (meas) {
		double x1 = x0 + HEAT_N * CELL + 110 + GAP;

		grid_draw(&s, x1, y0, meas, "measured GFLOP/s", "heat-meas",
			  "heat-best", "measured best", mlo, mhi);
		svg_colour_scale(&s, x1 + HEAT_N * CELL + 20, y0, 22,
				 HEAT_N * CELL, mlo, mhi, "GFLOP/s");
	}
	rc = svg_end(&s);
	if (rc < 0)
		ppr_err_set(err, rc, NULL, 0, 0,
			    "heatmap: writing the SVG failed");
	return rc;
}

int plot_heatmap_write_json(FILE *f, const struct cJSON *bcsr,
			    struct ppr_err *err)
{
	struct heat_grid pred, meas;
	const cJSON *mx, *mn;
	char title[512];
	int has_meas;

	if (results_heat_grids(bcsr, &pred, &meas, &has_meas) != 0)
		return ppr_err_set(err, PPR_ENOENT, NULL, 0, 0,
				   "heatmap: the result has no BCSR shapes");
	mx = cJSON_GetObjectItemCaseSensitive(bcsr, "matrix");
	mn = cJSON_GetObjectItemCaseSensitive(bcsr, "machine");
	snprintf(title, sizeof title, "BCSR shapes: %s%s%s",
		 cJSON_IsString(mx) ? mx->valuestring : "matrix",
		 cJSON_IsString(mn) ? " on " : "",
		 cJSON_IsString(mn) ? mn->valuestring : "");
	return plot_heatmap_write(f, title, &pred, has_meas ? &meas : NULL,
				  err);
}
