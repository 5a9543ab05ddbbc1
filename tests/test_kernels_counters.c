/*
 * test_kernels_counters.c - counter plumbing without a PMU: the fake
 * backend, PAPI preset mapping encoded by libpfm4 under
 * LIBPFM_ENCODE_INACTIVE=1 (PMUs this machine does not have), the
 * "why unavailable" text, and the PAPI / perf-stat importers with a table
 * of malformed inputs and their exact one-line errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"
#include "tests/t.h"

static void test_parse(void)
{
	struct counter_set s;
	struct ppr_err err;

	T_CHECK(counter_set_parse(&s, "PAPI_TOT_CYC,PAPI_L1_DCM,hsw::L1D:REPLACEMENT", &err) == 0);
	T_EQ_U64(s.n, 3);
	T_STR(s.ev[2].name, "hsw::L1D:REPLACEMENT");
	T_CHECK(counter_set_parse(&s, "PAPI_TOT_CYC,,PAPI_L1_DCM", &err) == PPR_EINVAL);
	T_STR(err.msg, "empty event name in 'PAPI_TOT_CYC,,PAPI_L1_DCM'");
	T_CHECK(counter_set_parse(&s, "", &err) == PPR_EINVAL);
	T_CHECK(counter_set_parse(&s, "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", &err) == PPR_EINVAL);
	T_CHECK(strstr(err.msg, "more than 16 events") != NULL);
}

static void test_fake(void)
{
	struct counter_backend b;
	struct counter_set s;
	struct ppr_err err;
	int i;

	T_CHECK(counter_backend_init(&b, "nope", &err) == PPR_EINVAL);
	T_STR(err.msg, "unknown counter backend 'nope' (perf or fake)");
	T_CHECK(counter_backend_init(&b, "fake", &err) == 0);
	T_CHECK(counter_set_parse(&s, "PAPI_TOT_INS,PAPI_SR_INS,X", &err) == 0);
	T_CHECK(b.open(&b, &s, &err) == 0);
	T_CHECK(b.stop(&b) == PPR_EINVAL);	/* not started */
	for (i = 0; i < 4; i++) {
		T_CHECK(b.start(&b) == 0);
		T_CHECK(b.stop(&b) == 0);
	}
	T_CHECK(b.read(&b, &s) == 0);
	T_EQ_U64(s.ev[0].value, 4000);
	T_EQ_U64(s.ev[1].value, 8000);
	T_EQ_U64(s.ev[2].value, 12000);
	T_STR(s.source, "fake");
	/* An unknown native name cannot be resolved: shown as fake:: */
	T_STR(s.ev[2].native, "fake::X");
	b.close(&b);
}

static void test_mapping(void)
{
	static const struct {
		const char *ev, *pmu, *prefix;
		int line;
	} rows[] = {
		{ "PAPI_L1_DCM", "hsw", "hsw::L1D:REPLACEMENT", __LINE__ },
		{ "PAPI_L2_DCM", "hsw", "hsw::L2_RQSTS:MISS", __LINE__ },
		{ "PAPI_L3_TCM", "skx", "skx::LONGEST_LAT_CACHE:MISS", __LINE__ },
		{ "PAPI_TOT_CYC", "skx", "skx::UNHALTED_CORE_CYCLES", __LINE__ },
		{ "PAPI_TOT_INS", "hsw", "hsw::INSTRUCTION_RETIRED", __LINE__ },
		{ "PAPI_LD_INS", "hsw", "hsw::MEM_UOPS_RETIRED:ALL_LOADS", __LINE__ },
		{ "PAPI_LD_INS", "skx", "skx::MEM_INST_RETIRED:ALL_LOADS", __LINE__ },
		{ "PAPI_SR_INS", "icl", "icl::MEM_INST_RETIRED:ALL_STORES", __LINE__ },
		{ "PAPI_TOT_INS", "amd64_fam17h_zen1", "amd64_fam17h_zen1::RETIRED_INSTRUCTIONS", __LINE__ },
		{ "PAPI_TOT_CYC", "amd64_fam19h_zen3", "amd64_fam19h_zen3::CYCLES_NOT_IN_HALT", __LINE__ },
		{ "PAPI_LD_INS", "amd64_fam19h_zen3", "amd64_fam19h_zen3::LS_DISPATCH:LD_DISPATCH", __LINE__ },
		/* Zen has no core L3 event: the generic perf event */
		{ "PAPI_L3_TCM", "amd64_fam19h_zen3", "perf::PERF_COUNT_HW_CACHE_MISSES", __LINE__ },
		/* unknown PMU: generic perf events */
		{ "PAPI_TOT_CYC", "", "perf::PERF_COUNT_HW_CPU_CYCLES", __LINE__ },
		{ "PAPI_L1_DCM", "", "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS", __LINE__ },
		/* native names pass through */
		{ "hsw::L1D:REPLACEMENT", "", "hsw::L1D:REPLACEMENT", __LINE__ },
		{ "L1D:REPLACEMENT", "skx", "skx::L1D:REPLACEMENT", __LINE__ },
	};
	char native[256];
	struct ppr_err err;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int rc = counter_event_resolve(rows[i].ev, rows[i].pmu, native,
					       sizeof(native), &err);

		if (rc)
			fprintf(stderr, "row %d: %s\n", rows[i].line, err.msg);
		T_CHECK_AT(rc == 0, rows[i].line);
		T_CHECK_AT(rc == 0 && !strncmp(native, rows[i].prefix,
					       strlen(rows[i].prefix)),
			   rows[i].line);
	}
	T_CHECK(counter_event_resolve("PAPI_FP_OPS", "hsw", native,
				      sizeof(native), &err) == PPR_ENOENT);
	T_CHECK(strstr(err.msg, "unknown PAPI preset 'PAPI_FP_OPS'") != NULL);
	T_CHECK(counter_event_resolve("PAPI_L2_DCM", "", native,
				      sizeof(native), &err) == PPR_ENOTSUP);
	T_STR(err.msg, "no native event for 'PAPI_L2_DCM' on PMU '(none "
	      "detected)' (and no generic perf event)");
	T_CHECK(counter_event_resolve("NO_SUCH_EVENT_X", "", native,
				      sizeof(native), &err) == PPR_ENOENT);
	T_CHECK(strstr(err.msg, "libpfm4 cannot encode event 'NO_SUCH_EVENT_X'") != NULL);
}

static void test_explain(void)
{
	char buf[512];

	counter_explain_unavailable(ENOENT, buf, sizeof(buf));
	T_CHECK(strstr(buf, "no hardware PMU") != NULL);
	T_CHECK(strstr(buf, "perf_event_paranoid") != NULL);
	counter_explain_unavailable(EACCES, buf, sizeof(buf));
	T_CHECK(strstr(buf, "perf_event_paranoid") != NULL);
	T_CHECK(strstr(buf, "CAP_PERFMON") != NULL);
}

/* On this machine (no PMU) the perf backend must fail with a reason,
 * and the harness must still time. */
static void test_perf_backend_here(void)
{
	struct counter_backend b;
	struct counter_set s;
	struct ppr_err err;
	struct kernel_params p = { .kernel = "fft1d", .n = 64 };
	struct kernel_run *r = NULL;
	struct measure_opts o = { .reps = 3 };
	struct measure_result res;
	int rc;

	T_CHECK(counter_backend_init(&b, "perf", &err) == 0);
	T_CHECK(counter_set_parse(&s, "PAPI_TOT_CYC", &err) == 0);
	T_CHECK(kernel_run_new(&p, &r, &err) == 0);
	if (!r)
		return;
	o.counters = &b;
	o.set = &s;
	rc = kernel_measure(r, &o, &res, &err);
	T_CHECK(rc == 0);
	T_CHECK(res.time_min_s > 0);
	if (res.counters_ok) {
		T_SKIP("this machine has hardware counters: the "
		       "'unavailable' path is not exercised");
		T_CHECK(s.ev[0].value > 0);
	} else {
		T_CHECK(strstr(res.counters_why, "PAPI_TOT_CYC") != NULL);
		T_CHECK(strstr(res.counters_why, "perf_event_paranoid") != NULL ||
			strstr(res.counters_why, "libpfm4") != NULL);
	}
	kernel_run_free(r);
}

static void test_import_papi(void)
{
	static const char good[] =
		"This utility lets you add events from the command line "
		"interface to see if they work.\n\n"
		"Successfully added: PAPI_TOT_INS\n"
		"Successfully added: PAPI_L1_DCM\n\n"
		"PAPI_TOT_INS : \t188441\r\n"
		"PAPI_L1_DCM :   1234\n\n"
		"----------------------------------\n"
		"Verification: Checks for valid event name.\n"
		" This utility lets you add events from the command line "
		"interface to see if they work.\n"
		"command.papi_command_line PASSED\n";
	static const struct {
		const char *in, *msg;
		int line;
	} bad[] = {
		{ "PAPI_TOT_INS : 12x\n",
		  "p.txt:1: event 'PAPI_TOT_INS': value '12x' is not a "
		  "non-negative integer", __LINE__ },
		{ "hello\nPAPI_L1_DCM : -5\n",
		  "p.txt:2: event 'PAPI_L1_DCM': value '-5' is not a "
		  "non-negative integer", __LINE__ },
		{ "PAPI_L1_DCM :\n",
		  "p.txt:1: event 'PAPI_L1_DCM': missing value after ':'",
		  __LINE__ },
		{ "PAPI_L1_DCM : 1\nPAPI_L1_DCM : 2\n",
		  "p.txt:2: event 'PAPI_L1_DCM' appears twice", __LINE__ },
		{ "PAPI_L1_DCM : 99999999999999999999999\n",
		  "p.txt:1: event 'PAPI_L1_DCM': value "
		  "'99999999999999999999999' is not a non-negative integer",
		  __LINE__ },
		{ "nothing here\n", "p.txt: no 'EVENT : value' lines found",
		  __LINE__ },
	};
	struct counter_set s;
	struct ppr_err err;
	char buf[1400];
	size_t i;

	T_CHECK(counter_import_papi(&s, "p.txt", good, strlen(good), &err) == 0);
	T_EQ_U64(s.n, 2);
	T_STR(s.ev[0].name, "PAPI_TOT_INS");
	T_EQ_U64(s.ev[0].value, 188441);
	T_STR(s.ev[1].name, "PAPI_L1_DCM");
	T_EQ_U64(s.ev[1].value, 1234);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		T_CHECK_AT(counter_import_papi(&s, "p.txt", bad[i].in,
					       strlen(bad[i].in), &err) ==
			   PPR_EFORMAT, bad[i].line);
		T_STR_AT(ppr_err_format(&err, buf, sizeof(buf)), bad[i].msg,
			 bad[i].line);
	}
}

static void test_import_perf(void)
{
	static const char good[] =
		"# started on Sat Nov 21 23:00:00 2026\n\n"
		"1234567,,instructions:u,1002003,100.00,1.25,insn per cycle\n"
		"987654,,cycles:u,1002003,100.00,,\n"
		"<not supported>,,L1-dcache-load-misses:u,0,100.00,,\n"
		"<not counted>,,LLC-load-misses:u,0,0.00,,\n"
		"0.52,msec,task-clock:u,520000,100.00,0.001,CPUs utilized\n";
	static const struct {
		const char *in, *msg;
		int line;
	} bad[] = {
		{ "123,cycles\n",
		  "s.csv:1: expected at least 3 comma-separated fields "
		  "(value,unit,event), got 2", __LINE__ },
		{ "# c\n12a,,cycles,1,100\n",
		  "s.csv:2: event 'cycles': value '12a' is not a number",
		  __LINE__ },
		{ "1,,cycles\n2,,cycles\n",
		  "s.csv:2: event 'cycles' appears twice", __LINE__ },
		{ "1,, ,5\n", "s.csv:1: empty event name (field 3)", __LINE__ },
		{ "-3,,cycles\n",
		  "s.csv:1: event 'cycles': value '-3' is not a number",
		  __LINE__ },
		{ "# only a comment\n",
		  "s.csv: no 'value,unit,event' rows found", __LINE__ },
	};
	struct counter_set s;
	struct ppr_err err;
	char buf[1400];
	size_t i;

	T_CHECK(counter_import_perf_csv(&s, "s.csv", good, strlen(good), &err) == 0);
	T_EQ_U64(s.n, 5);
	T_STR(s.ev[0].name, "instructions:u");
	T_EQ_U64(s.ev[0].value, 1234567);
	T_CHECK(s.ev[0].status == COUNTER_OK);
	T_EQ_U64(s.ev[1].value, 987654);
	T_CHECK(s.ev[2].status == COUNTER_UNAVAILABLE);
	T_CHECK(s.ev[3].status == COUNTER_NOT_COUNTED);
	T_NEAR(s.ev[4].fvalue, 0.52, 1e-12);
	T_STR(s.ev[4].unit, "msec");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		T_CHECK_AT(counter_import_perf_csv(&s, "s.csv", bad[i].in,
						   strlen(bad[i].in), &err) ==
			   PPR_EFORMAT, bad[i].line);
		T_STR_AT(ppr_err_format(&err, buf, sizeof(buf)), bad[i].msg,
			 bad[i].line);
	}
}

int main(void)
{
	/* Read by pfm_initialize(), so set before the first libpfm4 call:
	 * lets libpfm4 encode events of PMUs this machine lacks. */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	test_parse();
	test_fake();
	test_mapping();
	test_explain();
	test_perf_backend_here();
	test_import_papi();
	test_import_perf();
	return t_done();
}
