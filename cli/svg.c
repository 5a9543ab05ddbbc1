/*
 * svg.c - the tiny SVG writer (see svg.h).
 */
#include "cli/svg.h"

#include <math.h>
#include <string.h>

#include "common/ppr_err.h"

#define FONT "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\""

void svg_escape(FILE *f, const char *text)
{
	const unsigned char *p = (const unsigned char *)(text ? text : "");

	for (; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fputc('?', f);
			else
				fputc(*p, f);
		}
	}
}

static void attr_opt(FILE *f, const char *name, const char *v)
{
	if (v && *v) {
		fprintf(f, " %s=\"", name);
		svg_escape(f, v);
		fputc('"', f);
	}
}

void svg_begin(struct svg *s, FILE *f, double w, double h, const char *title)
{
	s->f = f;
	s->width = w;
	s->height = h;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" " FONT
		" font-size=\"12\">\n", w, h, w, h);
	if (title) {
		fputs("<title>", f);
		svg_escape(f, title);
		fputs("</title>\n", f);
	}
	fprintf(f, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%.0f\" "
		"height=\"%.0f\" fill=\"#ffffff\"/>\n", w, h);
}

int svg_end(struct svg *s)
{
	fputs("</svg>\n", s->f);
	if (fflush(s->f) != 0 || ferror(s->f))
		return PPR_EIO;
	return 0;
}

double svg_scale_map(const struct svg_scale *sc, double v)
{
	double t;

	if (sc->log) {
		if (!(v > 0))
			v = sc->d0;
		t = (log10(v) - log10(sc->d0)) /
		    (log10(sc->d1) - log10(sc->d0));
	} else {
		t = (v - sc->d0) / (sc->d1 - sc->d0);
	}
	if (!isfinite(t))
		t = 0;
	return sc->r0 + t * (sc->r1 - sc->r0);
}

void svg_line(struct svg *s, double x1, double y1, double x2, double y2,
	      const char *cls, const char *style)
{
	fprintf(s->f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"",
		x1, y1, x2, y2);
	attr_opt(s->f, "class", cls);
	attr_opt(s->f, "style", style);
	fputs("/>\n", s->f);
}

void svg_polyline(struct svg *s, const double *xy, size_t npts,
		  const char *cls, const char *style)
{
	size_t i;

	fputs("<polyline points=\"", s->f);
	for (i = 0; i < npts; i++)
		fprintf(s->f, "%s%.2f,%.2f", i ? " " : "", xy[2 * i],
			xy[2 * i + 1]);
	fputc('"', s->f);
	attr_opt(s->f, "class", cls);
	attr_opt(s->f, "style", style);
	fputs(" fill=\"none\"/>\n", s->f);
}

void svg_rect(struct svg *s, double x, double y, double w, double h,
	      const char *cls, const char *style)
{
	fprintf(s->f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%.2f\"", x, y, w < 0 ? 0 : w, h < 0 ? 0 : h);
	attr_opt(s->f, "class", cls);
	attr_opt(s->f, "style", style);
	fputs("/>\n", s->f);
}

void svg_circle(struct svg *s, double cx, double cy, double r,
		const char *cls, const char *style)
{
	fprintf(s->f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", cx, cy, r);
	attr_opt(s->f, "class", cls);
	attr_opt(s->f, "style", style);
	fputs("/>\n", s->f);
}

void svg_text(struct svg *s, double x, double y, const char *anchor,
	      double rotate, const char *cls, const char *style,
	      const char *text)
{
	fprintf(s->f, "<text x=\"%.2f\" y=\"%.2f\"", x, y);
	attr_opt(s->f, "text-anchor", anchor);
	if (rotate != 0)
		fprintf(s->f, " transform=\"rotate(%.2f %.2f %.2f)\"", rotate,
			x, y);
	attr_opt(s->f, "class", cls);
	attr_opt(s->f, "style", style);
	fputc('>', s->f);
	svg_escape(s->f, text);
	fputs("</text>\n", s->f);
}

void svg_group_begin(struct svg *s, const char *cls)
{
	fputs("<g", s->f);
	attr_opt(s->f, "class", cls);
	fputs(">\n", s->f);
}

void svg_group_end(struct svg *s)
{
	fputs("</g>\n", s->f);
}

void svg_fmt_num(double v, char *buf, size_t n)
{
	double a = fabs(v);

	if (v == 0)
		snprintf(buf, n, "0");
	else if (a >= 1e6 || a < 1e-3)
		snprintf(buf, n, "%.2g", v);
	else if (a >= 100)
		snprintf(buf, n, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.3g", v);
	/* trim trailing zeros of a decimal fraction ("2.50" -> "2.5") */
	if (strchr(buf, '.') && !strchr(buf, 'e')) {
		size_t l = strlen(buf);

		while (l > 1 && buf[l - 1] == '0')
			buf[--l] = '\0';
		if (l > 1 && buf[l - 1] == '.')
			buf[--l] = '\0';
	}
}

/* Ticks of one axis into t[] (at most max); returns how many. */
static size_t axis_ticks(const struct svg_scale *sc, double *t, size_t max)
{
	double lo = fmin(sc->d0, sc->d1), hi = fmax(sc->d0, sc->d1);
	size_t n = 0;

	if (sc->log) {
		int e0 = (int)floor(log10(lo) + 1e-9);
		int e1 = (int)ceil(log10(hi) - 1e-9);
		int few = e1 - e0 <= 2, e;

		for (e = e0; e <= e1 && n < max; e++) {
			static const double m[3] = { 1, 2, 5 };
			int k;

			for (k = 0; k < (few ? 3 : 1) && n < max; k++) {
				double v = m[k] * pow(10, e);

				if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
					t[n++] = v;
			}
		}
	} else {
		double span = hi - lo, step, mag, v;

		if (!(span > 0))
			return 0;
		mag = pow(10, floor(log10(span / 5)));
		step = mag;
		if (span / step > 10)
			step = 2 * mag;
		if (span / step > 10)
			step = 5 * mag;
		if (span / step > 10)
			step = 10 * mag;
		for (v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 &&
		     n < max; v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

void svg_axes(struct svg *s, const struct svg_scale *x,
	      const struct svg_scale *y, const char *xlabel,
	      const char *ylabel)
{
	double t[64], x0 = fmin(x->r0, x->r1), x1 = fmax(x->r0, x->r1);
	double y0 = fmin(y->r0, y->r1), y1 = fmax(y->r0, y->r1);
	char buf[32];
	size_t n, i;

	svg_group_begin(s, "grid");
	n = axis_ticks(x, t, 64);
	for (i = 0; i < n; i++) {
		double px = svg_scale_map(x, t[i]);

		svg_line(s, px, y0, px, y1, "grid", "stroke:#e4e4e4");
	}
	n = axis_ticks(y, t, 64);
	for (i = 0; i < n; i++) {
		double py = svg_scale_map(y, t[i]);

		svg_line(s, x0, py, x1, py, "grid", "stroke:#e4e4e4");
	}
	svg_group_end(s);

	svg_group_begin(s, "axis x-axis");
	svg_line(s, x0, y1, x1, y1, "axis-line", "stroke:#000");
	n = axis_ticks(x, t, 64);
	for (i = 0; i < n; i++) {
		double px = svg_scale_map(x, t[i]);

		svg_line(s, px, y1, px, y1 + 5, "tick", "stroke:#000");
		svg_fmt_num(t[i], buf, sizeof buf);
		svg_text(s, px, y1 + 18, "middle", 0, "tick-label", NULL, buf);
	}
	if (xlabel)
		svg_text(s, (x0 + x1) / 2, y1 + 40, "middle", 0, "axis-label",
			 "font-size:14px", xlabel);
	svg_group_end(s);

	svg_group_begin(s, "axis y-axis");
	svg_line(s, x0, y0, x0, y1, "axis-line", "stroke:#000");
	n = axis_ticks(y, t, 64);
	for (i = 0; i < n; i++) {
		double py = svg_scale_map(y, t[i]);

		svg_line(s, x0 - 5, py, x0, py, "tick", "stroke:#000");
		svg_fmt_num(t[i], buf, sizeof buf);
		svg_text(s, x0 - 8, py + 4, "end", 0, "tick-label", NULL, buf);
	}
	if (ylabel)
		svg_text(s, x0 - 52, (y0 + y1) / 2, "middle", -90, "axis-label",
			 "font-size:14px", ylabel);
	svg_group_end(s);
	svg_rect(s, x0, y0, x1 - x0, y1 - y0, "frame",
		 "fill:none;stroke:#000");
}

void svg_legend(struct svg *s, double x, double y,
		const struct svg_legend_entry *e, size_t n)
{
	size_t i, maxlen = 0;
	char st[160];

	for (i = 0; i < n; i++)
		if (strlen(e[i].label) > maxlen)
			maxlen = strlen(e[i].label);
	svg_group_begin(s, "legend");
	svg_rect(s, x, y, 40 + 6.8 * (double)maxlen, 8 + 18 * (double)n,
		 "legend-box", "fill:#ffffff;fill-opacity:0.9;stroke:#999");
	for (i = 0; i < n; i++) {
		double cy = y + 14 + 18 * (double)i;

		switch (e[i].kind) {
		case 0:
			snprintf(st, sizeof st, "stroke:%s;stroke-width:2%s%s",
				 e[i].colour, e[i].dash ? ";stroke-dasharray:" :
				 "", e[i].dash ? e[i].dash : "");
			svg_line(s, x + 6, cy - 4, x + 30, cy - 4, "legend-key",
				 st);
			break;
		case 1:
			snprintf(st, sizeof st, "fill:%s", e[i].colour);
			svg_circle(s, x + 18, cy - 4, 5, "legend-key", st);
			break;
		case 2:
			snprintf(st, sizeof st, "fill:#fff;stroke:%s;"
				 "stroke-width:2", e[i].colour);
			svg_circle(s, x + 18, cy - 4, 5, "legend-key", st);
			break;
		default:
			snprintf(st, sizeof st, "fill:%s;stroke:#333",
				 e[i].colour);
			svg_rect(s, x + 10, cy - 10, 16, 12, "legend-key", st);
		}
		svg_text(s, x + 36, cy, "start", 0, "legend-label", NULL,
			 e[i].label);
	}
	svg_group_end(s);
}

/* Control points of the map, sampled from matplotlib's "viridis" (facts:
 * the published colour values at t = 0, .25, .5, .75, 1). */
static const unsigned char cmap[5][3] = {
	{ 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x91, 0x8c },
	{ 0x5e, 0xc9, 0x62 }, { 0xfd, 0xe7, 0x25 },
};

void svg_colour_map(double t, char out[8])
{
	double u;
	int i, c[3], k;

	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	u = t * 4;
	i = (int)floor(u);
	if (i > 3)
		i = 3;
	u -= i;
	for (k = 0; k < 3; k++)
		c[k] = (int)lround(cmap[i][k] + u * (cmap[i + 1][k] -
						      cmap[i][k]));
	snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

const char *svg_colour_ink(double t)
{
	return t > 0.55 ? "#000000" : "#ffffff";
}

void svg_colour_scale(struct svg *s, double x, double y, double w, double h,
		      double vmin, double vmax, const char *caption)
{
	char col[8], st[64], buf[32];
	int i, steps = 32;

	svg_group_begin(s, "colour-scale");
	for (i = 0; i < steps; i++) {
		double t = (i + 0.5) / steps;

		svg_colour_map(t, col);
		snprintf(st, sizeof st, "fill:%s;stroke:none", col);
		svg_rect(s, x, y + h - (i + 1) * h / steps, w, h / steps + 0.5,
			 "colour-step", st);
	}
	svg_rect(s, x, y, w, h, "colour-frame", "fill:none;stroke:#333");
	for (i = 0; i <= 4; i++) {
		double v = vmin + (vmax - vmin) * i / 4.0;
		double py = y + h - h * i / 4.0;

		svg_line(s, x + w, py, x + w + 4, py, "tick", "stroke:#000");
		svg_fmt_num(v, buf, sizeof buf);
		svg_text(s, x + w + 7, py + 4, "start", 0, "tick-label", NULL,
			 buf);
	}
	if (caption)
		svg_text(s, x + w / 2, y - 10, "middle", 0, "axis-label", NULL,
			 caption);
	svg_group_end(s);
}
