#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/ftle/solver.hpp"

namespace hetflow::ftle {

// Which snapshots the steps of a run read, as the kernel's interval search (velocity_at in ftle.cl) finds
// them. Step s evaluates the velocity at times inside [t0 + s dt, t0 + (s + 1) dt] (ordered), computed
// on the device in real_t; a margin of 1e-3 |dt| plus a few hundred ulps of real_t covers that
// rounding, so a step is never launched without a snapshot it reads (it may wait for one more).
class StepWindows {
 public:
  struct Range {
    long lo = 0, hi = 0;  // snapshots lo .. hi
    bool operator==(const Range&) const = default;
    long size() const { return hi - lo + 1; }
  };

  StepWindows(std::vector<double> times, double t0, double dt, core::Precision precision)
      : times_(std::move(times)), t0_(t0), dt_(dt), relative_(precision == core::Precision::f64 ? 1e-13 : 1e-5) {}

  bool forward() const { return dt_ > 0; }
  Range range(long s) const {
    return around(t0_ + static_cast<double>(s) * dt_, t0_ + static_cast<double>(s + 1) * dt_);
  }
  // The snapshots read at times in [min(a, b), max(a, b)].
  Range around(double a, double b) const {
    const double lo = std::min(a, b), hi = std::max(a, b);
    const double margin = 1e-3 * std::abs(dt_) + relative_ * std::max(std::abs(lo), std::abs(hi));
    return {interval(lo - margin), interval(hi + margin) + 1};
  }
  // One past the last step of [s, end) that reads what step s reads. Ranges move monotonically with
  // the step, so the steps that read one range are consecutive.
  long group_end(long s, long end) const {
    const Range r = range(s);
    long lo = s, hi = end - 1;
    while (lo < hi) {
      const long mid = lo + (hi - lo + 1) / 2;
      if (range(mid) == r) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

 private:
  // The kernel's interval [k, k + 1]: the largest k <= n - 2 with times[k] <= t, else 0.
  long interval(double t) const {
    const long k = static_cast<long>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin()) - 1;
    return std::clamp(k, 0L, static_cast<long>(times_.size()) - 2);
  }

  std::vector<double> times_;
  double t0_, dt_, relative_;
};

// A streamed series: every snapshot in pinned host memory (CL_MEM_ALLOC_HOST_PTR buffers of the first
// device's context, kept mapped; every device's uploads read them), and per device a ring of slots in
// velocity_: snapshot u lives in slot u % slots. An upload into a slot waits for the last launch that
// read the slot's previous snapshot; a launch waits for the uploads of the snapshots it reads.
struct Solver::Stream {
  struct Slot {
    long snapshot = -1;
    core::Event upload, last_read;
  };

  Stream(std::size_t slot_count, std::size_t bytes, StepWindows w) : slots(slot_count), snapshot_bytes(bytes), windows(std::move(w)) {}
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  // The pinned memory must outlive every upload that reads it, on every device's queue.
  ~Stream() {
    for (const auto& ring : rings)
      for (const Slot& slot : ring)
        if (slot.upload) slot.upload.wait();
  }

  // Enqueues snapshot u into its slot of device k's ring unless it is there; returns the upload's event.
  core::Event load(const core::DeviceSet& devices, core::Buffer<std::uint8_t>& ring, std::size_t k, long u) {
    const std::size_t index = static_cast<std::size_t>(u) % slots;
    Slot& slot = rings[k][index];
    if (slot.snapshot == u) return slot.upload;
    std::vector<core::Event> wait;
    if (slot.last_read) wait.push_back(slot.last_read);
    slot.upload = ring.write(devices.transfer(k), pinned[static_cast<std::size_t>(u)].span(), index * snapshot_bytes,
                             core::Blocking::no, wait);
    slot.snapshot = u;
    slot.last_read = core::Event();
    if (k == 0) ++uploads;
    return slot.upload;
  }

  std::size_t slots, snapshot_bytes;
  StepWindows windows;
  long first = 0, last = 0;  // the snapshots the whole run reads, first and last in the run's direction
  std::vector<core::PinnedBuffer<std::uint8_t>> pinned;
  std::vector<std::vector<Slot>> rings;
  std::size_t uploads = 0;  // into the first device's ring
};

}  // namespace hetflow::ftle
