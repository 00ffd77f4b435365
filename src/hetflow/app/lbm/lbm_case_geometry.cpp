#include "hetflow/app/lbm/lbm_case_geometry.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "hetflow/io/error.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/geometry_io.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

// Keys of the geometry section each kind reads; any other key the case gives is a mistake worth
// reporting, since silently ignoring e.g. a radius for a duct hides a wrong kind.
std::vector<std::string> keys_of(const std::string& kind) {
  if (kind == "box" || kind == "duct" || kind == "channel") return {"size"};
  if (kind == "cylinder" || kind == "sphere") return {"size", "radius", "centre"};
  if (kind == "packing") return {"size", "porosity", "min_radius", "max_radius", "seed"};
  return {"file", "size"};
}

const std::vector<std::string> all_keys{"size", "radius", "centre", "porosity", "min_radius", "max_radius", "seed", "file"};

std::array<std::size_t, 3> size_of(const casefile::Case& c) {
  const auto s = c.get<std::vector<std::size_t>>("geometry.size");
  return {s[0], s[1], s[2]};
}

std::string list_text(const std::array<std::size_t, 3>& d) {
  return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + "]";
}

double radius_or_default(const casefile::Case& c, std::size_t ny) {
  const double r = c.get<double>("geometry.radius");
  return r > 0 ? r : static_cast<double>(ny) / 8.0;
}

std::array<double, 3> centre_or_default(const casefile::Case& c, const std::array<std::size_t, 3>& d) {
  const auto given = c.get<std::vector<double>>("geometry.centre");
  if (given.size() == 3) return {given[0], given[1], given[2]};
  return {0.5 * static_cast<double>(d[0] - 1), 0.5 * static_cast<double>(d[1] - 1), 0.5 * static_cast<double>(d[2] - 1)};
}

[[noreturn]] void rethrow_at(const casefile::Case& c, const std::string& key, const std::exception& e) {
  throw casefile::CaseError(c.where("geometry." + key) + ": geometry." + key + ": " + e.what());
}

}  // namespace

void check_lbm_geometry(const casefile::Case& c, std::vector<std::string>& problems) {
  const std::string kind = c.get<std::string>("geometry.kind");
  const std::vector<std::string> used = keys_of(kind);
  for (const std::string& key : all_keys) {
    const std::string path = "geometry." + key;
    if (!c.is_set(path) || std::find(used.begin(), used.end(), key) != used.end()) continue;
    std::string list;
    for (const std::string& u : used) list += (list.empty() ? "" : ", ") + u;
    problems.push_back(c.where(path) + ": " + path + " does not apply to geometry.kind = " + kind +
                       ": that kind reads " + list);
  }
  const auto size = c.get<std::vector<std::int64_t>>("geometry.size");
  if (kind == "file") {
    if (c.get<std::string>("geometry.file").empty())
      problems.push_back(c.where("geometry.file") + ": geometry.file is required for geometry.kind = file: expected "
                         "the path of a .vti or a raw voxel file's .yaml header");
    if (!size.empty() && size.size() != 3)
      problems.push_back(c.where("geometry.size") + ": geometry.size has " + std::to_string(size.size()) +
                         " entries: expected [nx, ny, nz] (or leave it out to take the file's size)");
  } else if (size.size() != 3) {
    problems.push_back(c.where("geometry.size") + ": geometry.size " +
                       (size.empty() ? "is required for geometry.kind = " + kind
                                     : "has " + std::to_string(size.size()) + " entries") +
                       ": expected [nx, ny, nz] [cells]");
  }
  const auto centre = c.get<std::vector<double>>("geometry.centre");
  if (!centre.empty() && centre.size() != 3)
    problems.push_back(c.where("geometry.centre") + ": geometry.centre has " + std::to_string(centre.size()) +
                       " entries: expected [x, y, z] (a cylinder uses x and y)");
  if (kind == "packing" && c.get<double>("geometry.max_radius") < c.get<double>("geometry.min_radius"))
    problems.push_back(c.where("geometry.max_radius") + ": geometry.max_radius is below geometry.min_radius");
}

std::optional<std::array<std::size_t, 3>> planned_lbm_dims(const casefile::Case& c) {
  if (c.get<std::string>("geometry.kind") == "file") return std::nullopt;
  return size_of(c);
}

LbmGeometry make_lbm_geometry(const casefile::Case& c) {
  LbmGeometry g;
  g.kind = c.get<std::string>("geometry.kind");
  g.info["kind"] = g.kind;
  if (g.kind == "file") {
    const fs::path path = c.get<std::string>("geometry.file");
    try {
      g.mask = lbm::load_geometry(path);
    } catch (const io::IoError& e) {
      throw casefile::CaseError(c.where("geometry.file") + ": geometry.file = " + c.path_text("geometry.file") + ": " +
                                e.what());
    }
    const auto size = c.get<std::vector<std::size_t>>("geometry.size");
    if (!size.empty() && std::array<std::size_t, 3>{size[0], size[1], size[2]} != g.mask.dims()) {
      throw casefile::CaseError(c.where("geometry.size") + ": geometry.size = " +
                          list_text({size[0], size[1], size[2]}) + " does not match " + path.string() + ", which is " +
                          lbm::dims_text(g.mask.dims()) + ": fix the size or leave it out");
    }
    g.info["file"] = path.string();
  } else {
    const auto d = size_of(c);
    const int nx = static_cast<int>(d[0]), ny = static_cast<int>(d[1]), nz = static_cast<int>(d[2]);
    try {
      if (g.kind == "box") {
        g.mask = lbm::Geometry(d[0], d[1], d[2]);
      } else if (g.kind == "duct") {
        g.mask = lbm::duct(nx, ny, nz);
      } else if (g.kind == "channel") {
        g.mask = lbm::channel(nx, ny, nz);
      } else if (g.kind == "cylinder" || g.kind == "sphere") {
        const double r = radius_or_default(c, d[1]);
        const auto centre = centre_or_default(c, d);
        g.mask = g.kind == "cylinder" ? lbm::channel_with_cylinder(nx, ny, nz, centre[0], centre[1], r)
                                      : lbm::channel_with_sphere(nx, ny, nz, centre, r);
        g.diameter = 2 * r;
        g.info["radius"] = r;
        g.info["centre"] = centre;
      } else {
        lbm::SpherePackingOptions o;
        o.nx = nx;
        o.ny = ny;
        o.nz = nz;
        o.target_porosity = c.get<double>("geometry.porosity");
        o.min_radius = c.get<double>("geometry.min_radius");
        o.max_radius = c.get<double>("geometry.max_radius");
        o.seed = c.get<std::uint64_t>("geometry.seed");
        lbm::SpherePacking p = lbm::random_sphere_packing(o);
        g.mask = std::move(p.geometry);
        g.info["spheres"] = p.spheres.size();
      }
    } catch (const std::invalid_argument& e) {
      // The generators name the offending parameter; the size key is where the case sets the scene.
      rethrow_at(c, g.kind == "cylinder" || g.kind == "sphere" ? "radius" : "size", e);
    }
  }
  if (!g.mask.any_fluid()) throw casefile::CaseError(c.where("geometry.kind") + ": the geometry has no fluid node");
  g.info["dims"] = g.mask.dims();
  g.info["porosity"] = g.mask.porosity();
  g.info["fingerprint"] = lbm::fingerprint(g.mask);
  return g;
}

}  // namespace hetflow::app
