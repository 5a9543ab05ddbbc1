/*
 * ppr.c - the dispatcher: `ppr <command> [options] [args]`.
 *
 * The command table comes from the PPR_COMMAND(...) line of each
 * cli/cmd_<name>.c (generated into $(BUILD)/cmd_table.h by the Makefile).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/ppr_version.h"

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

#define PPR_CMD_ENTRY(name, summary) int cmd_##name(int argc, char **argv);
#include "cmd_table.h"
#undef PPR_CMD_ENTRY

static const struct cmd_struct commands[] = {
#define PPR_CMD_ENTRY(name, summary) { #name, cmd_##name, summary },
#include "cmd_table.h"
#undef PPR_CMD_ENTRY
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: ppr <command> [options] [args]\n"
	      "       ppr <command> --help\n"
	      "       ppr --version\n\n"
	      "ppr predicts how fast numerical kernels run on a described CPU\n"
	      "(the PPR model: instruction-DAG schedule + cache simulation)\n\n"
	      "commands:\n", f);
	for (i = 0; commands[i].name; i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].summary);
}

static int finish(int rc)
{
	/* Results go to stdout: a failed write must not look like success. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ppr: error: cannot write stdout: %s\n",
			strerror(errno));
		return rc ? rc : 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			char *hargv[] = { argv[2], (char *)"--help", NULL };

			for (i = 0; commands[i].name; i++)
				if (!strcmp(commands[i].name, argv[2]))
					return finish(commands[i].fn(2, hargv));
		}
		usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("ppr %s\n", PPR_VERSION);
		return finish(0);
	}
	for (i = 0; commands[i].name; i++)
		if (!strcmp(commands[i].name, argv[1]))
			return finish(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "ppr: '%s' is not a ppr command; see 'ppr --help'\n",
		argv[1]);
	return 2;
}
