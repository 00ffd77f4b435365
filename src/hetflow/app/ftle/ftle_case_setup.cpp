#include "hetflow/app/ftle/ftle_case_setup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <numbers>
#include <optional>

#include "hetflow/app/ftle/ftle_body_keys.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/ftle/velocity_io.hpp"
#include "hetflow/display/colormap.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

// Every flow's parameter subsection of `ftle:`; `file` reads ftle.velocity.
const std::vector<std::string> flows{"double_gyre", "bickley_jet", "abc", "cellular", "linear", "file"};

std::string section_of(const std::string& flow) { return flow == "file" ? "velocity" : flow; }

std::string number(double v) { return core::number_text(v, 10); }

std::string list_text(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + number(v[i]);
  return s + "]";
}

bool overridden(const casefile::Case& c, const std::string& path) {
  return c.where(path).find(" (--set ") != std::string::npos;
}

// Whether ftle.steps decides the step count: it is > 0, and ftle.dt is not a later word on the matter
// (a --set of dt overrides steps written in the case, as a --set of steps overrides a written dt).
bool steps_decide(const casefile::Case& c) {
  if (c.get<long>("ftle.steps") <= 0) return false;
  return c.is_default("ftle.dt") || !overridden(c, "ftle.dt") || overridden(c, "ftle.steps");
}

// Both given by the same hand (both in the file, or both by --set): which one was meant is unclear. A dt
// written with its default value, as the template prints it, leaves the say to steps.
bool steps_and_dt_conflict(const casefile::Case& c) {
  return c.get<long>("ftle.steps") > 0 && !c.is_default("ftle.steps") && c.is_set("ftle.dt") &&
         overridden(c, "ftle.steps") == overridden(c, "ftle.dt");
}

// Steps from ftle.steps, or from ftle.dt as the fewest steps of at most dt each.
long resolved_steps(const casefile::Case& c) {
  if (steps_decide(c)) return c.get<long>("ftle.steps");
  const double n = std::abs(c.get<double>("ftle.duration")) / c.get<double>("ftle.dt");
  const double whole = std::round(n);
  // T = 15 with dt = 0.1 is 150 steps, though 15 / 0.1 is 150.00000000000003 in binary.
  const double count = std::abs(n - whole) <= 1e-9 * std::max(1.0, whole) ? whole : std::ceil(n);
  return count > static_cast<double>(std::numeric_limits<long>::max() / 2) ? std::numeric_limits<long>::max()
                                                                           : std::max(1L, static_cast<long>(count));
}

bool is_header(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml";
}

// How ftle.velocity.files is read: a raw series' header, one HDF5/NetCDF-4 file, or .vti files.
enum class VelocityFormat { header, hdf5, vti };

VelocityFormat velocity_format(const std::vector<std::string>& files) {
  if (files.size() == 1 && is_header(files[0])) return VelocityFormat::header;
  if (files.size() == 1 && ftle::is_hdf5_velocity_file(files[0])) return VelocityFormat::hdf5;
  return VelocityFormat::vti;
}

// The velocity read by check_ftle_case, kept for make_ftle_setup in the same process so large data
// are read once. Keyed by everything that decides what is read.
struct VelocityCache {
  std::vector<std::string> files;
  std::vector<double> times;
  std::string array;
  std::vector<std::string> components;
  std::shared_ptr<const ftle::VelocityGrid> grid;
};
std::optional<VelocityCache> cache;

std::shared_ptr<const ftle::VelocityGrid> load_velocity(const casefile::Case& c) {
  VelocityCache key;
  key.files = c.get<std::vector<std::string>>("ftle.velocity.files");
  key.times = c.get<std::vector<double>>("ftle.velocity.times");
  key.array = c.get<std::string>("ftle.velocity.array");
  key.components = c.get<std::vector<std::string>>("ftle.velocity.components");
  if (cache && cache->files == key.files && cache->times == key.times && cache->array == key.array &&
      cache->components == key.components)
    return cache->grid;
  ftle::VelocityGrid grid;
  const VelocityFormat format = velocity_format(key.files);
  if (format == VelocityFormat::header) {
    grid = ftle::read_velocity_raw(key.files[0]);
  } else if (format == VelocityFormat::hdf5) {
    grid = ftle::read_velocity_hdf5(key.files[0], {key.components});
  } else {
    std::vector<fs::path> paths(key.files.begin(), key.files.end());
    std::vector<double> times = key.times;
    if (times.empty() && paths.size() == 1) times = {c.get<double>("ftle.t0")};
    grid = ftle::read_velocity_vti(paths, times, key.array);
  }
  grid.check(key.files.size() == 1 ? key.files[0] : key.files[0] + " ...");
  key.grid = std::make_shared<const ftle::VelocityGrid>(std::move(grid));
  cache = key;
  return key.grid;
}

ftle::AnalyticFlow analytic_flow(const casefile::Case& c, const std::string& flow) {
  if (flow == "double_gyre") {
    return ftle::DoubleGyre{c.get<double>("ftle.double_gyre.a"), c.get<double>("ftle.double_gyre.epsilon"),
                            c.get<double>("ftle.double_gyre.omega")};
  }
  if (flow == "bickley_jet") {
    const auto eps = c.get<std::vector<double>>("ftle.bickley_jet.epsilon");
    return ftle::BickleyJet{c.get<double>("ftle.bickley_jet.u"), c.get<double>("ftle.bickley_jet.length"),
                            c.get<double>("ftle.bickley_jet.radius"), {eps[0], eps[1], eps[2]}};
  }
  if (flow == "abc") {
    return ftle::AbcFlow{c.get<double>("ftle.abc.a"), c.get<double>("ftle.abc.b"), c.get<double>("ftle.abc.c"),
                         c.get<double>("ftle.abc.epsilon"), c.get<double>("ftle.abc.omega")};
  }
  if (flow == "cellular") return ftle::CellularFlow{c.get<double>("ftle.cellular.scale")};
  const auto g = c.get<std::vector<double>>("ftle.linear.gradient");
  ftle::LinearFlow linear;
  linear.dimension = g.size() == 9 ? 3 : 2;
  std::copy(g.begin(), g.end(), linear.gradient.begin());
  return linear;
}

struct Region {
  std::vector<double> origin, extent;
  std::vector<long> counts;
};

// Where a flow is seeded when the case leaves seeds.* out.
Region default_region(const casefile::Case& c, const std::string& flow, const ftle::VelocityGrid* grid) {
  if (flow == "double_gyre") return {{0, 0}, {2, 1}, {401, 201}};
  if (flow == "bickley_jet") {
    const double r0 = c.get<double>("ftle.bickley_jet.radius");
    return {{0, -3}, {std::numbers::pi * r0, 6}, {401, 121}};
  }
  const double two_pi = 2 * std::numbers::pi;
  if (flow == "abc") return {{0, 0, 0}, {two_pi, two_pi, two_pi}, {32, 32, 32}};
  if (flow == "cellular") return {{0, 0}, {1, 1}, {201, 201}};
  if (flow == "linear") {
    if (c.get<std::vector<double>>("ftle.linear.gradient").size() == 9) return {{-1, -1, -1}, {2, 2, 2}, {33, 33, 33}};
    return {{-1, -1}, {2, 2}, {101, 101}};
  }
  Region r;
  for (int d = 0; d < grid->dimension; ++d) {
    const auto a = static_cast<std::size_t>(d);
    r.origin.push_back(grid->origin[a]);
    r.extent.push_back(grid->upper(d) - grid->origin[a]);
    r.counts.push_back(static_cast<long>(grid->dims[a]));
  }
  return r;
}

// The case's seeds.* with the flow's defaults for the keys it leaves out.
Region seed_region(const casefile::Case& c, const std::string& flow, const ftle::VelocityGrid* grid) {
  const Region fallback = default_region(c, flow, grid);
  Region r{c.get<std::vector<double>>("seeds.origin"), c.get<std::vector<double>>("seeds.extent"),
           c.get<std::vector<long>>("seeds.counts")};
  if (r.origin.empty()) r.origin = fallback.origin;
  if (r.extent.empty()) r.extent = fallback.extent;
  if (r.counts.empty()) r.counts = fallback.counts;
  return r;
}

int flow_dimension(const casefile::Case& c, const std::string& flow, const ftle::VelocityGrid* grid) {
  if (grid) return grid->dimension;
  return ftle::dimension(analytic_flow(c, flow));
}

ftle::SeedGrid seed_grid(const Region& r) {
  const int dim = static_cast<int>(r.origin.size());
  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
  std::array<std::size_t, 3> counts{1, 1, 1};
  for (std::size_t a = 0; a < r.origin.size(); ++a) {
    lo[a] = r.origin[a];
    hi[a] = r.origin[a] + r.extent[a];
    counts[a] = static_cast<std::size_t>(r.counts[a]);
  }
  return ftle::SeedGrid::spanning(lo, hi, counts, dim);
}

ftle::Config solver_config(const casefile::Case& c) {
  ftle::Config config;
  config.t0 = c.get<double>("ftle.t0");
  config.duration = c.get<double>("ftle.duration");
  config.steps = resolved_steps(c);
  config.integrator = ftle::parse_integrator(c.get<std::string>("ftle.integrator"));
  config.rtol = c.get<double>("ftle.rtol");
  config.atol = c.get<double>("ftle.atol");
  config.interpolation = ftle::parse_interpolation(c.get<std::string>("ftle.interpolation"));
  config.boundary = ftle::parse_boundary(c.get<std::string>("ftle.boundary"));
  config.precision = c.get<std::string>("ftle.precision") == "fp32" ? core::Precision::f32 : core::Precision::f64;
  config.velocity_budget_bytes = static_cast<std::size_t>(c.get<double>("ftle.velocity.budget") * (1 << 20));
  config.work_group = c.get<std::size_t>("ftle.work_group");
  config.groups_per_unit = c.get<std::size_t>("ftle.groups_per_unit");
  const auto free_stream = c.get<std::vector<double>>("ftle.velocity.free_stream");
  std::copy_n(free_stream.begin(), std::min<std::size_t>(free_stream.size(), 3), config.free_stream.begin());
  return config;
}

ftle::SequenceSpec sequence_spec(const casefile::Case& c) {
  ftle::SequenceSpec spec;
  spec.fields = static_cast<std::size_t>(c.get<long>("sequence.count"));
  spec.interval = c.get<double>("sequence.interval");
  spec.method = c.get<std::string>("sequence.method") == "direct" ? ftle::SequenceMethod::direct
                                                                  : ftle::SequenceMethod::intermediate;
  spec.composition = ftle::parse_interpolation(c.get<std::string>("sequence.composition"));
  return spec;
}

// What a sequence (sequence.count > 1) needs beyond a single field's checks.
void check_sequence(const casefile::Case& c, std::vector<std::string>& problems) {
  if (c.get<long>("sequence.count") <= 1) return;
  if (c.get<bool>("output.flow_map"))
    problems.push_back(c.where("output.flow_map") + ": output.flow_map does not apply to a sequence "
                       "(sequence.count > 1): expected false, or sequence.count: 1");
  if (c.get<bool>("output.eigenvector"))
    problems.push_back(c.where("output.eigenvector") + ": output.eigenvector does not apply to a sequence "
                       "(sequence.count > 1): expected false, or sequence.count: 1");
  if (c.get<bool>("output.npy"))
    problems.push_back(c.where("output.npy") + ": output.npy does not apply to a sequence "
                       "(sequence.count > 1): expected false, or sequence.count: 1");
  if (c.get<bool>("output.lambda_min"))
    problems.push_back(c.where("output.lambda_min") + ": output.lambda_min does not apply to a sequence "
                       "(sequence.count > 1): expected false, or sequence.count: 1");
  if (c.get<bool>("output.flow_map_error"))
    problems.push_back(c.where("output.flow_map_error") +
                       ": output.flow_map_error = true does not apply to a sequence (sequence.count > 1): expected "
                       "false, or sequence.count: 1");
  if (c.get<bool>("output.ridges"))
    problems.push_back(c.where("output.ridges") +
                       ": output.ridges = true does not apply to a sequence (sequence.count > 1): the opposite "
                       "direction's field is computed for a single field only: expected false, or sequence.count: 1");
  if (c.get<std::string>("sequence.method") != "flow_maps") return;
  const double interval = c.get<double>("sequence.interval");
  const double T = std::abs(c.get<double>("ftle.duration"));
  if (T == 0.0) return;  // reported already
  const double ratio = T / interval;
  const long w = std::lround(ratio);
  if (w < 1 || std::abs(ratio - static_cast<double>(w)) > 1e-9 * ratio) {
    problems.push_back(c.where("sequence.interval") + ": sequence.interval = " + number(interval) +
                       " does not divide |ftle.duration| = " + number(T) + ": sequence.method flow_maps composes "
                       "|T| / interval short maps of one interval each: expected an interval that divides |T| "
                       "(or sequence.method: direct)");
    return;
  }
  const long steps = resolved_steps(c);
  if (steps % w != 0) {
    const std::string key = steps_decide(c) ? "ftle.steps" : "ftle.dt";
    problems.push_back(c.where(key) + ": " + key + " gives " + std::to_string(steps) + " steps over T, which do not "
                       "split into the " + std::to_string(w) + " short maps of sequence.method flow_maps: expected "
                       "a step count that is a multiple of |T| / sequence.interval = " + std::to_string(w) +
                       " (dt dividing the interval)");
    return;
  }
  if (c.get<std::string>("ftle.flow") == "file" && c.get<std::string>("ftle.boundary") != "clamp")
    problems.push_back(c.where("ftle.boundary") + ": ftle.boundary = " + c.get<std::string>("ftle.boundary") +
                       " does not suit sequence.method flow_maps (the short maps compose on the seed grid only for "
                       "tracers that keep moving inside the data box): expected clamp, or sequence.method: direct");
  // Whatever else the library refuses, said in its words.
  try {
    (void)ftle::Sequence::cost(solver_config(c), sequence_spec(c));
  } catch (const std::exception& e) {
    problems.push_back(c.where("sequence.method") + ": sequence.method = flow_maps: " + e.what());
  }
}

// output.edges: nan hides the seeds on the seed grid's faces; with 2 seeds along an axis every seed is
// on one, and no field would be left.
void check_edges(const casefile::Case& c, const ftle::SeedGrid& seeds, std::vector<std::string>& problems) {
  if (c.get<std::string>("output.edges") != "nan") return;
  for (int d = 0; d < seeds.dimension; ++d) {
    const std::size_t n = seeds.counts[static_cast<std::size_t>(d)];
    if (n >= 3) continue;
    problems.push_back(c.where("output.edges") + ": output.edges = nan leaves no seed: the seed grid has " +
                       std::to_string(n) + " seeds along " + "xyz"[d] +
                       ", all on its faces: expected at least 3 seeds per axis (seeds.counts), or output.edges: "
                       "one_sided");
    return;
  }
}

// The first ftle.velocity key that does not suit the files' format, with why.
std::optional<std::string> velocity_keys_problem(const casefile::Case& c, const std::vector<std::string>& files) {
  const VelocityFormat format = velocity_format(files);
  const bool any_hdf5 = std::any_of(files.begin(), files.end(), [](const std::string& f) {
    return ftle::is_hdf5_velocity_file(f);
  });
  if (format != VelocityFormat::hdf5 && any_hdf5)
    return c.where("ftle.velocity.files") + ": ftle.velocity.files lists " + std::to_string(files.size()) +
           " files with an HDF5/NetCDF-4 file among them: expected that one file alone (it holds every snapshot)";
  const char* owner = format == VelocityFormat::header ? "a .yaml header, which gives the snapshots' times itself"
                                                       : "an HDF5/NetCDF-4 file, which gives the snapshots' times itself";
  if (format != VelocityFormat::vti && c.is_set("ftle.velocity.times"))
    return c.where("ftle.velocity.times") + ": ftle.velocity.times does not apply to " + owner;
  if (format != VelocityFormat::vti && c.is_set("ftle.velocity.array"))
    return c.where("ftle.velocity.array") + ": ftle.velocity.array applies to .vti files only" +
           (format == VelocityFormat::hdf5 ? ": an HDF5/NetCDF-4 file names its variables in "
                                             "ftle.velocity.components" : "");
  if (format != VelocityFormat::hdf5 && c.is_set("ftle.velocity.components"))
    return c.where("ftle.velocity.components") + ": ftle.velocity.components applies to an HDF5/NetCDF-4 file "
           "(.h5, .hdf5, .nc) only";
  return std::nullopt;
}

void check_seeds_in_data(const casefile::Case& c, const ftle::VelocityGrid& g, const Region& r,
                         std::vector<std::string>& problems) {
  if (c.get<std::string>("ftle.boundary") == "periodic") return;
  for (std::size_t a = 0; a < r.origin.size(); ++a) {
    const double lo = r.origin[a], hi = r.origin[a] + r.extent[a];
    const double slack = 1e-9 * g.spacing[a];
    const double box_lo = g.origin[a], box_hi = g.upper(static_cast<int>(a));
    const bool low = lo < box_lo - slack, high = hi > box_hi + slack;
    if (!low && !high) continue;
    // Name the key that moves the offending end: the origin for the low end, the extent for the high one
    // (or the origin when the extent is the default).
    const std::string key = low || c.is_default("seeds.extent") ? "seeds.origin" : "seeds.extent";
    problems.push_back(c.where(key) + ": " + key + ": the seeding region spans [" + number(lo) + ", " + number(hi) +
                       "] along " + "xyz"[a] + ", outside the velocity data's [" + number(box_lo) + ", " +
                       number(box_hi) + "]: expected seeds.origin and seeds.origin + seeds.extent inside the data "
                       "box (or ftle.boundary: periodic)");
  }
}

}  // namespace

std::vector<std::string> ftle_overruled_keys(const casefile::Case& c) {
  if (c.get<long>("ftle.steps") <= 0 || c.is_default("ftle.steps") || c.is_default("ftle.dt")) return {};
  return {steps_decide(c) ? "ftle.dt" : "ftle.steps"};
}

void declare_ftle_keys(casefile::Schema& s) {
  auto& f = s.section("ftle", "the FTLE computation: velocity, time window and numerics");
  f.key<std::string>("flow", "double_gyre", "velocity source: an analytic flow (parameters in the subsection of "
                                            "its name) or file (gridded velocity, ftle.velocity)")
      .one_of(flows);
  f.key<double>("t0", 0.0, "start time of the integration window").unit("time");
  f.key<double>("duration", 15.0, "integration time T: > 0 forward (repelling structures), < 0 backward "
                                  "(attracting); not 0")
      .unit("time");
  f.key<long>("steps", 0, "time steps over T; 0: from dt (a --set of one of steps and dt overrides the other "
                          "given in the case)")
      .at_least(0);
  f.key<double>("dt", 0.1, "largest time step when steps is 0: steps = |T| / dt rounded up, dt = T / steps")
      .above(0)
      .unit("time");
  f.key<std::string>("integrator", "rk4",
                     "fixed-step (euler, heun, rk4: order 1, 2, 4) or adaptive (dopri5: Dormand-Prince 5(4); "
                     "dop853: order 8), whose tracers each fill every step of dt with substeps chosen by error "
                     "control (ftle.rtol, ftle.atol): with them take few steps, e.g. dt = |T| / 10")
      .one_of({"euler", "heun", "rk4", "dopri5", "dop853"});
  f.key<double>("rtol", 1e-6, "dopri5, dop853: relative tolerance of each substep's error estimate (at least 1e-14 "
                              "in fp64, 1e-6 in fp32)")
      .above(0);
  f.key<double>("atol", 1e-9, "dopri5, dop853: absolute tolerance of each substep's error estimate").at_least(0).unit(
      "length");
  f.key<std::string>("interpolation", "m4prime", "gridded velocity between nodes (flow: file)")
      .one_of({"m4prime", "linear"});
  f.key<std::string>("boundary", "clamp",
                     "gridded velocity at and beyond the data box's faces (flow: file): extrapolate continues it "
                     "linearly, free_stream lets the data fall to 0 beyond them, freeze stops tracers at their "
                     "exit and writes exit_time")
      .one_of({"clamp", "stop", "periodic", "extrapolate", "free_stream", "freeze"});
  f.key<std::string>("precision", "fp64", "tracer positions and velocity arithmetic").one_of({"fp32", "fp64"});
  f.key<int>("work_group", 0, "work-items per work-group of the kernels; 0 (with groups_per_unit 0): tuned "
                              "(hetflow tune ftle) or 64").at_least(0);
  f.key<int>("groups_per_unit", 0, "work-groups per compute unit in a launch; 0: tuned or 32").at_least(0).at_most(4096);

  auto& dg = f.section("double_gyre", "psi = A sin(pi f(x, t)) sin(pi y), f = a x^2 + b x, a = epsilon sin(omega t), "
                                      "b = 1 - 2a, on [0, 2] x [0, 1] (Shadden et al. 2005)");
  dg.key<double>("a", 0.1, "velocity amplitude A");
  dg.key<double>("epsilon", 0.25, "amplitude of the gyres' oscillation");
  dg.key<double>("omega", 2 * std::numbers::pi / 10, "angular frequency of the oscillation (2 pi / 10)").unit("1/time");
  auto& bj = f.section("bickley_jet", "zonal jet U sech^2(y / L) with three Rossby waves (Rypina et al. 2007); Mm, s");
  bj.key<double>("u", 62.66e-6, "jet speed U").above(0).unit("Mm/s");
  bj.key<double>("length", 1.77, "jet width L").above(0).unit("Mm");
  bj.key<double>("radius", 6.371, "earth radius r0; x is periodic over pi r0").above(0).unit("Mm");
  bj.key<std::vector<double>>("epsilon", std::vector<double>{0.0075, 0.15, 0.3}, "wave amplitudes").length(3);
  auto& abc = f.section("abc", "u = (A sin z + C cos y, B sin x + A cos z, C sin y + B cos x), "
                               "A(t) = A + epsilon sin(omega t); 3D, periodic over 2 pi");
  abc.key<double>("a", std::numbers::sqrt3, "coefficient A (sqrt 3)");
  abc.key<double>("b", std::numbers::sqrt2, "coefficient B (sqrt 2)");
  abc.key<double>("c", 1.0, "coefficient C");
  abc.key<double>("epsilon", 0.0, "amplitude of A's oscillation; 0: steady");
  abc.key<double>("omega", 1.0, "angular frequency of A's oscillation").unit("1/time");
  f.section("cellular", "steady cellular flow psi = s cos(pi x) cos(pi y), a saddle at (1/2, 1/2)")
      .key<double>("scale", 1.0, "s");
  f.section("linear", "u = G x with a constant gradient G")
      .key<std::vector<double>>("gradient", std::vector<double>{1, 0, 0, -1},
                                "G row by row: 4 entries (2D) or 9 (3D); [1, 0, 0, -1] is a saddle");
  auto& v = f.section("velocity", "gridded velocity (flow: file), docs/ftle.md");
  v.key<std::vector<std::string>>("files", std::vector<std::string>{},
                                  "a raw series' .yaml header, one HDF5 or NetCDF-4 file (.h5, .hdf5, .nc), or .vti "
                                  "files (one per snapshot)")
      .path();
  v.key<std::vector<double>>("times", std::vector<double>{},
                             "time of each .vti file, increasing; [] with one file: a steady flow")
      .unit("time");
  v.key<std::string>("array", "", ".vti point-data array of 2 or 3 components; \"\": the first such array");
  v.key<std::vector<std::string>>("components", std::vector<std::string>{},
                                  "HDF5/NetCDF-4 file: the velocity components' variables, 2 (2D) or 3 (3D); []: u, "
                                  "v, and w when the file has one");
  v.key<double>("budget", 0.0,
                "device memory per device for the snapshots; a larger series is streamed from pinned host "
                "memory through a ring of slots; 0: half the device memory")
      .at_least(0)
      .unit("MiB");
  v.key<std::vector<double>>("free_stream", std::vector<double>{},
                             "a uniform velocity U added to the interpolated velocity everywhere, 2 entries (2D) or "
                             "3 (3D); []: none");
  declare_body_keys(f);

  auto& seeds = s.section("seeds", "where tracers start: counts seeds per axis spanning [origin, origin + extent]; "
                                   "2 entries in 2D, 3 in 3D; [] takes the flow's default (double gyre: "
                                   "[0, 0] + [2, 1], 401 x 201; file: the data box, one seed per node)");
  seeds.key<std::vector<double>>("origin", std::vector<double>{}, "lower corner of the seeding region");
  seeds.key<std::vector<double>>("extent", std::vector<double>{}, "size of the seeding region per axis").above(0);
  seeds.key<std::vector<long>>("counts", std::vector<long>{}, "seeds per axis").at_least(2);

  auto& o = s.section("output");
  o.key<int>("every", 100, "not used by ftle: the field is written once, at t0 + T").at_least(1).unit("steps");
  o.key<std::string>("colormap", "viridis", "PNG colour map").one_of(display::colormap_names());
  o.key<std::vector<double>>("range", std::vector<double>{},
                             "PNG colour range [min, max], also of both layers of ridges.png; []: auto (the field's "
                             "min and max; in ridges.png each field's median to its max)");
  o.key<bool>("flow_map", false, "also write the final tracer positions (flow_map, 3 components) into ftle.vti");
  auto& pl = o.section("pathlines", "tracer pathlines of selected seeds as pathlines.vtp (single fields only)");
  pl.key<long>("every", 0, "record the tracers every N steps (and at t0 and t0 + T); 0: no pathlines")
      .at_least(0)
      .unit("steps");
  pl.key<std::vector<long>>("stride", std::vector<long>{}, "every stride-th seed per axis (2 entries in 2D, 3 in "
                                                           "3D); []: every seed")
      .at_least(1);
  o.key<bool>("eigenvector", false, "also write the direction of largest stretching (eigenvector: the unit "
                                    "eigenvector of F^T F's largest eigenvalue, 3 components) into ftle.vti");
  o.key<bool>("lambda_min", false, "also write ftle_min = ln(lambda_min(F^T F)) / 2|T|, the smallest exponent, "
                                   "into ftle.vti (single fields only)");
  o.key<bool>("npy", false, "also write the field as ftle.npy for NumPy: float64 of shape (ny, nx), or "
                            "(nz, ny, nx) in 3D, x fastest, and with output.flow_map the final positions as "
                            "flow_map.npy, shape (ny, nx, 2) or (nz, ny, nx, 3) (single fields only)");
  o.key<bool>("flow_map_error", false,
              "also integrate the seeds by DOP853 in fp64 at rtol 1e-13 after the case's own field and report how "
              "far the case's final positions lie from that reference (result.flow_map_error: largest and rms "
              "distance; single fields only)");
  o.key<bool>("ridges", false,
              "also compute the opposite direction's field (T -> -T, same t0 and seeds) after the case's own: "
              "ftle_backward (ftle_forward when T < 0) beside ftle in ftle.vti, the HDF5 and the .npy files, and "
              "ridges.png: forward FTLE in reds times backward in blues, a colour bar each, output.range applying to "
              "both (single fields only)");
  o.key<std::string>("edges", "one_sided",
                     "the seeds on the seed grid's faces: first-order differences, or NaN (also left out of "
                     "the statistics)")
      .one_of({"one_sided", "nan"});

  auto& q = s.section("sequence", "a movie of FTLE fields over start times t0 + k interval, k = 0 .. count - 1, "
                                  "each over the same T (docs/ftle.md, \"Sequences of fields\")");
  q.key<long>("count", 1, "fields (start times); 1: a single field, no sequence").at_least(1);
  q.key<double>("interval", 1.0, "time between start times; for flow_maps also the short maps' length, which "
                                 "must divide |T|")
      .above(0)
      .unit("time");
  q.key<std::string>("method", "direct", "direct: one integration over T per field; flow_maps: short maps over "
                                         "one interval each, integrated once and composed (Brunton & Rowley)")
      .one_of({"direct", "flow_maps"});
  q.key<std::string>("composition", "m4prime", "flow_maps: how a short map is interpolated between seeds")
      .one_of({"m4prime", "linear"});
}

void check_ftle_case(const casefile::Case& c, std::vector<std::string>& problems,
                     std::shared_ptr<const ftle::VelocityGrid> given) {
  if (c.get<double>("ftle.duration") == 0.0)
    problems.push_back(c.where("ftle.duration") + ": ftle.duration = 0 is out of range: expected a real number "
                       "other than 0 (T > 0 forward, T < 0 backward) [time]");
  if (steps_and_dt_conflict(c))
    problems.push_back(c.where("ftle.dt") + ": ftle.dt and ftle.steps are both given: expected one of them");
  const std::string integrator = c.get<std::string>("ftle.integrator");
  for (const char* key : {"ftle.rtol", "ftle.atol"}) {
    if (c.is_set(key) && !ftle::adaptive(ftle::parse_integrator(integrator)))
      problems.push_back(c.where(key) + ": " + key + " applies to the adaptive integrators dopri5 and dop853; "
                         "ftle.integrator is " + integrator + ", which takes fixed steps of ftle.dt");
  }
  const double finest = ftle::finest_rtol(c.get<std::string>("ftle.precision") == "fp32" ? core::Precision::f32
                                                                                         : core::Precision::f64);
  if (ftle::adaptive(ftle::parse_integrator(integrator)) && c.get<double>("ftle.rtol") < finest)
    problems.push_back(c.where("ftle.rtol") + ": ftle.rtol = " + number(c.get<double>("ftle.rtol")) +
                       " is finer than " + c.get<std::string>("ftle.precision") + " positions resolve: expected at "
                       "least " + number(finest));
  if (resolved_steps(c) > static_cast<long>(std::numeric_limits<std::uint32_t>::max()))
    problems.push_back(c.where(steps_decide(c) ? "ftle.steps" : "ftle.dt") +
                       ": the run would take more than 2^32 - 1 steps: expected fewer steps or a larger dt");
  if (c.is_set("output.every"))
    problems.push_back(c.where("output.every") + ": output.every does not apply to type ftle: the FTLE field is "
                       "written once, at t0 + T");

  // Keys of flows other than the chosen one are mistakes worth reporting: a bickley_jet.U under
  // flow: double_gyre suggests the wrong flow was picked.
  const std::string flow = c.get<std::string>("ftle.flow");
  for (const std::string& path : c.paths()) {
    if (path.rfind("ftle.", 0) != 0 || !c.is_set(path)) continue;
    const auto dot = path.find('.', 5);
    if (dot == std::string::npos) continue;
    const std::string sub = path.substr(5, dot - 5);
    if (sub != section_of(flow) && sub != "body")
      problems.push_back(c.where(path) + ": " + path + " does not apply to ftle.flow = " + flow +
                         (flow == "file" ? ": that flow reads ftle.velocity" : ": that flow reads ftle." + flow));
  }
  if (flow != "file") {
    for (const char* key : {"ftle.interpolation", "ftle.boundary"}) {
      if (c.is_set(key))
        problems.push_back(c.where(key) + ": " + key + " applies to gridded velocity only (ftle.flow: file), "
                           "not to the analytic flow " + flow);
    }
  }
  if (flow == "linear") {
    const std::size_t n = c.get<std::vector<double>>("ftle.linear.gradient").size();
    if (n != 4 && n != 9) {
      problems.push_back(c.where("ftle.linear.gradient") + ": ftle.linear.gradient has " + std::to_string(n) +
                         " entries: expected 4 (2D) or 9 (3D), row by row");
      return;
    }
  }

  std::shared_ptr<const ftle::VelocityGrid> grid;
  if (flow == "file" && given) {
    grid = std::move(given);
  } else if (flow == "file") {
    const auto files = c.get<std::vector<std::string>>("ftle.velocity.files");
    const auto times = c.get<std::vector<double>>("ftle.velocity.times");
    if (files.empty()) {
      problems.push_back(c.where("ftle.velocity.files") + ": ftle.velocity.files is required for ftle.flow = file: "
                         "expected a raw series' .yaml header or a list of .vti files");
      return;
    }
    if (const auto problem = velocity_keys_problem(c, files)) {
      problems.push_back(*problem);
      return;
    }
    if (velocity_format(files) == VelocityFormat::vti && times.size() != files.size() &&
        !(times.empty() && files.size() == 1)) {
      problems.push_back(c.where("ftle.velocity.times") + ": ftle.velocity.times has " +
                         std::to_string(times.size()) + " entries for " + std::to_string(files.size()) +
                         " .vti files: expected one time per file");
      return;
    }
    try {
      grid = load_velocity(c);
    } catch (const std::exception& e) {
      problems.push_back(c.where("ftle.velocity.files") + ": ftle.velocity.files = " +
                         c.path_text("ftle.velocity.files") + ": " + e.what());
      return;
    }
  }

  const int dim = flow_dimension(c, flow, grid.get());
  bool shape_ok = true;
  for (const char* key : {"seeds.origin", "seeds.extent", "seeds.counts"}) {
    const std::size_t n = std::string(key) == "seeds.counts" ? c.get<std::vector<long>>(key).size()
                                                             : c.get<std::vector<double>>(key).size();
    if (n == 0 || n == static_cast<std::size_t>(dim)) continue;
    shape_ok = false;
    problems.push_back(c.where(key) + ": " + key + " has " + std::to_string(n) + " entries: expected " +
                       std::to_string(dim) + " (the flow " + flow + " is " + std::to_string(dim) + "D), or [] for "
                       "the flow's default");
  }
  if (grid) {
    const std::size_t n = c.get<std::vector<double>>("ftle.velocity.free_stream").size();
    if (n != 0 && n != static_cast<std::size_t>(dim))
      problems.push_back(c.where("ftle.velocity.free_stream") + ": ftle.velocity.free_stream has " + std::to_string(n) +
                         " entries: expected " + std::to_string(dim) + " (the velocity data are " +
                         std::to_string(dim) + "D), or [] for none");
    for (const double u : c.get<std::vector<double>>("ftle.velocity.free_stream")) {
      if (std::isfinite(u)) continue;
      problems.push_back(c.where("ftle.velocity.free_stream") + ": ftle.velocity.free_stream = " +
                         list_text(c.get<std::vector<double>>("ftle.velocity.free_stream")) +
                         ": expected finite components");
      break;
    }
  }
  if (shape_ok) {
    const ftle::SeedGrid seeds = seed_grid(seed_region(c, flow, grid.get()));
    check_body_keys(c, dim, &seeds, problems);
    check_edges(c, seeds, problems);
  } else {
    check_body_keys(c, dim, nullptr, problems);
  }
  if (shape_ok && grid) {
    const Region r = seed_region(c, flow, grid.get());
    check_seeds_in_data(c, *grid, r, problems);
    if (grid->times.size() > 1) {
      const double t0 = c.get<double>("ftle.t0"), t1 = t0 + c.get<double>("ftle.duration");
      const double slack = 1e-9 * (grid->times.back() - grid->times.front());
      const double lo = std::min(t0, t1), hi = std::max(t0, t1);
      const bool first_outside = lo < grid->times.front() - slack || hi > grid->times.back() + slack;
      if (first_outside)
        problems.push_back(c.where(t0 < grid->times.front() - slack || t0 > grid->times.back() + slack
                                       ? "ftle.t0" : "ftle.duration") +
                           ": the integration window [" + number(lo) + ", " + number(hi) + "] (ftle.t0, ftle.t0 + "
                           "ftle.duration) leaves the velocity snapshots' times [" + number(grid->times.front()) +
                           ", " + number(grid->times.back()) + "]: expected t0 and t0 + T inside them");
      // output.ridges integrates the other way from t0 too.
      const double back = t0 - c.get<double>("ftle.duration");
      if (!first_outside && c.get<bool>("output.ridges") &&
          (back < grid->times.front() - slack || back > grid->times.back() + slack))
        problems.push_back(c.where("output.ridges") +
                           ": output.ridges = true integrates the opposite direction over [" +
                           number(std::min(t0, back)) + ", " + number(std::max(t0, back)) +
                           "] (ftle.t0, ftle.t0 - ftle.duration), which leaves the velocity snapshots' times [" +
                           number(grid->times.front()) + ", " + number(grid->times.back()) +
                           "]: expected t0 - T inside them too, or output.ridges: false");
      // A sequence's last field starts (count - 1) intervals later.
      const double shift = static_cast<double>(c.get<long>("sequence.count") - 1) * c.get<double>("sequence.interval");
      const double last_lo = lo + shift, last_hi = hi + shift;
      if (!first_outside && shift > 0 && last_hi > grid->times.back() + slack)
        problems.push_back(c.where("sequence.count") + ": the sequence's last field integrates over [" +
                           number(last_lo) + ", " + number(last_hi) + "] (start time ftle.t0 + (sequence.count - 1) "
                           "sequence.interval), beyond the velocity snapshots' last time " +
                           number(grid->times.back()) + ": expected fewer fields or a shorter interval");
    }
  }

  check_sequence(c, problems);
  if (c.get<long>("output.pathlines.every") > 0 && c.get<long>("sequence.count") > 1)
    problems.push_back(c.where("output.pathlines.every") + ": output.pathlines does not apply to a sequence "
                       "(sequence.count > 1): expected output.pathlines.every: 0, or sequence.count: 1");
  const std::size_t strides = c.get<std::vector<long>>("output.pathlines.stride").size();
  if (strides != 0 && strides != static_cast<std::size_t>(dim))
    problems.push_back(c.where("output.pathlines.stride") + ": output.pathlines.stride has " +
                       std::to_string(strides) + " entries: expected " + std::to_string(dim) + " (the flow " + flow +
                       " is " + std::to_string(dim) + "D), or [] for every seed");

  const auto range = c.get<std::vector<double>>("output.range");
  if (!range.empty() && (range.size() != 2 || !(range[0] < range[1])))
    problems.push_back(c.where("output.range") + ": output.range = " + list_text(range) +
                       ": expected [min, max] with min < max, or [] for auto");
}

FtleSetup make_ftle_setup(const casefile::Case& c, std::shared_ptr<const ftle::VelocityGrid> given) {
  FtleSetup s;
  const std::string flow = c.get<std::string>("ftle.flow");
  std::shared_ptr<const ftle::VelocityGrid> grid;
  if (flow == "file") {
    grid = given ? std::move(given) : load_velocity(c);
    s.flow = grid;
    s.info = {{"kind", "file"},
              {"dimension", grid->dimension},
              {"dims", grid->dims},
              {"origin", grid->origin},
              {"spacing", grid->spacing},
              {"snapshots", grid->snapshots.size()},
              {"times", {grid->times.front(), grid->times.back()}}};
  } else {
    s.flow = analytic_flow(c, flow);
    s.info = {{"kind", flow}, {"dimension", flow_dimension(c, flow, nullptr)}};
  }
  s.seeds = seed_grid(seed_region(c, flow, grid.get()));
  s.config = solver_config(c);
  s.sequence = sequence_spec(c);
  s.body = make_body(c, s.seeds.dimension);
  s.nan_edges = c.get<std::string>("output.edges") == "nan";
  if (s.body) s.info["body"] = body_info(*s.body, c);
  if (grid) {
    const auto u = s.config.free_stream.begin();
    s.info["free_stream"] = std::vector<double>(u, u + grid->dimension);
  }
  return s;
}

}  // namespace hetflow::app
