#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/mrag/block_parts.hpp"

namespace hetflow::mrag {

// The halo of one part of the leaves (docs/mrag.md, Several devices): every part holds block data of the
// whole tree but keeps only its own leaves current, and before a stage reads them, the cells of other
// parts that its ghosts read (BlockParts::cells) come from their owners; before the flux correction, so
// do the boundary faces it reads (BlockParts::faces). An exchange gathers what each other part reads on
// this part's device (mrag_halo.cl), reads it into pinned host memory, trades it through the link and
// writes what arrived in one transfer, scattered into place on the device. The cells' transfers go through
// a second queue of the device, so that they overlap the kernels that follow on the first. Collective:
// every part calls each exchange in the same order.
template <class Real>
class BlockHalo {
 public:
  // Part link.rank() of `parts`, for blocks of s² cells: kernels on `queue`, the cells' transfers on
  // `transfer` (another queue of its device, or the same).
  BlockHalo(const core::Queue& queue, const core::Queue& transfer, core::Link& link, const BlockParts& parts, int s);

  // Once the queue has written this part's faces of `faces`, brings the halo's up to date; returns with
  // their scatter enqueued.
  void exchange_faces(core::Buffer<Real>& faces);
  // The same for the cells of `data` in two halves: begin once the queue has written the cells other parts
  // read (sent_leaves()), end after the kernels that may run meanwhile (they must neither write those cells
  // nor read the halo's) are enqueued.
  void begin_cells(const core::Buffer<Real>& data);
  void end_cells(core::Buffer<Real>& data);
  // The leaves whose cells or faces other parts read, ascending.
  const LeafList& sent_leaves() const { return sent_leaves_; }
  // Every part's own blocks of `data`, the block data of the whole tree, on every part.
  std::vector<double> gather_blocks(const core::Buffer<Real>& data) const;
  // Brings every other part's blocks of `data` on this part's device up to date from their owners, so that
  // it holds the whole tree's current state (an adaptation's start); returns with their scatter enqueued.
  void share_blocks(core::Buffer<Real>& data);

 private:
  // One kind of item (cells, faces) and the items traded of it: per part, those sent to it and those
  // received from it, at [at[r], at[r + 1]) of the part's lists.
  struct Items {
    int kind = 0, values = 0, tag = 0;
    std::vector<std::size_t> send_at, receive_at;
    core::Buffer<cl_uint> send, receive;
    core::Buffer<Real> packed_send, packed_receive;
    std::unique_ptr<core::PinnedBuffer<Real>> outgoing, incoming;
  };
  Items items(const std::vector<std::vector<std::vector<std::uint32_t>>>& lists, int kind, int values, int tag);
  // Trades the packed items in their outgoing host memory for the other parts', then writes what arrived
  // (blocking, on `queue`) and enqueues its scatter into `data` on the kernels' queue.
  void trade(Items& items, const core::Queue& queue, core::Buffer<Real>& data);

  // Every part's own blocks of `data`, packed in its leaves' order, on every part.
  std::vector<std::vector<double>> own_blocks_of_every_part(const core::Buffer<Real>& data) const;
  // Packs `count` items of `kind` named by `item` from `data` into `packed`.
  core::Event pack(std::size_t count, int kind, const core::Buffer<cl_uint>& item, const core::Buffer<Real>& data,
                   core::Buffer<Real>& packed) const;

  const core::Queue& queue_;
  const core::Queue& transfer_;
  core::Link& link_;
  std::size_t block_values_;
  std::vector<LeafList> leaves_;  // every part's
  core::Buffer<cl_uint> own_;
  Items cells_, faces_;
  LeafList sent_leaves_;
  core::Event cells_read_;  // begin_cells' read
  mutable core::Kernel pack_;
  core::Kernel unpack_;
  core::NDRange global_, local_;
};

}  // namespace hetflow::mrag
