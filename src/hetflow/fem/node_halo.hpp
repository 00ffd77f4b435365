#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/fem/node_launch.hpp"
#include "hetflow/fem/node_partition.hpp"

namespace hetflow::fem {

// Keeps the halo entries of one part's node fields current, and the part's share of the sums and
// extremes the parts agree on (docs/fem.md, "Several devices"). The parts are the ranks of a core::Link
// (threads of one process or MPI processes). An exchange packs, on the owner's device, the values each
// neighbour holds in its halo (fem_halo.cl), reads them into pinned host memory, trades them through the
// link and writes what arrived into the halo in one transfer, since a halo is grouped by owner.
// Every method but the accessors is collective: all parts call it in the same order.
class NodeHalo {
 public:
  // `part` (make_node_part) must be part link.rank() of link.size() parts and outlive the halo.
  NodeHalo(const core::DeviceSet& devices, std::size_t device, core::Link& link, const NodePart& part);
  // The halo of another vector of the same part, on `nodes`' device and link: `layout` (part
  // link.rank(), outliving the halo) numbers that vector's unknowns. Its interior is empty.
  NodeHalo(const NodeHalo& nodes, const HaloLayout& layout);

  // Brings the halo entries of `field`, `components` values per local node, up to date once the
  // device's compute queue has finished writing its own entries. Returns with the halo write enqueued
  // on the compute queue.
  void exchange(core::Buffer<double>& field, std::size_t components);
  // The same in two halves, for kernels that work on the rows reading no halo meanwhile: begin packs on
  // the compute queue and reads on the transfer queue; end waits for the read, trades, and writes the
  // halo on the transfer queue, returning the event that kernels reading the halo wait for.
  void begin_exchange(core::Buffer<double>& field, std::size_t components);
  core::Event end_exchange(core::Buffer<double>& field, std::size_t components);
  // The reverse, additive exchange of a scalar field, once the compute queue has finished writing it:
  // each part's halo entries travel to their owners, which add them to their own entries, the
  // neighbours' in part order. The halo entries keep their values. Returns with the additions enqueued
  // on the compute queue.
  void add_halo(core::Buffer<double>& field);

  // The own rows [first, first + count) that reference no halo node: the longest such run.
  struct Rows {
    std::size_t first = 0, count = 0;
  };
  const Rows& interior() const { return interior_; }
  // Every part's `mine`, concatenated in part order.
  std::vector<double> all_gather(std::span<const double> mine);

  std::size_t owned() const { return layout_->owned; }
  std::size_t local_count() const { return layout_->local_count(); }
  // The part's nodes, which a halo of another vector shares with the node halo it was made from.
  const NodePart& part() const { return *part_; }
  const HaloLayout& layout() const { return *layout_; }
  core::Link& link() const { return *link_; }

 private:
  // A neighbour's share of the packed values and of the halo, in nodes.
  struct Neighbour {
    std::size_t part = 0;
    std::size_t send_begin = 0, send_count = 0;
    std::size_t receive_begin = 0, receive_count = 0;
  };

  NodeHalo(const NodeLaunch& launch, const core::Queue& transfer, core::Link& link, const NodePart& part,
           const HaloLayout& layout);
  // Packs `field` into packed_ on the compute queue; returns the event, or none without anything to send.
  core::Event pack(core::Buffer<double>& field, std::size_t components);
  // Trades the packed values in outgoing_ for the neighbours' in incoming_, or in `reverse` the halo
  // values in incoming_ for the neighbours' in outgoing_.
  void trade(std::size_t components, bool reverse = false);

  NodeLaunch launch_;
  const core::Queue* transfer_;
  core::Link* link_;
  const NodePart* part_;
  const HaloLayout* layout_;
  std::vector<Neighbour> neighbours_;
  std::size_t send_nodes_ = 0;
  core::Buffer<std::uint32_t> send_index_;
  core::Buffer<double> packed_;
  core::PinnedBuffer<double> outgoing_, incoming_;
  core::Kernel pack_, add_;
  Rows interior_;
  core::Event read_;  // the read of begin_exchange
};

}  // namespace hetflow::fem
