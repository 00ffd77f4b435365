#include "hetflow/app/bench/reference.hpp"

#include "hetflow/tune/database.hpp"
#include "hetflow/tune/probe_tunable.hpp"

namespace hetflow::app {

core::Bandwidth reference_bandwidth(const core::Queue& queue, core::ProbeOptions options) {
  tune::apply_probe_tuning(queue.context().device().info, tune::Database(tune::default_database_path()), options);
  return core::measure_bandwidth(queue, options);
}

}  // namespace hetflow::app
