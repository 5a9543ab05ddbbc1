/*
 * ppr.c - the dispatcher: `ppr <command> [options] [args]`.
 *
 * The command table comes from the PPR_COMMAND(...) line of each
 * cli/cmd_<name>.c (generated into $(BUILD)/cmd_table.h by the Makefile).
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/ppr_version.h"
#include "matrix/matrix.h"

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
	      "Any command accepts --max-memory SIZE (8G, 512M, 50%): inputs\n"
	      "whose working set would exceed it are refused (default: 3/4 of\n"
	      "physical memory).\n\n"
	      "commands:\n", f);
	for (i = 0; commands[i].name; i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].summary);
}

/*
 * --max-memory SIZE (or --max-memory=SIZE), accepted before or after the
 * command name by every command: the working-set limit of the matrix
 * readers, generators and BCSR builders (matrix_mem_limit_set; default 3/4
 * of physical memory).  SIZE is bytes with an optional K, M, G or T suffix
 * (powers of 1024) or a percentage of physical memory ("50%").  Taken out
 * of argv here so the commands' own option parsers never see it.
 * Returns 0, or 2 after a usage message.
 */
static int max_memory_parse(const char *s, uint64_t *out)
{
	char *end;
	double v;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v > 0) || v > 1e19)
		return -1;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': v *= 1024.0; end++; break;
	case 'm': case 'M': v *= 1048576.0; end++; break;
	case 'g': case 'G': v *= 1073741824.0; end++; break;
	case 't': case 'T': v *= 1099511627776.0; end++; break;
	case '%':
		if (v > 100 || pages <= 0 || psize <= 0)
			return -1;
		v = v / 100.0 * (double)pages * (double)psize;
		end++;
		break;
	default: return -1;
	}
	if (*end == 'i' && end[-1] != '%')
		end++;		/* "GiB" */
	if ((*end == 'B' || *end == 'b') && end[-1] != '%')
		end++;
	if (*end || v < 1.0 || v > 1.8e19)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static int max_memory_take(int *argc, char **argv)
{
	int i = 1, j;

	while (i < *argc && strcmp(argv[i], "--")) {
		const char *val = NULL;
		int used = 0;
		uint64_t bytes;

		if (!strcmp(argv[i], "--max-memory")) {
			if (i + 1 >= *argc) {
				fprintf(stderr, "ppr: --max-memory needs a size (e.g. 8G, 512M, 50%%)\n");
				return 2;
			}
			val = argv[i + 1];
			used = 2;
		} else if (!strncmp(argv[i], "--max-memory=", 13)) {
			val = argv[i] + 13;
			used = 1;
		}
		if (!used) {
			i++;
			continue;
		}
		if (max_memory_parse(val, &bytes)) {
			fprintf(stderr, "ppr: --max-memory: '%s' is not a size (bytes with optional K, M, G, T suffix, or a percentage of memory like 50%%)\n",
				val);
			return 2;
		}
		matrix_mem_limit_set(bytes);
		for (j = i; j + used <= *argc; j++)
			argv[j] = argv[j + used];	/* argv[argc] is NULL */
		*argc -= used;
	}
	return 0;
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

int ppr_dispatch(int argc, char **argv)
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

int ppr_main(int argc, char **argv)
{
	/*
	 * Keep freed memory for reuse instead of giving it back: the DAG
	 * scheduler allocates and frees rings of a few MiB per schedule, dozens
	 * of times per prediction, and with glibc's defaults each round came
	 * back as fresh pages (page faults plus zeroing: a third of a small
	 * matrix's prediction on this guest, `perf record`).  Blocks of 32 MiB
	 * and more (matrices, simulator state) are still mapped on their own.
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	if (max_memory_take(&argc, argv))
		return 2;
	return ppr_dispatch(argc, argv);
}
