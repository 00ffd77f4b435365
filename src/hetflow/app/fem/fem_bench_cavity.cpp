#include "hetflow/app/fem/fem_bench_cavity.hpp"

#include <cstdint>
#include <vector>

#include "hetflow/app/tuning_lookup.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/tune/database.hpp"

namespace hetflow::app {

CavityMesh cavity_mesh(int cells) {
  const std::string name = std::to_string(cells) + "^3";
  const auto c = static_cast<std::uint32_t>(cells);
  CavityMesh m;
  m.cells = cells;
  m.mesh = with_progress(name + " box mesh", [c] { return fem::box_mesh(c, c, c, {0, 0, 0}, {1, 1, 1}); });
  m.data = with_progress(name + " edge data", [&m] { return fem::build_edge_data(m.mesh); });
  std::cerr << "  " << name << ": " << m.data.node_count() << " nodes, " << m.data.edge_count() << " directed edges\n";
  return m;
}

fem::FlowConstraints cavity_constraints(const fem::Mesh& mesh) {
  enum Kind : std::uint8_t { free, lid, wall };
  std::vector<Kind> kind(mesh.nodes.size(), free);
  for (const fem::BoundaryFace& face : mesh.boundary) {
    const bool on_lid = mesh.patches.at(face.patch) == "y_max";
    for (std::uint32_t node : face.nodes) kind[node] = on_lid ? (kind[node] == wall ? wall : lid) : wall;
  }
  fem::FlowConstraints c;
  for (std::uint32_t node = 0; node < kind.size(); ++node) {
    if (kind[node] == free) continue;
    c.velocity.nodes.push_back(node);
    c.velocity.values.push_back(kind[node] == lid ? fem::Vec3{1, 0, 0} : fem::Vec3{0, 0, 0});
  }
  c.pressure_nodes = {0};
  c.pressure_values = {0.0};
  return c;
}

fem::FlowParameters cavity_parameters(const fem::SpmvShape& spmv) {
  fem::FlowParameters p;
  p.momentum.viscosity = 0.01;
  p.momentum.density = 1;
  // The Jacobi CG needs about as many iterations as there are nodes along a side (several hundred at 56³,
  // over a thousand at 160³): the limit leaves room for the largest mesh.
  p.cg.max_iterations = 10000;
  p.spmv = spmv;
  return p;
}

std::optional<fem::SpmvShape> tuned_spmv_shape(const core::DeviceSet& devices, nlohmann::json& record) {
  const core::DeviceInfo& info = devices.device(0).info;
  const std::vector<std::string> files{"fem/sparse.cl"};
  const std::optional<tune::Entry> entry =
      find_tuning(devices, tune::make_key("fem", info, files, "spmv fp64"), record);
  if (!entry) return std::nullopt;
  const std::optional<std::size_t> wg = whole_number(entry->best, "wg_bits", 0, 8);
  const std::optional<std::size_t> row = whole_number(entry->best, "row_bits", 0, 8);
  if (!wg || !row) {
    record["ignored"] = "the entry holds no SpMV shape (wg_bits, row_bits from 0 to 8)";
    return std::nullopt;
  }
  const fem::SpmvShape shape{static_cast<int>(*wg), static_cast<int>(*row)};
  try {
    fem::check(shape, info);
  } catch (const core::Error& e) {
    record["ignored"] = e.what();
    return std::nullopt;
  }
  return shape;
}

}  // namespace hetflow::app
