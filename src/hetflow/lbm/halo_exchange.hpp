#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/core/plan.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/lbm/device_grid.hpp"

namespace hetflow::lbm {

// Which values of a node cross a face, for data moving along `axis` towards `side` (-1 or +1) in a
// fill or a swap: a bit per value (population direction, or field of the multiphase layout).
using FaceMask = std::function<std::uint32_t(int axis, int side, core::HaloFlow flow)>;

// Keeps the halo layers of one per-node field of a lattice split over a DeviceGrid current: every
// axis the grid splits is done in turn (x, then y, then z), each face spanning the halos of the other
// axes, so what crosses an edge reaches the diagonal neighbour in two hops. A face is packed on the
// device, read into pinned host memory, written into the neighbour's device (or sent to its process
// through the link) and unpacked there (fill: into the halo) or merged (swap: into the boundary layer,
// lbm.cl's lbm_merge_*). The reads and writes run on the devices' transfer queues, so they overlap
// with kernels on the compute queues; packing and unpacking are kernels on the compute queues (a
// kernel on the transfer queue waits for the compute queue's kernel to drain); the host waits only
// for each axis's faces to reach host memory. Between two boxes of one device a face goes nowhere: the
// receiver unpacks the sender's packed face, in order behind its packing on the device's one compute
// queue, so a device's boxes exchange without the host.
class HaloExchange {
 public:
  // `fields` layout: `per_plane` values of `element_bytes` per node ((z * per_plane + i) * plane + ...);
  // local part k is part placement.first() + k, on local device k / `boxes_per_device`, built from
  // `programs[k]` (lbm.cl) with node types `flags[k]` (read by merges and unpacks).
  HaloExchange(const core::DeviceSet& devices, std::size_t boxes_per_device, const DeviceGrid& grid,
               const core::PartPlacement& placement,
               core::Link* link, std::span<const core::Program* const> programs,
               std::span<const core::Buffer<std::uint8_t>* const> flags, int per_plane, std::size_t element_bytes,
               FaceMask mask);

  // Brings the halos of the local parts' `fields` up to date once `ready[k]` has completed; returns one
  // event per local part for the kernels that depend on the exchange. The faces are packed and
  // unpacked on the compute queues, read and written on the transfer queues. `overlap`, when given,
  // runs once, after the first split axis's packing is enqueued and before the host first waits: what
  // it enqueues on the compute queues (the interior update) then runs while the faces travel.
  std::vector<core::Event> exchange(std::span<const core::Buffer<std::uint8_t>* const> fields, core::HaloFlow flow,
                                    std::span<const core::Event> ready, const std::function<void()>& overlap = {});

 private:
  // One local part's buffers for one axis, [0] for data moving down (side -1), [1] up.
  struct Faces {
    core::Buffer<std::uint8_t> out[2], in[2];
    std::vector<core::PinnedBuffer<std::uint8_t>> send, received;
  };
  struct Part {
    core::Kernel pack, unpack, merge;
    Faces axis[3];
  };

  std::size_t global(std::size_t k) const { return placement_.first() + k; }
  std::size_t device(std::size_t k) const { return k / boxes_per_device_; }
  // Whether global part `other` is a local part on local part k's device.
  bool same_device(std::size_t k, std::size_t other) const {
    return placement_.is_local(other) && device(other - placement_.first()) == device(k);
  }
  // The face's cell counts (U, V) of local part k for `axis`.
  std::array<std::size_t, 2> face_cells(std::size_t k, int axis) const;
  // Packs and reads the faces leaving every local part along `axis`; returns the read events.
  std::vector<core::Event> send(int axis, core::HaloFlow flow, std::span<const core::Buffer<std::uint8_t>* const> fields,
                                std::vector<core::Event>& ready);
  // Trades the faces that cross to other processes.
  void relay(int axis, core::HaloFlow flow);
  // Writes the arrived faces into every local part and unpacks or merges them; updates `ready`.
  void receive(int axis, core::HaloFlow flow, std::span<const core::Buffer<std::uint8_t>* const> fields,
               std::vector<core::Event>& ready);
  std::size_t face_bytes(std::size_t k, int axis, int side, core::HaloFlow flow) const;
  // Binds a face kernel's FACE_ARGS (lbm.cl) for local part k's face of `axis` at local layer `at`,
  // carrying the values in `mask`.
  void bind_face(core::KernelArgs& args, std::size_t k, int axis, int at, std::uint32_t mask) const;
  // The global size of every face kernel launch on local part k's device.
  core::NDRange range(std::size_t k) const;

  const core::DeviceSet* devices_;
  std::size_t boxes_per_device_;
  DeviceGrid grid_;
  core::PartPlacement placement_;
  core::Link* link_;
  std::vector<const core::Buffer<std::uint8_t>*> flags_;
  int per_plane_;
  std::size_t element_bytes_;
  FaceMask mask_;
  std::vector<Part> parts_;
  std::vector<core::Event> writes_[3];  // per axis: the last exchange's writes out of the pinned faces
};

}  // namespace hetflow::lbm
