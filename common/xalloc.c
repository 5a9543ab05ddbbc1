#include "common/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ppr_oom(void)
{
	fputs("ppr: error: out of memory\n", stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		ppr_oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		ppr_oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		ppr_oom();
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xmalloc(n);

	memcpy(d, s, n);
	return d;
}

void *xaligned_alloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n ? n : 64))
		ppr_oom();
	return p;
}

int ppr_mul_size(size_t a, size_t b, size_t *out)
{
	if (a && b > SIZE_MAX / a)
		return -1;
	*out = a * b;
	return 0;
}

int ppr_add_size(size_t a, size_t b, size_t *out)
{
	if (b > SIZE_MAX - a)
		return -1;
	*out = a + b;
	return 0;
}
