/*
 * main.c - the ppr program: cli/ppr.c does the work.  Kept apart so the
 * fuzz targets, which link every other CLI object, get no second main().
 */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return ppr_main(argc, argv);
}
