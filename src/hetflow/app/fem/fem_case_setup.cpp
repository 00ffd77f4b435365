#include "hetflow/app/fem/fem_case_setup.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hetflow/core/number_text.hpp"

namespace hetflow::app {
namespace {

// The smallest relative residual asked of an FP32 pressure CG: its matrix and vectors are rounded to
// single precision (2^-24), so a residual much below this would be the rounding's, not the solve's
// (docs/fem.md, Precision).
constexpr double fp32_tolerance = 1e-6;

fem::Vec3 vec3(const std::vector<double>& v) { return {v[0], v[1], v[2]}; }

int axis_index(const std::string& name) { return name == "x" ? 0 : name == "y" ? 1 : 2; }

fem::BoundaryKind boundary_kind(const std::string& name) {
  if (name == "velocity") return fem::BoundaryKind::velocity;
  if (name == "slip") return fem::BoundaryKind::slip;
  if (name == "outlet") return fem::BoundaryKind::outlet;
  return fem::BoundaryKind::no_slip;
}

fem::VelocityProfile velocity_profile(const std::string& name) {
  if (name == "parabolic") return fem::VelocityProfile::parabolic;
  if (name == "pipe") return fem::VelocityProfile::pipe;
  return fem::VelocityProfile::constant;
}

std::string entry_key(const std::string& section, const std::string& name, const char* key) {
  return section + "." + name + "." + key;
}

}  // namespace

void declare_fem_setup(casefile::Schema& s) {
  auto& f = s.section("fluid", "constant density and viscosity");
  f.key<double>("density", 1.0, "rho").above(0).unit("kg/m^3");
  f.key<double>("viscosity", "nu, kinematic").above(0).unit("m^2/s");
  f.key<std::vector<double>>("body_force", std::vector<double>{0, 0, 0}, "f per unit mass, e.g. gravity")
      .length(3)
      .unit("m/s^2");

  auto& b = s.entries("boundary", "one entry per mesh patch, named as the patch; every patch needs one");
  b.key<std::string>("type", "velocity: u = value (x profile x ramp); no_slip: u = 0; slip: u.n = 0; outlet: "
                             "p = pressure, u free")
      .one_of({"velocity", "no_slip", "slip", "outlet"});
  b.key<std::vector<double>>("value", std::vector<double>{0, 0, 0}, "velocity: the velocity (its peak for "
                                                                    "parabolic and pipe profiles)")
      .length(3)
      .unit("m/s");
  b.key<std::string>("profile", "constant", "velocity: constant; parabolic: value x 4s(1-s) across each axis of "
                                           "`across`, s scaled over the patch; pipe: value x (1 - r^2/R^2)")
      .one_of({"constant", "parabolic", "pipe"});
  b.key<std::vector<std::string>>("across", std::vector<std::string>{}, "parabolic: the axes the profile varies "
                                                                        "across")
      .one_of({"x", "y", "z"});
  b.key<double>("ramp", 0.0, "velocity: rise time T of the factor (1 - cos(pi t/T))/2; 0: none").at_least(0).unit("s");
  b.key<double>("pressure", 0.0, "outlet: the pressure held there").unit("Pa");

  auto& t = s.section("time", "the steps: adaptive (Courant number) or fixed");
  t.key<double>("end", "the simulated time to reach; a restart continues to it").above(0).unit("s");
  t.key<double>("courant", 0.9, "adaptive step dt = courant / max(2|u|/h + 4 nu/h^2)").above(0);
  t.key<double>("max_dt", 0.0, "the adaptive step's upper bound; 0: none").at_least(0).unit("s");
  t.key<double>("dt", 0.0, "a fixed step instead; 0: adaptive").at_least(0).unit("s");
  t.key<double>("max_courant", 2.0, "a step whose Courant number exceeds this stops the run (a fixed dt too "
                                    "long, a field blowing up)")
      .above(0);
  t.key<double>("steady_tolerance", 0.0, "stop before time.end once |d(kinetic energy)/dt| / kinetic energy "
                                         "falls below this; 0: run to time.end")
      .at_least(0)
      .unit("1/s");

  auto& v = s.section("solver", "the fractional step and its pressure solve");
  v.key<double>("theta", 0.5, "pressure-increment factor: 1/2 the paper's, 1 incremental projection")
      .range(0, 1, casefile::Bounds::exclusive_min);
  v.key<double>("tolerance", 1e-8, "the pressure CG's relative residual").above(0);
  v.key<std::string>("edge_precision", "fp64", "device storage of the 12 numbers per directed edge; fp32 halves the "
                                              "edge loops' traffic, the arithmetic stays fp64 (docs/fem.md, Precision)")
      .one_of({"fp64", "fp32"});
  v.key<std::string>("cg_precision", "fp64", "of the pressure CG's matrix and vectors; fp32 moves fewer bytes per "
                                            "iteration and needs solver.tolerance >= 1e-6 (docs/fem.md, Precision)")
      .one_of({"fp64", "fp32"});
  v.key<bool>("mass_correction", false, "also remove the divergence the last step left (the paper's Kratos "
                                         "source's default)");
  v.key<std::string>("preconditioner", "amg", "of the pressure CG: amg (smoothed aggregation, built once from the "
                                             "stiffness) or jacobi (the paper's)")
      .one_of({"amg", "jacobi"});
  v.key<int>("max_iterations", 5000, "the pressure CG's iterations before the run stops").at_least(1);
  v.key<std::vector<int>>("spmv", std::vector<int>{}, "the pressure SpMV's [wg_bits, row_bits]; empty: tuned "
                                                      "(hetflow tune fem) or [8, 5]")
      .at_least(0)
      .at_most(8);
  v.key<std::vector<double>>("pressure_reference", std::vector<double>{}, "without an outlet, p = 0 at the node "
                                                                          "nearest this point; empty: the first "
                                                                          "boundary node");

  auto& i = s.section("initial", "the state at the start");
  i.key<std::vector<double>>("velocity", std::vector<double>{0, 0, 0}, "uniform initial velocity (boundary "
                                                                       "conditions imposed on it)")
      .length(3)
      .unit("m/s");
  i.key<std::string>("checkpoint", "", "continue from a checkpoint.bin of an earlier run on the same mesh").path();

  auto& fo = s.section("forces", "forces of the fluid on patches, from the reactions at their nodes");
  fo.key<std::vector<std::string>>("patches", std::vector<std::string>{}, "patches whose force forces.csv lists");
  fo.key<double>("reference_velocity", 1.0, "U of the coefficients 2 F / (rho U^2 A)").above(0).unit("m/s");
  fo.key<double>("reference_area", 1.0, "A of the coefficients (D x depth for a cylinder)").above(0).unit("m^2");
  fo.key<std::vector<double>>("drag_direction", std::vector<double>{1, 0, 0}, "the drag coefficient's direction")
      .length(3);
  fo.key<std::vector<double>>("lift_direction", std::vector<double>{0, 1, 0}, "the lift coefficient's direction")
      .length(3);

  auto& o = s.section("output");
  o.key<int>("every", 100, "a snapshot (.vtu, cut-plane PNG, line profiles) every this many steps").at_least(1).unit("steps");
  o.key<double>("interval", 0.0, "also a snapshot at every multiple of this time; steps end on them; 0: none")
      .at_least(0)
      .unit("s");
  o.key<bool>("vti", true, "write the fields as .vtu files with a .pvd series for ParaView");
  o.key<int>("checkpoint_every", 0, "checkpoint.bin every this many steps; 0: at the end only").at_least(0).unit("steps");
  o.key<int>("sample_every", 1, "probes and forces every this many steps").at_least(1).unit("steps");
  o.key<std::string>("slice_axis", "z", "the cut-plane preview's normal; none: no preview").one_of({"x", "y", "z", "none"});
  o.key<std::vector<double>>("slice_position", std::vector<double>{}, "where the plane cuts the axis; empty: "
                                                                      "the middle of the mesh");
  o.key<std::string>("slice_field", "speed", "what the preview shows").one_of(fem_cut_field_names());
  o.key<int>("slice_width", 900, "the preview's width").at_least(kFemCutPlaneMinWidth).unit("pixels");
  auto& p = o.entries("probes", "points sampled into probes.csv, one entry per probe, named as its columns");
  p.key<std::vector<double>>("at", "the point [x, y, z]").length(3);
  auto& l = o.entries("lines", "straight lines sampled at every snapshot into lines/<name>_<step>.csv");
  l.key<std::vector<double>>("from", "the first point [x, y, z]").length(3);
  l.key<std::vector<double>>("to", "the last point [x, y, z]").length(3);
  l.key<int>("points", 101, "points along the line, ends included").at_least(2);
}

void check_fem_setup(const casefile::Case& c, std::vector<std::string>& problems) {
  if (c.get<bool>("output.hdf5"))
    problems.push_back(c.where("output.hdf5") + ": output.hdf5: an incompressible run writes .vtu files, not HDF5; "
                       "leave output.hdf5 out");
  const auto spmv = c.get<std::vector<int>>("solver.spmv");
  if (!spmv.empty() && (spmv.size() != 2 || spmv[1] > spmv[0]))
    problems.push_back(c.where("solver.spmv") + ": solver.spmv must be [wg_bits, row_bits] with row_bits <= wg_bits, "
                       "or empty");
  if (c.get<std::string>("solver.cg_precision") == "fp32" && c.get<double>("solver.tolerance") < fp32_tolerance)
    problems.push_back(c.where("solver.tolerance") + ": solver.tolerance " +
                       core::number_text(c.get<double>("solver.tolerance"), 3) + " is below what an fp32 pressure "
                       "solve reaches; with solver.cg_precision: fp32 give at least " +
                       core::number_text(fp32_tolerance, 3));
  const auto reference = c.get<std::vector<double>>("solver.pressure_reference");
  if (!reference.empty() && reference.size() != 3)
    problems.push_back(c.where("solver.pressure_reference") + ": solver.pressure_reference must be a point [x, y, z] "
                       "or empty");
  if (c.get<std::vector<double>>("output.slice_position").size() > 1)
    problems.push_back(c.where("output.slice_position") + ": output.slice_position takes one coordinate, or none");
  for (const std::string& name : c.entry_names("boundary")) {
    const std::string type = c.get<std::string>(entry_key("boundary", name, "type"));
    const auto key = [&](const char* k) { return entry_key("boundary", name, k); };
    if (type != "velocity")
      for (const char* k : {"value", "profile", "across", "ramp"})
        if (c.is_set(key(k)))
          problems.push_back(c.where(key(k)) + ": " + key(k) + " applies to type velocity, but boundary." + name +
                             ".type = " + type);
    if (type != "outlet" && c.is_set(key("pressure")))
      problems.push_back(c.where(key("pressure")) + ": " + key("pressure") + " applies to type outlet, but boundary." +
                         name + ".type = " + type);
    const std::string profile = c.get<std::string>(key("profile"));
    if (profile == "parabolic" && c.get<std::vector<std::string>>(key("across")).empty())
      problems.push_back(c.where(key("profile")) + ": " + key("profile") + " = parabolic needs " + key("across") +
                         ", the axes the profile varies across (e.g. [y])");
    if (profile != "parabolic" && c.is_set(key("across")))
      problems.push_back(c.where(key("across")) + ": " + key("across") + " applies to the parabolic profile only");
  }
  const auto patches = c.entry_names("boundary");
  for (const std::string& patch : c.get<std::vector<std::string>>("forces.patches"))
    if (std::find(patches.begin(), patches.end(), patch) == patches.end())
      problems.push_back(c.where("forces.patches") + ": forces.patches names " + patch +
                         ", which has no boundary entry");
}

fem::FlowParameters flow_parameters(const casefile::Case& c) {
  fem::FlowParameters p;
  p.momentum.density = c.get<double>("fluid.density");
  p.momentum.viscosity = c.get<double>("fluid.viscosity");
  p.momentum.body_force = vec3(c.get<std::vector<double>>("fluid.body_force"));
  p.theta = c.get<double>("solver.theta");
  p.mass_correction = c.get<bool>("solver.mass_correction");
  p.edge_precision = c.get<std::string>("solver.edge_precision") == "fp32" ? core::Precision::f32 : core::Precision::f64;
  p.cg_precision = c.get<std::string>("solver.cg_precision") == "fp32" ? core::Precision::f32 : core::Precision::f64;
  p.max_courant = c.get<double>("time.max_courant");
  p.cg.tolerance = c.get<double>("solver.tolerance");
  p.cg.max_iterations = c.get<int>("solver.max_iterations");
  p.cg.preconditioner =
      c.get<std::string>("solver.preconditioner") == "amg" ? fem::Preconditioner::amg : fem::Preconditioner::jacobi;
  const auto spmv = c.get<std::vector<int>>("solver.spmv");
  if (spmv.size() == 2) p.spmv = {spmv[0], spmv[1]};
  return p;
}

std::vector<fem::PatchCondition> patch_conditions(const casefile::Case& c) {
  std::vector<fem::PatchCondition> out;
  for (const std::string& name : c.entry_names("boundary")) {
    const auto key = [&](const char* k) { return entry_key("boundary", name, k); };
    fem::PatchCondition p;
    p.patch = name;
    p.kind = boundary_kind(c.get<std::string>(key("type")));
    p.value = vec3(c.get<std::vector<double>>(key("value")));
    p.profile = velocity_profile(c.get<std::string>(key("profile")));
    for (const std::string& axis : c.get<std::vector<std::string>>(key("across")))
      p.profile_axes.push_back(static_cast<std::uint32_t>(axis_index(axis)));
    p.ramp_time = c.get<double>(key("ramp"));
    p.pressure = c.get<double>(key("pressure"));
    out.push_back(std::move(p));
  }
  return out;
}

std::optional<fem::Point> pressure_reference(const casefile::Case& c) {
  const auto v = c.get<std::vector<double>>("solver.pressure_reference");
  if (v.size() != 3) return std::nullopt;
  return fem::Point{v[0], v[1], v[2]};
}

FemSchedule fem_schedule(const casefile::Case& c) {
  FemSchedule s;
  s.end = c.get<double>("time.end");
  s.courant = c.get<double>("time.courant");
  const double max_dt = c.get<double>("time.max_dt");
  s.max_dt = max_dt > 0 ? max_dt : std::numeric_limits<double>::infinity();
  s.fixed_dt = c.get<double>("time.dt");
  s.every = c.get<long>("output.every");
  s.interval = c.get<double>("output.interval");
  s.checkpoint_every = c.get<long>("output.checkpoint_every");
  s.sample_every = c.get<long>("output.sample_every");
  s.steady_tolerance = c.get<double>("time.steady_tolerance");
  return s;
}

FemForces fem_forces(const casefile::Case& c) {
  FemForces f;
  f.patches = c.get<std::vector<std::string>>("forces.patches");
  f.velocity = c.get<double>("forces.reference_velocity");
  f.area = c.get<double>("forces.reference_area");
  f.drag = vec3(c.get<std::vector<double>>("forces.drag_direction"));
  f.lift = vec3(c.get<std::vector<double>>("forces.lift_direction"));
  return f;
}

FemOutputConfig fem_output_config(const casefile::Case& c, const fem::Mesh& mesh) {
  FemOutputConfig config;
  config.vtu = c.get<bool>("output.vti");
  const std::string axis = c.get<std::string>("output.slice_axis");
  if (c.get<bool>("output.png") && axis != "none") {
    FemCutPlane plane;
    plane.axis = axis_index(axis);
    const auto position = c.get<std::vector<double>>("output.slice_position");
    if (position.empty()) {
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (const fem::Point& x : mesh.nodes) {
        lo = std::min(lo, x[static_cast<std::size_t>(plane.axis)]);
        hi = std::max(hi, x[static_cast<std::size_t>(plane.axis)]);
      }
      plane.position = 0.5 * (lo + hi);
    } else {
      plane.position = position[0];
    }
    plane.field = *fem_cut_field(c.get<std::string>("output.slice_field"));
    plane.width = c.get<int>("output.slice_width");
    config.cut_plane = plane;
  }
  for (const std::string& name : c.entry_names("output.probes")) {
    const auto at = c.get<std::vector<double>>("output.probes." + name + ".at");
    config.probes.push_back({name, {at[0], at[1], at[2]}});
  }
  for (const std::string& name : c.entry_names("output.lines")) {
    const auto from = c.get<std::vector<double>>("output.lines." + name + ".from");
    const auto to = c.get<std::vector<double>>("output.lines." + name + ".to");
    config.lines.push_back({name, {from[0], from[1], from[2]}, {to[0], to[1], to[2]},
                            c.get<std::size_t>("output.lines." + name + ".points")});
  }
  return config;
}

}  // namespace hetflow::app
