#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/link.hpp"

namespace hetflow::core {

// Thrown by a collective operation of a ThreadLink whose hub was aborted: another part failed.
class LinkAborted : public Error {
 public:
  using Error::Error;
};

// What the ThreadLinks of one group of threads share: mailboxes and a barrier. Shared by all threads of
// the group; one mutex guards it, and every wait wakes on the barrier's next generation, a message, or
// abort(). A wait first spins on a change counter, then blocks on a condition variable.
class ThreadHub {
 public:
  explicit ThreadHub(std::size_t size);  // size >= 1

  std::size_t size() const { return size_; }
  // Releases every thread waiting in a collective operation, which then throws LinkAborted; every later
  // collective operation throws LinkAborted at once. Idempotent, callable from any thread.
  void abort();
  bool aborted() const;

 private:
  friend class ThreadLink;

  // A send waiting in a mailbox: the receiver copies from the sender's own bytes, which the sender
  // keeps until `state` is done.
  struct Posted {
    std::span<const std::byte> bytes;
    enum class State { waiting, copying, done } state = State::waiting;
    std::string error;  // set by a receiver of another size; the sender throws it too
  };
  // What one rank offers to a gather: its own bytes and where they go.
  struct Offer {
    std::span<const std::byte> bytes;
    std::size_t offset = 0;
  };

  // How long a wait spins before it blocks. A wake through the condition variable goes through the
  // operating system's scheduler, while the partner thread of a collective usually arrives within this
  // time, so the spin mostly ends in its arrival, and a wait that outlasts it costs at most this much
  // more than blocking at once. Beyond it the wait blocks, which frees the core: on a machine with few
  // cores, the OpenCL runtime's worker threads need it.
  static constexpr std::chrono::microseconds spin_before_blocking{50};

  void throw_if_aborted() const;  // with the mutex held
  // Waits, with `lock` (on mutex_) held, until done() holds; done() is evaluated with the mutex held.
  template <class Done>
  void wait(std::unique_lock<std::mutex>& lock, const Done& done);
  // Wakes every wait, after a change to what the waits look at, made under the mutex.
  void notify();
  // Waits until every rank has arrived here as often as this one.
  void arrive_and_wait();

  const std::size_t size_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::atomic<std::uint64_t> changes_{0};  // counts notify() calls: what a spinning wait watches
  bool aborted_ = false;
  std::size_t arrived_ = 0, generation_ = 0;
  std::map<std::tuple<std::size_t, std::size_t, int>, std::deque<Posted*>> mail_;  // (from, to, tag)
  std::vector<Offer> offers_;  // gather: one per rank, written by that rank only between two barriers
  // all_gather: every rank's copy of its values, [parity of the all_gather][rank]. Rank r writes only
  // [p][r], before the all_gather's one barrier; every rank reads [p] after it. All_gather i + 2 reuses
  // the slots of all_gather i, which is safe: a rank writes them only after passing the barrier of
  // all_gather i + 1, which every rank reaches only after reading those of all_gather i.
  std::array<std::vector<std::vector<double>>, 2> contributions_;
  std::vector<std::size_t> all_gathers_;  // per rank: how many all_gathers it has begun
};

// Rank `rank` of a hub's group as a core::Link: the parts of a computation written against Link run as
// threads of one process (one per device). Every rank must call the collectives in the same order; a
// send's bytes are copied into the receiver's span before exchange returns on either side (the sender's
// buffer may be reused right after). Used by one thread.
class ThreadLink final : public Link {
 public:
  ThreadLink(ThreadHub& hub, std::size_t rank);

  std::size_t rank() const override { return rank_; }
  std::size_t size() const override { return hub_.size(); }
  void exchange(std::span<const Message> sends, std::span<const Message> receives) override;
  std::vector<std::vector<double>> all_gather(std::span<const double> mine) override;
  void gather(std::span<std::byte> whole, std::size_t offset, std::size_t count) override;

 private:
  // Takes the next message from m.peer with m.tag into m.bytes; a size mismatch goes to `error` (the first).
  void receive(const Message& m, std::string& error);

  ThreadHub& hub_;
  std::size_t rank_;
};

// Runs body(k) for k in [0, hub.size()) each on a thread of its own (k = 0 on the calling thread) and
// returns when all are done. When a body throws, aborts the hub so the others leave their collective
// calls, waits for all, and rethrows the first exception that is not a LinkAborted (or the LinkAborted
// if there is no other).
void run_on_threads(ThreadHub& hub, const std::function<void(std::size_t)>& body);

}  // namespace hetflow::core
