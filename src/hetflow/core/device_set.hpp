#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/core/context.hpp"
#include "hetflow/core/device.hpp"

namespace hetflow::core {

// The devices a run uses, each with its own context, a compute queue and a transfer queue: transfers
// on the second queue overlap with kernels on the first (halo exchange, streamed input).
class DeviceSet {
 public:
  explicit DeviceSet(const std::vector<Device>& devices);
  // Selects devices by the syntax of select_indices() ("auto", "gpu", "cpu:0,gpu:1", ...).
  static DeviceSet select(std::string_view spec);

  std::size_t size() const { return members_.size(); }
  const Device& device(std::size_t k) const { return members_.at(k).context.device(); }
  const Context& context(std::size_t k) const { return members_.at(k).context; }
  const Queue& compute(std::size_t k) const { return members_.at(k).compute; }
  const Queue& transfer(std::size_t k) const { return members_.at(k).transfer; }

  // Extra compiler options for every kernel built on these devices (a case's device.build_options).
  void set_extra_build_options(const std::string& options);
  // Waits until every queue of every device is idle.
  void finish() const;

 private:
  struct Member {
    Context context;
    Queue compute;
    Queue transfer;
  };
  std::vector<Member> members_;
};

}  // namespace hetflow::core
