/* spmv_bcsr_all.h - generated: the 64 BCSR shapes (no include guard). */
#define BR 1
#define BC 1
#include "kernels/spmv_bcsr_body.h"
#define BR 1
#define BC 2
#include "kernels/spmv_bcsr_body.h"
#define BR 1
#define BC 3
#include "kernels/spmv_bcsr_body.h"
#define BR 1
#define BC 4
#include "kernels/spmv_bcsr_body.h"
#define BR 1
#define BC 5
#include "kernels/spmv_bcsr_body.h"
#define BR 1
#define BC 6
#include "kernels/spmv_bcsr_body.h"
#define BR 1
#define BC 7
#include "kernels/spmv_bcsr_body.h"
#define BR 1
#define BC 8
#include "kernels/spmv_bcsr_body.h"
#define BR 2
#define BC 1
#include "kernels/spmv_bcsr_body.h"
#define BR 2
#define BC 2
#include "kernels/spmv_bcsr_body.h"
#define BR 2
#define BC 3
#include "kernels/spmv_bcsr_body.h"
#define BR 2
#define BC 4
#include "kernels/spmv_bcsr_body.h"
#define BR 2
#define BC 5
#include "kernels/spmv_bcsr_body.h"
#define BR 2
#define BC 6
#include "kernels/spmv_bcsr_body.h"
#define BR 2
#define BC 7
#include "kernels/spmv_bcsr_body.h"
#define BR 2
#define BC 8
#include "kernels/spmv_bcsr_body.h"
#define BR 3
#define BC 1
#include "kernels/spmv_bcsr_body.h"
#define BR 3
#define BC 2
#include "kernels/spmv_bcsr_body.h"
#define BR 3
#define BC 3
#include "kernels/spmv_bcsr_body.h"
#define BR 3
#define BC 4
#include "kernels/spmv_bcsr_body.h"
#define BR 3
#define BC 5
#include "kernels/spmv_bcsr_body.h"
#define BR 3
#define BC 6
#include "kernels/spmv_bcsr_body.h"
#define BR 3
#define BC 7
#include "kernels/spmv_bcsr_body.h"
#define BR 3
#define BC 8
#include "kernels/spmv_bcsr_body.h"
#define BR 4
#define BC 1
#include "kernels/spmv_bcsr_body.h"
#define BR 4
#define BC 2
#include "kernels/spmv_bcsr_body.h"
#define BR 4
#define BC 3
#include "kernels/spmv_bcsr_body.h"
#define BR 4
#define BC 4
#include "kernels/spmv_bcsr_body.h"
#define BR 4
#define BC 5
#include "kernels/spmv_bcsr_body.h"
#define BR 4
#define BC 6
#include "kernels/spmv_bcsr_body.h"
#define BR 4
#define BC 7
#include "kernels/spmv_bcsr_body.h"
#define BR 4
#define BC 8
#include "kernels/spmv_bcsr_body.h"
#define BR 5
#define BC 1
#include "kernels/spmv_bcsr_body.h"
#define BR 5
#define BC 2
#include "kernels/spmv_bcsr_body.h"
#define BR 5
#define BC 3
#include "kernels/spmv_bcsr_body.h"
#define BR 5
#define BC 4
#include "kernels/spmv_bcsr_body.h"
#define BR 5
#define BC 5
#include "kernels/spmv_bcsr_body.h"
#define BR 5
#define BC 6
#include "kernels/spmv_bcsr_body.h"
#define BR 5
#define BC 7
#include "kernels/spmv_bcsr_body.h"
#define BR 5
#define BC 8
#include "kernels/spmv_bcsr_body.h"
#define BR 6
#define BC 1
#include "kernels/spmv_bcsr_body.h"
#define BR 6
#define BC 2
#include "kernels/spmv_bcsr_body.h"
#define BR 6
#define BC 3
#include "kernels/spmv_bcsr_body.h"
#define BR 6
#define BC 4
#include "kernels/spmv_bcsr_body.h"
#define BR 6
#define BC 5
#include "kernels/spmv_bcsr_body.h"
#define BR 6
#define BC 6
#include "kernels/spmv_bcsr_body.h"
#define BR 6
#define BC 7
#include "kernels/spmv_bcsr_body.h"
#define BR 6
#define BC 8
#include "kernels/spmv_bcsr_body.h"
#define BR 7
#define BC 1
#include "kernels/spmv_bcsr_body.h"
#define BR 7
#define BC 2
#include "kernels/spmv_bcsr_body.h"
#define BR 7
#define BC 3
#include "kernels/spmv_bcsr_body.h"
#define BR 7
#define BC 4
#include "kernels/spmv_bcsr_body.h"
#define BR 7
#define BC 5
#include "kernels/spmv_bcsr_body.h"
#define BR 7
#define BC 6
#include "kernels/spmv_bcsr_body.h"
#define BR 7
#define BC 7
#include "kernels/spmv_bcsr_body.h"
#define BR 7
#define BC 8
#include "kernels/spmv_bcsr_body.h"
#define BR 8
#define BC 1
#include "kernels/spmv_bcsr_body.h"
#define BR 8
#define BC 2
#include "kernels/spmv_bcsr_body.h"
#define BR 8
#define BC 3
#include "kernels/spmv_bcsr_body.h"
#define BR 8
#define BC 4
#include "kernels/spmv_bcsr_body.h"
#define BR 8
#define BC 5
#include "kernels/spmv_bcsr_body.h"
#define BR 8
#define BC 6
#include "kernels/spmv_bcsr_body.h"
#define BR 8
#define BC 7
#include "kernels/spmv_bcsr_body.h"
#define BR 8
#define BC 8
#include "kernels/spmv_bcsr_body.h"
