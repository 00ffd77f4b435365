#include "hetflow/app/compressible/compressible_setup.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hetflow/app/compressible/compressible_schema.hpp"
#include "hetflow/casefile/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/mrag/block_rhs.hpp"
#include "hetflow/mrag/tree_memory.hpp"

namespace hetflow::app {
namespace {

constexpr const char* kSides[4] = {"west", "east", "south", "north"};

mrag::Edge edge(const std::string& type) {
  if (type == "periodic") return mrag::Edge::periodic;
  if (type == "outflow") return mrag::Edge::outflow;
  if (type == "wall") return mrag::Edge::wall;
  return mrag::Edge::inflow;
}

std::array<double, 2> point(const std::vector<double>& v) {
  return v.size() == 2 ? std::array<double, 2>{v[0], v[1]} : std::array<double, 2>{};
}

// The state of a section with rho, u, v, p, in the closure of `material` ("" : the background's).
MaterialState material_state(const casefile::Case& c, const std::string& prefix, const std::string& material,
                             const std::map<std::string, mrag::StiffenedGas>& materials) {
  const mrag::StiffenedGas& gas = materials.at(material);
  return {material,
          {c.get<double>(prefix + ".rho"), c.get<double>(prefix + ".u"), c.get<double>(prefix + ".v"),
           c.get<double>(prefix + ".p"), gas.big_gamma(), gas.big_pi()}};
}

std::string binary_bytes(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  return core::number_text(bytes, 3) + " " + units[u];
}

}  // namespace

double CompressibleGrid::finest_bytes(int value_bytes) const {
  return mrag::tree_bytes(static_cast<double>(roots_x) * roots_y * std::pow(4.0, max_level), block_size, value_bytes);
}

double CompressibleGrid::roots_bytes(int value_bytes) const {
  return mrag::tree_bytes(static_cast<double>(roots_x) * roots_y, block_size, value_bytes);
}

CompressibleGrid compressible_grid(const casefile::Case& c) {
  const auto roots = c.get<std::vector<int>>("domain.roots");
  return {roots[0], roots[1], c.get<int>("domain.block_size"), c.get<int>("domain.max_level"),
          c.get<double>("domain.root_size")};
}

std::map<std::string, mrag::StiffenedGas> case_materials(const casefile::Case& c) {
  std::map<std::string, mrag::StiffenedGas> materials{{"air", {1.4, 0}}};
  for (const std::string& name : c.entry_names("materials"))
    materials[name] = {c.get<double>("materials." + name + ".gamma"), c.get<double>("materials." + name + ".p_inf")};
  return materials;
}

namespace {

// The materials the initial state and the inflow sides use, the background's first.
std::vector<std::string> used_materials(const casefile::Case& c) {
  const std::string background = c.get<std::string>("initial.background.material");
  std::vector<std::string> used{background};
  const auto use = [&](const std::string& key) {
    const std::string m = c.get<std::string>(key);
    if (!m.empty() && std::find(used.begin(), used.end(), m) == used.end()) used.push_back(m);
  };
  for (const std::string& name : c.entry_names("initial.regions")) use("initial.regions." + name + ".material");
  for (const char* side : kSides)
    if (c.get<std::string>(std::string("boundary.") + side + ".type") == "inflow")
      use(std::string("boundary.") + side + ".material");
  return used;
}

}  // namespace

std::string colour_closure_problem(const casefile::Case& c) {
  if (c.get<std::string>("scheme.closure") != "colour") return "";
  const std::vector<std::string> used = used_materials(c);
  const auto materials = case_materials(c);
  std::string stiffened;
  for (const std::string& m : used) {
    const auto at = materials.find(m);
    if (at != materials.end() && at->second.p_inf != 0) stiffened = m;
  }
  const std::string head = c.where("scheme.closure") + ": scheme.closure = colour ";
  if (used.size() > 2) return head + "closes two gases, and the case uses " + std::to_string(used.size());
  if (!stiffened.empty()) return head + "closes ideal gases, and material " + stiffened + " has p_inf > 0";
  return "";
}

CompressibleSetup compressible_setup(const casefile::Case& c) {
  CompressibleSetup s;
  s.grid = compressible_grid(c);
  s.materials = case_materials(c);
  const std::string background = c.get<std::string>("initial.background.material");
  const auto material_of = [&](const std::string& key) {
    const std::string m = c.get<std::string>(key);
    return m.empty() ? background : m;
  };
  std::vector<InitialRegion> regions;
  for (const std::string& name : region_order(c)) {
    const std::string prefix = "initial.regions." + name;
    const auto key = [&](const char* k) { return prefix + "." + k; };
    InitialRegion r;
    r.name = name;
    const std::string shape = c.get<std::string>(key("shape"));
    r.shape.kind = shape == "half_plane" ? RegionShape::Kind::half_plane
                   : shape == "box"      ? RegionShape::Kind::box
                   : shape == "disc"     ? RegionShape::Kind::disc
                                         : RegionShape::Kind::quadrant;
    r.shape.axis = c.get<std::string>(key("axis")) == "x" ? 0 : 1;
    r.shape.below = c.get<std::string>(key("side")) == "below";
    r.shape.at = c.get<double>(key("at"));
    r.shape.lower = point(c.get<std::vector<double>>(key("lower")));
    r.shape.upper = point(c.get<std::vector<double>>(key("upper")));
    r.shape.centre = point(c.get<std::vector<double>>(key("centre")));
    r.shape.radius = c.get<double>(key("radius"));
    r.shape.quadrant = c.get<int>(key("quadrant"));
    r.fill = material_state(c, prefix, material_of(key("material")), s.materials);
    regions.push_back(std::move(r));
  }
  s.initial = InitialState(material_state(c, "initial.background", background, s.materials), std::move(regions));

  mrag::Edge* edges[4] = {&s.sides.west, &s.sides.east, &s.sides.south, &s.sides.north};
  for (int k = 0; k < 4; ++k) {
    const std::string prefix = std::string("boundary.") + kSides[k];
    *edges[k] = edge(c.get<std::string>(prefix + ".type"));
    if (*edges[k] == mrag::Edge::inflow)
      s.sides.inflow[static_cast<std::size_t>(k)] =
          material_state(c, prefix, material_of(prefix + ".material"), s.materials).state;
  }
  s.scheme =
      c.get<std::string>("scheme.time_integration") == "rk2" ? mrag::TimeScheme::ssp_rk2 : mrag::TimeScheme::ssp_rk3;
  s.cfl = c.get<double>("scheme.cfl");
  s.local_steps = c.get<int>("scheme.local_steps");
  s.precision = c.get<std::string>("scheme.precision") == "fp32" ? core::Precision::f32 : core::Precision::f64;
  s.spatial.riemann =
      c.get<std::string>("scheme.riemann") == "hllc" ? mrag::RiemannSolver::hllc : mrag::RiemannSolver::hlle;
  if (c.get<std::string>("scheme.closure") == "colour") {
    // φ ≥ 0 is the regions' gas (the background's when they use no other), φ < 0 the background's.
    const std::vector<std::string> used = used_materials(c);
    s.spatial.colour = mrag::ColourFunction{s.materials.at(used.back()).gamma, s.materials.at(used.front()).gamma,
                                            c.get<double>("scheme.colour_epsilon")};
  }
  s.end = c.get<double>("time.end");
  s.adaptation = {c.get<double>("adapt.eps_refine"), c.get<double>("adapt.eps_compress"), c.get<long>("adapt.every"),
                  c.get<int>("adapt.initial_passes")};
  return s;
}

void check_grid_fits(const casefile::Case& c, std::uint64_t device_bytes, const std::string& device_label) {
  const CompressibleGrid g = compressible_grid(c);
  const double needed = g.roots_bytes(c.get<std::string>("scheme.precision") == "fp32" ? 4 : 8);
  if (needed <= static_cast<double>(device_bytes)) return;
  throw casefile::CaseError(
      c.where("domain.roots") + ": domain.roots = [" + std::to_string(g.roots_x) + ", " + std::to_string(g.roots_y) +
      "]: the grid of its " + core::number_text(static_cast<double>(g.roots_x) * g.roots_y, 6) + " root blocks of " +
      std::to_string(g.block_size) + " x " + std::to_string(g.block_size) + " cells alone would take " +
      core::number_text(needed, 4) + " bytes (" + binary_bytes(needed) + ") of device memory, and " + device_label +
      " has " + binary_bytes(static_cast<double>(device_bytes)) + ": lower domain.roots or domain.block_size");
}

}  // namespace hetflow::app
