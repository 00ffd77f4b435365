#pragma once
#include "hetflow/nnls/tnt.hpp"

namespace hetflow::nnls {

// The weight of one PCGNR iteration against one Cholesky factorisation in tnt_work. An iteration costs
// two gathered GEMVs and two triangular solves, 4 m |F| + 2 |F|^2 flops, a factorisation |F|^3 / 3:
// about a tenth at m = |F| = 200 and less for larger problems, where the factorisations dominate TNT's
// time still more.
inline constexpr double tnt_work_per_cg_iteration = 0.1;

// A deterministic cost of a TNT run, in factorisations: factorizations + tnt_work_per_cg_iteration *
// cg_iterations. It counts what rc and ec change (how many trials TNT makes and how many deletion loops
// each needs), repeats exactly where the wall clock varies by tens of per cent, and is the same on every
// device up to rounding, so the constants it selects can be asserted by a test and shared by devices.
double tnt_work(const TntResult& result);

}  // namespace hetflow::nnls
