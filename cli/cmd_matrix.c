/*
 * cmd_matrix.c - `ppr matrix info MATRIX [--fill] [--format table|csv|json]`
 *
 * MATRIX is a Matrix Market / Rutherford-Boeing file (gzip'd or not) or a
 * generator spec gen:NAME:k=v,...; see matrix/matrix.h.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "matrix/matrix.h"

PPR_COMMAND(matrix, "matrix input: info, row statistics, BCSR fill of 64 shapes")

static const char usage_str[] =
	"usage: ppr matrix info MATRIX [--fill] [--format table|csv|json] [-o FILE]\n"
	"\n"
	"MATRIX is a Matrix Market (.mtx, .mtx.gz) or Rutherford-Boeing /\n"
	"Harwell-Boeing file (.rb .rua .rsa .psa .cua ...), or a generator:\n"
	"  gen:laplace2d:n=N          gen:laplace3d:n=N\n"
	"  gen:fem3d:n=N,dof=K        gen:banded:n=N,bw=B\n"
	"  gen:random:n=N,per_row=K,seed=S,cols=C\n"
	"  gen:rmat:scale=S,edge_factor=E,seed=S\n"
	"\n"
	"  --fill         blocks and fill ratio of BCSR r x c, r,c = 1..8\n"
	"                 (blocks aligned at 0; fill = blocks*r*c/nnz)\n"
	"  -f, --format F table (default), csv or json\n"
	"  -o FILE        write there instead of stdout\n";

static void print_table(FILE *f, const char *name,
			const struct matrix_info *inf,
			const struct matrix_row_stats *st, int fill,
			uint64_t nb[MATRIX_MAX_BLOCK][MATRIX_MAX_BLOCK])
{
	unsigned r, c;

	fprintf(f, "matrix          %s\n", name);
	fprintf(f, "format          %s%s", matrix_format_name(inf->format),
		inf->gzipped ? " (gzip)" : "");
	if (inf->type_code[0])
		fprintf(f, " type %s", inf->type_code);
	fputc('\n', f);
	fprintf(f, "field           %s%s\n", matrix_field_name(inf->field),
		inf->complex_real_part ? " (real part kept, imaginary parts dropped)" : "");
	fprintf(f, "symmetry        %s%s\n", matrix_symmetry_name(inf->symmetry),
		inf->format != MATRIX_FMT_GEN && inf->symmetry != MATRIX_SYM_GENERAL
		? " (expanded)" : "");
	fprintf(f, "rows            %" PRIu64 "\n", inf->rows);
	fprintf(f, "cols            %" PRIu64 "\n", inf->cols);
	fprintf(f, "nnz             %" PRIu64 "\n", inf->nnz);
	fprintf(f, "stored entries  %" PRIu64 "\n", inf->stored);
	fprintf(f, "duplicates      %" PRIu64 " (summed)\n", inf->duplicates);
	fprintf(f, "explicit zeros  %" PRIu64 " (kept)\n", inf->explicit_zeros);
	fprintf(f, "row length      min %" PRIu64 "  max %" PRIu64
		"  mean %.3f  stddev %.3f\n", st->min, st->max, st->mean,
		st->stddev);
	fprintf(f, "empty rows      %" PRIu64 "\n", st->empty_rows);
	if (!fill)
		return;
	fprintf(f, "\nBCSR fill ratio (blocks*r*c/nnz), rows r, columns c:\n");
	fprintf(f, "  r\\c");
	for (c = 1; c <= MATRIX_MAX_BLOCK; c++)
		fprintf(f, " %9u", c);
	fputc('\n', f);
	for (r = 1; r <= MATRIX_MAX_BLOCK; r++) {
		fprintf(f, "  %3u", r);
		for (c = 1; c <= MATRIX_MAX_BLOCK; c++)
			fprintf(f, " %9.6f", matrix_fill_ratio(nb[r - 1][c - 1],
								r, c, inf->nnz));
		fputc('\n', f);
	}
	fprintf(f, "\nBCSR blocks, rows r, columns c:\n");
	fprintf(f, "  r\\c");
	for (c = 1; c <= MATRIX_MAX_BLOCK; c++)
		fprintf(f, " %10u", c);
	fputc('\n', f);
	for (r = 1; r <= MATRIX_MAX_BLOCK; r++) {
		fprintf(f, "  %3u", r);
		for (c = 1; c <= MATRIX_MAX_BLOCK; c++)
			fprintf(f, " %10" PRIu64, nb[r - 1][c - 1]);
		fputc('\n', f);
	}
}

static void print_csv(FILE *f, const char *name,
		      const struct matrix_info *inf,
		      const struct matrix_row_stats *st, int fill,
		      uint64_t nb[MATRIX_MAX_BLOCK][MATRIX_MAX_BLOCK])
{
	unsigned r, c;

	if (!fill) {
		fputs("matrix,format,field,symmetry,rows,cols,nnz,stored,"
		      "duplicates,explicit_zeros,row_len_min,row_len_max,"
		      "row_len_mean,row_len_stddev,empty_rows\n", f);
		cli_csv_field(f, name);
		fprintf(f, ",%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%.6f,%.6f,%" PRIu64 "\n",
			matrix_format_name(inf->format),
			matrix_field_name(inf->field),
			matrix_symmetry_name(inf->symmetry), inf->rows,
			inf->cols, inf->nnz, inf->stored, inf->duplicates,
			inf->explicit_zeros, st->min, st->max, st->mean,
			st->stddev, st->empty_rows);
		return;
	}
	fputs("matrix,nnz,r,c,blocks,fill\n", f);
	for (r = 1; r <= MATRIX_MAX_BLOCK; r++)
		for (c = 1; c <= MATRIX_MAX_BLOCK; c++) {
			cli_csv_field(f, name);
			fprintf(f, ",%" PRIu64 ",%u,%u,%" PRIu64 ",%.6f\n",
				inf->nnz, r, c, nb[r - 1][c - 1],
				matrix_fill_ratio(nb[r - 1][c - 1], r, c,
						  inf->nnz));
		}
}

static int print_json(FILE *f, const char *name,
		      const struct matrix_info *inf,
		      const struct matrix_row_stats *st, int fill,
		      uint64_t nb[MATRIX_MAX_BLOCK][MATRIX_MAX_BLOCK])
{
	cJSON *root = cJSON_CreateObject(), *o;
	char *txt;
	unsigned r, c;

	if (!root)
		return -1;
	cJSON_AddStringToObject(root, "ppr_version", PPR_VERSION);
	cJSON_AddStringToObject(root, "matrix", name);
	o = cJSON_AddObjectToObject(root, "units");
	cJSON_AddStringToObject(o, "rows", "rows (cols: columns)");
	cJSON_AddStringToObject(o, "nnz", "nonzeros after symmetric "
				"expansion and merging duplicates (stored: "
				"entries in the file)");
	cJSON_AddStringToObject(o, "row_length", "nonzeros per row");
	if (fill)
		cJSON_AddStringToObject(o, "fill", "stored block entries per "
					"nonzero (blocks*r*c/nnz)");
	cJSON_AddStringToObject(root, "format", matrix_format_name(inf->format));
	if (inf->type_code[0])
		cJSON_AddStringToObject(root, "type_code", inf->type_code);
	cJSON_AddBoolToObject(root, "gzipped", inf->gzipped);
	cJSON_AddStringToObject(root, "field", matrix_field_name(inf->field));
	cJSON_AddBoolToObject(root, "complex_real_part_only",
			      inf->complex_real_part);
	cJSON_AddStringToObject(root, "symmetry",
				matrix_symmetry_name(inf->symmetry));
	cJSON_AddNumberToObject(root, "rows", (double)inf->rows);
	cJSON_AddNumberToObject(root, "cols", (double)inf->cols);
	cJSON_AddNumberToObject(root, "nnz", (double)inf->nnz);
	cJSON_AddNumberToObject(root, "stored", (double)inf->stored);
	cJSON_AddNumberToObject(root, "duplicates", (double)inf->duplicates);
	cJSON_AddNumberToObject(root, "explicit_zeros",
				(double)inf->explicit_zeros);
	o = cJSON_AddObjectToObject(root, "row_length");
	if (o) {
		cJSON_AddNumberToObject(o, "min", (double)st->min);
		cJSON_AddNumberToObject(o, "max", (double)st->max);
		cJSON_AddNumberToObject(o, "mean", st->mean);
		cJSON_AddNumberToObject(o, "stddev", st->stddev);
		cJSON_AddNumberToObject(o, "empty_rows", (double)st->empty_rows);
		cJSON_AddStringToObject(o, "unit", "nonzeros per row");
	}
	if (fill) {
		o = cJSON_AddObjectToObject(root, "fill");
		for (r = 1; o && r <= MATRIX_MAX_BLOCK; r++)
			for (c = 1; c <= MATRIX_MAX_BLOCK; c++) {
				char key[8];
				cJSON *s;

				snprintf(key, sizeof(key), "%ux%u", r, c);
				s = cJSON_AddObjectToObject(o, key);
				if (!s)
					continue;
				cJSON_AddNumberToObject(s, "blocks",
							(double)nb[r - 1][c - 1]);
				cJSON_AddNumberToObject(s, "fill",
					matrix_fill_ratio(nb[r - 1][c - 1], r, c,
							  inf->nnz));
			}
		cJSON_AddStringToObject(root, "fill_unit",
					"stored block entries per nonzero (blocks*r*c/nnz)");
	}
	txt = cJSON_Print(root);
	cJSON_Delete(root);
	if (!txt)
		return -1;
	fprintf(f, "%s\n", txt);
	free(txt);
	return 0;
}

static int matrix_info_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fill", no_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum cli_format fmt = CLI_FMT_TABLE;
	const char *outpath = NULL;
	int fill = 0, o, rc;
	struct csr a;
	struct matrix_info inf;
	struct matrix_row_stats st;
	struct ppr_err err;
	uint64_t nb[MATRIX_MAX_BLOCK][MATRIX_MAX_BLOCK];
	FILE *f;

	memset(&err, 0, sizeof(err));
	memset(nb, 0, sizeof(nb));
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":f:o:h", opts, NULL)) != -1) {
		switch (o) {
		case 'F':
			fill = 1;
			break;
		case 'f':
			if (cli_format_parse(optarg, &fmt))
				return cli_usage_error(usage_str,
					"matrix info: unknown format '%s' (table, csv or json)",
					optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'h':
			fputs(usage_str, stdout);
			return 0;
		case ':':
			return cli_usage_error(usage_str,
				"matrix info: option '%s' needs a value",
				argv[optind - 1]);
		default:
			return cli_usage_error(usage_str,
				"matrix info: unknown option '%s'",
				argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage_error(usage_str, "matrix info: no MATRIX given");
	if (optind + 1 < argc)
		return cli_usage_error(usage_str,
			"matrix info: one MATRIX only (extra '%s')",
			argv[optind + 1]);
	if (cli_check_gen(usage_str, argv[optind]))
		return 2;
	rc = matrix_load(argv[optind], &a, &inf, &err);
	if (rc)
		return cli_error_err(&err);
	matrix_row_stats_compute(&a, &st);
	if (fill)
		matrix_fill_count_all(&a, nb);
	matrix_csr_release(&a);
	f = cli_open_out(outpath);
	if (!f)
		return 1;
	if (fmt == CLI_FMT_JSON) {
		if (print_json(f, argv[optind], &inf, &st, fill, nb)) {
			if (f != stdout)
				fclose(f);
			return cli_error("cannot build json output: out of memory");
		}
	} else if (fmt == CLI_FMT_CSV) {
		print_csv(f, argv[optind], &inf, &st, fill, nb);
	} else {
		print_table(f, argv[optind], &inf, &st, fill, nb);
	}
	if (inf.complex_real_part && fmt == CLI_FMT_TABLE)
		fprintf(stderr, "ppr: note: '%s' is complex: only the real part is kept\n",
			argv[optind]);
	return cli_close_out(f, outpath);
}

int cmd_matrix(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(usage_str, "matrix: no subcommand given");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_str, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "info"))
		return matrix_info_cmd(argc - 1, argv + 1);
	return cli_usage_error(usage_str, "matrix: unknown subcommand '%s'",
			       argv[1]);
}
