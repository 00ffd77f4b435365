#include "hetflow/io/interrupt.hpp"

#include <unistd.h>

#include <atomic>

namespace hetflow::io {
namespace {

// Lock-free atomics are the only shared state a signal handler may touch.
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);
std::atomic<int> received{0};
std::atomic<bool> announce_signal{true};
int depth = 0;  // guards alive; changed only outside handlers

extern "C" void on_stop_signal(int signal_number) {
  if (received.exchange(signal_number) != 0) {
    // Second signal: the run did not stop in time, so do what the user expects of Ctrl-C now. The
    // signal is blocked while this handler runs; it is delivered, with the default action, on return.
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
    return;
  }
  if (announce_signal.load()) {
    static const char message[] =
        "\nhetflow: interrupted; stopping after the current step and writing outputs "
        "(interrupt again to abort)\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, sizeof message - 1);
  }
}

}  // namespace

InterruptGuard::InterruptGuard(bool announce) : previous_announce_(announce_signal.load()) {
  if (depth++ == 0) received.store(0);
  announce_signal.store(announce);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // Restart interrupted system calls: a read or write in progress finishes rather than failing with EINTR.
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &previous_int_);
  ::sigaction(SIGTERM, &action, &previous_term_);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &previous_int_, nullptr);
  ::sigaction(SIGTERM, &previous_term_, nullptr);
  announce_signal.store(previous_announce_);
  --depth;
}

bool interrupted() noexcept { return received.load() != 0; }

int interrupt_signal() noexcept { return received.load(); }

void clear_interrupt() noexcept { received.store(0); }

}  // namespace hetflow::io
