/*
 * kern_hooks.h - (re)define the access hooks of a kernel body.
 *
 * No include guard on purpose: a kernel .c file includes it, then its body
 * header, once with KERN_INSTRUMENTED undefined (native) and once defined
 * (instrumented).  The native hooks compile to nothing, so the native
 * function is exactly the plain kernel.
 */
#undef KLD
#undef KST
#undef KPARAM
#undef KARG
#undef KSFX
#undef KUNROLL8
#undef KUNROLL16
#ifdef KERN_INSTRUMENTED
/* Instrumented bodies are not unrolled: each hook is a buffer append with
 * a branch, and 128 fully unrolled BCSR bodies make the compiler (and
 * sanitizer builds) crawl; the reference order is the same either way. */
#define KUNROLL8 _Pragma("GCC unroll 1")
#define KUNROLL16 _Pragma("GCC unroll 1")
#define KLD(p, size, tag) kern_emit_put(em, (p), (size), PPR_OP_LOAD, (tag))
#define KST(p, size, tag) kern_emit_put(em, (p), (size), PPR_OP_STORE, (tag))
#define KPARAM , struct kern_emit *em
#define KARG , em
#define KSFX _instr
#else
#define KUNROLL8 _Pragma("GCC unroll 8")
#define KUNROLL16 _Pragma("GCC unroll 16")
#define KLD(p, size, tag) ((void)0)
#define KST(p, size, tag) ((void)0)
#define KPARAM
#define KARG
#define KSFX
#endif
