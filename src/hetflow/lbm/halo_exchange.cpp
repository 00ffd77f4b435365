#include "hetflow/lbm/halo_exchange.hpp"

#include <bit>
#include <string>

namespace hetflow::lbm {
namespace {

constexpr int sides[2] = {-1, +1};
int index_of(int side) { return side < 0 ? 0 : 1; }

// Every face kernel launch on a device has one width (core/kernel.hpp says why): 2,048 work-items per
// compute unit, what an NVIDIA SM holds at once; the work-items stride over the face.
constexpr std::size_t face_group = 256, face_groups_per_unit = 8;

// The layer of `axis` (local extent n) that a face moving towards `side` is packed from: a fill sends
// the boundary layer on that side, a swap the halo the pushes went into.
int packed_layer(core::HaloFlow flow, int side, int n) {
  const int halo = side < 0 ? 0 : n - 1;
  return flow == core::HaloFlow::fill ? halo - side : halo;
}

// The layer a face that moved towards `side` lands in: the receiver's halo facing the sender (fill),
// or the boundary layer behind it (swap: merged).
int landing_layer(core::HaloFlow flow, int side, int n) {
  const int halo = side < 0 ? n - 1 : 0;
  return flow == core::HaloFlow::fill ? halo : halo + side;
}

}  // namespace

HaloExchange::HaloExchange(const core::DeviceSet& devices, std::size_t boxes_per_device, const DeviceGrid& grid,
                           const core::PartPlacement& placement, core::Link* link, std::span<const core::Program* const> programs,
                           std::span<const core::Buffer<std::uint8_t>* const> flags, int per_plane,
                           std::size_t element_bytes, FaceMask mask)
    : devices_(&devices),
      boxes_per_device_(boxes_per_device),
      grid_(grid),
      placement_(placement),
      link_(link),
      flags_(flags.begin(), flags.end()),
      per_plane_(per_plane),
      element_bytes_(element_bytes),
      mask_(std::move(mask)) {
  const std::string type = std::to_string(element_bytes);
  for (std::size_t k = 0; k < placement.local(); ++k) {
    Part p{programs[k]->kernel("lbm_pack_" + type), programs[k]->kernel("lbm_unpack_" + type),
           programs[k]->kernel("lbm_merge_" + type), {}};
    for (int axis = 0; axis < 3; ++axis) {
      if (!grid.split(axis)) continue;
      Faces& f = p.axis[axis];
      for (int s : sides) {
        std::size_t bytes = 0;
        for (core::HaloFlow flow : {core::HaloFlow::fill, core::HaloFlow::swap}) {
          bytes = std::max(bytes, face_bytes(k, axis, s, flow));
        }
        const core::Context& ctx = devices.context(device(k));
        f.out[index_of(s)] = core::Buffer<std::uint8_t>(ctx, bytes);
        f.in[index_of(s)] = core::Buffer<std::uint8_t>(ctx, bytes);
        f.send.emplace_back(devices.transfer(device(k)), bytes);
        f.received.emplace_back(devices.transfer(device(k)), bytes);
      }
    }
    parts_.push_back(std::move(p));
  }
}

std::array<std::size_t, 2> HaloExchange::face_cells(std::size_t k, int axis) const {
  const Extent local = grid_.local(global(k));
  const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
  return {static_cast<std::size_t>(local[u]), static_cast<std::size_t>(local[v])};
}

// FACE_ARGS: nx, ny, per_plane, axis, at, mask, U, V.
void HaloExchange::bind_face(core::KernelArgs& args, std::size_t k, int axis, int at, std::uint32_t mask) const {
  const Extent local = grid_.local(global(k));
  const auto [u, v] = face_cells(k, axis);
  args.add(local[0]).add(local[1]).add(per_plane_).add(axis).add(at).add(mask).add(static_cast<int>(u)).add(
      static_cast<int>(v));
}

core::NDRange HaloExchange::range(std::size_t k) const {
  return core::strided_range(devices_->device(device(k)).info, face_group, face_groups_per_unit);
}

std::size_t HaloExchange::face_bytes(std::size_t k, int axis, int side, core::HaloFlow flow) const {
  const auto [u, v] = face_cells(k, axis);
  return u * v * static_cast<std::size_t>(std::popcount(mask_(axis, side, flow))) * element_bytes_;
}

std::vector<core::Event> HaloExchange::exchange(std::span<const core::Buffer<std::uint8_t>* const> fields,
                                                core::HaloFlow flow, std::span<const core::Event> ready,
                                                const std::function<void()>& overlap) {
  std::vector<core::Event> now(ready.begin(), ready.end());
  now.resize(parts_.size());
  bool overlapped = !overlap;
  for (int axis = 0; axis < 3; ++axis) {
    if (!grid_.split(axis)) continue;
    const std::vector<core::Event> reads = send(axis, flow, fields, now);
    if (!overlapped) overlap();
    overlapped = true;
    core::wait_all(reads);  // events cannot cross contexts: the host bridges them
    relay(axis, flow);
    receive(axis, flow, fields, now);
  }
  if (!overlapped) overlap();
  return now;
}

std::vector<core::Event> HaloExchange::send(int axis, core::HaloFlow flow,
                                            std::span<const core::Buffer<std::uint8_t>* const> fields,
                                            std::vector<core::Event>& ready) {
  core::wait_all(writes_[axis]);  // the pinned faces of the last exchange must be consumed first
  std::vector<core::Event> reads;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    Part& p = parts_[k];
    const Extent local = grid_.local(global(k));
    const std::span<const core::Event> wait = ready[k] ? std::span(&ready[k], 1) : std::span<const core::Event>();
    for (int s : sides) {
      const std::size_t bytes = face_bytes(k, axis, s, flow);
      core::KernelArgs args(p.pack);  // field, face, FACE_ARGS
      args.add(*fields[k]).add(p.axis[axis].out[index_of(s)]);
      bind_face(args, k, axis, packed_layer(flow, s, local[axis]), mask_(axis, s, flow));
      // On the compute queue, ahead of the interior update: a kernel waiting on another queue gets no
      // multiprocessor until the interior's blocks drain, so the faces would leave only after the
      // interior and the halo traffic would no longer overlap it.
      const core::Event packed =
          p.pack.launch(devices_->compute(device(k)), range(k), core::NDRange(face_group), wait);
      if (same_device(k, grid_.neighbour(global(k), axis, s))) continue;
      reads.push_back(p.axis[axis].out[index_of(s)].read(devices_->transfer(device(k)),
                                                          p.axis[axis].send[index_of(s)].span().first(bytes), 0,
                                                          core::Blocking::no, std::span(&packed, 1)));
    }
    devices_->compute(device(k)).flush();
    devices_->transfer(device(k)).flush();
  }
  return reads;
}

void HaloExchange::relay(int axis, core::HaloFlow flow) {
  if (placement_.local() == placement_.parts()) return;
  std::vector<core::Message> sends, receives;
  // A face moving towards `side` into part `to` carries tag 2 to + side index: unique per receiver and
  // side even when both neighbours along an axis are the same part.
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    for (int s : sides) {
      const std::size_t to = grid_.neighbour(global(k), axis, s), from = grid_.neighbour(global(k), axis, -s);
      const std::size_t bytes = face_bytes(k, axis, s, flow);
      if (!placement_.is_local(to)) {
        sends.push_back({placement_.rank_of(to), static_cast<int>(2 * to) + index_of(s),
                         std::as_writable_bytes(parts_[k].axis[axis].send[index_of(s)].span().first(bytes))});
      }
      if (!placement_.is_local(from)) {
        receives.push_back({placement_.rank_of(from), static_cast<int>(2 * global(k)) + index_of(s),
                            std::as_writable_bytes(parts_[k].axis[axis].received[index_of(s)].span().first(bytes))});
      }
    }
  }
  link_->exchange(sends, receives);
}

void HaloExchange::receive(int axis, core::HaloFlow flow, std::span<const core::Buffer<std::uint8_t>* const> fields,
                           std::vector<core::Event>& ready) {
  writes_[axis].clear();
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    Part& p = parts_[k];
    const Extent local = grid_.local(global(k));
    for (int s : sides) {
      // The face that moved towards `s` came from the neighbour on the other side.
      const std::size_t from = grid_.neighbour(global(k), axis, -s);
      const std::size_t bytes = face_bytes(k, axis, s, flow);
      // From a box of this device: its packed face, in order behind the packing on the one queue.
      const bool near = same_device(k, from);
      const core::Buffer<std::uint8_t>& face =
          near ? parts_[from - placement_.first()].axis[axis].out[index_of(s)] : p.axis[axis].in[index_of(s)];
      core::Event written;
      if (!near) {
        const core::PinnedBuffer<std::uint8_t>& staged =
            placement_.is_local(from) ? parts_[from - placement_.first()].axis[axis].send[index_of(s)]
                                      : p.axis[axis].received[index_of(s)];
        written = p.axis[axis].in[index_of(s)].write(devices_->transfer(device(k)),
                                                     std::span<const std::uint8_t>(staged.span().first(bytes)), 0,
                                                     core::Blocking::no);
        writes_[axis].push_back(written);
      }
      core::Kernel& kernel = flow == core::HaloFlow::fill ? p.unpack : p.merge;
      // lbm_unpack: field, face, FACE_ARGS, flags; lbm_merge also nz.
      core::KernelArgs args(kernel);
      args.add(*fields[k]).add(face);
      bind_face(args, k, axis, landing_layer(flow, s, local[axis]), mask_(axis, s, flow));
      args.add(*flags_[k]);
      if (flow == core::HaloFlow::swap) args.add(local[2]);
      // On the compute queue, behind the interior update: on the transfer queue the kernel gets no
      // multiprocessor until the interior drains, and holds up the next face's write behind it, so
      // that write and the step's next boundary layers would wait for the interior.
      // The next write into `face` comes only after the host has seen this queue's next packing
      // finish, so this kernel has read it by then.
      ready[k] = kernel.launch(devices_->compute(device(k)), range(k), core::NDRange(face_group),
                               near ? std::span<const core::Event>() : std::span(&written, 1));
    }
    devices_->transfer(device(k)).flush();
    devices_->compute(device(k)).flush();
  }
}

}  // namespace hetflow::lbm
