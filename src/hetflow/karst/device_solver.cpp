#include "hetflow/karst/device_solver.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::karst {
namespace {

// Enough work-items to stream the N rock columns of a set with coalesced loads; more would only wait
// at the barrier while work-item 0 solves the water system.
constexpr std::size_t preferred_work_group = 256;

}  // namespace

KarstDevice::KarstDevice(const core::DeviceSet& devices, std::size_t device, std::size_t work_group)
    : queue_(devices.compute(device)) {
  const core::Program& program =
      devices.context(device).program("karst/karst.cl", core::BuildOptions(core::Precision::f64));
  kernel_ = program.kernel("karst_run");
  work_group_ = std::min(work_group ? work_group : preferred_work_group, kernel_.max_work_group(queue_));
}

std::vector<Series> KarstDevice::run(const Series& inlet, const Series& velocity, std::span<const KarstParameters> sets,
                                     const Grid& grid) {
  const StepForcing f = step_forcing(inlet, velocity, grid);
  check_parameters(sets, grid.model);
  const std::size_t n = grid.nodes, m = grid.has_rock() ? grid.rock_nodes : 1, steps = grid.times.size();
  const std::size_t local_bytes = sizeof(double) * (2 * n + 2 * m);
  const core::DeviceInfo& info = queue_.context().device().info;
  const std::uint64_t local_mem = info.local_mem;
  if (local_bytes > local_mem)
    throw core::Error("karst: " + std::to_string(n) + " water and " + std::to_string(m) + " rock nodes need " +
                      std::to_string(local_bytes) + " bytes of local memory; " + queue_.context().device().label() +
                      " has " + std::to_string(local_mem));

  const core::Queue& queue = queue_;
  const core::Context& context = queue.context();
  std::vector<double> packed;
  packed.reserve(5 * sets.size());
  for (const KarstParameters& s : sets) packed.insert(packed.end(), {s.Pe, s.St, s.Theta, s.Psi, s.Da});
  std::vector<double> forcing;
  forcing.reserve(3 * steps);
  for (const auto* v : {&f.dt, &f.velocity, &f.inlet}) forcing.insert(forcing.end(), v->begin(), v->end());

  core::Buffer<double> set_buffer(context, packed.size(), CL_MEM_READ_ONLY);
  core::Buffer<double> forcing_buffer(context, forcing.size(), CL_MEM_READ_ONLY);
  core::Buffer<double> rock(context, grid.has_rock() ? sets.size() * m * n : 1);
  core::Buffer<double> out(context, sets.size() * steps);
  set_buffer.write(queue, packed);
  forcing_buffer.write(queue, forcing);
  rock.fill(queue, 0.0);  // theta = T - initial: the initial state is zero

  kernel_.args(set_buffer, forcing_buffer, rock, out, core::LocalMemory{sizeof(double) * n},
               core::LocalMemory{sizeof(double) * n}, core::LocalMemory{sizeof(double) * m},
               core::LocalMemory{sizeof(double) * m}, static_cast<cl_uint>(n), static_cast<cl_uint>(m),
               static_cast<cl_uint>(steps), cl_uint{grid.has_rock()}, cl_uint{grid.outlet == Outlet::thesis},
               cl_uint{grid.far_field == FarField::fixed}, grid.dx(), grid.has_rock() ? grid.dr() : 1.0, grid.initial);
  kernel_.launch(queue, core::NDRange(sets.size() * work_group_), core::NDRange(work_group_));

  const std::vector<double> values = out.to_vector(queue);
  std::vector<Series> result(sets.size());
  for (std::size_t p = 0; p < sets.size(); ++p) {
    result[p].t = grid.times;
    result[p].value.assign(values.begin() + static_cast<std::ptrdiff_t>(p * steps),
                           values.begin() + static_cast<std::ptrdiff_t>((p + 1) * steps));
  }
  return result;
}

}  // namespace hetflow::karst
