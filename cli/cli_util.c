#include "cli/cli.h"
#include "matrix/matrix.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

int cli_format_parse(const char *s, enum cli_format *out)
{
	if (!strcmp(s, "table"))
		*out = CLI_FMT_TABLE;
	else if (!strcmp(s, "csv"))
		*out = CLI_FMT_CSV;
	else if (!strcmp(s, "json"))
		*out = CLI_FMT_JSON;
	else
		return -1;
	return 0;
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ppr: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

int cli_error_err(const struct ppr_err *err)
{
	char buf[1400];

	return cli_error("%s", ppr_err_format(err, buf, sizeof(buf)));
}

int cli_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fputs("ppr: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (usage)
		fputs(usage, stderr);
	return 2;
}

int cli_check_gen(const char *usage, const char *input)
{
	struct ppr_err err = { 0 };
	char buf[1400];

	if (!input || !matrix_spec_is_gen(input) ||
	    matrix_gen_check(input, &err) != PPR_EINVAL)
		return 0;
	return cli_usage_error(usage, "%s",
			       ppr_err_format(&err, buf, sizeof(buf)));
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("ppr: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || *end) ? -1 : 0;
}

/* "0-1,4" for the CPUs of a set */
static void cpu_list(const cpu_set_t *set, char *buf, size_t n)
{
	size_t len = 0;
	int c = 0, lo;

	buf[0] = '\0';
	while (c < CPU_SETSIZE) {
		if (!CPU_ISSET(c, set)) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < CPU_SETSIZE && CPU_ISSET(c + 1, set))
			c++;
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len,
						lo == c ? "%s%d" : "%s%d-%d",
						len ? "," : "", lo, c);
		c++;
	}
}

int cli_check_cpu(const char *s, int *cpu, char *msg, size_t n)
{
	unsigned long long v;
	cpu_set_t set;
	char allowed[128];

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		snprintf(msg, n, "cannot read this process's CPUs: %s",
			 strerror(errno));
		return -1;
	}
	cpu_list(&set, allowed, sizeof(allowed));
	if (cli_parse_u64(s, &v) || v >= CPU_SETSIZE) {
		snprintf(msg, n, "'%s' is not a CPU number (allowed: %s)", s,
			 allowed);
		return -1;
	}
	if (!CPU_ISSET((int)v, &set)) {
		snprintf(msg, n, "CPU %llu is not one this process may run on "
			 "(allowed: %s)", v, allowed);
		return -1;
	}
	*cpu = (int)v;
	return 0;
}

int cli_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int c, n = 0;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

int cli_pin_cpu(int cpu)
{
	cpu_set_t set;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		return cli_error("cannot run on CPU %d: %s", cpu, strerror(rc));
	return 0;
}

void cli_json_cpu(cJSON *o, int cpu)
{
	if (cpu >= 0)
		cJSON_AddNumberToObject(o, "cpu", cpu);
	else
		cJSON_AddNullToObject(o, "cpu");
}

int cli_parse_double(const char *s, double *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	return (errno || *end) ? -1 : 0;
}

FILE *cli_open_out(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		cli_error("cannot open '%s' for writing: %s", path,
			  strerror(errno));
	return f;
}

int cli_close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (fflush(f))
		bad = 1;
	if (f != stdout && fclose(f))
		bad = 1;
	if (bad)
		return cli_error("cannot write '%s': %s",
				 path && strcmp(path, "-") ? path : "stdout",
				 strerror(errno));
	return 0;
}

void cli_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
