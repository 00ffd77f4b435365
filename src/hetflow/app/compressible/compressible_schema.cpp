#include "hetflow/app/compressible/compressible_schema.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <utility>

#include "hetflow/app/compressible/compressible_setup.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"

namespace hetflow::app {
namespace {

constexpr const char* kSides[4] = {"west", "east", "south", "north"};
const std::vector<std::string> kRegionShapeKeys{"axis", "side", "at", "lower", "upper", "centre", "radius", "quadrant"};

// The shape keys each region shape reads; a key of another shape is reported rather than ignored, since
// it usually means the shape is not the one meant.
std::vector<std::string> shape_keys(const std::string& shape) {
  if (shape == "half_plane") return {"axis", "side", "at"};
  if (shape == "box") return {"lower", "upper"};
  if (shape == "disc") return {"centre", "radius"};
  return {"centre", "quadrant"};
}

std::string value_text(const casefile::Case& c, const std::string& path) {
  return casefile::format_case_value(c.value(path));
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// The line of the case file a key was given on, or the largest long for a default or an override.
long given_line(const casefile::Case& c, const std::string& path) {
  const std::string where = c.where(path), prefix = c.source() + ":";
  if (where.rfind(prefix, 0) != 0) return std::numeric_limits<long>::max();
  return std::strtol(where.c_str() + prefix.size(), nullptr, 10);
}

// Appends a problem unless `material` (at `path`) names a declared material; `empty_ok` lets "" stand
// for the background's.
void check_material_name(const casefile::Case& c, const std::string& path, bool empty_ok,
                         std::vector<std::string>& problems) {
  const std::string name = c.get<std::string>(path);
  const auto materials = case_materials(c);
  if ((empty_ok && name.empty()) || materials.count(name)) return;
  std::vector<std::string> known;
  for (const auto& m : materials) known.push_back(m.first);
  problems.push_back(c.where(path) + ": " + path + " = " + value_text(c, path) +
                     " is not a material of this case, which knows " + joined(known) +
                     " (air unless materials "
                     "replaces it)");
}

// A stiffened gas holds any p > −p∞ (its sound speed c² = γ (p + p∞)/ρ is then positive), so the rule
// for a state's pressure is p + p∞ > 0; for an ideal gas that is p > 0.
void check_pressure(const casefile::Case& c, const std::string& prefix, const std::string& material,
                    std::vector<std::string>& problems) {
  const std::string key = prefix + ".p";
  const auto materials = case_materials(c);
  const auto gas = materials.find(material);
  if (gas == materials.end()) return;
  const double p_inf = gas->second.p_inf;
  const double p = c.get<double>(key);
  if (p + p_inf > 0) return;
  problems.push_back(c.where(key) + ": " + key + " = " + value_text(c, key) + " with material " + material +
                     " (p_inf = " + casefile::format_case_value(p_inf) +
                     "): a stiffened gas needs p + p_inf > 0 (p > 0 for an ideal gas)");
}

void declare_state(casefile::Section& s, bool required) {
  if (required) {
    s.key<double>("rho", "density").above(0).unit("mass/length^3");
    s.key<double>("p", "pressure; must exceed -p_inf of the material").unit("force/length^2");
  } else {
    s.key<double>("rho", 1.0, "inflow: density").above(0).unit("mass/length^3");
    s.key<double>("p", 1.0, "inflow: pressure; must exceed -p_inf of the material").unit("force/length^2");
  }
  s.key<double>("u", 0.0, "velocity along x").unit("length/time");
  s.key<double>("v", 0.0, "velocity along y").unit("length/time");
}

void check_regions(const casefile::Case& c, const std::string& background, std::vector<std::string>& problems) {
  for (const std::string& name : c.entry_names("initial.regions")) {
    const std::string prefix = "initial.regions." + name;
    const auto key = [&](const std::string& k) { return prefix + "." + k; };
    const std::string shape = c.get<std::string>(key("shape"));
    const std::vector<std::string> used = shape_keys(shape);
    for (const std::string& k : kRegionShapeKeys)
      if (c.is_set(key(k)) && std::find(used.begin(), used.end(), k) == used.end())
        problems.push_back(c.where(key(k)) + ": " + key(k) + " does not apply to shape " + shape +
                           ": that shape reads " + joined(used));
    const auto pair_at = [&](const std::string& k) {
      const auto v = c.get<std::vector<double>>(key(k));
      if (v.size() != 2)
        problems.push_back(c.where(key(k)) + ": " + key(k) + " = " + value_text(c, key(k)) + ": shape " + shape +
                           " needs a point [x, y]");
      return v;
    };
    if (shape == "half_plane" && c.is_default(key("at")))
      problems.push_back(c.where(key("shape")) + ": " + prefix + " (shape half_plane) needs `at`, where the " +
                         "half-plane ends along its axis");
    if (shape == "box") {
      const auto lower = pair_at("lower"), upper = pair_at("upper");
      if (lower.size() == 2 && upper.size() == 2 && !(lower[0] < upper[0] && lower[1] < upper[1]))
        problems.push_back(c.where(key("upper")) + ": " + key("upper") + " = " + value_text(c, key("upper")) +
                           " is not above " + key("lower") + " = " + value_text(c, key("lower")) + " in both x and y");
    }
    if (shape == "disc" || shape == "quadrant") pair_at("centre");
    if (shape == "disc" && c.get<double>(key("radius")) <= 0)
      problems.push_back(c.where(key("radius")) + ": " + key("radius") + " = " + value_text(c, key("radius")) +
                         ": a disc needs a radius > 0");
    check_material_name(c, key("material"), true, problems);
    const std::string material = c.get<std::string>(key("material"));
    check_pressure(c, prefix, material.empty() ? background : material, problems);
  }
}

void check_sides(const casefile::Case& c, const std::string& background, std::vector<std::string>& problems) {
  for (int axis = 0; axis < 2; ++axis) {
    const std::string low = std::string("boundary.") + kSides[2 * axis] + ".type";
    const std::string high = std::string("boundary.") + kSides[2 * axis + 1] + ".type";
    if ((c.get<std::string>(low) == "periodic") != (c.get<std::string>(high) == "periodic"))
      problems.push_back(c.where(c.get<std::string>(low) == "periodic" ? low : high) + ": " + low + " = " +
                         value_text(c, low) + " but " + high + " = " + value_text(c, high) +
                         ": periodic goes on both sides of an axis or neither");
  }
  for (const char* side : kSides) {
    const std::string prefix = std::string("boundary.") + side;
    if (c.get<std::string>(prefix + ".type") != "inflow") {
      for (const char* k : {"rho", "u", "v", "p", "material"})
        if (c.is_set(prefix + "." + k))
          problems.push_back(c.where(prefix + "." + k) + ": " + prefix + "." + k + " applies to type inflow, but " +
                             prefix + ".type = " + value_text(c, prefix + ".type"));
      continue;
    }
    check_material_name(c, prefix + ".material", true, problems);
    const std::string material = c.get<std::string>(prefix + ".material");
    check_pressure(c, prefix, material.empty() ? background : material, problems);
  }
}

}  // namespace

void declare_compressible(casefile::Schema& s) {
  auto& d = s.section("domain", "a rectangle of level-0 blocks of s x s cells, refined by a quadtree");
  d.key<std::vector<int>>("roots", std::vector<int>{1, 1}, "level-0 blocks along [x, y]").length(2).at_least(1);
  d.key<double>("root_size", 1.0,
                "edge of a level-0 block; the domain is [0, roots_x root_size] x "
                "[0, roots_y root_size]")
      .above(0)
      .unit("length");
  d.key<int>("block_size", 32,
             "cells along a block's edge s: even, 8 to 64 (the adaptation's ghost band of 4 "
             "needs s >= 8)")
      .at_least(8)
      .at_most(64)
      .unit("cells");
  d.key<int>("max_level", 2, "the finest level; a level-l cell is root_size / (s 2^l) wide").at_least(0).at_most(16);

  auto& b = s.section("boundary", "what lies past each side of the domain");
  for (const char* side : kSides) {
    auto& e = b.section(side);
    e.key<std::string>("type", "periodic",
                       "periodic (both sides of an axis or neither), outflow (the edge cell "
                       "repeated), wall (reflecting) or inflow (a prescribed state)")
        .one_of({"periodic", "outflow", "wall", "inflow"});
    declare_state(e, false);
    e.key<std::string>("material", "", "inflow: the material; empty: initial.background's");
  }

  auto& m = s.entries("materials",
                      "stiffened gases p = (gamma - 1) rho e - gamma p_inf, named by the entry; air "
                      "(gamma 1.4) is known unless an entry replaces it");
  m.key<double>("gamma", "ratio of specific heats").above(1);
  m.key<double>("p_inf", 0.0, "stiffness; 0: an ideal gas").at_least(0).unit("force/length^2");

  auto& i = s.section("initial", "the state at t = 0: a background painted over by regions in file order");
  auto& bg = i.section("background", "the state where no region lies");
  declare_state(bg, true);
  bg.key<std::string>("material", "air", "a material of `materials`, or air").not_empty();
  auto& r = i.entries("regions", "painted over the background in the order the file gives them");
  r.key<std::string>("shape",
                     "half_plane: coordinate `axis` below or above `at`; box: lower < (x, y) < upper; "
                     "disc: within radius of centre; quadrant: of centre, numbered as Lax & Liu")
      .one_of({"half_plane", "box", "disc", "quadrant"});
  r.key<std::string>("axis", "x", "half_plane: the axis its edge crosses").one_of({"x", "y"});
  r.key<std::string>("side", "below", "half_plane: where it lies, below or above `at`").one_of({"below", "above"});
  r.key<double>("at", 0.0, "half_plane: the edge's coordinate (required for that shape)").unit("length");
  r.key<std::vector<double>>("lower", std::vector<double>{}, "box: its lower-left corner [x, y]").unit("length");
  r.key<std::vector<double>>("upper", std::vector<double>{}, "box: its upper-right corner [x, y]").unit("length");
  r.key<std::vector<double>>("centre", std::vector<double>{}, "disc: its centre; quadrant: the corner [x, y]")
      .unit("length");
  r.key<double>("radius", 0.0, "disc: its radius").at_least(0).unit("length");
  r.key<int>("quadrant", 1, "quadrant: 1 x > cx, y > cy; 2 x < cx, y > cy; 3 x < cx, y < cy; 4 x > cx, y < cy")
      .range(1, 4);
  declare_state(r, true);
  r.key<std::string>("material", "", "a material of `materials`; empty: the background's");
  i.key<std::string>("checkpoint", "", "continue from a checkpoint.bin of an earlier run of this domain").path();

  auto& sc = s.section("scheme", "WENO5 + HLLE fluxes, SSP Runge-Kutta steps (docs/mrag.md)");
  sc.key<std::string>("time_integration", "rk3", "rk3: Shu & Osher's third-order SSP scheme; rk2: Heun's")
      .one_of({"rk3", "rk2"});
  sc.key<double>("cfl", 0.5, "dt = cfl / max((|u| + |v| + 2c) / h)").range(0, 1, casefile::Bounds::exclusive_min);
  sc.key<int>("local_steps", 0,
              "local time steps: the finest this many levels each take two steps per step of the next coarser, "
              "the coarser levels one step together, which is then a step of the run; 0: every cell takes the "
              "finest cells' step (docs/mrag.md, Time integration; one device)")
      .at_least(0)
      .at_most(16);
  sc.key<std::string>("riemann", "hlle", "the faces' flux: hlle (the paper's) or hllc, which keeps contacts sharper")
      .one_of({"hlle", "hllc"});
  sc.key<std::string>("closure", "gamma",
                      "gamma: advect Γ = 1/(γ - 1), which keeps contacts in pressure equilibrium; colour: the paper's "
                      "colour function φ with γ(φ) mollified over colour_epsilon (two ideal gases; docs/mrag.md)")
      .one_of({"gamma", "colour"});
  sc.key<double>("colour_epsilon", 0.5, "closure colour: half the width in φ of the mollified Heaviside (φ is +1 "
                                        "in the regions' gas and -1 in the background's)")
      .above(0);
  sc.key<std::string>("precision", "fp64",
                      "fp64, or fp32 block data and arithmetic with the WENO weights in fp64 (docs/mrag.md, Precision)")
      .one_of({"fp64", "fp32"});

  auto& t = s.section("time", "the simulated time");
  t.key<double>("end", "the time to reach; a restart continues to it").above(0).unit("time");

  auto& a = s.section("adapt", "wavelet adaptation of the tree (docs/mrag.md, Adaptation)");
  a.key<double>("eps_refine", 1e-3,
                "refine a block whose detail of rho or Gamma, over the field's range, reaches "
                "this")
      .above(0);
  a.key<double>("eps_compress", 1e-4, "collapse four sibling blocks whose details are all below this").at_least(0);
  a.key<int>("every", 8, "steps between adaptations; 0: never after the initial passes").at_least(0).unit("steps");
  a.key<int>("initial_passes", 3, "times the initial state is adapted to and sampled again").at_least(0);

  auto& o = s.section("output");
  o.key<int>("every", 1000000, "a snapshot every this many steps").at_least(1).unit("steps");
  o.key<double>("interval", 0.0, "a snapshot at every multiple of this time, which steps end on; 0: none")
      .at_least(0)
      .unit("time");
  o.key<bool>("block_outlines", true, "draw the leaves' outlines on the PNG previews");
  o.key<int>("png_width", 900, "width of the PNG previews").at_least(300).at_most(4000).unit("pixels");
  o.key<double>("schlieren_k", 10.0, "the schlieren preview shows exp(-k |grad rho| / max |grad rho|)").above(0);
  o.key<double>("shock_threshold", 0.1,
                "series.csv's shock_x is the largest x where the pressure of two "
                "neighbouring cells differs by this fraction of the smaller p + p_inf")
      .above(0);
  o.key<std::string>("track", "",
                     "the material whose extent along x series.csv reports; empty: the one other "
                     "than the background's when the regions use two");
  o.key<int>("checkpoint_every", 0, "checkpoint.bin every this many steps; 0: at the end only")
      .at_least(0)
      .unit("steps");
}

void check_compressible_case(const casefile::Case& c, std::vector<std::string>& problems) {
  if (c.get<int>("domain.block_size") % 2 != 0)
    problems.push_back(c.where("domain.block_size") + ": domain.block_size = " + value_text(c, "domain.block_size") +
                       " is odd: a block's cells must split evenly into its children's");
  for (const std::string& name : c.entry_names("materials")) {
    const std::string key = "materials." + name + ".gamma";
    if (!std::isfinite(c.get<double>(key)))
      problems.push_back(c.where(key) + ": " + key + " = " + value_text(c, key) + " is not finite");
  }
  check_material_name(c, "initial.background.material", false, problems);
  const std::string background = c.get<std::string>("initial.background.material");
  check_pressure(c, "initial.background", background, problems);
  check_regions(c, background, problems);
  check_sides(c, background, problems);
  if (c.get<double>("adapt.eps_compress") >= c.get<double>("adapt.eps_refine"))
    problems.push_back(c.where("adapt.eps_compress") + ": adapt.eps_compress = " + value_text(c, "adapt.eps_compress") +
                       " is not below adapt.eps_refine = " + value_text(c, "adapt.eps_refine") +
                       ": a block would be refined and collapsed at once");
  if (const std::string problem = colour_closure_problem(c); !problem.empty()) problems.push_back(problem);
  const std::string track = c.get<std::string>("output.track");
  if (!track.empty()) check_material_name(c, "output.track", false, problems);
  if (c.get<bool>("output.hdf5") && !io::hdf5_available())
    problems.push_back(c.where("output.hdf5") + ": output.hdf5 = true, but this hetflow is built without HDF5");
  const std::string checkpoint = c.get<std::string>("initial.checkpoint");
  if (!checkpoint.empty() && !std::filesystem::exists(checkpoint))
    problems.push_back(c.missing_file("initial.checkpoint"));
}

std::vector<std::string> region_order(const casefile::Case& c) {
  std::vector<std::pair<long, std::string>> order;
  const std::vector<std::string> given = c.given_paths();
  for (const std::string& name : c.entry_names("initial.regions")) {
    const std::string prefix = "initial.regions." + name + ".";
    long line = std::numeric_limits<long>::max();
    for (const std::string& path : given)
      if (path.rfind(prefix, 0) == 0) line = std::min(line, given_line(c, path));
    order.emplace_back(line, name);
  }
  std::stable_sort(order.begin(), order.end());
  std::vector<std::string> names;
  for (const auto& [line, name] : order) names.push_back(name);
  return names;
}

}  // namespace hetflow::app
