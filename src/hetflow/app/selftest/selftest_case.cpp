#include "hetflow/app/selftest/selftest_case.hpp"

#include <cmath>
#include <numbers>
#include <sstream>

#include "hetflow/core/kernel.hpp"
#include "hetflow/core/plan.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"
#include "hetflow/io/interrupt.hpp"
#include "hetflow/display/preview.hpp"
#include "hetflow/io/pvd.hpp"
#include "hetflow/io/vtk_writer.hpp"

namespace hetflow::app {
namespace {

// Diffusion number of the explicit scheme: stable for r <= 1/6 in 3-D.
constexpr double diffusion_number = 0.125;

struct Grid {
  int nx, ny, nz;
  std::size_t plane() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny); }
  std::size_t size() const { return plane() * static_cast<std::size_t>(nz); }
};

std::vector<double> initial_field(const Grid& g) {
  std::vector<double> u(g.size());
  const double sigma = std::min({g.nx, g.ny, g.nz}) / 6.0 + 0.5;
  std::size_t i = 0;
  for (int z = 0; z < g.nz; ++z) {
    for (int y = 0; y < g.ny; ++y) {
      for (int x = 0; x < g.nx; ++x, ++i) {
        const double dx = x - 0.3 * g.nx, dy = y - 0.6 * g.ny, dz = z - 0.5 * g.nz;
        u[i] = 1.0 + 0.5 * std::sin(2 * std::numbers::pi * x / g.nx) * std::cos(2 * std::numbers::pi * y / g.ny) +
               2.0 * std::exp(-(dx * dx + dy * dy + dz * dz) / (2 * sigma * sigma));
      }
    }
  }
  return u;
}

// The kernel's scheme on the host in double precision: the independent reference.
void reference_step(const Grid& g, const std::vector<double>& in, std::vector<double>& out) {
  const std::size_t plane = g.plane();
  for (int z = 0; z < g.nz; ++z) {
    for (int y = 0; y < g.ny; ++y) {
      for (int x = 0; x < g.nx; ++x) {
        const std::size_t c = static_cast<std::size_t>(z) * plane + static_cast<std::size_t>(y) * g.nx + x;
        const double u = in[c];
        const double sum = (x > 0 ? in[c - 1] : u) + (x < g.nx - 1 ? in[c + 1] : u) + (y > 0 ? in[c - g.nx] : u) +
                           (y < g.ny - 1 ? in[c + g.nx] : u) + (z > 0 ? in[c - plane] : u) +
                           (z < g.nz - 1 ? in[c + plane] : u);
        out[c] = u + diffusion_number * (sum - 6 * u);
      }
    }
  }
}

struct FieldStats {
  double min = 0, max = 0, sum = 0;
};

// Statistics of a gathered field; a non-finite value stops the run with its step and cell.
template <class Real>
FieldStats check_field(const Grid& g, const std::vector<Real>& u, long step) {
  FieldStats s{u[0], u[0], 0};
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double v = u[i];
    if (!std::isfinite(v)) {
      const std::size_t x = i % g.nx, y = i / g.nx % g.ny, z = i / g.plane();
      throw core::Error("self-test: non-finite value " + std::to_string(v) + " at step " + std::to_string(step) +
                        ", cell (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")");
    }
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    s.sum += v;
  }
  return s;
}

template <class Real>
RunOutcome run_typed(const casefile::Case& c, RunContext& ctx, core::Precision precision) {
  const auto size = c.get<std::vector<int>>("selftest.size");
  const Grid g{size[0], size[1], size[2]};
  const long steps = c.get<long>("selftest.steps");
  const long every = c.get<long>("output.every");
  const double tolerance = c.get<double>("selftest.tolerance");
  const core::DeviceSet& devices = ctx.devices;
  RunDirectory& dir = ctx.directory;
  const core::WallTimer total;

  if (c.get<bool>("selftest.bandwidth")) {
    core::ProbeOptions quick;
    quick.repeats = 5;
    for (std::size_t k = 0; k < devices.size(); ++k) {
      quick.bytes_per_array = std::min<std::size_t>(core::default_probe_bytes(devices.device(k).info), 64u << 20);
      const core::Bandwidth bw = core::measure_bandwidth(devices.compute(k), quick);
      dir.manifest()["devices"][k]["copy_GBs"] = bw.copy.median;
      dir.manifest()["devices"][k]["triad_GBs"] = bw.triad.median;
    }
  }

  core::PlanOptions layout;
  layout.granule = g.plane();
  layout.halo = 1;
  core::Plan<Real> a(devices, g.size(), layout), b(devices, g.size(), layout);
  const std::vector<double> u0 = initial_field(g);
  a.scatter(std::vector<Real>(u0.begin(), u0.end()));

  const Real r = static_cast<Real>(diffusion_number);
  std::vector<core::Kernel> forward, backward;  // a -> b and b -> a
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::Program& program = devices.context(k).program("app/selftest/selftest.cl", core::BuildOptions(precision));
    const int nz_local = static_cast<int>(a.share(k).count / g.plane());
    const int z0 = static_cast<int>(a.share(k).offset / g.plane());
    forward.push_back(program.kernel("selftest_diffuse"));
    forward.back().args(b.buffer(k), a.buffer(k), g.nx, g.ny, nz_local, z0, g.nz, r);
    backward.push_back(program.kernel("selftest_diffuse"));
    backward.back().args(a.buffer(k), b.buffer(k), g.nx, g.ny, nz_local, z0, g.nz, r);
  }

  const io::ImageGrid image{{static_cast<std::size_t>(g.nx), static_cast<std::size_t>(g.ny),
                             static_cast<std::size_t>(g.nz)}, {0, 0, 0}, {1, 1, 1}};
  const bool vti = c.get<bool>("output.vti");
  std::optional<io::PvdSeries> series;
  if (vti) series.emplace(dir.file("field.pvd"));
  io::CsvWriter csv(dir.file("selftest.csv"), {"step", "min", "max", "total"});
  dir.add_output("selftest.csv", "field minimum, maximum and total per output step");
  std::vector<Real> host(g.size());
  display::Progress progress(steps, "selftest", ctx.verbosity);
  auto output = [&](long step) {
    devices.finish();
    (step % 2 ? b : a).gather(host);
    const FieldStats s = check_field(g, host, step);
    csv.add_row({static_cast<double>(step), s.min, s.max, s.sum});
    if (vti) {
      char name[32];
      std::snprintf(name, sizeof name, "field_%06ld.vti", step);
      const io::Field field("u", host);
      io::write_vti(dir.file(name), image, std::span(&field, 1));
      series->add(static_cast<double>(step), dir.file(name));
      progress.note("wrote " + dir.file(name).string());
    }
    return s;
  };

  const FieldStats first = output(0);
  std::vector<core::Event> ready(devices.size());
  long done = 0;
  const core::WallTimer stepping;
  while (done < steps && !io::interrupted()) {
    core::Plan<Real>& in = done % 2 ? b : a;
    in.begin_halo_exchange(ready);
    const std::vector<core::Event> halos = in.end_halo_exchange();
    for (std::size_t k = 0; k < devices.size(); ++k) {
      const core::Kernel& kernel = done % 2 ? backward[k] : forward[k];
      const std::size_t nz_local = in.share(k).count / g.plane();
      ready[k] = kernel.launch(devices.compute(k), {static_cast<std::size_t>(g.nx), static_cast<std::size_t>(g.ny),
                                                    nz_local}, {}, std::span(&halos[k], 1));
    }
    ++done;
    progress.update(done);
    if (done % every == 0 && done < steps) output(done);
  }
  const FieldStats last = output(done);
  dir.add_timing("steps", stepping.seconds());
  progress.finish();
  csv.close();
  if (vti) {
    dir.add_output("field.pvd", "the field u every output.every steps (.vti series)");
    dir.add_output("field_*.vti", "the field u at the step its name gives");
  }

  std::vector<double> ref = u0, next(g.size());
  for (long s = 0; s < done; ++s) {
    reference_step(g, ref, next);
    ref.swap(next);
  }
  double max_diff = 0, max_ref = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    max_diff = std::max(max_diff, std::abs(static_cast<double>(host[i]) - ref[i]));
    max_ref = std::max(max_ref, std::abs(ref[i]));
  }
  const double error = max_diff / max_ref;
  const double drift = std::abs(last.sum - first.sum) / std::abs(first.sum);

  if (c.get<bool>("output.png")) {
    const std::size_t mid = static_cast<std::size_t>(g.nz / 2) * g.plane();
    display::PreviewOptions look;
    look.title = "u at z = " + std::to_string(g.nz / 2) + " after " + std::to_string(done) + " steps";
    look.value_label = "u";
    const display::PreviewField slice{std::span<const Real>(host).subspan(mid, g.plane()), static_cast<std::size_t>(g.nx),
                                 static_cast<std::size_t>(g.ny)};
    display::write_preview_png(dir.file("field_mid_z.png"), slice, 800, 600, look);
    dir.add_output("field_mid_z.png", "preview of the final field's middle z-plane");
  }
  if (c.get<bool>("output.hdf5")) {
    const io::Field field("u", host);
    io::write_hdf5_xdmf(dir.file("field"), image, std::span(&field, 1));
    dir.add_output("field.xmf", "the final field u (HDF5 + XDMF)");
    dir.add_output("field.h5", "the final field u's data, described by field.xmf");
  }
  const bool passed = error <= tolerance && drift <= tolerance;
  dir.manifest()["result"] = {{"steps", done},          {"max_relative_error", error}, {"total_drift", drift},
                              {"tolerance", tolerance}, {"passed", passed}};
  dir.add_timing("total", total.seconds());
  if (!passed) {
    std::ostringstream msg;
    msg << "self-test failed: device result differs from the host reference by " << error
        << " (relative), total drifted by " << drift << "; tolerance " << tolerance;
    throw core::Error(msg.str());
  }
  std::ostringstream headline;
  headline << "self-test passed after " << done << " steps: max relative error " << error
           << " vs the host reference, total drift " << drift << "; tolerance " << tolerance;
  print_headline(ctx, headline.str());
  return done < steps ? RunOutcome::interrupted : RunOutcome::complete;
}

}  // namespace

casefile::Schema SelftestCase::schema() const {
  casefile::Schema s("selftest", "device self-test: diffusion on a grid split over the devices, checked against the host");
  auto& t = s.section("selftest", "the self-test run");
  t.key<std::vector<int>>("size", {48, 40, 32}, "grid size nx, ny, nz").length(3).at_least(2).unit("cells");
  t.key<int>("steps", 200, "number of diffusion steps").at_least(1);
  t.key<std::string>("precision", "float", "real type of the kernels (-D REAL=...)").one_of({"float", "double"});
  t.key<double>("tolerance", 1e-5, "largest relative difference to the host reference and largest drift of the total")
      .above(0)
      .below(1);
  t.key<bool>("bandwidth", true, "measure each device's copy and triad bandwidth into the manifest");
  s.section("output").key<int>("every", 50, "output interval").at_least(1).unit("steps");
  return s;
}

RunOutcome SelftestCase::run(const casefile::Case& c, RunContext& context) const {
  const core::Precision precision = core::parse_precision(c.get<std::string>("selftest.precision"));
  return precision == core::Precision::f64 ? run_typed<double>(c, context, precision)
                                           : run_typed<float>(c, context, precision);
}

}  // namespace hetflow::app
