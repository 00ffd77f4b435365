#include "hetflow/fem/node_halo.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::fem {
namespace {

// The most values per node of a field that crosses: a velocity's three.
constexpr std::size_t max_components = 3;

std::span<std::byte> bytes(std::span<double> values) { return std::as_writable_bytes(values); }

std::size_t send_nodes(const HaloLayout& part) {
  std::size_t n = 0;
  for (const std::vector<std::uint32_t>& list : part.send) n += list.size();
  return n;
}

// Room for the largest field; pinned buffers of no size cannot be made.
std::size_t room(std::size_t nodes) { return std::max<std::size_t>(1, max_components * nodes); }

}  // namespace

NodeHalo::NodeHalo(const core::DeviceSet& devices, std::size_t device, core::Link& link, const NodePart& part)
    : NodeHalo(NodeLaunch(devices, device, 0, "the halo kernels"), devices.transfer(device), link, part, part) {
  // The longest run of own rows without a halo column.
  std::size_t run_first = 0;
  for (std::size_t i = 0; i <= part.owned; ++i) {
    bool halo_row = i == part.owned;
    for (std::uint32_t k = halo_row ? 0 : part.data.row_start[i]; !halo_row && k < part.data.row_start[i + 1]; ++k)
      halo_row = part.data.col[k] >= part.owned;
    if (!halo_row) continue;
    if (i - run_first > interior_.count) interior_ = {run_first, i - run_first};
    run_first = i + 1;
  }
}

NodeHalo::NodeHalo(const NodeHalo& nodes, const HaloLayout& layout)
    : NodeHalo(nodes.launch_, *nodes.transfer_, *nodes.link_, *nodes.part_, layout) {}

NodeHalo::NodeHalo(const NodeLaunch& launch, const core::Queue& transfer, core::Link& link, const NodePart& part,
                   const HaloLayout& layout)
    : launch_(launch),
      transfer_(&transfer),
      link_(&link),
      part_(&part),
      layout_(&layout),
      send_nodes_(send_nodes(layout)),
      outgoing_(launch.queue(), room(send_nodes_)),
      incoming_(launch.queue(), room(layout.halo.size())) {
  if (link.rank() != layout.part || link.size() + 1 != layout.halo_begin.size() || link.size() != layout.send.size())
    throw core::Error("node halo: part " + std::to_string(layout.part) + " of " + std::to_string(layout.send.size()) +
                      " parts does not match rank " + std::to_string(link.rank()) + " of " +
                      std::to_string(link.size()));
  std::vector<std::uint32_t> index;
  for (std::size_t j = 0; j < layout.send.size(); ++j) {
    const std::size_t receive = layout.halo_begin[j + 1] - layout.halo_begin[j];
    if (layout.send[j].empty() && receive == 0) continue;
    neighbours_.push_back({j, index.size(), layout.send[j].size(), layout.halo_begin[j], receive});
    index.insert(index.end(), layout.send[j].begin(), layout.send[j].end());
  }
  const core::Queue& queue = launch_.queue();
  const core::Context& context = queue.context();
  if (!index.empty()) send_index_ = core::upload(queue, index, CL_MEM_READ_ONLY);
  packed_ = core::Buffer<double>(context, room(send_nodes_));
  const core::Program& program = context.program("fem/fem_halo.cl", core::BuildOptions(core::Precision::f64));
  pack_ = program.kernel("fem_halo_pack");
  add_ = program.kernel("fem_halo_add");
}

core::Event NodeHalo::pack(core::Buffer<double>& field, std::size_t components) {
  if (components < 1 || components > max_components || field.size() != components * local_count())
    throw core::Error("node halo: a field of " + std::to_string(field.size()) + " values is not " +
                      std::to_string(components) + " per local node of " + std::to_string(local_count()));
  if (send_nodes_ == 0) return {};
  core::KernelArgs(pack_)
      .add(static_cast<cl_uint>(send_nodes_))
      .add(static_cast<cl_uint>(components))
      .add(send_index_)
      .add(field)
      .add(packed_);
  return pack_.launch(launch_.queue(), core::NDRange(launch_.groups() * NodeLaunch::work_group),
                      core::NDRange(NodeLaunch::work_group));
}

void NodeHalo::trade(std::size_t components, bool reverse) {
  std::vector<core::Message> sends, receives;
  for (const Neighbour& n : neighbours_) {
    const std::span<double> own = outgoing_.span().subspan(components * n.send_begin, components * n.send_count);
    const std::span<double> halo =
        incoming_.span().subspan(components * n.receive_begin, components * n.receive_count);
    const std::span<double> out = reverse ? halo : own, in = reverse ? own : halo;
    if (!out.empty()) sends.push_back({n.part, 0, bytes(out)});
    if (!in.empty()) receives.push_back({n.part, 0, bytes(in)});
  }
  link_->exchange(sends, receives);
}

void NodeHalo::exchange(core::Buffer<double>& field, std::size_t components) {
  pack(field, components);
  if (neighbours_.empty()) return;
  const core::Queue& queue = launch_.queue();
  // Blocking: the link sends from host memory. The halo write of the last exchange precedes it on the
  // in-order queue, so `incoming_` is free again once this read returns.
  if (send_nodes_ > 0) packed_.read(queue, outgoing_.span().first(components * send_nodes_));
  trade(components);
  const std::size_t halo = layout_->halo.size();
  if (halo > 0)
    field.write(queue, incoming_.span().first(components * halo), components * owned(), core::Blocking::no);
}

void NodeHalo::begin_exchange(core::Buffer<double>& field, std::size_t components) {
  const core::Event packed = pack(field, components);
  read_ = core::Event();
  if (send_nodes_ == 0) return;
  // The transfer queue's last halo write came before this read, so `incoming_` is free once it is done.
  read_ = packed_.read(*transfer_, outgoing_.span().first(components * send_nodes_), 0, core::Blocking::no,
                       std::span<const core::Event>(&packed, 1));
  transfer_->flush();
}

core::Event NodeHalo::end_exchange(core::Buffer<double>& field, std::size_t components) {
  if (neighbours_.empty()) return {};
  if (send_nodes_ > 0) read_.wait();
  trade(components);
  const std::size_t halo = layout_->halo.size();
  if (halo == 0) return {};
  core::Event written =
      field.write(*transfer_, incoming_.span().first(components * halo), components * owned(), core::Blocking::no);
  transfer_->flush();
  return written;
}

void NodeHalo::add_halo(core::Buffer<double>& field) {
  if (field.size() != local_count())
    throw core::Error("node halo: a field of " + std::to_string(field.size()) +
                      " values is not one per local node of " + std::to_string(local_count()));
  if (neighbours_.empty()) return;
  const core::Queue& queue = launch_.queue();
  // Blocking: the link sends from host memory. The writes from outgoing_ of the last addition precede
  // this read on the in-order queue, so outgoing_ is free again once it returns.
  const std::size_t halo = layout_->halo.size();
  if (halo > 0) field.read(queue, incoming_.span().first(halo), owned());
  trade(1, true);
  if (send_nodes_ == 0) return;
  packed_.write(queue, std::span<const double>(outgoing_.span().first(send_nodes_)), 0, core::Blocking::no);
  // One launch per neighbour, in part order: a neighbour's list names each own entry once, and two
  // neighbours' lists may name the same one.
  for (const Neighbour& n : neighbours_) {
    if (n.send_count == 0) continue;
    core::KernelArgs(add_)
        .add(static_cast<cl_uint>(n.send_count))
        .add(static_cast<cl_uint>(n.send_begin))
        .add(send_index_)
        .add(packed_)
        .add(field);
    add_.launch(queue, core::NDRange(launch_.groups() * NodeLaunch::work_group), core::NDRange(NodeLaunch::work_group));
  }
}

std::vector<double> NodeHalo::all_gather(std::span<const double> mine) {
  std::vector<double> all;
  for (const std::vector<double>& theirs : link_->all_gather(mine)) all.insert(all.end(), theirs.begin(), theirs.end());
  return all;
}

}  // namespace hetflow::fem
