#pragma once
#include <signal.h>

namespace hetflow::io {

// Turns the first SIGINT or SIGTERM into a request to stop: solver loops poll interrupted() after
// each step, stop, and still write their final outputs. A second signal gets the default action
// (the process dies), for a run stuck inside a step. The previous handlers come back on destruction.
// Guards nest; the outermost one clears the request when it is installed.
class InterruptGuard {
 public:
  // announce: print one line on stderr at the first signal, so the user knows it was heard.
  explicit InterruptGuard(bool announce = true);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
  bool previous_announce_;
};

// True once a signal arrived under a guard.
bool interrupted() noexcept;
// The signal that arrived (SIGINT, SIGTERM), or 0.
int interrupt_signal() noexcept;
// Forgets a request, for a program that goes on after a stopped run.
void clear_interrupt() noexcept;

}  // namespace hetflow::io
