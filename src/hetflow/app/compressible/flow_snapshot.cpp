#include "hetflow/app/compressible/flow_snapshot.hpp"

#include <algorithm>

namespace hetflow::app {

int FlowSnapshot::finest_level() const {
  int level = 0;
  for (const mrag::BlockKey& k : leaves) level = std::max(level, k.level);
  return level;
}

FlowSnapshot flow_snapshot(const mrag::BlockFlow& flow) {
  FlowSnapshot s;
  s.step = flow.steps();
  s.time = flow.time();
  s.block_size = flow.block_size();
  s.root_size = flow.root_size();
  s.roots_x = flow.tree().roots_x();
  s.roots_y = flow.tree().roots_y();
  s.leaves.assign(flow.tree().leaves().begin(), flow.tree().leaves().end());
  s.cells = flow.cells();
  return s;
}

double cell_gamma(const mrag::FaceState& s) { return 1 + 1 / s.big_gamma; }

double cell_p_inf(const mrag::FaceState& s) { return s.big_pi / (s.big_gamma + 1); }

UniformFields uniform_fields(const FlowSnapshot& snapshot, int level) {
  UniformFields f;
  const int s = snapshot.block_size;
  f.level = level;
  f.nx = static_cast<std::size_t>(snapshot.roots_x) * static_cast<std::size_t>(s) << level;
  f.ny = static_cast<std::size_t>(snapshot.roots_y) * static_cast<std::size_t>(s) << level;
  f.h = snapshot.root_size / (s * static_cast<double>(1L << level));
  std::vector<double>* fields[] = {&f.rho, &f.u, &f.v, &f.p, &f.gamma, &f.p_inf, &f.leaf_level};
  for (std::vector<double>* field : fields) field->assign(f.nx * f.ny, 0.0);
  std::size_t cell = 0;
  for (const mrag::BlockKey& leaf : snapshot.leaves) {
    // A leaf cell covers `span` uniform cells per axis (at least one), each taking `weight` of it.
    const int up = level - leaf.level;
    const std::size_t span = up >= 0 ? std::size_t{1} << up : 1;
    const double weight = up >= 0 ? 1.0 : 1.0 / static_cast<double>(1L << (-2 * up));
    for (int j = 0; j < s; ++j) {
      for (int i = 0; i < s; ++i, ++cell) {
        const mrag::FaceState& q = snapshot.cells[cell].state;
        const double values[] = {q.rho, q.un, q.ut, q.p, cell_gamma(q), cell_p_inf(q), static_cast<double>(leaf.level)};
        const std::size_t gi = static_cast<std::size_t>(leaf.x * s + i), gj = static_cast<std::size_t>(leaf.y * s + j);
        const std::size_t i0 = up >= 0 ? gi * span : gi >> -up, j0 = up >= 0 ? gj * span : gj >> -up;
        for (std::size_t b = j0; b < j0 + span; ++b)
          for (std::size_t a = i0; a < i0 + span; ++a)
            for (std::size_t k = 0; k < 7; ++k) (*fields[k])[f.index(a, b)] += weight * values[k];
      }
    }
  }
  return f;
}

}  // namespace hetflow::app
