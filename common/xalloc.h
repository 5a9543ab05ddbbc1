/*
 * xalloc.h - allocation that cannot fail silently.
 *
 * On failure these print "ppr: error: out of memory" and exit(1): the one
 * place library code may exit.  Hot paths (the simulator's access path,
 * kernel inner loops) never allocate.
 */
#ifndef PPR_XALLOC_H
#define PPR_XALLOC_H

#include <stddef.h>

void ppr_oom(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* 64-byte aligned, free with free(). */
void *xaligned_alloc(size_t n);

/* Overflow-checked size arithmetic: return 0 and set *out, or -1. */
int ppr_mul_size(size_t a, size_t b, size_t *out);
int ppr_add_size(size_t a, size_t b, size_t *out);

#endif
