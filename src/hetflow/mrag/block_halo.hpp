#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/mrag/block_parts.hpp"

namespace hetflow::mrag {

// The halo of one part of the leaves (docs/mrag.md, Several devices): every part holds block data of the
// whole tree but keeps only its own leaves current, and before a stage reads them, the cells of other
// parts that its ghosts read (BlockParts::cells) come from their owners; before the flux correction, so
// do the boundary faces it reads (BlockParts::faces). An exchange gathers what each other part reads on
// this part's device (mrag_halo.cl), reads it into pinned host memory, trades it through the link and
// writes what arrived in one transfer, scattered into place on the device. Collective: every part calls
// each exchange in the same order.
template <class Real>
class BlockHalo {
 public:
  // Part link.rank() of `parts`, for blocks of s² cells.
  BlockHalo(const core::Queue& queue, core::Link& link, const BlockParts& parts, int s);

  // Once the queue has written this part's cells (faces) of `data` (`faces`), brings the halo's up to
  // date; returns with their scatter enqueued.
  void exchange_cells(core::Buffer<Real>& data) { exchange(cells_, data); }
  void exchange_faces(core::Buffer<Real>& faces) { exchange(faces_, faces); }
  // Every part's own blocks of `data`, the block data of the whole tree, on every part.
  std::vector<double> gather_blocks(const core::Buffer<Real>& data) const;

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
  void exchange(Items& items, core::Buffer<Real>& data);

  // Packs `count` items of `kind` named by `item` from `data` into `packed`.
  void pack(std::size_t count, int kind, const core::Buffer<cl_uint>& item, const core::Buffer<Real>& data,
            core::Buffer<Real>& packed) const;

  const core::Queue& queue_;
  core::Link& link_;
  std::size_t block_values_;
  std::vector<LeafList> leaves_;  // every part's
  core::Buffer<cl_uint> own_;
  Items cells_, faces_;
  mutable core::Kernel pack_;
  core::Kernel unpack_;
  core::NDRange global_, local_;
};

}  // namespace hetflow::mrag
