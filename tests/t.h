/*
 * t.h - the tiny test framework of ppr.
 *
 *   T_CHECK(cond)                    a named assertion
 *   T_EQ_U64(a, b)                   exact integers
 *   T_NEAR(a, b, rel)                |a-b| <= rel * max(|a|,|b|) (rel tolerance)
 *   T_STR(a, b)                      equal strings
 *   T_SKIP(why)                      count one skipped check, print why
 *   return t_done();                 prints "N passed, N failed[, N skipped]"
 *
 * Table rows carry __LINE__ and pass it as 'line' to T_*_AT variants so a
 * failure names the row.
 */
#ifndef PPR_T_H
#define PPR_T_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int t_pass, t_fail, t_skip;

#define T_CHECK_AT(cond, line) do { \
	if (cond) t_pass++; \
	else { t_fail++; fprintf(stderr, "FAIL %s:%d (row %d): %s\n", \
		__FILE__, __LINE__, (int)(line), #cond); } \
} while (0)
#define T_CHECK(cond) T_CHECK_AT(cond, __LINE__)

#define T_EQ_U64_AT(a, b, line) do { \
	uint64_t t_a_ = (uint64_t)(a), t_b_ = (uint64_t)(b); \
	if (t_a_ == t_b_) t_pass++; \
	else { t_fail++; fprintf(stderr, "FAIL %s:%d (row %d): %s == %s: %" \
		PRIu64 " != %" PRIu64 "\n", __FILE__, __LINE__, (int)(line), \
		#a, #b, t_a_, t_b_); } \
} while (0)
#define T_EQ_U64(a, b) T_EQ_U64_AT(a, b, __LINE__)

#define T_NEAR_AT(a, b, rel, line) do { \
	double t_a_ = (double)(a), t_b_ = (double)(b); \
	double t_m_ = fmax(fabs(t_a_), fabs(t_b_)); \
	if (fabs(t_a_ - t_b_) <= (rel) * t_m_ || t_a_ == t_b_) t_pass++; \
	else { t_fail++; fprintf(stderr, "FAIL %s:%d (row %d): %s ~ %s: %.17g vs " \
		"%.17g (rel tol %g)\n", __FILE__, __LINE__, (int)(line), #a, #b, \
		t_a_, t_b_, (double)(rel)); } \
} while (0)
#define T_NEAR(a, b, rel) T_NEAR_AT(a, b, rel, __LINE__)

#define T_STR_AT(a, b, line) do { \
	const char *t_a_ = (a), *t_b_ = (b); \
	if (t_a_ && t_b_ && !strcmp(t_a_, t_b_)) t_pass++; \
	else { t_fail++; fprintf(stderr, "FAIL %s:%d (row %d): %s == %s:\n  got " \
		"'%s'\n  want '%s'\n", __FILE__, __LINE__, (int)(line), #a, #b, \
		t_a_ ? t_a_ : "(null)", t_b_ ? t_b_ : "(null)"); } \
} while (0)
#define T_STR(a, b) T_STR_AT(a, b, __LINE__)

#define T_SKIP(why) do { t_skip++; printf("skipped: %s\n", (why)); } while (0)

static inline int t_done(void)
{
	if (t_skip)
		printf("%d passed, %d failed, %d skipped\n", t_pass, t_fail, t_skip);
	else
		printf("%d passed, %d failed\n", t_pass, t_fail);
	return t_fail ? 1 : 0;
}

#endif
