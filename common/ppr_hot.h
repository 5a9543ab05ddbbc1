/*
 * ppr_hot.h - keep the code of one hot path together in the program.
 *
 * PPR_SELECT_TEXT puts a function in the section ".text.hot.ppr_select".
 * The linker's default script gathers the .text.hot.* sections of all
 * objects in one run at the start of .text, so the functions `ppr bcsr`'s
 * selection runs (model/bcsr_select.c and the few model functions it
 * calls) lie in about 45 KB of consecutive code instead of across 90 KB
 * interleaved with code it never runs.  A fresh process pays for each page
 * and line of code it first touches; on the Zen 5 test guest (nested
 * paging) that was most of a small matrix's selection: median wall time
 * of fresh `ppr bcsr` runs on 9 small matrices 0.68-0.93 of what it was
 * (model/README.md, 2026-12-04 12:55).  The results do not change: only
 * where the code lies.  Elsewhere than ELF the attribute is left out.
 */
#ifndef PPR_HOT_H
#define PPR_HOT_H

#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#define PPR_SELECT_TEXT __attribute__((section(".text.hot.ppr_select")))
#else
#define PPR_SELECT_TEXT
#endif

#endif
