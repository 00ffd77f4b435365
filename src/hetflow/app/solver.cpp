#include "hetflow/app/solver.hpp"

namespace hetflow::app {

int size_or_default(const TuneRequest& request, const core::DeviceSet& devices, int on_gpu, int elsewhere) {
  if (request.size) return request.size;
  return devices.device(0).info.kind == core::DeviceKind::gpu ? on_gpu : elsewhere;
}

}  // namespace hetflow::app
