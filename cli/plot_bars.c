/*
 * plot_bars.c - grouped bar chart (e.g. simulated vs measured misses per
 * cache level), one colour per series, each bar labelled with its value.
 */
#include "cli/plot.h"

#include <math.h>
#include <string.h>

#include "cli/svg.h"

static const char *const series_colour[BARS_MAX_SERIES] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
};

int plot_bars_write(FILE *f, const char *title, const char *ylabel,
		    const char *const *series, size_t nseries,
		    const struct bar_group *g, size_t ng, int log_y,
		    struct ppr_err *err)
{
	double W = 160 + 150.0 * (double)(ng ? ng : 1), H = 480;
	double ML = 100, MR = 40, MT = 60, MB = 70, lo = HUGE_VAL, hi = 0;
	struct svg_legend_entry le[BARS_MAX_SERIES];
	struct svg_scale sx, sy;
	struct svg s;
	char st[96], buf[32], cls[32];
	size_t i, k;
	int rc;

	if (nseries == 0 || nseries > BARS_MAX_SERIES || ng == 0) {
		ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
			    "bars: need 1..%d series and at least one group",
			    BARS_MAX_SERIES);
		return PPR_EINVAL;
	}
	if (W < 560)
		W = 560;
	for (i = 0; i < ng; i++)
		for (k = 0; k < nseries; k++) {
			double v = g[i].v[k];

			if (!isfinite(v))
				continue;
			hi = fmax(hi, v);
			if (v > 0)
				lo = fmin(lo, v);
		}
	if (!(hi > 0))
		hi = 1;
	if (log_y) {
		if (!(lo < HUGE_VAL))
			lo = 1;
		sy.d0 = pow(10, floor(log10(lo * 0.999)));
		sy.d1 = pow(10, ceil(log10(hi * 1.5)));
		if (sy.d1 <= sy.d0)
			sy.d1 = sy.d0 * 10;
	} else {
		sy.d0 = 0;
		sy.d1 = hi * 1.15;
	}
	sy.r0 = H - MB; sy.r1 = MT; sy.log = log_y;
	sx.d0 = 0; sx.d1 = (double)ng; sx.r0 = ML; sx.r1 = W - MR; sx.log = 0;

	svg_begin(&s, f, W, H, title);
	if (title)
		svg_text(&s, W / 2, 26, "middle", 0, "chart-title",
			 "font-size:17px;font-weight:bold", title);
	/* y axis only: the x axis carries group names, not numbers */
	{
		struct svg_scale nox = sx;

		nox.d1 = 0; /* no x ticks: an empty span */
		svg_axes(&s, &nox, &sy, NULL, ylabel);
	}
	svg_group_begin(&s, "bars");
	for (i = 0; i < ng; i++) {
		double gx = svg_scale_map(&sx, (double)i);
		double gw = svg_scale_map(&sx, (double)i + 1) - gx;
		double bw = gw * 0.8 / (double)nseries;

		for (k = 0; k < nseries; k++) {
			double v = g[i].v[k], x = gx + gw * 0.1 + bw * k, y;

			if (!isfinite(v))
				continue;
			y = (log_y && !(v > 0)) ? sy.r0 :
			    svg_scale_map(&sy, v);
			snprintf(st, sizeof st, "fill:%s;stroke:#333",
				 series_colour[k]);
			snprintf(cls, sizeof cls, "bar bar-s%zu", k);
			svg_rect(&s, x, y, bw - 2, sy.r0 - y, cls, st);
			svg_fmt_num(v, buf, sizeof buf);
			svg_text(&s, x + bw / 2 - 1, y - 4, "middle", 0,
				 "bar-value", "font-size:11px", buf);
		}
		svg_text(&s, gx + gw / 2, sy.r0 + 20, "middle", 0,
			 "group-label", "font-size:13px", g[i].name);
	}
	svg_group_end(&s);
	for (k = 0; k < nseries; k++) {
		le[k].label = series[k];
		le[k].colour = series_colour[k];
		le[k].kind = 3;
		le[k].dash = NULL;
	}
	svg_legend(&s, W - MR - 200, MT + 8, le, nseries);
	rc = svg_end(&s);
	if (rc < 0)
		ppr_err_set(err, rc, NULL, 0, 0, "bars: writing the SVG failed");
	return rc;
}
