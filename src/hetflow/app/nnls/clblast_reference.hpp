#pragma once
#include <cstddef>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"

// CLBlast's versions of two of TNT's dense operations, for `hetflow bench nnls` to compare with
// hetflow's own kernels (the issue asks to measure and choose). Built only when CMake finds CLBlast
// (HETFLOW_HAVE_CLBLAST); each call enqueues on `queue` and returns without waiting.
namespace hetflow::app::clblast_reference {

// The upper triangle of C (n x n) = A^T A for the n x n column-major A: DSYRK.
void gram(const core::Queue& queue, const core::Buffer<double>& a, const core::Buffer<double>& c, std::size_t n);

// z <- R^-1 R^-T z for the upper triangle of the n x n column-major R: two DTRSVs, as TNT's
// preconditioner.
void precondition(const core::Queue& queue, const core::Buffer<double>& r, const core::Buffer<double>& z,
                  std::size_t n);

}  // namespace hetflow::app::clblast_reference
