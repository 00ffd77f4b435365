#pragma once
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace hetflow::core {

// Calls body(first, last) on disjoint ranges that cover [0, count) in order, one per hardware thread at
// most and none shorter than `grain` items (one range, on the calling thread, below that), all but the
// last on threads of their own; returns once every range is done. For the host's copies of large
// batches, which one core makes the GPU wait for. body must not throw: a worker's exception ends the
// program.
template <class Body>
void parallel_ranges(std::size_t count, std::size_t grain, const Body& body) {
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t parts = std::clamp<std::size_t>(count / std::max<std::size_t>(grain, 1), 1, threads);
  const std::size_t step = (count + parts - 1) / parts;
  std::vector<std::jthread> workers;
  workers.reserve(parts - 1);
  for (std::size_t p = 0; p + 1 < parts; ++p)
    workers.emplace_back([&body, p, step, count] { body(std::min(count, p * step), std::min(count, (p + 1) * step)); });
  body(std::min(count, (parts - 1) * step), count);
}

}  // namespace hetflow::core
