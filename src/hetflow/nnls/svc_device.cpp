#include "hetflow/nnls/svc_device.hpp"

#include <algorithm>
#include <bit>
#include <utility>
#include <vector>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::nnls {

namespace {

constexpr std::size_t work_group = 64;
// Dimension 1 of a launch is at most this; the kernels loop over the rest (NVIDIA allows 65535
// work-groups there).
constexpr std::size_t max_slow = 32768;

// A combination step of the recursion (see combine() in svc.cpp): block [o, o + s), rest of size rem.
struct Combination {
  std::size_t o, s, rem;
  std::uint32_t depth;
};

}  // namespace

SvcGenerator::SvcGenerator(const core::DeviceSet& devices, std::size_t device) : queue_(devices.compute(device)) {
  const core::Program& program =
      devices.context(device).program("nnls/svc.cl", core::BuildOptions(core::Precision::f64));
  diagonal_ = program.kernel("svc_diagonal");
  angles_kernel_ = program.kernel("svc_angles");
  level_ = program.kernel("svc_level");
  chains_ = program.kernel("svc_chains");
  matching_ = program.kernel("svc_matching");
}

void SvcGenerator::draw(std::uint64_t seed, SvcPhase phase, std::uint32_t step, std::size_t count) {
  if (angles_.size() < 2 * count) angles_ = core::Buffer<double>(queue_.context(), 2 * count);
  cl_uint2 key;
  key.s[0] = static_cast<cl_uint>(seed);
  key.s[1] = static_cast<cl_uint>(seed >> 32);
  angles_kernel_.args(angles_, key, static_cast<cl_uint>(phase), cl_uint{step}, static_cast<cl_uint>(count),
                      cl_uint{is_column_phase(phase)});
  angles_kernel_.launch(queue_, core::NDRange(core::round_up(count, work_group)), core::NDRange(work_group));
}

void SvcGenerator::launch(const core::Kernel& kernel, std::size_t lines, std::size_t elements, bool lines_fast) {
  const std::size_t fast = lines_fast ? lines : elements, slow = lines_fast ? elements : lines;
  kernel.launch(queue_, core::NDRange(core::round_up(fast, work_group), std::min(slow, max_slow)),
                core::NDRange(work_group, 1));
}

core::Buffer<double> SvcGenerator::generate(const SvcSpec& spec) {
  const std::vector<double> sigma = svc_singular_values(spec);  // validates
  const std::uint64_t seed = spec.seed;
  // The working matrix as in svc.cpp: A, or A^T read and written in A's storage when A is wide.
  const bool wide = spec.rows < spec.cols;
  const std::size_t m = wide ? spec.cols : spec.rows, n = wide ? spec.rows : spec.cols;
  const cl_ulong row_stride = wide ? spec.rows : 1, col_stride = wide ? 1 : spec.rows;
  // Line and element strides of a row (rows) or column step; lines go in dimension 0 when they are
  // contiguous and there are enough of them to fill a work-group's width.
  const auto strides = [&](bool rows) {
    return std::pair{rows ? row_stride : col_stride, rows ? col_stride : row_stride};
  };
  const auto lines_fast = [](cl_ulong line_stride, std::size_t lines) {
    return line_stride == 1 && lines >= work_group;
  };

  core::Buffer<double> w(queue_.context(), spec.rows * spec.cols);
  w.fill(queue_, 0.0);
  core::Buffer<double> values(queue_.context(), n);
  values.write(queue_, sigma);
  diagonal_.args(w, values, static_cast<cl_uint>(n), cl_ulong{row_stride + col_stride});
  diagonal_.launch(queue_, core::NDRange(core::round_up(n, work_group)), core::NDRange(work_group));

  // Every power-of-two square of the recursion at once, level by level: the squares are disjoint, so
  // this is the host's order up to rotations that commute exactly (they touch different elements).
  for (std::uint32_t level = 0; (std::size_t{2} << level) <= n; ++level) {
    const std::size_t stride = std::size_t{1} << level, block = 2 * stride;
    const std::size_t pairs = (n & ~(block - 1)) / 2;
    for (const bool rows : {true, false}) {
      const SvcPhase phase = rows ? SvcPhase::square_rows : SvcPhase::square_columns;
      const auto [ls, es] = strides(rows);
      const bool fast = lines_fast(ls, pairs);
      draw(seed, phase, level, pairs);
      level_.args(w, angles_, ls, es, static_cast<cl_uint>(stride), static_cast<cl_uint>(pairs), cl_uint{fast});
      launch(level_, pairs, block, fast);
    }
  }

  // The combinations, innermost (last power of two) first, as the recursion returns.
  std::vector<Combination> combinations;
  for (std::size_t o = 0, size = n; size != std::bit_floor(size);) {
    const std::size_t s = std::bit_floor(size);
    combinations.push_back({o, s, size - s, static_cast<std::uint32_t>(combinations.size())});
    o += s;
    size -= s;
  }
  for (auto c = combinations.rbegin(); c != combinations.rend(); ++c) {
    for (const bool rows : {true, false}) {
      const auto [ls, es] = strides(rows);
      const bool fast = lines_fast(ls, c->rem);
      draw(seed, rows ? SvcPhase::combine_rows : SvcPhase::combine_columns, c->depth, c->s);
      chains_.args(w, angles_, ls, es, cl_ulong{c->o}, static_cast<cl_uint>(c->s), cl_ulong{c->o + c->s},
                   static_cast<cl_uint>(c->rem), cl_ulong{1}, cl_ulong{0}, cl_ulong{c->o},
                   static_cast<cl_uint>(c->s + c->rem), cl_uint{fast});
      launch(chains_, c->rem, c->s + c->rem, fast);
    }
  }

  if (m > n) {
    const std::size_t p = m - n;
    const bool rows_fast = lines_fast(row_stride, std::min(p, n)), columns_fast = lines_fast(col_stride, n / 2);
    for (std::uint32_t pass = 0; pass < svc_extra_passes; ++pass) {
      const SvcPairing pair = svc_pairing(seed, SvcPhase::extra_row_pairing, pass, n);
      draw(seed, SvcPhase::extra_rows, pass, p);
      chains_.args(w, angles_, row_stride, col_stride, cl_ulong{n}, static_cast<cl_uint>(p), cl_ulong{0},
                   static_cast<cl_uint>(n), cl_ulong{pair.mul}, cl_ulong{pair.add}, cl_ulong{0},
                   static_cast<cl_uint>(n), cl_uint{rows_fast});
      launch(chains_, std::min(p, n), n, rows_fast);
    }
    for (std::uint32_t pass = 0; pass < svc_extra_passes && n >= 2; ++pass) {
      const SvcPairing pair = svc_pairing(seed, SvcPhase::extra_column_pairing, pass, n);
      draw(seed, SvcPhase::extra_columns, pass, n / 2);
      matching_.args(w, angles_, col_stride, row_stride, static_cast<cl_uint>(n), cl_ulong{pair.mul},
                     cl_ulong{pair.add}, static_cast<cl_uint>(n / 2), static_cast<cl_uint>(m), cl_uint{columns_fast});
      launch(matching_, n / 2, m, columns_fast);
    }
  }
  return w;
}

Matrix SvcGenerator::matrix(const SvcSpec& spec) {
  const core::Buffer<double> w = generate(spec);
  Matrix a(spec.rows, spec.cols);
  w.read(queue_, a.data);
  return a;
}

Matrix svc_device(const core::DeviceSet& devices, const SvcSpec& spec, std::size_t device) {
  return SvcGenerator(devices, device).matrix(spec);
}

}  // namespace hetflow::nnls
