#include "hetflow/app/solver.hpp"

namespace hetflow::app {

int size_or_default(const TuneRequest& request, const core::DeviceSet& devices, int on_gpu, int elsewhere) {
  if (request.size) return request.size;
  for (std::size_t k = 0; k < devices.size(); ++k) {
    if (devices.device(k).info.kind == core::DeviceKind::gpu) return on_gpu;
  }
  return elsewhere;
}

}  // namespace hetflow::app
