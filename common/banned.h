/*
 * banned.h - functions ppr code must not use (unbounded writes, hidden
 * state, no error reporting).  Included by every translation unit through
 * the compiler command line (-include).
 */
#ifndef PPR_BANNED_H
#define PPR_BANNED_H

/* Declare the real functions first, so the macros below catch only uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef gets
#define gets(x) BANNED(gets)

#endif
