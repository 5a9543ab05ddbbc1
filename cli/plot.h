/*
 * plot.h - ppr's charts as SVG (written with cli/svg.h): the roofline of a
 * machine with dots per kernel/input, the 8x8 BCSR heatmap, grouped bars.
 *
 * Each function writes one complete <svg> element to f (usable as a file
 * or inline in HTML) and returns 0 or a negative PPR_E* code (PPR_EIO on a
 * write error, PPR_EINVAL on unusable input) with err set.
 */
#ifndef PPR_CLI_PLOT_H
#define PPR_CLI_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "common/ppr_err.h"

struct machine;

/* ---- roofline ------------------------------------------------------- */

/* One dot pair.  A coordinate <= 0 (or NaN) means "absent". */
struct roof_point {
	const char *label;
	double oi_pred;		/* flops (or int ops) per byte */
	double gflops_pred;
	double oi_meas;		/* measured dot; 0 = none */
	double gflops_meas;
};

/* A roof as drawn, for tests and the report's text. */
struct roof_line {
	char label[64];
	double value;	/* GFLOP/s (compute) or GB/s (bandwidth) */
	int bandwidth;	/* 1: slanted bandwidth roof */
	int integer;	/* 1: integer roof (GINTOP/s, int ops/byte) */
};

/*
 * The roofs of one core of m: compute (peak with FMA and SIMD, without FMA,
 * without SIMD, scalar add latency-bound when the machine has a core
 * model), bandwidth per cache level (bandwidth_bytes_per_cycle x clock)
 * and memory; with integer, the integer roofs too (see plot_roofline.c for
 * what is assumed).  Fills at most max; returns how many.
 */
size_t plot_roofline_roofs(const struct machine *m, int integer,
			   struct roof_line *out, size_t max);

int plot_roofline_write(FILE *f, const struct machine *m,
			const struct roof_point *pts, size_t npts,
			int integer, struct ppr_err *err);

/* ---- BCSR heatmap --------------------------------------------------- */

#define HEAT_N 8

/* GFLOPS per r x c shape: v[r-1][c-1]; NaN = not available. */
struct heat_grid {
	double v[HEAT_N][HEAT_N];
	int mark_r, mark_c;	/* 1-based shape to outline; 0 = none */
};

/* Set every cell to NaN and no mark. */
void heat_grid_clear(struct heat_grid *g);

/*
 * The heatmap of the predicted grid, its pick marked with a thick border;
 * with meas non-NULL the measured grid beside it (its best marked).  Each
 * grid has its own colour scale (class "colour-scale").  Cells have class "heat-cell" (plus
 * "heat-pred" / "heat-meas"), the marks class "heat-pick" / "heat-best".
 */
int plot_heatmap_write(FILE *f, const char *title,
		       const struct heat_grid *pred,
		       const struct heat_grid *meas, struct ppr_err *err);

/*
 * The heatmap of a `ppr bcsr --format json` object (or a results record's
 * "result"): "shapes", "pick", "measured_best", "matrix", "machine" (see
 * results_heat_grids); the measured grid beside the predicted one when the
 * shapes carry measured_gflops.  PPR_ENOENT when it has no shapes.
 */
struct cJSON;
int plot_heatmap_write_json(FILE *f, const struct cJSON *bcsr,
			    struct ppr_err *err);

/* ---- grouped bars --------------------------------------------------- */

#define BARS_MAX_SERIES 4

struct bar_group {
	const char *name;		/* group label, e.g. "L1D" */
	double v[BARS_MAX_SERIES];	/* NaN = absent */
};

/*
 * Grouped bars: one group per entry, one bar per series (classes
 * "bar bar-s0", "bar bar-s1", ...), log y axis when log_y (values <= 0
 * drawn at the axis), each bar labelled with its value.
 */
int plot_bars_write(FILE *f, const char *title, const char *ylabel,
		    const char *const *series, size_t nseries,
		    const struct bar_group *g, size_t ng, int log_y,
		    struct ppr_err *err);

#endif
