/* test_common.c - the error convention and checked size arithmetic. */
#include <stdint.h>

#include "common/ppr_err.h"
#include "common/xalloc.h"
#include "tests/t.h"

static void test_err_format(void)
{
	struct ppr_err e = { 0 };
	char buf[2048];
	int rc;

	rc = ppr_err_set(&e, PPR_EFORMAT, "m.json", 12, 5,
			 "'%s' must be a positive integer", "ways");
	T_CHECK(rc == PPR_EFORMAT);
	T_STR(ppr_err_format(&e, buf, sizeof(buf)),
	      "m.json:12:5: 'ways' must be a positive integer");
	ppr_err_set(&e, PPR_EFORMAT, "t.din", 3, 0, "bad address");
	T_STR(ppr_err_format(&e, buf, sizeof(buf)), "t.din:3: bad address");
	ppr_err_set(&e, PPR_EIO, NULL, 0, 0, "plain");
	T_STR(ppr_err_format(&e, buf, sizeof(buf)), "plain");
	/* A NULL err is allowed and the code still comes back. */
	T_CHECK(ppr_err_set(NULL, PPR_EINVAL, "x", 1, 1, "y") == PPR_EINVAL);
	T_STR(ppr_strerror(PPR_ENOMEM), "out of memory");
}

static void test_checked_sizes(void)
{
	size_t r = 0;

	T_CHECK(ppr_mul_size(SIZE_MAX / 2, 3, &r) == -1);
	T_CHECK(ppr_mul_size(1u << 20, 1u << 10, &r) == 0 && r == (1u << 30));
	T_CHECK(ppr_add_size(SIZE_MAX, 1, &r) == -1);
	T_CHECK(ppr_add_size(5, 7, &r) == 0 && r == 12);
}

int main(void)
{
	test_err_format();
	test_checked_sizes();
	return t_done();
}
