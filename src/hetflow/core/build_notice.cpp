#include "hetflow/core/build_notice.hpp"

#include <atomic>
#include <mutex>
#include <utility>

namespace hetflow::core {
namespace {

std::atomic<BuildListener*> listener{nullptr};
thread_local std::string label;
std::mutex compile_mutex;
double compiled = 0.0;

}  // namespace

void set_build_listener(BuildListener* l) { listener.store(l); }
BuildListener* build_listener() { return listener.load(); }

BuildLabel::BuildLabel(std::string what) : previous_(std::exchange(label, std::move(what))) {}
BuildLabel::~BuildLabel() { label = std::move(previous_); }

double compile_seconds() {
  const std::lock_guard lock(compile_mutex);
  return compiled;
}

CompileScope::CompileScope(const std::string& name, const std::string& device)
    : notice_{label.empty() ? name : label, device}, start_(std::chrono::steady_clock::now()) {
  if (BuildListener* l = listener.load()) l->started(notice_);
}

CompileScope::~CompileScope() {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  {
    const std::lock_guard lock(compile_mutex);
    compiled += seconds;
  }
  if (BuildListener* l = listener.load()) l->finished(notice_, seconds);
}

}  // namespace hetflow::core
