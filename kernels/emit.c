/*
 * emit.c - batching of instrumented references, and a counting sink.
 */
#include "kernels/kernels_int.h"

#include <string.h>

void kern_layout_init(struct kern_layout *l)
{
	l->nreg = 0;
	l->next_virt = KERN_LAYOUT_BASE;
}

static void layout_add(struct kern_layout *l, const void *p, uint64_t bytes,
		       uint64_t align)
{
	uint64_t lo = (uint64_t)(uintptr_t)p, v;
	struct kern_region *g;

	if (!p || !bytes || l->nreg == KERN_MAX_REGIONS)
		return;
	v = l->next_virt;
	g = &l->reg[l->nreg++];
	g->lo = lo;
	g->hi = lo + bytes;
	g->delta = v - lo;
	l->next_virt = (v + bytes + align - 1) & ~(align - 1);
}

void kern_layout_add(struct kern_layout *l, const void *p, uint64_t bytes)
{
	layout_add(l, p, bytes, 4096);
}

void kern_layout_add_packed(struct kern_layout *l, const void *p,
			    uint64_t bytes)
{
	layout_add(l, p, bytes, 1);
}

uint64_t kern_layout_map(const struct kern_layout *l, uint64_t a)
{
	unsigned k;

	for (k = 0; k < l->nreg; k++)
		if (a - l->reg[k].lo < l->reg[k].hi - l->reg[k].lo)
			return a + l->reg[k].delta;
	return a;
}

void kern_emit_init(struct kern_emit *e, const struct ppr_sink *sink)
{
	e->sink = sink;
	e->n = 0;
	e->rc = 0;
	kern_layout_init(&e->lay);
}

/* Move the buffered references to the fixed layout; the region of the
 * previous reference is tried first. */
static void relocate(struct kern_emit *e)
{
	const struct kern_layout *l = &e->lay;
	const struct kern_region *last = &l->reg[0];
	size_t i;
	unsigned k;

	for (i = 0; i < e->n; i++) {
		uint64_t a = e->buf[i].addr;

		if (a - last->lo >= last->hi - last->lo) {
			for (k = 0; k < l->nreg; k++)
				if (a - l->reg[k].lo <
				    l->reg[k].hi - l->reg[k].lo)
					break;
			if (k == l->nreg)
				continue;
			last = &l->reg[k];
		}
		e->buf[i].addr = a + last->delta;
	}
}

int kern_emit_flush(struct kern_emit *e)
{
	if (e->n && !e->rc && e->lay.nreg)
		relocate(e);
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
