#pragma once
#include "hetflow/app/bench/registry.hpp"

namespace hetflow::app {

// The NNLS solvers and their building blocks on the first selected device (thesis Ch. 5-6):
//   - TNT time against n (square SVC matrices, geometric singular values, kappa 1e2, generated on the
//     device and kept there) for n = 500 .. 20,000 at 5 % and 50 % active variables, b and the known
//     solution from nnls::with_active_set (on the host, so each size downloads A once);
//     efficiency = the time A^T A's FLOPs take at the measured FP64 peak / the solve's time;
//   - FNNLS and Lawson-Hanson (host, LAPACK) on the same problems;
//   - SVC generation time up to 16384^2, efficiency = the bytes of its
//     4 n (n - 1) element updates (one read, one write each) per second / copy bandwidth;
//   - the Gram matrix A^T A in GFLOP/s up to n = 10,000, efficiency = rate / measured FP64 peak;
//   - TNT on other problem families (nnls_bench_families.hpp).
// Every series stops before a size whose single run (or problem set-up) is predicted, from the last
// size, to pass its cap (tighter on CPU devices); the reason is printed and recorded in the params of
// the series' cases (series_stopped_before_n). With HETFLOW_BENCH_KEEP_PROBLEMS=DIR set, the problems
// with n <= 5000 are written to DIR as .npy with DIR/problems.json, for scripts/nnls_scipy_bench.py.
// Only the sizes with a case `--only` wants are built and run.
BenchReport nnls_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

}  // namespace hetflow::app
