#pragma once
#include <chrono>
#include <functional>
#include <future>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/event.hpp"

namespace hetflow::app {

// Runs `work` on a thread and reports its elapsed time to stderr once a second until it returns, so that the
// set-up of a large case (tables built on the host, uploads) is never a silent wait.
template <class Work>
auto with_progress(const std::string& what, Work&& work) {
  auto result = std::async(std::launch::async, std::forward<Work>(work));
  const core::WallTimer timer;
  while (result.wait_for(std::chrono::seconds(1)) != std::future_status::ready)
    std::cerr << "  " << what << ": " << static_cast<long>(timer.seconds()) << " s\n";
  return result.get();
}

// The device seconds of one call of `enqueue`, once per repeat after one warm-up call: `launches` calls back
// to back between two one-value fills of `stamp`, timed from the first fill's end to the second's start by
// their profiling events.
std::vector<double> launch_seconds(const core::Queue& queue, core::Buffer<double>& stamp, int repeats, int launches,
                                   const std::function<void()>& enqueue);

}  // namespace hetflow::app
