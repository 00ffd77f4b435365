#include "hetflow/core/device_set.hpp"

#include "hetflow/core/error.hpp"
#include "hetflow/core/selection.hpp"

namespace hetflow::core {

DeviceSet::DeviceSet(const std::vector<Device>& devices) {
  if (devices.empty()) throw Error("a device set needs at least one device");
  members_.reserve(devices.size());
  for (const Device& d : devices) {
    Context context(d);
    members_.push_back(Member{context, Queue(context), Queue(context)});
  }
}

DeviceSet DeviceSet::select(std::string_view spec) { return DeviceSet(select_devices(spec)); }

void DeviceSet::set_extra_build_options(const std::string& options) {
  for (Member& m : members_) m.context.set_extra_build_options(options);
}

void DeviceSet::finish() const {
  for (const Member& m : members_) {
    m.compute.finish();
    m.transfer.finish();
  }
}

}  // namespace hetflow::core
