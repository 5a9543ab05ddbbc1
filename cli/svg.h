/*
 * svg.h - a tiny SVG writer for ppr's pictures (roofline, BCSR heatmap,
 * grouped bars): a document, log/linear scales and axes with tick labels,
 * lines, polylines, rects, circles, text (XML-escaped), a legend and a
 * colour scale.
 *
 * Output is deterministic: the same calls give the same bytes (numbers are
 * printed with a fixed number of decimals, no time stamps, no random ids).
 * Elements carry class names (see each function) so that tests and
 * stylesheets can find them.  The document is a bare <svg> element with
 * the SVG namespace: valid as a file of its own and inline in HTML5.
 *
 * Write errors are remembered in the struct and reported by svg_end().
 */
#ifndef PPR_CLI_SVG_H
#define PPR_CLI_SVG_H

#include <stddef.h>
#include <stdio.h>

struct svg {
	FILE *f;
	double width, height;
};

/* A mapping from data values [d0, d1] to pixels [r0, r1]. */
struct svg_scale {
	double d0, d1;
	double r0, r1;
	int log;	/* 1: logarithmic (d0, d1 > 0) */
};

/* Start a document of w x h pixels; title becomes <title> (may be NULL). */
void svg_begin(struct svg *s, FILE *f, double w, double h, const char *title);
/* Close the document; 0, or PPR_EIO if any write failed. */
int svg_end(struct svg *s);

/* Write text with &, <, >, " and ' escaped (control bytes become '?'). */
void svg_escape(FILE *f, const char *text);

/* Data value -> pixel; clamps log scales' non-positive values to d0. */
double svg_scale_map(const struct svg_scale *sc, double v);

/* Primitives; cls and style may be NULL. */
void svg_line(struct svg *s, double x1, double y1, double x2, double y2,
	      const char *cls, const char *style);
void svg_polyline(struct svg *s, const double *xy, size_t npts,
		  const char *cls, const char *style);
void svg_rect(struct svg *s, double x, double y, double w, double h,
	      const char *cls, const char *style);
void svg_circle(struct svg *s, double cx, double cy, double r,
		const char *cls, const char *style);
/* anchor: "start", "middle" or "end"; rotate in degrees about (x, y). */
void svg_text(struct svg *s, double x, double y, const char *anchor,
	      double rotate, const char *cls, const char *style,
	      const char *text);
/* <g class="cls"> ... </g> */
void svg_group_begin(struct svg *s, const char *cls);
void svg_group_end(struct svg *s);

/*
 * Axes: a frame around the plot area the scales span, ticks and tick
 * labels (log: every decade, plus 2 and 5 when few decades are shown;
 * linear: a 1/2/5 step), grid lines, axis labels.  Classes "axis x-axis"
 * / "axis y-axis", "tick", "tick-label", "grid", "axis-label".
 */
void svg_axes(struct svg *s, const struct svg_scale *x,
	      const struct svg_scale *y, const char *xlabel,
	      const char *ylabel);

/* Legend entries: kind 0 = line, 1 = filled dot, 2 = hollow dot, 3 = box. */
struct svg_legend_entry {
	const char *label;
	const char *colour;
	int kind;
	const char *dash;	/* stroke-dasharray for lines, or NULL */
};
/* A boxed legend with its top-left corner at (x, y); class "legend". */
void svg_legend(struct svg *s, double x, double y,
		const struct svg_legend_entry *e, size_t n);

/* Colour of t in [0, 1] on a perceptual blue-green-yellow map ("#rrggbb"). */
void svg_colour_map(double t, char out[8]);
/* Text colour (black or white) readable on the map colour of t. */
const char *svg_colour_ink(double t);
/* A vertical colour bar at (x, y), w x h, from vmin (bottom) to vmax, with
 * 5 labelled steps and a caption; class "colour-scale". */
void svg_colour_scale(struct svg *s, double x, double y, double w, double h,
		      double vmin, double vmax, const char *caption);

/* Format a number for a tick/cell label: 3 significant digits, no
 * exponent between 1e-3 and 1e6. */
void svg_fmt_num(double v, char *buf, size_t n);

#endif
