/*
 * emit.c - batching of instrumented references, and a counting sink.
 */
#include "kernels/kernels_int.h"

#include <string.h>

void kern_emit_init(struct kern_emit *e, const struct ppr_sink *sink)
{
	e->sink = sink;
	e->n = 0;
	e->rc = 0;
}

int kern_emit_flush(struct kern_emit *e)
{
	if (e->n && !e->rc && e->sink && e->sink->emit)
		e->rc = e->sink->emit(e->sink->ctx, e->buf, e->n);
	e->n = 0;
	return e->rc;
}

static int count_emit(void *ctx, const struct ppr_access *acc, size_t n)
{
	struct kernel_access_count *c = ctx;
	size_t i;

	c->batches++;
	for (i = 0; i < n; i++) {
		unsigned op = acc[i].op < PPR_NOPS ? acc[i].op : 0;
		unsigned tag = acc[i].tag < PPR_NTAGS ? acc[i].tag : 0;

		c->n[op][tag]++;
		c->bytes[op][tag] += acc[i].size;
	}
	return 0;
}

void kernel_access_count_sink(struct kernel_access_count *c,
			      struct ppr_sink *sink)
{
	memset(c, 0, sizeof(*c));
	sink->emit = count_emit;
	sink->ctx = c;
}
