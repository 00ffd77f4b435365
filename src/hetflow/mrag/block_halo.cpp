#include "hetflow/mrag/block_halo.hpp"

#include <algorithm>
#include <span>

#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/mrag/block_rhs.hpp"

namespace hetflow::mrag {
namespace {

// mrag_halo.cl's kinds of item.
constexpr int cell_items = 0, face_items = 1, block_items = 2;

}  // namespace

template <class Real>
BlockHalo<Real>::BlockHalo(const core::Queue& queue, const core::Queue& transfer, core::Link& link,
                           const BlockParts& parts, int s)
    : queue_(queue),
      transfer_(transfer),
      link_(link),
      block_values_(fields * static_cast<std::size_t>(s) * s),
      leaves_(parts.leaves),
      own_(core::upload(queue, parts.leaves[link.rank()], CL_MEM_READ_ONLY)) {
  const std::size_t me = link.rank();
  // What part r reads of this part is what this part sends it.
  std::vector<std::vector<std::vector<std::uint32_t>>> cells(2), faces(2);
  for (std::size_t r = 0; r < parts.parts(); ++r) {
    cells[0].push_back(parts.cells[r][me]);
    cells[1].push_back(parts.cells[me][r]);
    faces[0].push_back(parts.faces[r][me]);
    faces[1].push_back(parts.faces[me][r]);
  }
  cells_ = items(cells, cell_items, fields, 0);
  faces_ = items(faces, face_items, fields + 1, 1);
  const std::uint32_t cells_per_leaf = static_cast<std::uint32_t>(s) * static_cast<std::uint32_t>(s);
  for (const std::vector<std::uint32_t>& list : cells[0])
    for (const std::uint32_t cell : list) sent_leaves_.push_back(cell / cells_per_leaf);
  for (const std::vector<std::uint32_t>& list : faces[0])
    for (const std::uint32_t face : list) sent_leaves_.push_back(face / (4 * static_cast<std::uint32_t>(s)));
  std::sort(sent_leaves_.begin(), sent_leaves_.end());
  sent_leaves_.erase(std::unique(sent_leaves_.begin(), sent_leaves_.end()), sent_leaves_.end());
  core::BuildOptions options(precision_of<Real>);
  options.define("BLOCK", s);
  const core::Program& program = queue.context().program("mrag/mrag_halo.cl", options);
  pack_ = program.kernel("mrag_pack");
  unpack_ = program.kernel("mrag_unpack");
  global_ = mrag_range(queue.context().device().info);
  local_ = core::NDRange(mrag_work_group);
}

template <class Real>
typename BlockHalo<Real>::Items BlockHalo<Real>::items(
    const std::vector<std::vector<std::vector<std::uint32_t>>>& lists, int kind, int values, int tag) {
  Items out;
  out.kind = kind;
  out.values = values;
  out.tag = tag;
  for (int direction = 0; direction < 2; ++direction) {
    std::vector<std::size_t>& at = direction == 0 ? out.send_at : out.receive_at;
    std::vector<cl_uint> all;
    at.push_back(0);
    for (const std::vector<std::uint32_t>& list : lists[direction]) {
      all.insert(all.end(), list.begin(), list.end());
      at.push_back(all.size());
    }
    if (all.empty()) continue;
    const std::size_t size = all.size() * static_cast<std::size_t>(values);
    (direction == 0 ? out.send : out.receive) = core::upload(queue_, all, CL_MEM_READ_ONLY);
    (direction == 0 ? out.packed_send : out.packed_receive) = core::Buffer<Real>(queue_.context(), size);
    (direction == 0 ? out.outgoing : out.incoming) = std::make_unique<core::PinnedBuffer<Real>>(queue_, size);
  }
  return out;
}

template <class Real>
core::Event BlockHalo<Real>::pack(std::size_t count, int kind, const core::Buffer<cl_uint>& item,
                                  const core::Buffer<Real>& data, core::Buffer<Real>& packed) const {
  core::KernelArgs(pack_)
      .add(static_cast<cl_uint>(count))
      .add(static_cast<cl_int>(kind))
      .add(item)
      .add(data)
      .add(packed);
  return pack_.launch(queue_, global_, local_);
}

template <class Real>
std::vector<std::vector<double>> BlockHalo<Real>::own_blocks_of_every_part(const core::Buffer<Real>& data) const {
  const LeafList& mine = leaves_[link_.rank()];
  std::vector<Real> packed(mine.size() * block_values_);
  if (!mine.empty()) {
    core::Buffer<Real> on_device(queue_.context(), packed.size());
    pack(mine.size(), block_items, own_, data, on_device);
    on_device.read(queue_, std::span<Real>(packed));
  }
  return link_.all_gather(std::vector<double>(packed.begin(), packed.end()));
}

template <class Real>
std::vector<double> BlockHalo<Real>::gather_blocks(const core::Buffer<Real>& data) const {
  const std::vector<std::vector<double>> all = own_blocks_of_every_part(data);
  std::size_t leaves = 0;
  for (const LeafList& part : leaves_) leaves += part.size();
  std::vector<double> out(leaves * block_values_);
  for (std::size_t r = 0; r < all.size(); ++r)
    for (std::size_t k = 0; k < leaves_[r].size(); ++k)
      std::copy_n(all[r].begin() + static_cast<std::ptrdiff_t>(k * block_values_), block_values_,
                  out.begin() + static_cast<std::ptrdiff_t>(leaves_[r][k] * block_values_));
  return out;
}

template <class Real>
void BlockHalo<Real>::share_blocks(core::Buffer<Real>& data) {
  const std::vector<std::vector<double>> all = own_blocks_of_every_part(data);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (r == link_.rank() || leaves_[r].empty()) continue;
    const core::Buffer<Real> packed = core::upload(queue_, std::vector<Real>(all[r].begin(), all[r].end()));
    const core::Buffer<cl_uint> theirs = core::upload(queue_, leaves_[r], CL_MEM_READ_ONLY);
    core::KernelArgs(unpack_)
        .add(static_cast<cl_uint>(leaves_[r].size()))
        .add(static_cast<cl_int>(block_items))
        .add(theirs)
        .add(packed)
        .add(data);
    unpack_.enqueue(queue_, global_, local_);
  }
}

template <class Real>
void BlockHalo<Real>::exchange_faces(core::Buffer<Real>& faces) {
  // Blocking: the link sends from host memory, and the last write into incoming memory has returned.
  if (faces_.outgoing) {
    pack(faces_.send_at.back(), faces_.kind, faces_.send, faces, faces_.packed_send);
    faces_.packed_send.read(queue_, faces_.outgoing->span());
  }
  trade(faces_, queue_, faces);
}

template <class Real>
void BlockHalo<Real>::begin_cells(const core::Buffer<Real>& data) {
  cells_read_ = core::Event();
  if (!cells_.outgoing) return;
  const core::Event packed = pack(cells_.send_at.back(), cells_.kind, cells_.send, data, cells_.packed_send);
  cells_read_ = cells_.packed_send.read(transfer_, cells_.outgoing->span(), 0, core::Blocking::no,
                                        std::span<const core::Event>(&packed, 1));
  transfer_.flush();
}

template <class Real>
void BlockHalo<Real>::end_cells(core::Buffer<Real>& data) {
  if (cells_read_) cells_read_.wait();
  trade(cells_, transfer_, data);
}

template <class Real>
void BlockHalo<Real>::trade(Items& items, const core::Queue& queue, core::Buffer<Real>& data) {
  const std::size_t parts = items.send_at.size() - 1, values = static_cast<std::size_t>(items.values);
  std::vector<core::Message> sends, receives;
  for (std::size_t r = 0; r < parts; ++r) {
    const auto bytes = [&](const std::unique_ptr<core::PinnedBuffer<Real>>& host, const std::vector<std::size_t>& at) {
      return std::as_writable_bytes(host->span().subspan(at[r] * values, (at[r + 1] - at[r]) * values));
    };
    if (items.send_at[r + 1] > items.send_at[r]) sends.push_back({r, items.tag, bytes(items.outgoing, items.send_at)});
    if (items.receive_at[r + 1] > items.receive_at[r])
      receives.push_back({r, items.tag, bytes(items.incoming, items.receive_at)});
  }
  link_.exchange(sends, receives);
  if (!items.incoming) return;
  // Blocking: the next trade writes into the same host memory.
  items.packed_receive.write(queue, std::span<const Real>(items.incoming->span()));
  core::KernelArgs(unpack_)
      .add(static_cast<cl_uint>(items.receive_at.back()))
      .add(static_cast<cl_int>(items.kind))
      .add(items.receive)
      .add(items.packed_receive)
      .add(data);
  unpack_.enqueue(queue_, global_, local_);
}

template class BlockHalo<float>;
template class BlockHalo<double>;

}  // namespace hetflow::mrag
