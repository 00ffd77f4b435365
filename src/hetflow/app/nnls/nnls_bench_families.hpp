#pragma once
#include "hetflow/app/nnls/nnls_bench_support.hpp"

namespace hetflow::app::nnls_bench {

// TNT on the families of problems users bring, at active fractions 5, 25, 50 and 75 %: square SVC at
// kappa 1e2, 1e4, 1e6 and 1e8, square Gaussian (plain and shifted by 3 I), tall Gaussian (m = 1.6 n) and a
// Gaussian blur (deconvolution), n = 2,000, 5,000 and 10,000 on GPUs; on CPU devices n = 250 .. 2,000
// beside FNNLS on LAPACK. Cases "tnt FAMILY n=N active=F%" (and "fnnls ..."); the series stop at their caps,
// and `--only` picks cases without building the others' matrices. Kept problems carry their family.
void family_series(Context& ctx);

}  // namespace hetflow::app::nnls_bench
