#include "hetflow/app/fem/fem_outputs.hpp"

#include <array>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetflow/app/csv_text.hpp"
#include "hetflow/app/fem/fem_cut_preview.hpp"
#include "hetflow/display/line_plot.hpp"
#include "hetflow/fem/derived_fields.hpp"
#include "hetflow/fem/point_locator.hpp"
#include "hetflow/fem/tet_geometry.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/pvd.hpp"
#include "hetflow/io/vtk_writer.hpp"

namespace hetflow::app {
namespace {

constexpr int kPlotWidth = 800, kPlotHeight = 500;
constexpr const char* kQuantities[4] = {"u", "v", "w", "p"};

std::string numbered(const std::string& stem, long step, const char* ext) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06ld", step);
  return stem + "_" + digits + "." + ext;
}

void check_nodal(std::size_t size, std::size_t nodes, const char* field) {
  if (size != nodes)
    throw std::invalid_argument(std::string("fem outputs: the ") + field + " has " + std::to_string(size) +
                                " values for " + std::to_string(nodes) + " nodes");
}

// u, v, w, p at a located point.
std::array<double, 4> sample_at(const fem::Location& at, std::span<const fem::Vec3> velocity, std::span<const double> pressure) {
  const fem::Vec3 u = fem::interpolate(at, velocity);
  return {u[0], u[1], u[2], fem::interpolate(at, pressure)};
}

// A line's sample points, located once, and its last profile.
struct LineSamples {
  std::vector<double> s;
  std::vector<fem::Point> x;
  std::vector<fem::Location> at;
  std::vector<std::array<double, 4>> last;
  long last_step = 0;
  double last_time = 0.0;
};

}  // namespace

struct FemOutputs::State {
  std::optional<fem::PointLocator> locator;
  std::vector<fem::Location> probes;
  std::vector<LineSamples> lines;
  std::optional<FemCutPreview> preview;
  std::optional<io::PvdSeries> pvd;
  std::optional<io::CsvWriter> probe_csv;
  std::vector<double> probe_times;
  std::vector<std::vector<std::array<double, 4>>> probe_series;  // per probe, per sample
  std::vector<std::int64_t> connectivity, offsets;
  std::vector<io::CellType> types;
  bool finished = false;
};

FemOutputs::FemOutputs(RunDirectory& directory, const fem::Mesh& mesh, const fem::EdgeData& edges,
                       const FemOutputConfig& config)
    : dir_(directory), mesh_(mesh), edges_(edges), config_(config), state_(std::make_unique<State>()) {
  State& st = *state_;
  if (!config.probes.empty() || !config.lines.empty() || config.cut_plane) {
    st.locator.emplace(mesh);
    const std::vector<std::string> problems = fem_output_problems(*st.locator, config);
    if (!problems.empty()) {
      std::string text = "fem outputs: " + problems.front();
      for (std::size_t k = 1; k < problems.size(); ++k) text += "; " + problems[k];
      throw std::invalid_argument(text);
    }
  }
  if (config.vtu) {
    st.connectivity.reserve(4 * mesh.tets.size());
    for (const fem::Tet& t : mesh.tets) st.connectivity.insert(st.connectivity.end(), t.begin(), t.end());
    st.offsets = io::uniform_offsets(mesh.tets.size(), 4);
    st.types.assign(mesh.tets.size(), io::CellType::Tetra);
    st.pvd.emplace(dir_.file("fields.pvd"));
    dir_.add_output("fields.pvd", "the series of fields_*.vtu with their times");
    dir_.add_output("fields_*.vtu",
                    "velocity, pressure, vorticity, Q-criterion and divergence at the mesh's nodes at the step its name gives");
  }
  if (config.cut_plane) {
    st.preview.emplace(*st.locator, *config.cut_plane);
    dir_.add_output(st.preview->stem() + "_*.png", st.preview->description());
  }
  if (!config.probes.empty()) {
    std::vector<std::string> columns{"time", "step"};
    std::string names;
    for (const FemProbe& p : config.probes) {
      st.probes.push_back(*st.locator->locate(p.point));
      for (const char* q : kQuantities) columns.push_back(p.name + "_" + q);
      names += (names.empty() ? "" : ", ") + p.name;
    }
    st.probe_series.resize(config.probes.size());
    st.probe_csv.emplace(dir_.file("probes.csv"), std::move(columns));
    dir_.add_output("probes.csv", "per sample: time, step, then u, v, w, p interpolated at each probe (" + names + ")");
    dir_.add_output("probes_*.png", "each probe's u, v, w or p (the name's last letter) over time");
  }
  for (const FemLine& l : config.lines) {
    LineSamples& line = st.lines.emplace_back();
    const double length = fem::distance(l.from, l.to);
    for (std::size_t k = 0; k < l.points; ++k) {
      const fem::Point x = fem_line_point(l, k);
      line.s.push_back(static_cast<double>(k) / static_cast<double>(l.points - 1) * length);
      line.x.push_back(x);
      line.at.push_back(*st.locator->locate(x));
    }
  }
  if (!config.lines.empty()) {
    dir_.add_output("lines/*_velocity.png", "u, v, w along the line its name gives, at the last snapshot");
    dir_.add_output("lines/*_pressure.png", "p along the line its name gives, at the last snapshot");
    dir_.add_output("lines/*.csv", "s, x, y, z, then u, v, w, p interpolated along a line, at the step its name gives");
  }
}

FemOutputs::~FemOutputs() = default;

void FemOutputs::snapshot(long step, double time, std::span<const fem::Vec3> velocity, std::span<const double> pressure) {
  State& st = *state_;
  if (st.finished) throw std::logic_error("fem outputs: snapshot() after finish()");
  const std::size_t n = mesh_.nodes.size();
  check_nodal(velocity.size(), n, "velocity");
  check_nodal(pressure.size(), n, "pressure");

  fem::DerivedFields derived;
  if (config_.vtu || (st.preview && st.preview->needs_vorticity())) derived = fem::derived_fields(edges_, velocity);
  if (config_.vtu) {
    const io::UnstructuredMesh grid{std::span<const double>(mesh_.nodes.data()->data(), 3 * n), st.connectivity,
                                    st.offsets, st.types};
    const std::vector<io::Field> fields{
        io::Field("velocity", std::span<const double>(velocity.data()->data(), 3 * n), 3),
        io::Field("pressure", pressure),
        io::Field("vorticity", std::span<const double>(derived.vorticity.data()->data(), 3 * n), 3),
        io::Field("Q", derived.q),
        io::Field("divergence", derived.divergence)};
    const std::string name = numbered("fields", step, "vtu");
    io::write_vtu(dir_.file(name), grid, fields);
    st.pvd->add(time, dir_.file(name));
  }
  if (st.preview)
    st.preview->write(dir_.file(numbered(st.preview->stem(), step, "png")), step, time, velocity, pressure, derived.vorticity);

  for (std::size_t l = 0; l < st.lines.size(); ++l) {
    LineSamples& line = st.lines[l];
    std::string text = "s,x,y,z,u,v,w,p\n";
    line.last.clear();
    for (std::size_t k = 0; k < line.at.size(); ++k) {
      const auto values = sample_at(line.at[k], velocity, pressure);
      line.last.push_back(values);
      text += exact_number(line.s[k]);
      for (const double x : line.x[k]) text.append(",").append(exact_number(x));
      for (const double v : values) text.append(",").append(exact_number(v));
      text += "\n";
    }
    line.last_step = step;
    line.last_time = time;
    std::filesystem::create_directories(dir_.file("lines"));
    io::write_file_atomically(dir_.file("lines/" + numbered(config_.lines[l].name, step, "csv")), text);
  }
}

void FemOutputs::sample(long step, double time, std::span<const fem::Vec3> velocity, std::span<const double> pressure) {
  State& st = *state_;
  if (st.finished) throw std::logic_error("fem outputs: sample() after finish()");
  if (st.probes.empty()) return;
  check_nodal(velocity.size(), mesh_.nodes.size(), "velocity");
  check_nodal(pressure.size(), mesh_.nodes.size(), "pressure");
  std::vector<double> row{time, static_cast<double>(step)};
  for (std::size_t p = 0; p < st.probes.size(); ++p) {
    const auto values = sample_at(st.probes[p], velocity, pressure);
    row.insert(row.end(), values.begin(), values.end());
    st.probe_series[p].push_back(values);
  }
  st.probe_csv->add_row(row);
  st.probe_times.push_back(time);
}

void FemOutputs::finish() {
  State& st = *state_;
  if (st.finished) throw std::logic_error("fem outputs: finish() called twice");
  st.finished = true;
  if (st.probe_csv) st.probe_csv->close();
  if (!st.probe_times.empty()) {
    for (std::size_t q = 0; q < 4; ++q) {
      display::LinePlot plot{"probes: " + std::string(kQuantities[q]) + " over time", {"t", false}, {kQuantities[q], false}, {}};
      for (std::size_t p = 0; p < st.probes.size(); ++p) {
        display::PlotSeries& s = plot.series.emplace_back();
        s.label = config_.probes[p].name;
        s.x = st.probe_times;
        for (const auto& values : st.probe_series[p]) s.y.push_back(values[q]);
      }
      display::write_line_plot_png(dir_.file("probes_" + std::string(kQuantities[q]) + ".png"), plot, kPlotWidth, kPlotHeight);
    }
  }
  for (std::size_t l = 0; l < st.lines.size(); ++l) {
    const LineSamples& line = st.lines[l];
    if (line.last.empty()) continue;
    const std::string& name = config_.lines[l].name;
    const std::string when = " at step " + std::to_string(line.last_step) + ", t = " + fem_four_digits(line.last_time);
    display::LinePlot velocity{"line " + name + when, {"s", false}, {"velocity", false}, {}};
    display::LinePlot pressure{"line " + name + when, {"s", false}, {"p", false}, {}};
    for (std::size_t q = 0; q < 4; ++q) {
      display::PlotSeries s{kQuantities[q], line.s, {}, false};
      for (const auto& values : line.last) s.y.push_back(values[q]);
      (q < 3 ? velocity : pressure).series.push_back(std::move(s));
    }
    display::write_line_plot_png(dir_.file("lines/" + name + "_velocity.png"), velocity, kPlotWidth, kPlotHeight);
    display::write_line_plot_png(dir_.file("lines/" + name + "_pressure.png"), pressure, kPlotWidth, kPlotHeight);
  }
}

}  // namespace hetflow::app
