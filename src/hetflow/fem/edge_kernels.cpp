#include "hetflow/fem/edge_kernels.hpp"

#include <string>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::fem {
namespace {

// One launch width per kernel and device, whatever the node count (core/kernel.hpp, strided_range, says
// why PoCL needs it); the kernels stride over the nodes.
constexpr std::size_t work_group = 64;
constexpr std::size_t groups_per_unit = 32;

template <class T>
core::Buffer<T> upload(const core::Context& context, const core::Queue& queue, const std::vector<T>& values) {
  core::Buffer<T> buffer(context, values.size(), CL_MEM_READ_ONLY);
  buffer.write(queue, values);
  return buffer;
}

}  // namespace

EdgeKernels::EdgeKernels(const core::DeviceSet& devices, std::size_t device, const EdgeData& data)
    : queue_(&devices.compute(device)),
      global_(core::strided_range(devices.device(device).info, work_group, groups_per_unit)),
      local_(work_group),
      nodes_(static_cast<cl_uint>(data.node_count())) {
  const core::Context& context = devices.context(device);
  row_start_ = upload(context, *queue_, data.row_start);
  col_ = upload(context, *queue_, data.col);
  records_ = upload(context, *queue_, data.records);
  const core::Program& program = context.program("fem/fem_edges.cl", core::BuildOptions(core::Precision::f64));
  gradient_ = program.kernel("fem_strong_gradient");
  stiffness_ = program.kernel("fem_stiffness");
  // Both kernels: nodes, row_start, col, records, then the input and output fields (set per launch).
  for (core::Kernel* kernel : {&gradient_, &stiffness_}) {
    core::KernelArgs args(*kernel);
    args.add(nodes_).add(row_start_).add(col_).add(records_);
    fields_arg_ = args.next();
  }
}

void EdgeKernels::check_size(const core::Buffer<double>& field, std::size_t per_node, const char* name) const {
  if (field.size() != per_node * nodes_)
    throw core::Error(std::string("the device field ") + name + " holds " + std::to_string(field.size()) +
                      " values; the edge kernels need " + std::to_string(per_node * nodes_));
}

void EdgeKernels::strong_gradient(const core::Buffer<double>& p, const core::Buffer<double>& grad) {
  check_size(p, 1, "p");
  check_size(grad, 3, "grad");
  core::KernelArgs(gradient_, fields_arg_).add(p).add(grad);
  gradient_.launch(*queue_, global_, local_);
}

void EdgeKernels::stiffness(const core::Buffer<double>& phi, const core::Buffer<double>& out) {
  check_size(phi, 1, "phi");
  check_size(out, 1, "out");
  core::KernelArgs(stiffness_, fields_arg_).add(phi).add(out);
  stiffness_.launch(*queue_, global_, local_);
}

}  // namespace hetflow::fem
