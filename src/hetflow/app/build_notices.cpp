#include "hetflow/app/build_notices.hpp"

#include <cstdio>

namespace hetflow::app {

BuildNotices::BuildNotices(display::Verbosity verbosity, std::ostream& out, std::chrono::milliseconds after)
    : out_(out), after_(after), active_(verbosity != display::Verbosity::quiet) {
  if (!active_) return;
  previous_ = core::build_listener();
  watcher_ = std::thread([this] { watch(); });
  core::set_build_listener(this);
}

BuildNotices::~BuildNotices() {
  if (!active_) return;
  core::set_build_listener(previous_);
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  watcher_.join();
}

void BuildNotices::started(const core::BuildNotice& build) {
  {
    const std::lock_guard lock(mutex_);
    pending_[std::this_thread::get_id()] = {build, std::chrono::steady_clock::now() + after_, false};
  }
  wake_.notify_all();
}

void BuildNotices::finished(const core::BuildNotice& build, double seconds) {
  const std::lock_guard lock(mutex_);
  const auto it = pending_.find(std::this_thread::get_id());
  if (it == pending_.end()) return;
  // A build past its time that the watcher has not reached yet is announced all the same.
  if (!it->second.announced && std::chrono::steady_clock::now() >= it->second.due) announce(it->second);
  if (it->second.announced) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", seconds);
    out_ << "hetflow: built " << build.what << " in " << text << " s\n" << std::flush;
  }
  pending_.erase(it);
}

void BuildNotices::announce(Pending& p) {
  out_ << "hetflow: building " << p.build.what << " on " << p.build.device << ", first time only…\n" << std::flush;
  p.announced = true;
}

// Sleeps until the earliest unannounced build is due, announces what is due, and again until stopped.
void BuildNotices::watch() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    auto next = std::chrono::steady_clock::time_point::max();
    const auto now = std::chrono::steady_clock::now();
    for (auto& [thread, p] : pending_) {
      if (p.announced) continue;
      if (p.due <= now) {
        announce(p);
      } else {
        next = std::min(next, p.due);
      }
    }
    if (next == std::chrono::steady_clock::time_point::max())
      wake_.wait(lock);
    else
      wake_.wait_until(lock, next);
  }
}

}  // namespace hetflow::app
