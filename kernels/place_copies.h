/*
 * place_copies.h - four placed copies of native kernel bodies, for the
 * code-placement copies of spmv_place.c, conv.c and conv_avx2.c.
 *
 * No include guard on purpose: the includer has the native hooks in
 * effect (kern_hooks.h without KERN_INSTRUMENTED), checks
 * KERN_HAVE_PLACEMENT, defines PLACE_BODY (the header holding the bodies,
 * as a string) and includes this file.  Each copy's functions get the
 * suffix _at0, _at16, _at32 or _at48 and start on a 64-byte boundary
 * followed by that many bytes of no-ops (patchable_function_entry,
 * executed once per call).  Afterwards KERN_NOINLINE and KSFX are the
 * native ones again and PLACE_BODY is undefined.
 */
#define PLACE_ATTR(pad) __attribute__((noinline, aligned(64), \
				       patchable_function_entry(pad, 0)))
#undef KERN_NOINLINE
#undef KSFX
#define KERN_NOINLINE PLACE_ATTR(0)
#define KSFX _at0
#include PLACE_BODY
#undef KERN_NOINLINE
#undef KSFX
#define KERN_NOINLINE PLACE_ATTR(16)
#define KSFX _at16
#include PLACE_BODY
#undef KERN_NOINLINE
#undef KSFX
#define KERN_NOINLINE PLACE_ATTR(32)
#define KSFX _at32
#include PLACE_BODY
#undef KERN_NOINLINE
#undef KSFX
#define KERN_NOINLINE PLACE_ATTR(48)
#define KSFX _at48
#include PLACE_BODY
#undef KERN_NOINLINE
#undef KSFX
#undef PLACE_ATTR
#undef PLACE_BODY
#define KERN_NOINLINE KERN_NOINLINE_NATIVE
#define KSFX
