// One box of the lattice: its node types, buffers and program.
#include <algorithm>

#include "hetflow/core/program.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::lbm {

void Solver::build_part(std::size_t k, const Geometry& geometry) {
  Part& p = parts_[k];
  const std::size_t part = global_part(k);
  p.local = grid_.local(part);
  const Region mine = own(k);
  for (int z = mine.first[2]; z < mine.first[2] + mine.count[2]; ++z) {
    if (grid_.global(part, 2, z) == 0) p.jump_low = z;
    if (grid_.global(part, 2, z) == dims_[2] - 1) p.jump_high = z;
  }
  const std::size_t cells = volume(p.local);
  const core::Device& device = devices_->device(device_of(k));
  const core::Context& ctx = devices_->context(device_of(k));
  const core::Queue& queue = devices_->compute(device_of(k));

  // The box's node types, its halos taken periodically from the neighbouring boxes.
  std::vector<std::uint8_t> types(cells);
  for (int z = 0, i = 0; z < p.local[2]; ++z) {
    for (int y = 0; y < p.local[1]; ++y) {
      for (int x = 0; x < p.local[0]; ++x, ++i) {
        types[static_cast<std::size_t>(i)] =
            geometry.codes()[geometry.index(static_cast<std::size_t>(grid_.global(part, 0, x)),
                                            static_cast<std::size_t>(grid_.global(part, 1, y)),
                                            static_cast<std::size_t>(grid_.global(part, 2, z)))];
      }
    }
  }
  p.flags = core::Buffer<std::uint8_t>(ctx, cells);
  p.wall_bits = core::Buffer<std::uint32_t>(ctx, cells);
  p.flags.write(queue, types);
  core::Buffer<std::uint8_t> type_buffer(ctx, cells);
  type_buffer.write(queue, types);
  const std::size_t arrays = config_.pattern == Pattern::ab ? 2 : 1;
  for (std::size_t c = 0; c < component_count(); ++c) {
    for (std::size_t array = 0; array < arrays; ++array) p.f[c][array] = core::Buffer<std::uint8_t>(ctx, cells * q * store_bytes_);
  }
  const std::size_t psi_values = config_.two_component ? 5 : config_.shan_chen ? 1 : 0;
  p.psi = core::Buffer<std::uint8_t>(ctx, psi_values ? psi_values * cells * real_bytes() : 1);

  core::BuildOptions options(real());
  if (config_.storage == Storage::fp16) options.define("STORE_HALF", 1);
  // CPUs vectorise work-items only through straight-line code with addresses the compiler sees are
  // consecutive, which 32-bit index arithmetic (it may wrap) hides. GPUs prefer returning from wall
  // nodes and the cheaper 32-bit slots until the slot count needs 64 bits.
  const bool cpu = device.info.kind == core::DeviceKind::cpu;
  if (cpu) options.define("UNIFORM_NODES", 1);
  // CPUs take the nodes as explicit vectors of 8 along x with FP32 arithmetic (lbm.cl says why): 8
  // lanes run ahead of 16 and of 4, and FP64 vectors gain nothing on the scalar kernels, which run near
  // the memory bound (docs/lbm-validation.md).
  const bool vectors = cpu && config_.storage != Storage::fp64 && !config_.shan_chen && !config_.two_component;
  if (vectors) {
    p.lanes = 8;
    options.define("LBM_VEC", p.lanes);
  }
  if (cpu || cells * q >= (std::size_t{1} << 32)) options.define("INDEX64", 1);
  // A-A's shifts along x balanced between its two steps, and its even step bouncing packets into the
  // walls' slots so that the odd step reads without its wall bits (lbm.cl says how and why). FP16
  // storage loses by both, and CPU vectors take their nodes whole along x and treat walls their own
  // way. CPU scalar kernels (FP64, multiphase) take both like GPUs, so that PoCL tests the GPUs' code.
  if (!vectors && config_.storage != Storage::fp16) options.define("SHIFT_WEST", 1).define("BOUNCE_INTO_WALLS", 1);
  const auto open = [](std::uint8_t t) {
    return t == static_cast<std::uint8_t>(NodeType::inlet) || t == static_cast<std::uint8_t>(NodeType::outlet);
  };
  if (std::any_of(types.begin(), types.end(), open)) options.define("OPEN_BOUNDARIES", 1);
  if (exact_arithmetic_) options.define("LBM_NO_FMA", 1).raw("-cl-fp32-correctly-rounded-divide-sqrt");
  if (config_.max_registers && core::takes_register_budget(device.info)) {
    options.raw("-cl-nv-maxrregcount=" + std::to_string(config_.max_registers));
  }
  if (config_.collision == Collision::trt) options.define("TRT", 1);
  if (config_.collision == Collision::mrt) options.define("MRT", 1);
  if (config_.pressure_drop != 0) options.define("PRESSURE_JUMP", 1);
  if (config_.shan_chen) options.define("SHAN_CHEN", 1);
  if (config_.two_component) options.define("TWO_COMPONENT", 1);
  const core::Program& program = ctx.program("lbm/lbm.cl", options);
  p.program = &program;
  bind_kernels(p, program, vectors);

  // The kernels read marked flags and wall bits that lbm_mark derives from the node types.
  core::Kernel mark = program.kernel("lbm_mark");
  core::KernelArgs args = node_args(mark);
  args.add(p.flags).add(p.wall_bits).add(type_buffer);  // marked, wall_bits, flags
  bind_dims(args, p);
  launch(mark, k, own(k), {}).wait();
}

}  // namespace hetflow::lbm
