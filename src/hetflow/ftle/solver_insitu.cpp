// In situ: snapshots of the gridded velocity taken on the device from buffers that another solver on
// the same device filled (lbm::Solver::velocity_on_device), with no host round trip.
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/ftle/solver.hpp"

namespace hetflow::ftle {

void Solver::load_snapshot(std::size_t index, const core::Buffer<std::uint8_t>& values) {
  // A gridded velocity has at least two nodes along x (VelocityGrid::check); an analytic flow none.
  if (grid_dims_.s[0] < 2 || stream_ || devices_->size() != 1 || link_) {
    throw core::Error(
        "FTLE snapshots load from the device only into gridded velocity held whole on one device "
        "by one process");
  }
  if (index >= snapshots_) {
    throw core::Error("FTLE snapshot " + std::to_string(index) + " of " + std::to_string(snapshots_));
  }
  if (values.size() != memory_.snapshot_bytes) {
    throw core::Error("an FTLE snapshot of " + std::to_string(values.size()) + " bytes; the grid's takes " +
                      std::to_string(memory_.snapshot_bytes));
  }
  // On the compute queue, so the advection enqueued after it reads the new values.
  velocity_->buffer(0).copy_from(devices_->compute(0), values, 0, index * memory_.snapshot_bytes,
                                 memory_.snapshot_bytes);
}

}  // namespace hetflow::ftle
