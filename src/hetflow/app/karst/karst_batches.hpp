#pragma once
// Forward runs of many parameter sets in batches: a batch's rock state stays within a device-memory bound,
// and batches double or halve to take about StepChunks' time, so that a long run stops soon after a
// Ctrl-C with the outlets of the batches done. The karst case and the Python package run sets this way.
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "hetflow/karst/device_solver.hpp"

namespace hetflow::app {

// The outlet series of sets[0 .. k), k the sets of the batches run: all of them unless keep_going(sets
// done, sets), asked before every batch but the first, says stop.
std::vector<karst::Series> run_karst_batches(karst::KarstDevice& device, const karst::Series& inlet,
                                             const karst::Series& velocity,
                                             std::span<const karst::KarstParameters> sets, const karst::Grid& grid,
                                             const std::function<bool(std::size_t, std::size_t)>& keep_going);

}  // namespace hetflow::app
