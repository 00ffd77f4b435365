#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/core/partition.hpp"
#include "hetflow/core/plan_copy.hpp"

namespace hetflow::core {

// Elements [offset, offset + count) of every granule.
struct Segment {
  std::size_t offset = 0;
  std::size_t count = 0;
};

// Which parts of a granule a halo exchange moves across each face: `lower` the parts a lower halo
// holds, `upper` those of an upper halo (for lattice Boltzmann, the populations pointing down and up
// through the face). Empty: the whole granule.
struct HaloSegments {
  std::vector<Segment> lower;
  std::vector<Segment> upper;
};

// fill: the neighbours' boundary granules are copied into the halos (before kernels read the halos);
// swap: each halo is copied into the facing halo of the neighbour (lower halo -> the lower neighbour's
// upper halo), for kernels that push values into halos; the receiver merges them into its boundary
// granules, since only it knows which of them were really written (lattice Boltzmann: not by walls).
enum class HaloFlow { fill, swap };

struct PlanOptions {
  Distribution distribution = Distribution::uniform;
  std::size_t granule = 1;      // elements that stay together (a lattice plane, a matrix row)
  std::size_t halo = 0;         // granules mirrored from each neighbour on each side
  bool periodic = false;        // the first and last parts are neighbours too
  HaloSegments segments;        // what crosses each face; empty: whole granules
  std::vector<double> weights;  // for Distribution::custom, one per local device
  // Set: the array spans every process of the link (which must outlive the plan), each holding the
  // parts of its own devices (see PartPlacement); halos reach parts in other processes too.
  Link* link = nullptr;
};

// An array of n elements distributed over the devices of a DeviceSet (the thesis's CUSH plan, over
// OpenCL). Part k lives in buffer(k) as [halo | own share | halo]; own data starts at halo_elements().
// Every transfer between devices is staged through pinned host memory, because devices of different
// contexts (and platforms) share no memory and no events; only copies within one context go direct
// (copy_to). Transfers run on each device's transfer queue so they overlap with kernels on its compute queue.
// With a Link the partition covers the devices of every process; this process allocates and moves only
// its own parts, whose shares are offsets into the whole array, and its halo exchange trades the
// staged halos of its first and last part with the neighbouring processes.
template <class T>
class Plan {
 public:
  Plan(const DeviceSet& devices, std::size_t n, PlanOptions options = {})
      : devices_(&devices),
        options_(std::move(options)),
        placement_(options_.link, distribution_weights(options_.distribution, devices, options_.weights)),
        partition_(n, options_.granule, placement_.weights()),
        halo_(options_.halo * options_.granule) {
    for (std::size_t k = 0; k < parts(); ++k) {
      if (halo_ > 0 && share(k).count < halo_) {
        throw Error("plan: part " + std::to_string(k) + " owns " + std::to_string(share(k).count) +
                    " elements, fewer than its halo of " + std::to_string(halo_) + "; use fewer devices");
      }
      buffers_.emplace_back(devices.context(k), share(k).count + 2 * halo_);
      if (halo_ > 0) send_.emplace_back(devices.transfer(k), 2 * halo_);
    }
    reads_.resize(parts());
    writes_.resize(parts());
    if (halo_ > 0 && placement_.local() < placement_.parts()) received_.emplace(devices.transfer(0), 2 * halo_);
  }

  // This process's parts (all of them without a link); part k is the partition's part first_part() + k.
  std::size_t parts() const { return placement_.local(); }
  std::size_t first_part() const { return placement_.first(); }
  std::size_t size() const { return partition_.size(); }
  const Partition& partition() const { return partition_; }
  const Share& share(std::size_t k) const { return partition_.share(placement_.first() + k); }
  std::size_t halo_elements() const { return halo_; }
  Buffer<T>& buffer(std::size_t k) { return buffers_.at(k); }
  const Buffer<T>& buffer(std::size_t k) const { return buffers_.at(k); }
  const DeviceSet& devices() const { return *devices_; }

  // Host array -> own regions of the parts (HtoD scatter); with a link, of this process's parts.
  std::vector<Event> scatter(std::span<const T> host, Blocking b = Blocking::yes) {
    check_host_size(host.size(), "scatter");
    std::vector<Event> events;
    for (std::size_t k = 0; k < parts(); ++k) {
      events.push_back(buffers_[k].write(queue(k), host.subspan(share(k).offset, share(k).count), halo_, b));
    }
    return events;
  }

  // Own regions of the parts -> host array (DtoH gather); with a link, of this process's parts.
  std::vector<Event> gather(std::span<T> host, Blocking b = Blocking::yes) const {
    check_host_size(host.size(), "gather");
    std::vector<Event> events;
    for (std::size_t k = 0; k < parts(); ++k) {
      events.push_back(buffers_[k].read(queue(k), host.subspan(share(k).offset, share(k).count), halo_, b));
    }
    return events;
  }

  // A whole array held by device `root` -> the parts.
  void scatter_from(const Buffer<T>& whole, std::size_t root) {
    check_whole(whole, root, "scatter_from");
    PinnedBuffer<T> stage(queue(root), size());
    whole.read(queue(root), stage.span());
    for (std::size_t k = 0; k < parts(); ++k) {
      if (k == root) {
        buffers_[k].copy_from(queue(k), whole, share(k).offset, halo_, share(k).count).wait();
      } else {
        buffers_[k].write(queue(k), stage.span().subspan(share(k).offset, share(k).count), halo_);
      }
    }
  }

  // The parts -> a whole array held by device `root`.
  void gather_to(Buffer<T>& whole, std::size_t root) const {
    check_whole(whole, root, "gather_to");
    PinnedBuffer<T> stage(queue(root), size());
    gather(stage.span());
    whole.write(queue(root), stage.span());
  }

  // Copies `count` elements from element `src_offset` of this plan to element `dst_offset` of `dst` (this
  // plan too, where overlapping ranges copy as if the source were read first), whichever parts own them;
  // each piece goes direct within one context, else staged (detail::copy_elements). Returns once the copy
  // is complete, with the pieces this process took part in. It follows what the transfer queues already
  // hold; kernels that write the source or use the destination must have completed. With a link, both
  // plans must have the same one and every process must call it with the same arguments: the pieces
  // between processes travel through Link::exchange.
  std::vector<CopyPiece> copy_to(Plan<T>& dst, std::size_t src_offset, std::size_t dst_offset,
                                 std::size_t count) const {
    if (options_.link != dst.options_.link) {
      throw Error("plan copy: both plans must span the same processes (the same link, or none)");
    }
    return detail::copy_elements(layout<const Buffer<T>>(*this), layout<Buffer<T>>(dst), src_offset, dst_offset, count,
                                 options_.link);
  }

  // The same between this plan and a single buffer that `q` (of the buffer's context) reads and writes,
  // e.g. a field handed to a solver on one device. With a link, each process copies only the pieces of
  // its own parts, as scatter and gather do.
  std::vector<CopyPiece> copy_to(Buffer<T>& dst, const Queue& q, std::size_t src_offset, std::size_t dst_offset,
                                 std::size_t count) const {
    return detail::copy_elements(layout<const Buffer<T>>(*this), detail::single_buffer(dst, q), src_offset, dst_offset,
                                 count, nullptr);
  }
  std::vector<CopyPiece> copy_from(const Buffer<T>& src, const Queue& q, std::size_t src_offset, std::size_t dst_offset,
                                   std::size_t count) {
    return detail::copy_elements(detail::single_buffer(src, q), layout<Buffer<T>>(*this), src_offset, dst_offset, count,
                                 nullptr);
  }

  // Distributed transpose: this plan holds a rows x cols row-major matrix split by rows (granule = cols);
  // `out` receives its transpose, split by rows (granule = rows). Block (i, j) of device i goes to device j,
  // transposed on the way through host memory, as the thesis's multi-GPU FFT did.
  void all_to_all(Plan<T>& out, std::size_t rows, std::size_t cols) const {
    if (parts() < partition_.parts() || out.parts() < out.partition().parts()) {
      throw Error("all_to_all: every part of both plans must be in this process");
    }
    if (rows * cols != size() || out.size() != size() || partition_.granule() != cols ||
        out.partition().granule() != rows) {
      throw Error("all_to_all: a " + std::to_string(rows) + "x" + std::to_string(cols) +
                  " matrix needs this plan split by rows of " + std::to_string(cols) +
                  " elements and the output plan by rows of " + std::to_string(rows));
    }
    PinnedBuffer<T> in_stage(queue(0), size());
    gather(in_stage.span());
    PinnedBuffer<T> out_stage(out.queue(0), size());
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) out_stage[c * rows + r] = in_stage[r * cols + c];
    }
    out.scatter(out_stage.span());
  }

  // Starts a halo exchange: copies what crosses each face into pinned memory once `ready[k]` (an event of
  // device k, e.g. the kernel that wrote it) has completed. Interior kernels enqueued on the compute
  // queues meanwhile overlap with it.
  void begin_halo_exchange(std::span<const Event> ready = {}, HaloFlow flow = HaloFlow::fill) {
    if (halo_ == 0) throw Error("halo exchange on a plan without halo");
    if (!ready.empty() && ready.size() != parts()) throw Error("halo exchange: one ready event per part");
    wait_all(writes_);  // the staging of the last exchange must be consumed before it is overwritten
    flow_ = flow;
    const bool fill = flow == HaloFlow::fill;
    for (std::size_t k = 0; k < parts(); ++k) {
      const std::span<const Event> wait = ready.empty() ? std::span<const Event>() : ready.subspan(k, 1);
      const std::size_t h = options_.halo, n = own_granules(k);
      // Towards the lower neighbour: my bottom granules' upper parts (fill) or my lower halo (swap).
      transfer(k, fill ? h : 0, segments(!fill), send_[k].span().first(halo_), false, wait);
      reads_[k] = transfer(k, fill ? n : h + n, segments(fill), send_[k].span().last(halo_), false, wait);
    }
  }

  // Finishes the exchange: once everything is in host memory (and traded with the neighbouring
  // processes), writes it into the receiving halos. Returns one event per part for kernels that depend
  // on the exchange to wait on.
  std::vector<Event> end_halo_exchange() {
    wait_all(reads_);  // events cannot cross contexts: the host bridges them
    relay_remote();
    const bool fill = flow_ == HaloFlow::fill;
    for (std::size_t k = 0; k < parts(); ++k) {
      const std::size_t h = options_.halo, n = own_granules(k), global = first_part() + k;
      writes_[k] = Event();
      // What the lower neighbour sent upwards, and the upper one downwards.
      if (const auto lower = neighbour(global, true)) {
        const std::span<T> from = placement_.is_local(*lower) ? send_[*lower - first_part()].span().last(halo_)
                                                               : received_->span().first(halo_);
        writes_[k] = transfer(k, 0, segments(fill), from, true, {});
      }
      if (const auto upper = neighbour(global, false)) {
        const std::span<T> from = placement_.is_local(*upper) ? send_[*upper - first_part()].span().first(halo_)
                                                               : received_->span().last(halo_);
        writes_[k] = transfer(k, h + n, segments(!fill), from, true, {});
      }
      queue(k).flush();
    }
    return writes_;
  }

  void exchange_halos(HaloFlow flow = HaloFlow::fill) {
    begin_halo_exchange({}, flow);
    wait_all(end_halo_exchange());
  }

 private:
  const Queue& queue(std::size_t k) const { return devices_->transfer(k); }
  std::size_t own_granules(std::size_t k) const { return share(k).count / options_.granule; }

  // Where `plan`'s parts hold its elements, for a copy that reads (B = const Buffer<T>) or writes them.
  template <class B, class P>
  static detail::Layout<B> layout(P& plan) {
    detail::Layout<B> l{"plan", plan.size(), {}};
    for (std::size_t part = 0; part < plan.partition_.parts(); ++part) {
      const Share& s = plan.partition_.share(part);
      if (s.count == 0) continue;
      const bool local = plan.placement_.is_local(part);
      const std::size_t k = part - (local ? plan.first_part() : 0);
      l.runs.push_back({s.offset, s.count, part, plan.placement_.rank_of(part), local ? &plan.buffers_[k] : nullptr,
                        plan.halo_, local ? &plan.queue(k) : nullptr});
    }
    return l;
  }

  // The partition's part below (or above) part `global`, if it has one.
  std::optional<std::size_t> neighbour(std::size_t global, bool lower) const {
    const std::size_t p = partition_.parts();
    if (!options_.periodic && (lower ? global == 0 : global + 1 == p)) return std::nullopt;
    return (global + (lower ? p - 1 : 1)) % p;
  }

  // Only this process's first part can have a lower neighbour elsewhere, and only its last an upper
  // one: sends their outgoing staged halos there and receives the neighbours' into received_. The
  // interior kernels are already enqueued, so the exchange overlaps with them.
  void relay_remote() {
    if (!received_) return;
    constexpr int up = 0, down = 1;  // the direction the data moves
    std::vector<Message> sends, receives;
    const std::size_t first = first_part(), last = first + parts() - 1;
    auto bytes = [](std::span<T> s) { return std::as_writable_bytes(s); };
    if (const auto lower = neighbour(first, true); lower && !placement_.is_local(*lower)) {
      const std::size_t peer = placement_.rank_of(*lower);
      sends.push_back({peer, down, bytes(send_.front().span().first(halo_))});
      receives.push_back({peer, up, bytes(received_->span().first(halo_))});
    }
    if (const auto upper = neighbour(last, false); upper && !placement_.is_local(*upper)) {
      const std::size_t peer = placement_.rank_of(*upper);
      sends.push_back({peer, up, bytes(send_.back().span().last(halo_))});
      receives.push_back({peer, down, bytes(received_->span().last(halo_))});
    }
    options_.link->exchange(sends, receives);
  }

  // The segments a lower (true) or upper (false) halo holds; the whole granule when none are given.
  std::vector<Segment> segments(bool lower) const {
    const std::vector<Segment>& s = lower ? options_.segments.lower : options_.segments.upper;
    return s.empty() ? std::vector<Segment>{{0, options_.granule}} : s;
  }

  // Copies the segments of `halo` granules of buffer k starting at granule `first` to (or, when
  // `into_buffer`, from) consecutive places of pinned `stage`, non-blocking; returns the last event.
  Event transfer(std::size_t k, std::size_t first, const std::vector<Segment>& segs, std::span<T> stage,
                 bool into_buffer, std::span<const Event> wait) {
    Event last;
    std::size_t at = 0;
    for (std::size_t g = 0; g < options_.halo; ++g) {
      for (const Segment& seg : segs) {
        const std::size_t offset = (first + g) * options_.granule + seg.offset;
        const std::span<T> part = stage.subspan(at, seg.count);
        last = into_buffer ? buffers_[k].write(queue(k), part, offset, Blocking::no, wait)
                           : buffers_[k].read(queue(k), part, offset, Blocking::no, wait);
        at += seg.count;
      }
    }
    return last;
  }

  void check_host_size(std::size_t n, const char* op) const {
    if (n != size()) {
      throw Error(std::string("plan ") + op + ": host array has " + std::to_string(n) + " elements, the plan " +
                  std::to_string(size()));
    }
  }
  void check_whole(const Buffer<T>& whole, std::size_t root, const char* op) const {
    if (root >= parts() || whole.size() != size()) {
      throw Error(std::string("plan ") + op + ": needs a buffer of " + std::to_string(size()) +
                  " elements on one of the plan's " + std::to_string(parts()) + " devices");
    }
  }

  const DeviceSet* devices_;
  PlanOptions options_;
  PartPlacement placement_;
  Partition partition_;
  std::size_t halo_;
  std::vector<Buffer<T>> buffers_;
  std::vector<PinnedBuffer<T>> send_;
  std::optional<PinnedBuffer<T>> received_;  // halos from other processes: [from below | from above]
  std::vector<Event> reads_;
  std::vector<Event> writes_;
  HaloFlow flow_ = HaloFlow::fill;
};

// A full copy of an n-element array on every device of a DeviceSet (inputs every device reads whole,
// such as a velocity snapshot). Broadcasts are staged through pinned host memory.
template <class T>
class Mirror {
 public:
  Mirror(const DeviceSet& devices, std::size_t n) : devices_(&devices) {
    for (std::size_t k = 0; k < devices.size(); ++k) buffers_.emplace_back(devices.context(k), n);
  }

  std::size_t size() const { return buffers_.front().size(); }
  Buffer<T>& buffer(std::size_t k) { return buffers_.at(k); }
  const Buffer<T>& buffer(std::size_t k) const { return buffers_.at(k); }

  // Host array -> every device, from element `offset` on.
  std::vector<Event> broadcast(std::span<const T> host, std::size_t offset = 0, Blocking b = Blocking::yes) {
    std::vector<Event> events;
    for (std::size_t k = 0; k < buffers_.size(); ++k) events.push_back(buffers_[k].write(queue(k), host, offset, b));
    return events;
  }

  // Device `root`'s copy -> every other device.
  void broadcast(std::size_t root) {
    PinnedBuffer<T> stage(queue(root), size());
    buffers_.at(root).read(queue(root), stage.span());
    std::vector<Event> events;
    for (std::size_t k = 0; k < buffers_.size(); ++k) {
      if (k != root) events.push_back(buffers_[k].write(queue(k), stage.span(), 0, Blocking::no));
    }
    wait_all(events);
  }

 private:
  const Queue& queue(std::size_t k) const { return devices_->transfer(k); }

  const DeviceSet* devices_;
  std::vector<Buffer<T>> buffers_;
};

}  // namespace hetflow::core
