#pragma once
#include <cstddef>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"

// CLBlast's version of TNT's Gram matrix, for `hetflow bench nnls` to compare with hetflow's own kernel.
// Built only when CMake finds CLBlast (HETFLOW_HAVE_CLBLAST); the call enqueues on `queue` and returns
// without waiting.
namespace hetflow::app::clblast_reference {

// The upper triangle of C (n x n) = A^T A for the n x n column-major A: DSYRK.
void gram(const core::Queue& queue, const core::Buffer<double>& a, const core::Buffer<double>& c, std::size_t n);

}  // namespace hetflow::app::clblast_reference
