#include "hetflow/app/lbm/lbm_case_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "hetflow/app/lbm/lbm_case_multiphase.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"
#include "hetflow/display/preview.hpp"
#include "hetflow/io/pvd.hpp"
#include "hetflow/io/vtk_writer.hpp"
#include "hetflow/lbm/geometry_io.hpp"
#include "hetflow/lbm/references.hpp"
#include "hetflow/lbm/vorticity.hpp"

namespace hetflow::app {
namespace {

constexpr const char* axis_names[3] = {"x", "y", "z"};

std::string cell_text(std::size_t x, std::size_t y, std::size_t z) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

std::string numbered(const char* stem, long step, const char* ext) {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06ld.%s", stem, step, ext);
  return name;
}

// Two significant digits, for titles.
std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", v);
  return text;
}

}  // namespace

LbmDiagnostics diagnose(const lbm::Fields& fields, long step) {
  const std::size_t nx = static_cast<std::size_t>(fields.dims[0]), ny = static_cast<std::size_t>(fields.dims[1]);
  const std::size_t n = fields.rho.size();
  LbmDiagnostics d;
  double max2 = -1.0;
  std::size_t max_index = 0;
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::array<double, 2> rho_range{inf, -inf}, rho_a_range{inf, -inf};
  const auto widen = [](std::array<double, 2>& range, double v) {
    range[0] = std::min(range[0], v);
    range[1] = std::max(range[1], v);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const double r = fields.rho[i], ux = fields.u[3 * i], uy = fields.u[3 * i + 1], uz = fields.u[3 * i + 2];
    if (!std::isfinite(r) || !std::isfinite(ux) || !std::isfinite(uy) || !std::isfinite(uz)) {
      throw core::Error("lbm: non-finite " + std::string(std::isfinite(r) ? "velocity" : "density") + " at step " +
                        std::to_string(step) + ", cell " + cell_text(i % nx, i / nx % ny, i / (nx * ny)) +
                        ": the flow became unstable (tau too close to 0.5 or the force too large); the outputs "
                        "written before this step are kept");
    }
    d.mass += r;
    if (r > 0) {
      widen(rho_range, r);
      if (!fields.rho_a.empty()) widen(rho_a_range, fields.rho_a[i]);
    }
    d.mean_u[0] += ux;
    d.mean_u[1] += uy;
    d.mean_u[2] += uz;
    const double s2 = ux * ux + uy * uy + uz * uz;
    if (s2 > max2) {
      max2 = s2;
      max_index = i;
    }
  }
  for (double& m : d.mean_u) m /= static_cast<double>(n);
  d.max_speed = std::sqrt(std::max(max2, 0.0));
  d.max_cell = {max_index % nx, max_index / nx % ny, max_index / (nx * ny)};
  if (rho_range[0] <= rho_range[1]) d.rho_range = rho_range;
  if (rho_a_range[0] <= rho_a_range[1]) d.rho_a_range = rho_a_range;
  return d;
}

struct LbmOutputs::Series {
  std::optional<io::PvdSeries> pvd;
  std::optional<io::XdmfSeries> xdmf;
  std::optional<io::CsvWriter> csv;
};

LbmOutputs::LbmOutputs(RunDirectory& directory, const lbm::Geometry& geometry, const Options& options)
    : dir_(directory), geometry_(geometry), options_(options), series_(std::make_unique<Series>()) {
  std::vector<std::string> columns{"step", "mass", "mass_drift", "max_u", "mean_ux", "mean_uy", "mean_uz"};
  if (options_.flow_axis) columns.push_back("permeability");
  series_->csv.emplace(dir_.file("lbm.csv"), std::move(columns));
  dir_.add_output("lbm.csv",
                  "per output step: mass, relative mass drift, max |u|, superficial mean velocity (all nodes)" +
                      std::string(options_.flow_axis ? ", Darcy permeability nu <u> / F (lattice units)" : ""));
  if (options_.vti) series_->pvd.emplace(dir_.file("fields.pvd"));
  if (options_.hdf5) series_->xdmf.emplace(dir_.file("fields.xmf"));
}

LbmOutputs::~LbmOutputs() = default;

void LbmOutputs::write_geometry() {
  if (!options_.vti) return;
  lbm::write_geometry_vti(dir_.file("geometry.vti"), geometry_);
  dir_.add_output("geometry.vti", "the voxel mask as UInt8 node_type (0 fluid, 1 wall)");
}

std::optional<double> LbmOutputs::permeability(const LbmDiagnostics& d) const {
  if (!options_.flow_axis) return std::nullopt;
  const int a = *options_.flow_axis;
  return lbm::darcy_permeability(d.mean_u[static_cast<std::size_t>(a)], options_.viscosity, options_.force);
}

void LbmOutputs::write(long step, const lbm::Fields& fields, const LbmDiagnostics& d, double mass0,
                       const std::string& title_extra) {
  std::vector<double> row{static_cast<double>(step), d.mass, (d.mass - mass0) / mass0, d.max_speed,
                          d.mean_u[0], d.mean_u[1], d.mean_u[2]};
  if (const auto k = permeability(d)) row.push_back(*k);
  series_->csv->add_row(row);

  if (options_.vti || options_.hdf5) {
    const auto dims = geometry_.dims();
    const io::ImageGrid grid{dims, {0, 0, 0}, geometry_.spacing};
    // Float32 halves the files and ParaView's memory; fp64 runs keep their precision.
    std::vector<std::vector<float>> singles;  // the Float32 copies the arrays point into
    singles.reserve(5);
    const std::vector<double> vorticity = lbm::vorticity_magnitude(fields, geometry_);
    std::vector<io::Field> arrays;  // views of the vectors above
    auto add = [&](const char* name, const std::vector<double>& values, int components) {
      if (values.empty()) return;
      if (options_.double_fields) {
        arrays.emplace_back(name, values, components);
      } else {
        arrays.emplace_back(name, singles.emplace_back(values.begin(), values.end()), components);
      }
    };
    add("rho", fields.rho, 1);
    add("u", fields.u, 3);
    add("vorticity", vorticity, 1);
    add("rho_a", fields.rho_a, 1);
    add("rho_b", fields.rho_b, 1);
    arrays.emplace_back("node_type", geometry_.codes());
    if (options_.vti) {
      const std::string name = numbered("fields", step, "vti");
      io::write_vti(dir_.file(name), grid, arrays);
      const bool first = series_->pvd->entries().empty();
      series_->pvd->add(static_cast<double>(step), dir_.file(name));
      if (first) dir_.add_output("fields.pvd", "rho, u, vorticity, node_type (and rho_a, rho_b with two components) every "
                                               "output.every steps (.vti series)");
      if (first) dir_.add_output("fields_*.vti", "the fields at the step its name gives");
    }
    if (options_.hdf5) {
      const bool first = series_->xdmf->steps() == 0;
      series_->xdmf->add(static_cast<std::size_t>(step), static_cast<double>(step), grid, arrays);
      if (first) dir_.add_output("fields.xmf", "rho, u, vorticity, node_type (and rho_a, rho_b with two components) every "
                                               "output.every steps (HDF5 + XDMF)");
      if (first) dir_.add_output("fields_*.h5", "the fields' data at the step its name gives, described by fields.xmf");
    }
  }
  if (options_.png) write_png(step, fields, d, title_extra);
}

void LbmOutputs::write_png(long step, const lbm::Fields& fields, const LbmDiagnostics& d,
                           const std::string& title_extra) {
  const int axis = options_.slice_axis;
  const auto dims = geometry_.dims();
  // The slice's horizontal and vertical axes keep the right-handed order: x-y, x-z, y-z.
  const int h = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
  const std::size_t nh = dims[static_cast<std::size_t>(h)], nv = dims[static_cast<std::size_t>(v)];
  const std::size_t mid = dims[static_cast<std::size_t>(axis)] / 2;
  std::vector<double> shown(nh * nv);
  for (std::size_t j = 0; j < nv; ++j) {
    for (std::size_t i = 0; i < nh; ++i) {
      std::array<std::size_t, 3> p{};
      p[static_cast<std::size_t>(axis)] = mid;
      p[static_cast<std::size_t>(h)] = i;
      p[static_cast<std::size_t>(v)] = j;
      const std::size_t c = geometry_.index(p[0], p[1], p[2]);
      const double* u = &fields.u[3 * c];
      // Solids as NaN: the preview draws them grey, apart from slow fluid, and leaves them out of the range.
      shown[i + nh * j] = geometry_.solid(p[0], p[1], p[2]) ? std::numeric_limits<double>::quiet_NaN()
                          : options_.slice_density      ? shown_density(fields)[c]
                                                        : std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    }
  }
  display::PreviewOptions look;
  // Short enough to fit above a square plot: the colour bar already says what is shown.
  look.title = "step " + std::to_string(step) + "  " + axis_names[axis] + " = " + std::to_string(mid) + "  " +
               (title_extra.empty() ? "max |u| " + short_number(d.max_speed) : title_extra);
  const char* density = fields.rho_a.empty() ? "rho" : "rho_a";
  look.value_label = options_.slice_density ? std::string(density) + " (lattice units)" : "|u| (lattice units)";
  look.x_label = axis_names[h];
  look.y_label = axis_names[v];
  // Wide channels get a wide picture rather than a thin strip in a 4:3 frame.
  // The font scales with the smaller side, so the height stays >= 440 to keep labels legible.
  const int width = 900;
  const double aspect = static_cast<double>(nv) / static_cast<double>(nh);
  const int height = static_cast<int>(std::clamp(200.0 + 600.0 * aspect, 440.0, 760.0));
  const std::string stem = (options_.slice_density ? std::string(density) : "speed") + "_" + axis_names[axis];
  const std::string name = numbered(stem.c_str(), step, "png");
  display::write_preview_png(dir_.file(name), display::PreviewField{std::span<const double>(shown), nh, nv}, width, height, look);
  if (!png_listed_) {
    dir_.add_output(stem + "_*.png", std::string(options_.slice_density ? density : "|u|") +
                                         " on the middle slice every output step (grey: solid)");
    png_listed_ = true;
  }
}

void LbmOutputs::close() { series_->csv->close(); }

}  // namespace hetflow::app
