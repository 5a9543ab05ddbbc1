/*
 * cmd_report.c - `ppr report`: one self-contained HTML page from results
 * files (`ppr sweep`): the machines, a sortable table of the records, the
 * error records with their reasons, a roofline per machine and a heatmap
 * per matrix that has BCSR shapes.  No network: inline CSS, JS and SVG.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plot.h"
#include "cli/results.h"
#include "cli/svg.h"
#include "common/ppr_version.h"
#include "common/xalloc.h"
#include "machines/machine.h"

PPR_COMMAND(report, "write one self-contained HTML report of results files")

static const char usage[] =
	"usage: ppr report RESULTS.jsonl [MORE.jsonl ...] [-o report.html]\n"
	"\n"
	"One HTML page, self-contained (no network, no external scripts or\n"
	"fonts): the machine(s), a table of the records sortable by any\n"
	"column (click its header), the error records with their reasons,\n"
	"the roofline of each machine with one dot per input, and a heatmap\n"
	"of predicted (and measured) GFLOP/s per BCSR shape for each matrix\n"
	"that has them.  Machine files are read from the path in each\n"
	"record's key; --machine FILE is used for keys that cannot be read.\n"
	"\n"
	"options:\n"
	"  -m, --machine FILE   fallback machine file (repeatable)\n"
	"  -t, --title TEXT     page title (default: ppr report)\n"
	"  -o, --output FILE    HTML file (default: stdout)\n"
	"  -h, --help           show this help\n";

static const char css[] =
	"body{font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;margin:24px;"
	"color:#222;max-width:1300px}\n"
	"h1{font-size:24px}h2{font-size:19px;margin-top:32px;border-bottom:"
	"1px solid #ccc}h3{font-size:15px}\n"
	"table{border-collapse:collapse;font-size:13px}\n"
	"th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"th.sortable{cursor:pointer;background:#eef;user-select:none}\n"
	"th.sortable:hover{background:#dde}\n"
	"th.asc::after{content:' \\25B2'}th.desc::after{content:' \\25BC'}\n"
	".error-record{color:#a00}.muted{color:#777}\n"
	"svg{max-width:100%;height:auto}\n"
	".table-wrap{overflow-x:auto}\n";

/* Sort the table's body by the clicked column: numbers numerically (the
 * cell's data-v), text otherwise; a second click reverses.  For tests in a
 * headless browser: a URL ending in #sort=N (or #sort=Nd, descending)
 * sorts by column N on load, script errors are recorded in the body's
 * data-js-error attribute, and data-js-ok="1" says the script ran. */
static const char js[] =
	"window.addEventListener('error',function(e){document.body."
	"setAttribute('data-js-error',String(e.message));});\n"
	"(function(){\n"
	"function key(td){var v=td.getAttribute('data-v');"
	"if(v!==null&&v!==''&&!isNaN(parseFloat(v)))return parseFloat(v);"
	"return null;}\n"
	"document.querySelectorAll('table.sortable').forEach(function(t){\n"
	" var ths=t.querySelectorAll('th');\n"
	" ths.forEach(function(th,col){th.classList.add('sortable');\n"
	"  th.addEventListener('click',function(){\n"
	"   var asc=!th.classList.contains('asc');\n"
	"   ths.forEach(function(h){h.classList.remove('asc','desc');});\n"
	"   th.classList.add(asc?'asc':'desc');\n"
	"   var tb=t.tBodies[0],rows=Array.prototype.slice.call(tb.rows);\n"
	"   rows.sort(function(a,b){var x=a.cells[col],y=b.cells[col];\n"
	"    var p=key(x),q=key(y),r;\n"
	"    if(p!==null&&q!==null)r=p-q;else if(p!==null)r=-1;\n"
	"    else if(q!==null)r=1;\n"
	"    else r=x.textContent.localeCompare(y.textContent);\n"
	"    return asc?r:-r;});\n"
	"   rows.forEach(function(r){tb.appendChild(r);});});});});\n"
	"var m=/^#sort=(\\d+)(d?)$/.exec(location.hash);\n"
	"if(m){var th=document.querySelectorAll('#results-table th')[+m[1]];\n"
	" if(th){th.click();if(m[2])th.click();}}\n"
	"document.body.setAttribute('data-js-ok','1');\n"
	"})();\n";

static void h(FILE *f, const char *s)
{
	svg_escape(f, s);
}

static void td_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	h(f, s ? s : "");
	fputs("</td>", f);
}

static void td_num(FILE *f, double v, const char *fmt)
{
	if (!isfinite(v)) {
		fputs("<td class=\"num\" data-v=\"\"></td>", f);
		return;
	}
	fprintf(f, "<td class=\"num\" data-v=\"%.10g\">", v);
	fprintf(f, fmt, v);
	fputs("</td>", f);
}

/* expected_error.time_range_s of `ppr predict` (CSR SpMV with a machine
 * file that carries a validation): "low to high", sorted by low */
static void td_range(FILE *f, const cJSON *o)
{
	const cJSON *r = results_time_range(o);
	double lo = r ? results_num(r, "low") : NAN;
	double hi = r ? results_num(r, "high") : NAN;

	if (!isfinite(lo) || !isfinite(hi)) {
		fputs("<td class=\"num\" data-v=\"\"></td>", f);
		return;
	}
	fprintf(f, "<td class=\"num\" data-v=\"%.10g\">%.4g to %.4g</td>",
		lo, lo, hi);
}

static const char *rstr(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* The distinct machine keys, each loaded (or not). */
struct mach {
	const char *key;
	struct machine m;
	int loaded;
	char why[600];
};

static int load_machine(struct mach *mc, char **fallback, size_t nfb)
{
	struct ppr_err err = { 0 };
	size_t i;

	if (mc->key[0] && machine_load(mc->key, &mc->m, &err) == 0)
		return mc->loaded = 1;
	ppr_err_format(&err, mc->why, sizeof mc->why);
	if (!mc->key[0])
		snprintf(mc->why, sizeof mc->why, "records without a machine");
	for (i = 0; i < nfb; i++) {
		struct ppr_err e2 = { 0 };
		struct machine m;
		const char *b = strrchr(mc->key, '/');

		if (machine_load(fallback[i], &m, &e2) != 0)
			continue;
		/* the fallback whose name or file name matches the key */
		b = b ? b + 1 : mc->key;
		if (strcmp(m.name, mc->key) == 0 ||
		    strncmp(b, m.name, strlen(m.name)) == 0 || nfb == 1) {
			mc->m = m;
			return mc->loaded = 1;
		}
		machine_release(&m);
	}
	return 0;
}

static void machine_html(FILE *f, const struct mach *mc)
{
	const struct machine *m = &mc->m;
	unsigned i;

	fputs("<div class=\"machine\"><h3>", f);
	h(f, m->name);
	fputs("</h3><p>", f);
	h(f, m->description);
	fputs("</p><table class=\"machine-table\"><tbody>", f);
	fprintf(f, "<tr><th>file</th><td>");
	h(f, mc->key);
	fprintf(f, "</td></tr><tr><th>clock</th><td>%.3f GHz</td></tr>"
		"<tr><th>peak (one core)</th><td>%g DP flops/cycle = %.1f "
		"GFLOP/s, SIMD %u bit%s</td></tr>", m->clock_ghz,
		m->flops_per_cycle_dp, m->flops_per_cycle_dp * m->clock_ghz,
		m->simd_width_bits, m->fma ? ", FMA" : "");
	for (i = 0; i < m->hier.nlevels; i++) {
		fputs("<tr><th>", f);
		h(f, m->hier.levels[i].name);
		fprintf(f, "</th><td>%llu KiB, %u-way, %u B lines, %g B/cycle "
			"(%.1f GB/s)</td></tr>",
			(unsigned long long)m->hier.levels[i].size / 1024,
			m->hier.levels[i].ways, m->hier.levels[i].line_size,
			m->level[i].bandwidth_bytes_per_cycle,
			m->level[i].bandwidth_bytes_per_cycle * m->clock_ghz);
	}
	fprintf(f, "<tr><th>memory</th><td>%.2f GB/s sustained</td></tr>",
		m->mem_bandwidth_gbs);
	fputs("</tbody></table></div>\n", f);
}

static int write_report(FILE *f, const struct results *res, struct mach *mc,
			size_t nm, const char *title, char **files,
			size_t nfiles)
{
	size_t i, k, nok = 0, nerr = 0;
	struct ppr_err err = { 0 };

	for (i = 0; i < res->n; i++) {
		if (res->rec[i].ok)
			nok++;
		else
			nerr++;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>", f);
	h(f, title);
	fprintf(f, "</title>\n<style>\n%s</style></head>\n<body>\n<h1>", css);
	h(f, title);
	fputs("</h1>\n<p class=\"muted\">ppr " PPR_VERSION "; from ", f);
	for (i = 0; i < nfiles; i++) {
		if (i)
			fputs(", ", f);
		h(f, files[i]);
	}
	fprintf(f, ": %zu records, %zu ok, %zu errors.</p>\n",
		res->n, nok, nerr);

	fputs("<h2 id=\"machines\">Machines</h2>\n", f);
	for (k = 0; k < nm; k++) {
		if (mc[k].loaded) {
			machine_html(f, &mc[k]);
		} else {
			fputs("<p class=\"error-record\">machine '", f);
			h(f, mc[k].key);
			fputs("': cannot be read (", f);
			h(f, mc[k].why);
			fputs("); give it with --machine to draw its roofline</p>\n",
			      f);
		}
	}

	fputs("<h2 id=\"results\">Results</h2>\n<p class=\"muted\">Click a "
	      "column header to sort.</p>\n"
	      "<div class=\"table-wrap\"><table class=\"sortable\" id=\"results-table\"><thead><tr>"
	      "<th>input</th><th>kernel</th><th>machine</th><th>rows</th>"
	      "<th>nnz</th><th>time (s)</th>"
	      "<th title=\"the machine file's validation: the prediction over "
	      "1 + its largest and smallest error\">measured, to expect "
	      "(s)</th><th>GFLOP/s</th>"
	      "<th>bottleneck</th><th>BCSR pick</th><th>predicted speedup</th>"
	      "<th>measured best</th><th>share of best</th>"
	      "<th>elapsed (s)</th></tr></thead>\n<tbody>\n", f);
	for (i = 0; i < res->n; i++) {
		const struct result_rec *r = &res->rec[i];
		const cJSON *o = r->result;
		const char *mn;
		double t = NAN, g = NAN, rows, nnz;

		if (!r->ok)
			continue;
		mn = rstr(o, "machine");
		fputs("<tr class=\"result-row\">", f);
		td_text(f, r->input);
		td_text(f, r->kernel);
		td_text(f, mn[0] ? mn : r->machine);
		rows = results_num(o, "rows");
		nnz = results_num(o, "nnz");
		if (!isfinite(rows)) {
			/* ppr predict: "spmv-csr X (R x C, nnz N)" */
			const char *d = strrchr(rstr(o, "kernel"), '(');
			double a, b, z;

			if (d && sscanf(d, "(%lf x %lf, nnz %lf)", &a, &b,
					&z) == 3)
				rows = a, nnz = z;
		}
		td_num(f, rows, "%.0f");
		td_num(f, nnz, "%.0f");
		t = results_num(o, "time_s");
		g = results_num(o, "gflops");
		if (!isfinite(g)) {
			/* bcsr: the pick's predicted GFLOP/s */
			const cJSON *sh = cJSON_GetObjectItemCaseSensitive(
				o, "shapes"), *x;

			if (cJSON_IsArray(sh))
				cJSON_ArrayForEach(x, sh)
					if (strcmp(rstr(x, "shape"),
						   rstr(o, "pick")) == 0) {
						g = results_num(x,
							"predicted_gflops");
						t = results_num(x,
							"predicted_time_s");
					}
		}
		td_num(f, t, "%.4g");
		td_range(f, o);
		td_num(f, g, "%.3f");
		td_text(f, rstr(o, "bottleneck"));
		td_text(f, rstr(o, "pick"));
		td_num(f, results_num(o, "predicted_speedup"), "%.3f");
		td_text(f, rstr(o, "measured_best"));
		td_num(f, results_num(o, "share_of_best"), "%.3f");
		td_num(f, results_num(r->json, "elapsed_s"), "%.2f");
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);

	fprintf(f, "<h2 id=\"errors\">Errors (%zu)</h2>\n", nerr);
	if (nerr) {
		fputs("<ul class=\"errors\">\n", f);
		for (i = 0; i < res->n; i++) {
			const struct result_rec *r = &res->rec[i];

			if (r->ok)
				continue;
			fputs("<li class=\"error-record\"><b>", f);
			h(f, r->input);
			fputs("</b> (", f);
			h(f, r->kernel);
			fputs("): ", f);
			h(f, r->error[0] ? r->error : "no reason given");
			fprintf(f, " <span class=\"muted\">[");
			h(f, r->file);
			fprintf(f, ":%ld]</span></li>\n", r->line);
		}
		fputs("</ul>\n", f);
	} else {
		fputs("<p>none</p>\n", f);
	}

	fputs("<h2 id=\"roofline\">Roofline</h2>\n", f);
	for (k = 0; k < nm; k++) {
		struct roof_point *pts;
		char **labs;
		size_t np = 0;

		if (!mc[k].loaded)
			continue;
		pts = xcalloc(res->n + 1, sizeof *pts);
		labs = xcalloc(res->n + 1, sizeof *labs);
		for (i = 0; i < res->n; i++) {
			const struct result_rec *r = &res->rec[i];
			const char *lv, *b;
			double oi, gf, gm;
			char lab[256];

			if (!r->ok || strcmp(r->machine, mc[k].key) != 0 ||
			    results_roof_point(r->result, &oi, &gf, &gm,
					       &lv) != 0)
				continue;
			b = strrchr(r->input, '/');
			b = (b && b[1]) ? b + 1 : r->input;
			if (strcmp(lv, "DRAM") == 0)
				snprintf(lab, sizeof lab, "%s", b);
			else
				snprintf(lab, sizeof lab, "%s (%s bytes)", b, lv);
			labs[np] = xstrdup(lab);
			pts[np].label = labs[np];
			pts[np].oi_pred = oi;
			pts[np].gflops_pred = gf;
			pts[np].oi_meas = gm > 0 ? oi : 0;
			pts[np].gflops_meas = gm > 0 ? gm : 0;
			np++;
		}
		fputs("<div class=\"chart roofline\">\n", f);
		if (plot_roofline_write(f, &mc[k].m, pts, np, 0, &err) != 0)
			fputs("<p class=\"error-record\">roofline failed</p>\n", f);
		fputs("</div>\n", f);
		for (i = 0; i < np; i++)
			free(labs[i]);
		free(labs);
		free(pts);
	}

	fputs("<h2 id=\"heatmaps\">BCSR block shapes</h2>\n", f);
	for (i = 0, k = 0; i < res->n; i++) {
		const struct result_rec *r = &res->rec[i];
		struct heat_grid pred, meas;
		char ttl[512];
		int hm;

		if (!r->ok || results_heat_grids(r->result, &pred, &meas,
						 &hm) != 0)
			continue;
		snprintf(ttl, sizeof ttl, "%s on %s", r->input,
			 rstr(r->result, "machine")[0] ?
			 rstr(r->result, "machine") : r->machine);
		fputs("<div class=\"chart heatmap\"><h3>", f);
		h(f, ttl);
		fputs("</h3>\n", f);
		if (plot_heatmap_write(f, ttl, &pred, hm ? &meas : NULL,
				       &err) != 0)
			fputs("<p class=\"error-record\">heatmap failed</p>\n", f);
		fputs("</div>\n", f);
		k++;
	}
	if (k == 0)
		fputs("<p>no record has BCSR shapes (ppr sweep --bcsr)</p>\n",
		      f);
	fprintf(f, "<script>\n%s</script>\n</body></html>\n", js);
	return ferror(f) ? PPR_EIO : 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "title", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *title = "ppr report";
	char **fb = NULL;
	size_t nfb = 0, i, k, nm = 0;
	struct results res = { 0 };
	struct ppr_err err = { 0 };
	struct mach *mc = NULL;
	int c, rc = 0;
	FILE *f;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "m:t:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm':
			fb = xrealloc(fb, (nfb + 1) * sizeof *fb);
			fb[nfb++] = optarg;
			break;
		case 't': title = optarg; break;
		case 'o': out = optarg; break;
		case 'h': fputs(usage, stdout); free(fb); return 0;
		default: free(fb);
			return cli_usage_error(usage, "report: unknown or "
					       "incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind >= argc) {
		free(fb);
		return cli_usage_error(usage, "no results file given");
	}
	for (c = optind; c < argc; c++)
		if (results_load(&res, argv[c], &err) != 0) {
			rc = cli_error_err(&err);
			goto done;
		}
	for (i = 0; i < res.nbad; i++)
		cli_error("%s", res.bad[i]);
	if (res.nbad) {
		rc = 1;
		goto done;
	}
	/* distinct machines, in order of first appearance */
	mc = xcalloc(res.n + 1, sizeof *mc);
	for (i = 0; i < res.n; i++) {
		if (!res.rec[i].ok || !res.rec[i].machine[0])
			continue;
		for (k = 0; k < nm; k++)
			if (strcmp(mc[k].key, res.rec[i].machine) == 0)
				break;
		if (k == nm) {
			mc[nm].key = res.rec[i].machine;
			if (!load_machine(&mc[nm], fb, nfb))
				cli_warn("machine '%s': %s (no roofline for it)",
					 mc[nm].key, mc[nm].why);
			nm++;
		}
	}
	f = cli_open_out(out);
	if (!f) {
		rc = 1;
		goto done;
	}
	if (write_report(f, &res, mc, nm, title, argv + optind,
			 (size_t)(argc - optind)) != 0) {
		cli_error("%s: write failed", out ? out : "stdout");
		rc = 1;
	}
	if (cli_close_out(f, out) != 0)
		rc = 1;
	else if (out && rc == 0)
		fprintf(stderr, "ppr report: %zu records -> %s\n", res.n, out);
done:
	for (k = 0; k < nm; k++)
		if (mc[k].loaded)
			machine_release(&mc[k].m);
	free(mc);
	free(fb);
	results_free(&res);
	return rc;
}
