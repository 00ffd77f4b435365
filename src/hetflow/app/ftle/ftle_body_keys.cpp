#include "hetflow/app/ftle/ftle_body_keys.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/lbm/geometry_io.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

std::string number(double v) { return core::number_text(v, 10); }

// The keys each shape reads, besides ftle.body.shape.
const std::map<std::string, std::vector<std::string>> shape_keys{
    {"none", {}},
    {"circle", {"centre", "radius"}},
    {"sphere", {"centre", "radius"}},
    {"cylinder", {"centre", "radius", "axis"}},
    {"box", {"lower", "upper"}},
    {"voxels", {"file", "array", "origin"}},
};

std::string dimension_text(int dimension) { return std::to_string(dimension) + "D"; }

std::array<double, 3> point3(const std::vector<double>& v) {
  std::array<double, 3> p{0.0, 0.0, 0.0};
  std::copy_n(v.begin(), std::min<std::size_t>(v.size(), 3), p.begin());
  return p;
}

// The voxel file read by check_body_keys, kept for make_body in the same process.
struct VoxelCache {
  std::string file, array;
  std::shared_ptr<const lbm::Geometry> mask;
};
std::optional<VoxelCache> voxel_cache;

// The lbm geometry readers: solid voxels (lbm::is_solid) are the body.
std::shared_ptr<const lbm::Geometry> load_voxels(const casefile::Case& c) {
  const std::string file = c.get<std::string>("ftle.body.file"), array = c.get<std::string>("ftle.body.array");
  if (voxel_cache && voxel_cache->file == file && voxel_cache->array == array) return voxel_cache->mask;
  const fs::path path(file);
  const std::string ext = path.extension().string();
  if (!array.empty() && ext != ".vti")
    throw core::Error("ftle.body.array applies to a .vti file only, not to " + path.filename().string());
  lbm::Geometry g = array.empty() ? lbm::load_geometry(path) : lbm::read_vti_geometry(path, array);
  voxel_cache = VoxelCache{file, array, std::make_shared<const lbm::Geometry>(std::move(g))};
  return voxel_cache->mask;
}

ftle::Voxels voxels_of(const lbm::Geometry& g, const std::vector<double>& origin) {
  ftle::Voxels v;
  v.dims = g.dims();
  v.origin = point3(origin);
  v.spacing = g.spacing;
  v.solid.resize(g.size());
  const auto codes = g.codes();
  std::transform(codes.begin(), codes.end(), v.solid.begin(),
                 [](std::uint8_t code) { return lbm::is_solid(static_cast<lbm::NodeType>(code)) ? 1 : 0; });
  return v;
}

// A list key that must hold one entry per axis of the flow.
void check_length(const casefile::Case& c, const std::string& key, int dimension, bool required,
                  const std::string& shape, std::vector<std::string>& problems) {
  const std::size_t n = c.get<std::vector<double>>(key).size();
  if (n == static_cast<std::size_t>(dimension) || (n == 0 && !required)) return;
  problems.push_back(c.where(key) + ": " + key + (n == 0 ? " is required" : " has " + std::to_string(n) + " entries") +
                     " for ftle.body.shape = " + shape + ": expected " + std::to_string(dimension) +
                     " coordinates (the flow is " + dimension_text(dimension) + ")");
}

}  // namespace

void declare_body_keys(casefile::Section& f) {
  auto& b = f.section("body",
                      "a solid body: seeds inside it (or on its surface) get FTLE = NaN, drawn grey in "
                      "the PNG (docs/ftle.md, \"Free stream and bodies\")");
  b.key<std::string>("shape", "none",
                     "the body: circle (2D), cylinder or sphere (3D), box, voxels (a voxel file); none: no body")
      .one_of({"none", "circle", "cylinder", "sphere", "box", "voxels"});
  b.key<std::vector<double>>("centre", std::vector<double>{},
                             "circle: [x, y]; sphere: [x, y, z]; cylinder: a point of its axis [x, y, z]");
  b.key<double>("radius", 0.0, "circle, cylinder, sphere: the radius, > 0");
  b.key<std::string>("axis", "z", "cylinder: the axis it lies along").one_of({"x", "y", "z"});
  b.key<std::vector<double>>("lower", std::vector<double>{}, "box: the lower corner, 2 entries in 2D, 3 in 3D");
  b.key<std::vector<double>>("upper", std::vector<double>{}, "box: the upper corner");
  b.key<std::string>("file", "",
                     "voxels: a .vti or a raw voxel file's .yaml header (lbm's geometry formats, "
                     "docs/lbm.md); its solid voxels are the body, its spacing the voxel size")
      .path();
  b.key<std::string>("array", "",
                     "voxels from a .vti: the mask's array; \"\": the first point array, else the "
                     "first cell array");
  b.key<std::vector<double>>("origin", std::vector<double>{},
                             "voxels: where voxel (0, 0[, 0]) is centred; []: at the origin");
}

void check_body_keys(const casefile::Case& c, int dimension, const ftle::SeedGrid* seeds,
                     std::vector<std::string>& problems) {
  const std::string shape = c.get<std::string>("ftle.body.shape");
  const std::vector<std::string>& used = shape_keys.at(shape);
  const std::size_t before = problems.size();
  std::string reads;
  for (const std::string& key : used) reads += (reads.empty() ? "" : ", ") + key;
  for (const char* key : {"centre", "radius", "axis", "lower", "upper", "file", "array", "origin"}) {
    const std::string path = std::string("ftle.body.") + key;
    if (!c.is_set(path) || std::find(used.begin(), used.end(), key) != used.end()) continue;
    problems.push_back(
        c.where(path) + ": " + path + " does not apply to ftle.body.shape = " + shape +
        (reads.empty() ? std::string(": that shape reads no other key") : ": that shape reads " + reads));
  }
  if (shape == "none") return;
  const bool flat = dimension == 2;
  if ((shape == "circle" && !flat) || ((shape == "cylinder" || shape == "sphere") && flat)) {
    problems.push_back(c.where("ftle.body.shape") + ": ftle.body.shape = " + shape + " is " + (flat ? "3D" : "2D") +
                       ", but the flow is " + dimension_text(dimension) + ": expected " +
                       (flat ? "circle, box or voxels" : "cylinder, sphere, box or voxels"));
    return;
  }
  if (shape == "circle" || shape == "sphere" || shape == "cylinder") {
    check_length(c, "ftle.body.centre", dimension, true, shape, problems);
    const double r = c.get<double>("ftle.body.radius");
    if (!(r > 0.0) || !std::isfinite(r))
      problems.push_back(c.where("ftle.body.radius") + ": ftle.body.radius = " + number(r) +
                         (c.is_default("ftle.body.radius") ? " (not given)" : "") +
                         ": expected a radius > 0 for "
                         "ftle.body.shape = " +
                         shape);
  } else if (shape == "box") {
    check_length(c, "ftle.body.lower", dimension, true, shape, problems);
    check_length(c, "ftle.body.upper", dimension, true, shape, problems);
    const auto lo = c.get<std::vector<double>>("ftle.body.lower"), hi = c.get<std::vector<double>>("ftle.body.upper");
    if (lo.size() == hi.size()) {
      for (std::size_t a = 0; a < lo.size(); ++a) {
        if (lo[a] < hi[a]) continue;
        problems.push_back(c.where("ftle.body.upper") + ": ftle.body.upper along " + "xyz"[a] + " is " + number(hi[a]) +
                           ", not above ftle.body.lower's " + number(lo[a]) +
                           ": expected the lower corner below the upper one on every axis");
        break;
      }
    }
  } else {
    check_length(c, "ftle.body.origin", dimension, false, shape, problems);
    if (c.get<std::string>("ftle.body.file").empty()) {
      problems.push_back(c.where("ftle.body.file") +
                         ": ftle.body.file is required for ftle.body.shape = voxels: "
                         "expected a .vti or a raw voxel file's .yaml header");
    } else {
      try {
        const auto mask = load_voxels(c);
        ftle::check_body(voxels_of(*mask, c.get<std::vector<double>>("ftle.body.origin")), dimension);
      } catch (const std::exception& e) {
        problems.push_back(c.where("ftle.body.file") + ": ftle.body.file = " + c.path_text("ftle.body.file") + ": " +
                           e.what());
      }
    }
  }
  if (problems.size() != before || !seeds) return;
  try {
    const auto body = make_body(c, dimension);
    const std::vector<std::uint8_t> mask = ftle::body_mask(*body, *seeds);
    if (std::all_of(mask.begin(), mask.end(), [](std::uint8_t m) { return m != 0; }))
      problems.push_back(c.where("ftle.body.shape") + ": the body (ftle.body.shape = " + shape + ") covers all " +
                         std::to_string(mask.size()) + " seeds: expected a body that leaves seeds in the fluid");
  } catch (const std::exception& e) {
    problems.push_back(c.where("ftle.body.shape") + ": ftle.body.shape = " + shape + ": " + e.what());
  }
}

std::optional<ftle::Body> make_body(const casefile::Case& c, int dimension) {
  const std::string shape = c.get<std::string>("ftle.body.shape");
  if (shape == "none") return std::nullopt;
  if (shape == "circle" || shape == "sphere")
    return ftle::Ball{point3(c.get<std::vector<double>>("ftle.body.centre")), c.get<double>("ftle.body.radius")};
  if (shape == "cylinder") {
    const std::string axis = c.get<std::string>("ftle.body.axis");
    return ftle::Cylinder{point3(c.get<std::vector<double>>("ftle.body.centre")), c.get<double>("ftle.body.radius"),
                          axis == "x"   ? 0
                          : axis == "y" ? 1
                                        : 2};
  }
  if (shape == "box")
    return ftle::Box{point3(c.get<std::vector<double>>("ftle.body.lower")),
                     point3(c.get<std::vector<double>>("ftle.body.upper"))};
  ftle::Voxels v = voxels_of(*load_voxels(c), c.get<std::vector<double>>("ftle.body.origin"));
  ftle::check_body(v, dimension);
  return v;
}

nlohmann::json body_info(const ftle::Body& body, const casefile::Case& c) {
  nlohmann::json info = {{"shape", c.get<std::string>("ftle.body.shape")}};
  if (const auto* v = std::get_if<ftle::Voxels>(&body)) {
    info["file"] = c.get<std::string>("ftle.body.file");
    info["dims"] = v->dims;
    info["origin"] = v->origin;
    info["spacing"] = v->spacing;
    info["solid_voxels"] = std::count(v->solid.begin(), v->solid.end(), std::uint8_t{1});
  }
  return info;
}

}  // namespace hetflow::app
