#pragma once
#include <condition_variable>
#include <cstddef>
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
// abort().
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
  // What one rank offers to a barrier-framed collective: bytes and where they go.
  struct Offer {
    std::span<const std::byte> bytes;
    std::size_t offset = 0;
  };

  void throw_if_aborted() const;  // with the mutex held
  // Waits until every rank has arrived here as often as this one.
  void arrive_and_wait();

  const std::size_t size_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool aborted_ = false;
  std::size_t arrived_ = 0, generation_ = 0;
  std::map<std::tuple<std::size_t, std::size_t, int>, std::deque<Posted*>> mail_;  // (from, to, tag)
  std::vector<Offer> offers_;  // one per rank, written by that rank only between two barriers
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
  // Offers `mine` to every rank, waits for all offers, calls use(offers), and waits until every rank has.
  void share(ThreadHub::Offer mine, const std::function<void(const std::vector<ThreadHub::Offer>&)>& use);

  ThreadHub& hub_;
  std::size_t rank_;
};

// Runs body(k) for k in [0, hub.size()) each on a thread of its own (k = 0 on the calling thread) and
// returns when all are done. When a body throws, aborts the hub so the others leave their collective
// calls, waits for all, and rethrows the first exception that is not a LinkAborted (or the LinkAborted
// if there is no other).
void run_on_threads(ThreadHub& hub, const std::function<void(std::size_t)>& body);

}  // namespace hetflow::core
