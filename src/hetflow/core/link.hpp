#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace hetflow::core {

// One message of Link::exchange.
struct Message {
  std::size_t peer = 0;        // the other process's rank
  int tag = 0;                 // tells apart messages between the same two processes in one exchange
  std::span<std::byte> bytes;  // sent from, or received into
};

// The processes (one per host, or per device) that one distributed computation spans, and the few
// collective operations it needs between them. core knows only this interface, so plans and solvers
// build without MPI; hetflow::mpi::Communicator implements it with MPI processes, ThreadLink
// (thread_link.hpp) with threads of one process. Every process must call the collective operations in
// the same order.
class Link {
 public:
  virtual ~Link() = default;

  virtual std::size_t rank() const = 0;
  virtual std::size_t size() const = 0;

  // Sends and receives the messages, all in flight at once, and returns when every one has completed.
  // Messages from one peer with one tag arrive in the order they were sent.
  virtual void exchange(std::span<const Message> sends, std::span<const Message> receives) = 0;
  // Collective: every process's `mine`, in rank order, on every process.
  virtual std::vector<std::vector<double>> all_gather(std::span<const double> mine) = 0;
  // Collective: every process's bytes [offset, offset + count) of `whole` land at the same place of
  // rank 0's `whole` (the same size on every process); the other ranks' `whole` is left as it is.
  virtual void gather(std::span<std::byte> whole, std::size_t offset, std::size_t count) = 0;
};

// Throws core::Error unless bytes [offset, offset + count) lie within an array of `size` bytes: the
// check of every Link::gather, before it moves anything.
void check_gather_range(std::size_t size, std::size_t offset, std::size_t count);

// Where the parts of an array split over processes live: each process holds consecutive parts, in rank
// order, one per local device. Without a link every part is local.
class PartPlacement {
 public:
  // Collective with a link: gathers every process's per-device weights.
  PartPlacement(Link* link, std::span<const double> local_weights);

  // The weights of all parts, in part order.
  const std::vector<double>& weights() const { return weights_; }
  std::size_t parts() const { return weights_.size(); }
  // This process's parts are [first(), first() + local()).
  std::size_t first() const { return first_; }
  std::size_t local() const { return local_; }
  bool is_local(std::size_t part) const { return part >= first_ && part < first_ + local_; }
  // The rank of the process that holds `part`.
  std::size_t rank_of(std::size_t part) const;

 private:
  std::vector<double> weights_;
  std::vector<std::size_t> rank_first_;  // the first part of each rank
  std::size_t first_ = 0;
  std::size_t local_ = 0;
};

}  // namespace hetflow::core
