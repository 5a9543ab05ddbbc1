/*
 * bcsr_select.c - BCSR block-shape selection (placeholder being written).
 */
#include "model/predict.h"

int model_bcsr_select(const struct machine *m, const struct csr *a,
		      const struct model_bcsr_opts *o,
		      struct model_bcsr_result *out, struct ppr_err *err)
{
	(void)m; (void)a; (void)o; (void)out;
	return ppr_err_set(err, PPR_ENOTSUP, NULL, 0, 0,
			   "BCSR selection: not implemented yet");
}
