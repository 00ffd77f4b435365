#include "hetflow/app/lbm/lbm_insitu_ftle.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/display/preview.hpp"
#include "hetflow/ftle/body.hpp"
#include "hetflow/io/vtk_writer.hpp"

namespace hetflow::app {
namespace {

// The lattice's dims as the FTLE's: 2-D for a lattice one node deep.
int dimension_of(const lbm::Geometry& geometry) { return geometry.dims()[2] == 1 ? 2 : 3; }

}  // namespace

LbmInsituFtle::Settings LbmInsituFtle::settings(const casefile::Case& c) {
  Settings s;
  s.every = c.get<long>("ftle.every");
  s.window = c.get<long>("ftle.window");
  s.backward = c.get<std::string>("ftle.direction") == "backward";
  s.steps_per_snapshot = c.get<long>("ftle.steps_per_snapshot");
  return s;
}

LbmInsituFtle::LbmInsituFtle(const Settings& settings, const core::DeviceSet& devices, const lbm::Solver& solver,
                             const lbm::Geometry& geometry)
    : settings_(settings), devices_(&devices), lbm_(&solver), dimension_(dimension_of(geometry)) {
  if (devices.size() != 1 || solver.parts() != 1 || solver.config().two_component) {
    throw core::Error("in-situ FTLE takes the velocity of one component on one device in one box; this run has " +
                      std::to_string(devices.size()) + " devices, " + std::to_string(solver.parts()) + " boxes" +
                      (solver.config().two_component ? " and two components" : ""));
  }
  const auto dims = geometry.dims();
  seeds_.dimension = dimension_;
  seeds_.counts = {dims[0], dims[1], dimension_ == 3 ? dims[2] : 1};
  walls_.resize(seeds_.size());
  for (std::size_t n = 0; n < walls_.size(); ++n) {
    walls_[n] = geometry.codes()[n] == static_cast<std::uint8_t>(lbm::NodeType::wall) ? 1 : 0;
  }
  const bool fp64 = solver.config().storage == lbm::Storage::fp64;
  const std::size_t snapshot_bytes = seeds_.size() * static_cast<std::size_t>(dimension_) * (fp64 ? 8 : 4);
  for (long s = 0; s < settings.window; ++s) ring_.emplace_back(devices.context(0), snapshot_bytes);

  // The window's snapshots at lattice times 0, every, ..., T; their values come from the ring (field()),
  // so the grid starts at rest: every snapshot views one field of zeros.
  ftle::VelocityGrid window{dimension_, {dims[0], dims[1], seeds_.counts[2]}, {0, 0, 0}, {1, 1, 1}, {}, {}, {}};
  const auto rest = std::make_shared<const std::vector<double>>(seeds_.size() * static_cast<std::size_t>(dimension_));
  for (long s = 0; s < settings.window; ++s) {
    window.times.push_back(static_cast<double>(s * settings.every));
    window.snapshots.emplace_back(*rest);
  }
  window.storage = rest;
  ftle::Config config;
  const double span = static_cast<double>((settings.window - 1) * settings.every);
  config.t0 = settings.backward ? span : 0.0;
  config.duration = duration();
  config.steps = (settings.window - 1) * settings.steps_per_snapshot;
  config.integrator = ftle::Integrator::rk4;
  config.boundary = ftle::Boundary::periodic;
  config.precision = fp64 ? core::Precision::f64 : core::Precision::f32;
  ftle_ = std::make_unique<ftle::Solver>(devices, window, seeds_, config);
}

double LbmInsituFtle::duration() const {
  const double span = static_cast<double>((settings_.window - 1) * settings_.every);
  return settings_.backward ? -span : span;
}

void LbmInsituFtle::take() {
  lbm_->velocity_on_device(ring_[taken_ % ring_.size()], dimension_);
  ++taken_;
}

std::vector<double> LbmInsituFtle::field() {
  if (!ready()) {
    throw core::Error("in-situ FTLE: " + std::to_string(taken_) + " snapshots taken, a field needs " +
                      std::to_string(ring_.size()));
  }
  const std::size_t w = ring_.size();
  for (std::size_t s = 0; s < w; ++s) ftle_->load_snapshot(s, ring_[(taken_ - w + s) % w]);
  ftle_->initialise();
  ftle_->advance_to_end();
  std::vector<double> f = ftle_->ftle();
  ftle::mask_seeds(walls_, f);
  return f;
}

nlohmann::json write_insitu_ftle(RunDirectory& dir, const LbmInsituFtle& insitu, long step,
                                 const std::vector<double>& field, bool double_fields) {
  const ftle::SeedGrid& seeds = insitu.seeds();
  char name[32];
  std::snprintf(name, sizeof name, "ftle_%06ld", step);
  const io::ImageGrid image{seeds.counts, seeds.origin, seeds.spacing};
  const std::vector<float> field32 =
      double_fields ? std::vector<float>{} : std::vector<float>(field.begin(), field.end());
  std::vector<io::Field> arrays;
  if (double_fields) {
    arrays.emplace_back("ftle", field);
  } else {
    arrays.emplace_back("ftle", field32);
  }
  io::write_vti(dir.file(std::string(name) + ".vti"), image, arrays);

  const std::size_t nx = seeds.counts[0], ny = seeds.counts[1], z = seeds.dimension == 3 ? seeds.counts[2] / 2 : 0;
  const std::span<const double> plane = std::span<const double>(field).subspan(z * nx * ny, nx * ny);
  display::PreviewOptions look;
  look.extent = {0.0, static_cast<double>(nx - 1), 0.0, static_cast<double>(ny - 1)};
  look.title = std::string(insitu.settings().backward ? "backward" : "forward") + " FTLE at step " +
               std::to_string(insitu.settings().backward ? step : step + static_cast<long>(insitu.duration())) +
               "  T = " + core::number_text(std::abs(insitu.duration()), 6) + " steps" +
               (seeds.dimension == 3 ? "  z = " + std::to_string(z) : std::string());
  look.value_label = "FTLE (1/step)";
  const double aspect = static_cast<double>(ny) / static_cast<double>(nx);
  const int pixels_y = static_cast<int>(std::clamp(200.0 + 600.0 * aspect, 300.0, 760.0));
  display::write_preview_png(dir.file(std::string(name) + ".png"), display::PreviewField{plane, nx, ny}, 900, pixels_y,
                             look);
  double sum = 0, most = -INFINITY;
  std::size_t finite = 0;
  for (const double v : field) {
    if (!std::isfinite(v)) continue;
    sum += v;
    most = std::max(most, v);
    ++finite;
  }
  return {{"step", step},
          {"vti", std::string(name) + ".vti"},
          {"png", std::string(name) + ".png"},
          {"mean_ftle", finite ? sum / static_cast<double>(finite) : 0.0},
          {"max_ftle", most}};
}

}  // namespace hetflow::app
