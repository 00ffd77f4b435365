#include "hetflow/app/fem/fem_tunable.hpp"

#include <memory>
#include <string>
#include <vector>

#include "hetflow/app/tuning_lookup.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/device_csr.hpp"
#include "hetflow/fem/row_slices.hpp"
#include "hetflow/fem/spmv_tuning.hpp"

namespace hetflow::app {
namespace {

fem::SpmvShape shape_of(const tune::Setting& s) {
  return {std::stoi(s.at("wg_bits")), std::stoi(s.at("row_bits"))};
}

// The tunable's measurement in one precision: the matrix, sliced as the solver's pressure matrix is, and
// the vectors stay on the device between trials.
template <class Real>
tune::Objective spmv_objective(const core::DeviceSet& devices, const fem::CsrMatrix& a,
                               const tune::MeasureOptions& measure) {
  const core::Queue& queue = devices.compute(0);
  auto matrix = std::make_shared<const fem::DeviceCsr<Real>>(queue, a, fem::edge_slice_bits);
  auto x = std::make_shared<core::Buffer<Real>>(devices.context(0), a.n);
  x->write(queue, std::vector<Real>(a.n, Real(1)));
  auto y = std::make_shared<core::Buffer<Real>>(devices.context(0), a.n);
  return [&devices, matrix, x, y, measure](const tune::Setting& s) {
    const core::Queue& q = devices.compute(0);
    const fem::DeviceSpmv<Real> spmv(devices.context(0), shape_of(s));
    return tune::measure([&] { return fem::spmv_seconds(q, spmv, *matrix, *x, *y); }, measure).median;
  };
}

}  // namespace

fem::CsrMatrix stiffness_matrix(const fem::EdgeData& data) {
  fem::CsrMatrix a;
  a.n = data.lumped_mass.size();
  a.row_start.assign(data.matrix_row_start.begin(), data.matrix_row_start.end());
  a.col.assign(data.matrix_col.begin(), data.matrix_col.end());
  a.values.assign(a.col.size(), 0.0);
  for (std::size_t i = 0; i < a.n; ++i) {
    std::size_t diagonal = 0;
    double sum = 0;
    for (auto k = static_cast<std::size_t>(a.row_start[i]); k < static_cast<std::size_t>(a.row_start[i + 1]); ++k) {
      const std::uint32_t edge = data.matrix_edge[k];
      if (edge == fem::no_edge) {
        diagonal = k;
        continue;
      }
      const double* r = data.record(edge);
      a.values[k] = r[fem::edge_slot::laplacian] + r[fem::edge_slot::laplacian + 4] + r[fem::edge_slot::laplacian + 8];
      sum += a.values[k];
    }
    a.values[diagonal] = -sum;
  }
  return a;
}

tune::Tunable fem_tunable(const core::DeviceSet& devices, int cells, bool fp32, const tune::MeasureOptions& measure) {
  if (cells < 1) throw core::Error("fem tuning: --size " + std::to_string(cells) + " cells: expected at least 1");
  const auto c = static_cast<std::uint32_t>(cells);
  const fem::CsrMatrix a = stiffness_matrix(fem::build_edge_data(fem::box_mesh(c, c, c, {0, 0, 0}, {1, 1, 1})));
  const core::DeviceInfo info = devices.device(0).info;
  std::vector<std::string> bits;
  for (int b = 0; b <= 8; ++b) bits.push_back(std::to_string(b));
  tune::TuningSpace space({tune::Dimension::ordered("wg_bits", bits), tune::Dimension::ordered("row_bits", bits)},
                          [info](const tune::Setting& s) {
                            try {
                              fem::check(shape_of(s), info);
                              return true;
                            } catch (const core::Error&) {
                              return false;
                            }
                          });
  const double nnz = static_cast<double>(a.nnz());
  tune::Tunable t{"fem",
                  {"fem/sparse.cl"},
                  fp32 ? "spmv fp32" : "spmv fp64",
                  "pressure-matrix SpMV of a " + std::to_string(cells) + "^3-cube box mesh, " + std::to_string(a.n) +
                      " rows, " + std::to_string(a.nnz()) + " entries",
                  std::move(space),
                  {{"wg_bits", "8"}, {"row_bits", "5"}},
                  fp32 ? spmv_objective<float>(devices, a, measure) : spmv_objective<double>(devices, a, measure),
                  [nnz](double seconds) { return nnz / seconds / 1e9; },
                  "Gnnz/s"};
  return t;
}

std::optional<fem::SpmvShape> tuned_spmv_shape(const core::DeviceSet& devices, nlohmann::json& record) {
  static const std::vector<std::string> files{"fem/sparse.cl"};
  const core::DeviceInfo& info = devices.device(0).info;
  const std::optional<tune::Entry> entry = find_tuning(devices, tune::make_key("fem", info, files, "spmv fp64"), record);
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
