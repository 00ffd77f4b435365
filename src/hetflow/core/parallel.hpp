#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>
#include <thread>

namespace hetflow::core {

// Runs part(p) for every p in [0, parts), on the calling thread and the workers of one pool kept for the
// program's life (one per hardware thread but the caller's), and returns once all are done. Starting
// threads for each call cost more than a short batch's work when a call is made per adaptation of a
// grid or per copy. A caller that finds the pool busy (another thread's batch) or is itself a worker runs
// its parts on threads of their own instead. A part that throws on the calling thread stops the caller's
// share, waits for the workers' and propagates; one that throws on a worker ends the program.
void run_parts(std::size_t parts, const std::function<void(std::size_t)>& part);

// Calls body(first, last) on disjoint ranges that cover [0, count) in order, one per hardware thread at
// most and none shorter than `grain` items (one range, on the calling thread, below that), through
// run_parts. For the host's copies of large batches, which one core makes the GPU wait for, and the
// per-leaf work of an adaptation.
template <class Body>
void parallel_ranges(std::size_t count, std::size_t grain, const Body& body) {
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t parts = std::clamp<std::size_t>(count / std::max<std::size_t>(grain, 1), 1, threads);
  const std::size_t step = (count + parts - 1) / parts;
  if (parts == 1) {
    body(std::size_t{0}, count);
    return;
  }
  run_parts(parts, [&body, step, count](std::size_t p) {
    body(std::min(count, p * step), std::min(count, (p + 1) * step));
  });
}

}  // namespace hetflow::core
