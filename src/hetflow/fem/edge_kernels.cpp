#include "hetflow/fem/edge_kernels.hpp"

#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

EdgeKernels::EdgeKernels(const core::DeviceSet& devices, std::size_t device, const EdgeData& data)
    : launch_(devices, device, data.node_count(), "the edge kernels"), edges_(devices, device, data) {
  const core::Program& program = devices.context(device).program("fem/fem_edges.cl", edges_.build_options());
  gradient_ = program.kernel("fem_strong_gradient");
  stiffness_ = program.kernel("fem_stiffness");
  // Both kernels: nodes, the edge graph and records, then the input and output fields (set per launch).
  for (core::Kernel* kernel : {&gradient_, &stiffness_}) {
    core::KernelArgs args(*kernel);
    args.add(launch_.nodes());
    edges_.add_graph(args);
    fields_arg_ = args.next();
  }
}

void EdgeKernels::strong_gradient(const core::Buffer<double>& p, const core::Buffer<double>& grad) {
  launch_.check_size(p, 1, "p");
  launch_.check_size(grad, 3, "grad");
  core::KernelArgs(gradient_, fields_arg_).add(p).add(grad);
  launch_.launch(gradient_);
}

void EdgeKernels::stiffness(const core::Buffer<double>& phi, const core::Buffer<double>& out) {
  launch_.check_size(phi, 1, "phi");
  launch_.check_size(out, 1, "out");
  core::KernelArgs(stiffness_, fields_arg_).add(phi).add(out);
  launch_.launch(stiffness_);
}

}  // namespace hetflow::fem
