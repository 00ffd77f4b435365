#pragma once
#include "hetflow/core/link.hpp"
#include "hetflow/optim/evaluation.hpp"

namespace hetflow::optim {

// `objective` spread over the processes of `link` (one per host): every process runs the same method
// on the same batches (the methods are deterministic for a seed), evaluates its consecutive share of
// each batch (rank r of P takes points [r B / P, (r + 1) B / P)) on its own devices, and receives the
// others' evaluations, so every process sees the whole batch's answer and takes the same next step.
// Collective: every process must call the returned objective with the same batches in the same order.
// An exception thrown by `objective` on any process throws core::Error on every process (the thrower
// keeps its own exception), so none is left waiting in the exchange.
BatchObjective spread_over(core::Link& link, BatchObjective objective);

}  // namespace hetflow::optim
