#include "hetflow/core/parallel.hpp"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

namespace hetflow::core {
namespace {

thread_local bool in_worker = false;

// Workers that wait for a batch, take its parts one at a time with the caller, and go back to waiting. A
// batch ends when every part is done and every worker that joined it has left it, so no worker carries a
// part number over into the next batch.
class Pool {
 public:
  explicit Pool(std::size_t workers) {
    for (std::size_t k = 0; k < workers; ++k) workers_.emplace_back([this](std::stop_token stop) { serve(stop); });
  }
  ~Pool() {
    {
      const std::lock_guard lock(mutex_);
      for (std::jthread& w : workers_) w.request_stop();
    }
    wake_.notify_all();
  }

  // Runs the batch unless another is running; false (nothing run) then.
  bool run(std::size_t parts, const std::function<void(std::size_t)>& part) {
    bool idle = false;
    if (!busy_.compare_exchange_strong(idle, true)) return false;
    {
      const std::lock_guard lock(mutex_);
      part_ = &part;
      parts_ = parts;
      next_ = 0;
      done_ = 0;
      ++generation_;
    }
    wake_.notify_all();
    // A part that throws on the caller's thread ends its share: the workers still finish theirs before the
    // batch's function goes out of scope, and the exception then propagates.
    std::exception_ptr failed;
    std::size_t done = 0;
    try {
      done = take_parts();
    } catch (...) {
      failed = std::current_exception();
      next_ = parts_;
    }
    {
      std::unique_lock lock(mutex_);
      done_ += done;
      finished_.wait(lock, [&] { return (failed || done_ == parts_) && joined_ == 0; });
      part_ = nullptr;
    }
    busy_ = false;
    if (failed) std::rethrow_exception(failed);
    return true;
  }

 private:
  void serve(const std::stop_token& stop) {
    in_worker = true;
    std::size_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop.stop_requested() || (generation_ != seen && part_ != nullptr); });
        if (stop.stop_requested()) return;
        seen = generation_;
        ++joined_;
      }
      const std::size_t done = take_parts();
      {
        const std::lock_guard lock(mutex_);
        done_ += done;
        --joined_;
      }
      finished_.notify_all();
    }
  }

  // Runs parts of the current batch until none is left; returns how many.
  std::size_t take_parts() {
    std::size_t done = 0;
    for (std::size_t p; (p = next_.fetch_add(1)) < parts_; ++done) (*part_)(p);
    return done;
  }

  std::atomic<bool> busy_{false};  // a batch is running
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  // The batch: written under mutex_ while no worker has joined it, read by those that join.
  const std::function<void(std::size_t)>* part_ = nullptr;
  std::size_t parts_ = 0, done_ = 0, generation_ = 0, joined_ = 0;
  std::atomic<std::size_t> next_{0};
  std::vector<std::jthread> workers_;
};

Pool& pool() {
  static Pool shared(std::max(1u, std::thread::hardware_concurrency()) - 1);
  return shared;
}

}  // namespace

void run_parts(std::size_t parts, const std::function<void(std::size_t)>& part) {
  if (parts == 0) return;
  if (!in_worker && pool().run(parts, part)) return;
  std::vector<std::jthread> threads;
  threads.reserve(parts - 1);
  for (std::size_t p = 0; p + 1 < parts; ++p) threads.emplace_back([&part, p] { part(p); });
  part(parts - 1);
}

}  // namespace hetflow::core
