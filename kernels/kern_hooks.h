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
#ifdef KERN_INSTRUMENTED
#define KLD(p, size, tag) kern_emit_put(em, (p), (size), PPR_OP_LOAD, (tag))
#define KST(p, size, tag) kern_emit_put(em, (p), (size), PPR_OP_STORE, (tag))
#define KPARAM , struct kern_emit *em
#define KARG , em
#define KSFX _instr
#else
#define KLD(p, size, tag) ((void)0)
#define KST(p, size, tag) ((void)0)
#define KPARAM
#define KARG
#define KSFX
#endif
