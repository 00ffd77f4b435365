#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hetflow/app/run_directory.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::app {

// FTLE of an LBM run's own flow, computed in situ (the case's `ftle` section): every `every` steps the
// lattice's velocity goes, on the device, into a ring of `window` snapshots, and a field over the window
// comes from the ring through an FTLE solver on the same device, with no host round trip of the
// velocity. The seeds are the lattice's nodes (its x-y plane for a lattice one node deep, a 2-D field),
// the lattice's periodicity is the FTLE's (boundary periodic: the period is the lattice), the time unit
// is the lattice step, and wall nodes are a body whose seeds are NaN. The FTLE runs in the LBM's
// arithmetic precision (FP64 with FP64 storage, else FP32), so the velocity passes unconverted.
class LbmInsituFtle {
 public:
  struct Settings {
    long every = 0;               // lattice steps between snapshots; 0: off
    long window = 11;             // snapshots per field: T = (window - 1) every
    bool backward = true;         // backward from the newest snapshot (attracting), else forward from the oldest
    long steps_per_snapshot = 4;  // RK4 steps per snapshot interval
  };

  // The `ftle` section of an lbm case.
  static Settings settings(const casefile::Case& c);

  // Throws core::Error when `solver` cannot hand its velocity on the device (several boxes, devices or
  // processes, two components).
  LbmInsituFtle(const Settings& settings, const core::DeviceSet& devices, const lbm::Solver& solver,
                const lbm::Geometry& geometry);

  const Settings& settings() const { return settings_; }
  const ftle::SeedGrid& seeds() const { return seeds_; }
  // The signed integration time of a field, in lattice steps (negative: backward).
  double duration() const;
  // Takes the lattice's current velocity into the ring.
  void take();
  // Whether the ring holds a whole window.
  bool ready() const { return taken_ >= ring_.size(); }
  // The FTLE over the window the ring holds (the last `window` snapshots taken), one value per seed,
  // x fastest, NaN at wall nodes. Throws ftle::TracerError when a tracer's velocity turned non-finite.
  std::vector<double> field();

 private:
  Settings settings_;
  const core::DeviceSet* devices_;
  const lbm::Solver* lbm_;
  int dimension_;
  ftle::SeedGrid seeds_;
  std::vector<std::uint8_t> walls_;  // per seed
  std::vector<core::Buffer<std::uint8_t>> ring_;
  std::size_t taken_ = 0;
  std::unique_ptr<ftle::Solver> ftle_;
};

// Writes an in-situ field of lattice step `step` as ftle_<step>.vti and .png into `dir` (Float32 or
// Float64 as the LBM's fields) and returns its manifest entry.
nlohmann::json write_insitu_ftle(RunDirectory& dir, const LbmInsituFtle& insitu, long step,
                                 const std::vector<double>& field, bool double_fields);

}  // namespace hetflow::app
