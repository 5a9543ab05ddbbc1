/*
 * cli.h - what the subcommands share: the command table entry, output
 * formats, and the exit conventions (usage error: 2, runtime error: 1).
 *
 * Each cli/cmd_<name>.c defines int cmd_<name>(int argc, char **argv) and
 * carries one line
 *     PPR_COMMAND(name, "one-line summary")
 * from which the Makefile generates the dispatcher's table.
 */
#ifndef PPR_CLI_H
#define PPR_CLI_H

#include <stdio.h>

#include "common/ppr_err.h"

#define PPR_COMMAND(name, summary) int cmd_##name(int argc, char **argv);

/* The whole program: global options (--max-memory), then the command. */
int ppr_main(int argc, char **argv);

/* Run `ppr ARGV[1] ...` (argv[0] is the program name) as main() does after
 * the global options: the sweep's children call it after fork(). */
int ppr_dispatch(int argc, char **argv);

enum cli_format { CLI_FMT_TABLE = 0, CLI_FMT_CSV, CLI_FMT_JSON };

/* Parse "table|csv|json"; returns 0 or -1. */
int cli_format_parse(const char *s, enum cli_format *out);

/* "ppr: error: <msg>" on stderr; returns 1 (the runtime-failure status). */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a struct ppr_err as "ppr: error: file:line: msg"; returns 1. */
int cli_error_err(const struct ppr_err *err);
/* "ppr <cmd>: <msg>" plus the usage on stderr; returns 2. */
int cli_usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A MATRIX argument that is a malformed generator spec is bad usage: its
 * message and the usage, returning 2; 0 for anything else (files and good
 * specs, whose loading reports its own errors). */
int cli_check_gen(const char *usage, const char *input);
/* Print a warning "ppr: warning: <msg>" on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Parse a positive integer / double option value strictly (whole string);
 * return 0 or -1.
 */
int cli_parse_u64(const char *s, unsigned long long *out);
int cli_parse_double(const char *s, double *out);

/*
 * --cpu N: check that N is a CPU this process may run on (its affinity
 * mask); 0, or -1 with a message in msg ("CPU 7 is not one this process
 * may run on (allowed: 0-1)").  cli_pin_cpu() then binds the calling
 * thread to it (threads it creates afterwards inherit that): 0, or 1
 * after printing the error.  cli_json_cpu() adds "cpu": N, or null for
 * -1 (not pinned), to a JSON object.
 */
struct cJSON;
int cli_check_cpu(const char *s, int *cpu, char *msg, size_t n);
int cli_pin_cpu(int cpu);
/* The CPUs this process may run on, in order, at most max of them: their
 * number, or -1 when the affinity mask cannot be read. */
int cli_allowed_cpus(int *cpus, int max);
void cli_json_cpu(struct cJSON *o, int cpu);

/* Open -o FILE (or stdout for NULL / "-"); NULL on failure (message printed). */
FILE *cli_open_out(const char *path);
/* Flush and close; returns 0, or 1 after printing an error. */
int cli_close_out(FILE *f, const char *path);

/* Quote a field for RFC 4180 CSV onto f. */
void cli_csv_field(FILE *f, const char *s);

#endif
