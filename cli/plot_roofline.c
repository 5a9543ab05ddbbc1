/*
 * plot_roofline.c - the roofline chart of one core of a machine (Williams,
 * Waterman, Patterson, CACM 2009) in its cache-aware form: a bandwidth
 * roof per cache level and memory, compute roofs and ceilings, and dots.
 *
 * Roofs drawn (all for ONE core, as ppr's model predicts one core):
 *   - peak: flops_per_cycle_dp x clock_ghz (with FMA and SIMD);
 *   - without FMA: half of the peak (only when the machine has FMA: an
 *     add and a multiply issued instead of one fused op);
 *   - without SIMD: the peak divided by the SIMD width in doubles
 *     (simd_width_bits / 64), the paper's "w/out SIMD" ceiling;
 *   - scalar latency-bound: one dependent chain of scalar adds gives one
 *     flop per fp_add latency, clock / latency (only with a core model);
 *   - bandwidth: level i delivers bandwidth_bytes_per_cycle x clock GB/s
 *     to the level above it (L1: to the registers); memory is
 *     memory.bandwidth_gbs (the sustained figure the model uses).  Levels
 *     with equal bandwidth share one line and one label.
 * Integer roofs (Intel Advisor's integer roofline: int ops per byte, the
 * same byte traffic): we assume 64-bit integer ops; vector peak = the
 * number of ports of class vec_int / its occupancy x SIMD width in 64-bit
 * lanes x clock, scalar peak = the ports of int_alu x clock.  Without a
 * core model in the machine file we assume 2 vector and 4 scalar ALU
 * ports (Haswell's counts) and say so in the label.
 */
#include "cli/plot.h"

#include <math.h>
#include <string.h>

#include "cli/svg.h"
#include "common/xalloc.h"
#include "machines/machine.h"

static unsigned popcount32(uint32_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static size_t roof_add(struct roof_line *out, size_t n, size_t max,
		       const char *label, double value, int bw, int integer)
{
	if (n >= max || !(value > 0))
		return n;
	snprintf(out[n].label, sizeof out[n].label, "%s", label);
	out[n].value = value;
	out[n].bandwidth = bw;
	out[n].integer = integer;
	return n + 1;
}

size_t plot_roofline_roofs(const struct machine *m, int integer,
			   struct roof_line *out, size_t max)
{
	double clk = m->clock_ghz, peak = m->flops_per_cycle_dp * clk;
	double lanes = m->simd_width_bits >= 128 ? m->simd_width_bits / 64.0 :
		       1.0;
	char lab[64], num[32];
	size_t n = 0;
	unsigned i;

	n = roof_add(out, n, max, "peak (FMA, SIMD)", peak, 0, 0);
	if (m->fma)
		n = roof_add(out, n, max, "no FMA", peak / 2, 0, 0);
	if (lanes > 1)
		n = roof_add(out, n, max, "no SIMD (scalar)", peak / lanes, 0,
			     0);
	if (m->has_core && m->core.cost[DAG_FP_ADD].valid &&
	    m->core.cost[DAG_FP_ADD].latency > 0)
		n = roof_add(out, n, max, "scalar add latency-bound",
			     clk / m->core.cost[DAG_FP_ADD].latency, 0, 0);

	for (i = 0; i < m->hier.nlevels; i++) {
		double bw = m->level[i].bandwidth_bytes_per_cycle * clk;
		size_t k;
		int merged = 0;

		if (!(bw > 0))
			continue;
		for (k = 0; k < n; k++) {
			if (out[k].bandwidth && fabs(out[k].value - bw) <
			    1e-9 * bw) {
				char *sp = strchr(out[k].label, ' ');
				char head[64];

				/* "L1D 172.8 GB/s" -> "L1D, L2 172.8 GB/s" */
				if (sp) {
					snprintf(head, sizeof head, "%.*s, %s%s",
						 (int)(sp - out[k].label),
						 out[k].label,
						 m->hier.levels[i].name, sp);
					snprintf(out[k].label,
						 sizeof out[k].label, "%s",
						 head);
				}
				merged = 1;
			}
		}
		if (merged)
			continue;
		snprintf(num, sizeof num, "%.4g", bw);
		snprintf(lab, sizeof lab, "%s %s GB/s", m->hier.levels[i].name,
			 num);
		n = roof_add(out, n, max, lab, bw, 1, 0);
	}
	snprintf(num, sizeof num, "%.4g", m->mem_bandwidth_gbs);
	snprintf(lab, sizeof lab, "DRAM %s GB/s", num);
	n = roof_add(out, n, max, lab, m->mem_bandwidth_gbs, 1, 0);

	if (integer) {
		double vports = 2, sports = 4, occ = 1;
		int assumed = 1;

		if (m->has_core && m->core.cost[DAG_VEC_INT].valid &&
		    m->core.cost[DAG_INT_ALU].valid) {
			vports = popcount32(m->core.cost[DAG_VEC_INT].ports);
			sports = popcount32(m->core.cost[DAG_INT_ALU].ports);
			occ = m->core.cost[DAG_VEC_INT].occupancy ?
			      m->core.cost[DAG_VEC_INT].occupancy : 1;
			assumed = 0;
		}
		snprintf(lab, sizeof lab, "INT64 vector peak%s",
			 assumed ? " (assumed 2 ports)" : "");
		n = roof_add(out, n, max, lab, vports / occ * lanes * clk, 0,
			     1);
		snprintf(lab, sizeof lab, "INT64 scalar peak%s",
			 assumed ? " (assumed 4 ALUs)" : "");
		n = roof_add(out, n, max, lab, sports * clk, 0, 1);
	}
	return n;
}

#define MAX_BOXES 512

/* A label box, for the overlap check of dot labels. */
struct box {
	double x0, y0, x1, y1;
};

static int box_hits(const struct box *a, const struct box *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a->x0 < b[i].x1 && b[i].x0 < a->x1 && a->y0 < b[i].y1 &&
		    b[i].y0 < a->y1)
			return 1;
	return 0;
}

static void box_add(struct box *b, size_t *n, double x0, double y0,
		    double x1, double y1)
{
	if (*n >= MAX_BOXES)
		return;
	b[*n].x0 = x0;
	b[*n].y0 = y0;
	b[*n].x1 = x1;
	b[*n].y1 = y1;
	(*n)++;
}

static const char *const palette[] = {
	"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
	"#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
};
#define NPAL (sizeof palette / sizeof palette[0])

#define W 960.0
#define H 640.0
#define ML 90.0
#define MR 30.0
#define MT 50.0
#define MB 70.0
#define MAX_ROOFS 24

int plot_roofline_write(FILE *f, const struct machine *m,
			const struct roof_point *pts, size_t npts,
			int integer, struct ppr_err *err)
{
	struct roof_line r[MAX_ROOFS];
	struct svg_scale sx, sy;
	struct svg s;
	struct box boxes[MAX_BOXES];
	size_t nr, nb = 0, i;
	double peak = 0, topbw = 0, lowbw = HUGE_VAL, lowc = HUGE_VAL;
	double xmin = 1.0 / 32, xmax = 16, ymin, ymax;
	double pxdec, pydec, angle;
	char title[256], st[160], buf[96];
	double *xy;
	int rc;

	if (!m || !(m->clock_ghz > 0) || !(m->flops_per_cycle_dp > 0)) {
		ppr_err_set(err, PPR_EINVAL, NULL, 0, 0,
			    "roofline: the machine file gives no clock or "
			    "no peak flops per cycle");
		return PPR_EINVAL;
	}
	nr = plot_roofline_roofs(m, integer, r, MAX_ROOFS);
	for (i = 0; i < nr; i++) {
		if (r[i].bandwidth) {
			topbw = fmax(topbw, r[i].value);
			lowbw = fmin(lowbw, r[i].value);
		} else {
			peak = fmax(peak, r[i].value);
			lowc = fmin(lowc, r[i].value);
		}
	}
	if (!(topbw > 0))
		topbw = lowbw = peak;
	/* x range: the ridge points with room on both sides, and the dots */
	xmax = fmax(xmax, 4 * peak / lowbw);
	for (i = 0; i < npts; i++) {
		if (pts[i].oi_pred > 0 && isfinite(pts[i].oi_pred)) {
			xmin = fmin(xmin, pts[i].oi_pred / 2);
			xmax = fmax(xmax, pts[i].oi_pred * 2);
		}
		if (pts[i].oi_meas > 0 && isfinite(pts[i].oi_meas)) {
			xmin = fmin(xmin, pts[i].oi_meas / 2);
			xmax = fmax(xmax, pts[i].oi_meas * 2);
		}
	}
	xmin = pow(10, floor(log10(xmin)));
	xmax = pow(10, ceil(log10(xmax)));
	ymax = pow(10, ceil(log10(peak * 1.3)));
	ymin = fmin(lowc, lowbw * xmin);
	for (i = 0; i < npts; i++) {
		if (pts[i].gflops_pred > 0)
			ymin = fmin(ymin, pts[i].gflops_pred);
		if (pts[i].gflops_meas > 0)
			ymin = fmin(ymin, pts[i].gflops_meas);
	}
	ymin = pow(10, floor(log10(ymin / 1.5)));
	if (ymin < ymax * 1e-5)
		ymin = ymax * 1e-5;

	sx.d0 = xmin; sx.d1 = xmax; sx.r0 = ML; sx.r1 = W - MR; sx.log = 1;
	sy.d0 = ymin; sy.d1 = ymax; sy.r0 = H - MB; sy.r1 = MT; sy.log = 1;
	pxdec = (sx.r1 - sx.r0) / (log10(xmax) - log10(xmin));
	pydec = (sy.r0 - sy.r1) / (log10(ymax) - log10(ymin));
	angle = -atan2(pydec, pxdec) * 180 / M_PI;

	snprintf(title, sizeof title, "Roofline: %s, one core at %.2f GHz%s",
		 m->name, m->clock_ghz, integer ? " (with integer roofs)" : "");
	svg_begin(&s, f, W, H, title);
	svg_text(&s, W / 2, 28, "middle", 0, "chart-title",
		 "font-size:18px;font-weight:bold", title);
	svg_axes(&s, &sx, &sy, integer ?
		 "operational intensity (flops or int ops per byte)" :
		 "operational intensity (flops per byte)",
		 integer ? "GFLOP/s or GINTOP/s" : "performance (GFLOP/s)");

	/* bandwidth roofs: from the left edge to the peak */
	svg_group_begin(&s, "roofs");
	for (i = 0; i < nr; i++) {
		double bw = r[i].value, x0, x1, px0, py0, px1, py1, lx, ly;

		if (!r[i].bandwidth)
			continue;
		x0 = fmax(xmin, ymin / bw);
		x1 = fmin(xmax, peak / bw);
		if (x1 <= x0)
			continue;
		px0 = svg_scale_map(&sx, x0); py0 = svg_scale_map(&sy, bw * x0);
		px1 = svg_scale_map(&sx, x1); py1 = svg_scale_map(&sy, bw * x1);
		snprintf(st, sizeof st, "stroke:%s;stroke-width:2.5",
			 strncmp(r[i].label, "DRAM", 4) ? "#1f4e9a" :
			 "#000000");
		svg_line(&s, px0, py0, px1, py1, "roof roof-bandwidth", st);
		/* label along the line, a third of the way up its visible
		 * part, just above it */
		lx = px0 + (px1 - px0) * 0.30;
		ly = py0 + (py1 - py0) * 0.30 - 6;
		svg_text(&s, lx, ly, "start", angle, "roof-label", NULL,
			 r[i].label);
		{
			/* its bounding box, an obstacle for dot labels */
			double tw = 6.8 * (double)strlen(r[i].label);
			double a = -angle * M_PI / 180;

			box_add(boxes, &nb, lx, ly - tw * sin(a) - 12,
				lx + tw * cos(a), ly + 2);
		}
	}
	/* compute roofs: horizontal, from where the top bandwidth roof
	 * meets them to the right edge */
	for (i = 0; i < nr; i++) {
		double v = r[i].value, x0, px0, py, lxm;

		if (r[i].bandwidth)
			continue;
		x0 = fmax(xmin, v / topbw);
		px0 = svg_scale_map(&sx, x0);
		py = svg_scale_map(&sy, v);
		if (py < sy.r1 || py > sy.r0)
			continue;
		if (r[i].integer)
			snprintf(st, sizeof st, "stroke:#8b4513;stroke-width:2;"
				 "stroke-dasharray:8,4");
		else if (v == peak)
			snprintf(st, sizeof st, "stroke:#000;stroke-width:2.5");
		else
			snprintf(st, sizeof st, "stroke:#555;stroke-width:1.5;"
				 "stroke-dasharray:5,4");
		svg_line(&s, px0, py, sx.r1, py, r[i].integer ?
			 "roof roof-integer" : v == peak ?
			 "roof roof-compute" : "roof roof-ceiling", st);
		snprintf(buf, sizeof buf, "%.4g", v);
		snprintf(title, sizeof title, "%.63s %.31s %s", r[i].label, buf,
			 r[i].integer ? "GINTOP/s" : "GFLOP/s");
		/* first free place: right end above / below the line, then
		 * left end above / below (equal roofs must not overprint) */
		{
			double w = 6.8 * (double)strlen(title);
			double cand[4][2] = {
				{ sx.r1 - 6 - w, py - 5 }, { sx.r1 - 6 - w, py + 15 },
				{ px0 + 6, py - 5 }, { px0 + 6, py + 15 },
			};
			size_t q;

			for (q = 0; q < 4; q++) {
				boxes[nb].x0 = cand[q][0];
				boxes[nb].x1 = cand[q][0] + w;
				boxes[nb].y0 = cand[q][1] - 13;
				boxes[nb].y1 = cand[q][1] + 2;
				if (!box_hits(&boxes[nb], boxes, nb))
					break;
			}
			if (q == 4)
				q = 0;
			lxm = cand[q][0];
			boxes[nb].x0 = lxm;
			boxes[nb].x1 = lxm + w;
			boxes[nb].y0 = cand[q][1] - 13;
			boxes[nb].y1 = cand[q][1] + 2;
			svg_text(&s, lxm, cand[q][1], "start", 0, "roof-label",
				 r[i].integer ? "fill:#8b4513" : NULL, title);
		}
		nb++;
	}
	svg_group_end(&s);

	/* dots: predicted filled, measured as a ring, joined by a dotted
	 * line; first every dot is an obstacle, then each label goes to the
	 * first free place around its dot (a leader line when it is far) */
	xy = xcalloc(4 * (npts + 1), sizeof *xy);
	for (i = 0; i < npts; i++) {
		const struct roof_point *p = &pts[i];
		int hp = p->oi_pred > 0 && p->gflops_pred > 0;
		int hm = p->oi_meas > 0 && p->gflops_meas > 0;
		double *d = &xy[4 * i];

		d[0] = d[1] = d[2] = d[3] = NAN;
		if (hp) {
			d[0] = svg_scale_map(&sx, p->oi_pred);
			d[1] = svg_scale_map(&sy, p->gflops_pred);
			box_add(boxes, &nb, d[0] - 6, d[1] - 6, d[0] + 6, d[1] + 6);
		}
		if (hm) {
			d[2] = svg_scale_map(&sx, p->oi_meas);
			d[3] = svg_scale_map(&sy, p->gflops_meas);
			box_add(boxes, &nb, d[2] - 9, d[3] - 9, d[2] + 9, d[3] + 9);
		}
	}
	svg_group_begin(&s, "dots");
	for (i = 0; i < npts; i++) {
		const char *c = palette[i % NPAL];
		const double *d = &xy[4 * i];

		if (isfinite(d[0]) && isfinite(d[2])) {
			snprintf(st, sizeof st, "stroke:%s;stroke-dasharray:2,3",
				 c);
			svg_line(&s, d[0], d[1], d[2], d[3], "dot-link", st);
		}
		if (isfinite(d[0])) {
			snprintf(st, sizeof st, "fill:%s;stroke:#000;"
				 "stroke-width:0.8", c);
			svg_circle(&s, d[0], d[1], 6, "dot dot-pred", st);
		}
		if (isfinite(d[2])) {
			/* a ring, larger than a filled dot: visible even
			 * where a predicted dot sits on it */
			snprintf(st, sizeof st, "fill:none;stroke:%s;"
				 "stroke-width:2.5", c);
			svg_circle(&s, d[2], d[3], 9, "dot dot-meas", st);
		}
	}
	svg_group_end(&s);
	svg_group_begin(&s, "dot-labels");
	for (i = 0; i < npts; i++) {
		const struct roof_point *p = &pts[i];
		const char *c = palette[i % NPAL];
		const double *d = &xy[4 * i];
		double px = isfinite(d[0]) ? d[0] : d[2];
		double py = isfinite(d[0]) ? d[1] : d[3];
		double w, bx = 0, by = 0;
		size_t nch;
		int k, placed = 0;

		if (!isfinite(px))
			continue;
		nch = strlen(p->label ? p->label : "");
		if (nch > 60)
			nch = 60;
		w = 7.0 * (double)nch;
		/* candidates: right then left of the dot, rows going out */
		for (k = 0; k < 2 * 13 && !placed; k++) {
			static const double dy[13] = { 0, -14, 14, -28, 28, -42,
				42, -56, 56, -70, 70, -84, 84 };
			struct box b;

			b.x0 = (k % 2 == 0) ? px + 11 : px - 11 - w;
			b.x1 = b.x0 + w;
			b.y0 = py + dy[k / 2] - 8;
			b.y1 = py + dy[k / 2] + 6;
			if (b.x1 < sx.r1 && b.x0 > sx.r0 && b.y0 > sy.r1 &&
			    b.y1 < sy.r0 && !box_hits(&b, boxes, nb)) {
				bx = b.x0;
				by = b.y1 - 3;
				placed = 1;
				box_add(boxes, &nb, b.x0, b.y0, b.x1, b.y1);
				if (k / 2 >= 2) {
					snprintf(st, sizeof st, "stroke:%s;"
						 "stroke-width:0.8", c);
					svg_line(&s, px, py, k % 2 ? b.x1 : b.x0,
						 by - 4, "dot-leader", st);
				}
			}
		}
		if (!placed) {
			bx = px + 11;
			by = py + 4;
		}
		snprintf(buf, sizeof buf, "%.60s", p->label ? p->label : "");
		snprintf(st, sizeof st, "fill:%s", c);
		svg_text(&s, bx, by, "start", 0, "dot-label", st, buf);
	}
	svg_group_end(&s);
	free(xy);

	if (npts > 0) {
		struct svg_legend_entry le[2] = {
			{ "predicted (ppr)", "#444", 1, NULL },
			{ "measured", "#444", 2, NULL },
		};

		svg_legend(&s, ML + 10, MT + 10, le, 2);
	}
	rc = svg_end(&s);
	if (rc < 0)
		ppr_err_set(err, rc, NULL, 0, 0,
			    "roofline: writing the SVG failed");
	return rc;
}
