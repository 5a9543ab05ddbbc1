/*
 * ppr_access.h - one memory reference and the access sink.
 *
 * Kernels emit their memory references through a sink; the cache
 * simulator and the trace writer both implement it.  References are
 * delivered in batches so the per-reference cost is a store into an array,
 * not a function call.  This header is shared by sim/, traces/ and
 * kernels/ and depends on nothing.
 */
#ifndef PPR_ACCESS_H
#define PPR_ACCESS_H

#include <stddef.h>
#include <stdint.h>

enum ppr_op {
	PPR_OP_LOAD = 0,
	PPR_OP_STORE = 1,
	PPR_OP_IFETCH = 2,
	PPR_OP_MODIFY = 3,  /* read-modify-write of one location (lackey 'M') */
};
#define PPR_NOPS 4

enum ppr_tag {
	PPR_TAG_REGULAR = 0,   /* contiguous or stride <= one line: prefetchable */
	PPR_TAG_IRREGULAR = 1, /* indirect, random, large stride */
};
#define PPR_NTAGS 2

/* One reference: plain data, 16 bytes. */
struct ppr_access {
	uint64_t addr;
	uint32_t size;   /* bytes, >= 1 */
	uint8_t op;      /* enum ppr_op */
	uint8_t tag;     /* enum ppr_tag */
	uint16_t pad;
};

/*
 * A sink receives batches of references.  'emit' returns 0 or a negative
 * PPR_E* code (a trace writer may fail on I/O); on failure the producer
 * stops and returns that code.
 */
struct ppr_sink {
	int (*emit)(void *ctx, const struct ppr_access *acc, size_t n);
	void *ctx;
};

#endif
