#include "hetflow/fem/mesh_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_map>

#include "hetflow/fem/mesh_error.hpp"
#include "hetflow/fem/mesh_keys.hpp"
#include "hetflow/fem/tet_geometry.hpp"

namespace hetflow::fem {
namespace {

// A tet counts as degenerate when its volume is below this fraction of its longest edge cubed.
constexpr double kFlatVolume = 1e-12;
// Two nodes are duplicates when closer than this fraction of the bounding box's diagonal.
constexpr double kSamePoint = 1e-10;
constexpr std::size_t kListed = 10;

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw MeshError("mesh '" + source + "': " + what);
}

// The first kListed items of a finding, then "..." when there are more.
class Findings {
 public:
  void add(const std::string& item) {
    if (count_++ < kListed) text_ << (count_ > 1 ? ", " : "") << item;
  }
  std::size_t count() const { return count_; }
  std::string list() const { return text_.str() + (count_ > kListed ? ", ..." : ""); }

 private:
  std::size_t count_ = 0;
  std::ostringstream text_;
};

void check_indices(const Mesh& mesh, const std::string& source) {
  for (std::size_t t = 0; t < mesh.tets.size(); ++t)
    for (auto n : mesh.tets[t])
      if (n >= mesh.nodes.size())
        fail(source, "tet " + std::to_string(t) + " names node " + std::to_string(n) + " but there are " +
                         std::to_string(mesh.nodes.size()) + " nodes");
  for (std::size_t f = 0; f < mesh.boundary.size(); ++f) {
    for (auto n : mesh.boundary[f].nodes)
      if (n >= mesh.nodes.size())
        fail(source, "boundary face " + std::to_string(f) + " names node " + std::to_string(n) +
                         " but there are " + std::to_string(mesh.nodes.size()) + " nodes");
    if (mesh.boundary[f].patch >= mesh.patches.size())
      fail(source, "boundary face " + std::to_string(f) + " has patch " + std::to_string(mesh.boundary[f].patch) +
                       " but there are " + std::to_string(mesh.patches.size()) + " patches");
  }
}

void measure_tets(const Mesh& mesh, const std::string& source, MeshReport& report) {
  Findings bad;
  report.min_edge = report.min_tet_volume = report.worst_quality = std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    const auto& tet = mesh.tets[t];
    double longest = 0.0, squares = 0.0;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        const double l = distance(mesh.nodes[tet[i]], mesh.nodes[tet[j]]);
        longest = std::max(longest, l);
        squares += l * l;
        report.min_edge = std::min(report.min_edge, l);
        report.max_edge = std::max(report.max_edge, l);
      }
    const double v = signed_volume(mesh, tet);
    if (!(v > kFlatVolume * longest * longest * longest)) {
      std::ostringstream item;
      item << "tet " << t << " (volume " << v << ")";
      bad.add(item.str());
      continue;
    }
    report.volume += v;
    report.min_tet_volume = std::min(report.min_tet_volume, v);
    report.max_tet_volume = std::max(report.max_tet_volume, v);
    report.worst_quality = std::min(report.worst_quality, 12.0 * std::cbrt(9.0 * v * v) / squares);
  }
  if (bad.count() > 0)
    fail(source, "inverted or zero-volume tets, " + std::to_string(bad.count()) + " of " +
                     std::to_string(mesh.tets.size()) + ": " + bad.list());
}

struct CellHash {
  std::size_t operator()(const std::array<std::int64_t, 3>& c) const {
    return std::size_t(c[0] * 73856093) ^ std::size_t(c[1] * 19349663) ^ std::size_t(c[2] * 83492791);
  }
};

// Hashes the nodes into cells of 4 tolerances, so that each node is compared only with those in the
// cells its tolerance ball touches (1 to 8 of them); each cell's nodes form a linked list.
void check_duplicates(const Mesh& mesh, const std::string& source) {
  if (mesh.nodes.empty()) return;
  Point lo = mesh.nodes[0], hi = mesh.nodes[0];
  for (const auto& p : mesh.nodes)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], p[d]);
      hi[d] = std::max(hi[d], p[d]);
    }
  const double tol = kSamePoint * std::max(distance(lo, hi), std::numeric_limits<double>::min());
  const double size = 4.0 * tol;
  constexpr std::uint32_t kEnd = std::numeric_limits<std::uint32_t>::max();
  std::unordered_map<std::array<std::int64_t, 3>, std::uint32_t, CellHash> head;
  head.reserve(mesh.nodes.size());
  std::vector<std::uint32_t> next(mesh.nodes.size(), kEnd);
  Findings dups;
  auto cell_of = [&](const Point& p, double shift) {
    std::array<std::int64_t, 3> c;
    for (int d = 0; d < 3; ++d) c[d] = std::int64_t(std::floor((p[d] + shift - lo[d]) / size));
    return c;
  };
  for (std::uint32_t n = 0; n < mesh.nodes.size(); ++n) {
    const Point& p = mesh.nodes[n];
    const auto first = cell_of(p, -tol), last = cell_of(p, tol);
    for (auto x = first[0]; x <= last[0]; ++x)
      for (auto y = first[1]; y <= last[1]; ++y)
        for (auto z = first[2]; z <= last[2]; ++z) {
          auto it = head.find({x, y, z});
          for (auto m = it == head.end() ? kEnd : it->second; m != kEnd; m = next[m])
            if (distance(mesh.nodes[m], p) <= tol) dups.add("nodes " + std::to_string(m) + " and " + std::to_string(n));
        }
    auto [it, added] = head.try_emplace(cell_of(p, 0.0), n);
    if (!added) {
      next[n] = it->second;
      it->second = n;
    }
  }
  if (dups.count() > 0)
    fail(source, "duplicate node pairs (same coordinates), " + std::to_string(dups.count()) + ": " + dups.list());
}

void check_unreferenced(const Mesh& mesh, const std::string& source) {
  std::vector<bool> used(mesh.nodes.size(), false);
  for (const auto& tet : mesh.tets)
    for (auto n : tet) used[n] = true;
  Findings unused;
  for (std::size_t n = 0; n < used.size(); ++n)
    if (!used[n]) unused.add(std::to_string(n));
  if (unused.count() > 0)
    fail(source, "nodes in no tet, " + std::to_string(unused.count()) + ": " + unused.list());
}

void check_boundary(const Mesh& mesh, const std::string& source) {
  // Only the boundary faces are hashed; every tet face is looked up among them.
  std::unordered_map<Triangle, bool, FaceKeyHash> on_a_tet;
  for (const auto& f : mesh.boundary) on_a_tet.emplace(face_key(f.nodes), false);
  for (const auto& t : mesh.tets)
    for (int k = 0; k < 4; ++k) {
      auto it = on_a_tet.find(face_key(tet_face(t, k)));
      if (it != on_a_tet.end()) it->second = true;
    }
  Findings stray;
  std::unordered_map<std::uint64_t, std::uint32_t> edge_uses;
  for (std::size_t b = 0; b < mesh.boundary.size(); ++b) {
    const auto& f = mesh.boundary[b].nodes;
    if (!on_a_tet[face_key(f)])
      stray.add("face " + std::to_string(b) + " (nodes " + std::to_string(f[0]) + " " + std::to_string(f[1]) +
                " " + std::to_string(f[2]) + ")");
    for (int i = 0; i < 3; ++i) ++edge_uses[edge_key(f[i], f[(i + 1) % 3])];
  }
  if (stray.count() > 0)
    fail(source, "boundary faces that are no face of any tet, " + std::to_string(stray.count()) + ": " + stray.list());
  Findings open;
  for (const auto& [key, uses] : edge_uses)
    if (uses != 2)
      open.add("edge " + std::to_string(key >> 32) + "-" + std::to_string(key & 0xffffffffu) + " (" +
               std::to_string(uses) + " faces)");
  if (open.count() > 0)
    fail(source, "open or non-manifold boundary, " + std::to_string(open.count()) +
                     " edges not shared by exactly 2 boundary faces: " + open.list());
}

}  // namespace

MeshReport check_mesh(const Mesh& mesh, const std::string& source) {
  if (mesh.tets.empty()) fail(source, "the mesh has no tets");
  check_indices(mesh, source);
  MeshReport report;
  report.nodes = mesh.nodes.size();
  report.tets = mesh.tets.size();
  report.boundary_faces = mesh.boundary.size();
  report.patches = mesh.patches.size();
  measure_tets(mesh, source, report);
  check_duplicates(mesh, source);
  check_unreferenced(mesh, source);
  check_boundary(mesh, source);
  return report;
}

}  // namespace hetflow::fem
