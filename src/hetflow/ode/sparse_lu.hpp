#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hetflow::ode {

// A factorisation plan for n x n matrices c I - S that share the nonzero pattern of S: a symmetric
// minimum-degree ordering of S + Sᵀ (the diagonal always kept), the pattern of the LU factors it leaves,
// and the schedule sparse_lu.cl runs, pivot by pivot without pivoting, as sparse kinetic solvers do
// (Damian et al., "The kinetic preprocessor KPP", Comput. Chem. Eng. 26, 2002): c I - J of the reactors
// measured keeps usable pivots (docs/ode.md), and a vanishing or non-finite pivot reports the matrix
// singular, which makes RADAU5 retry with a smaller step.
//
// `plan` holds, after a header of offsets (sparse_lu.cl's SP_*): for each factor entry (in the rows of
// the permuted matrix, each from L's columns through the diagonal to U's) its place in the column-major
// n x n matrix, where each row starts, where each diagonal lies, the permutation, the entries of each
// column of L and of U (their places and rows), and for each pivot the places its elimination updates.
struct SparseLu {
  int entries = 0;                 // nonzeros of L and U together, the diagonal once
  std::size_t updates = 0;         // multiply-adds of one factorisation
  std::vector<std::int32_t> plan;  // sparse_lu.cl's layout
};

// The plan for the pattern's (row, column) pairs, each in 0 .. n - 1 (repeats allowed); throws
// core::Error naming a pair outside the matrix.
SparseLu sparse_lu(int n, std::span<const std::array<int, 2>> pattern);

}  // namespace hetflow::ode
