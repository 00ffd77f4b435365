#include "hetflow/fem/msh_content.hpp"

namespace hetflow::fem {
namespace {

constexpr int kTriangle = 2;
constexpr int kTetrahedron = 4;

}  // namespace

ElementKind element_kind(std::int64_t type) {
  static constexpr ElementKind kKinds[18] = {{},      {1, 2},  {2, 3},  {2, 4},  {3, 4}, {3, 8},
                                             {3, 6},  {3, 5},  {1, 3},  {2, 6},  {2, 9}, {3, 10},
                                             {3, 27}, {3, 18}, {3, 14}, {0, 1},  {2, 8}, {3, 20}};
  return type >= 1 && type < 18 ? kKinds[type] : ElementKind{};
}

void MshContent::add_node(std::int64_t id, const Point& p) {
  if (!index_.try_emplace(id, std::uint32_t(mesh_.nodes.size())).second)
    at_.fail("node " + std::to_string(id) + " is listed twice");
  mesh_.nodes.push_back(p);
}

void MshContent::add_element(std::int64_t id, std::int64_t type, std::span<const std::int64_t> nodes,
                             std::int64_t physical, std::int64_t entity) {
  const ElementKind kind = element_kind(type);
  if (kind.dim < 0) at_.fail("element " + std::to_string(id) + " has unknown type " + std::to_string(type));
  if (std::int64_t(nodes.size()) != kind.nodes)
    at_.fail("element " + std::to_string(id) + " of type " + std::to_string(type) + " needs " +
             std::to_string(kind.nodes) + " nodes, found " + std::to_string(nodes.size()));
  if (kind.dim == 3 && type != kTetrahedron)
    at_.fail("element " + std::to_string(id) + " has type " + std::to_string(type) +
             ": only linear tetrahedra (type 4) are supported as volume elements");
  if (kind.dim == 2 && type != kTriangle)
    at_.fail("element " + std::to_string(id) + " has type " + std::to_string(type) +
             ": only linear triangles (type 2) are supported as boundary elements");
  if (kind.dim < 2) return;
  std::uint32_t idx[4];
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto it = index_.find(nodes[i]);
    if (it == index_.end())
      at_.fail("element " + std::to_string(id) + " names node " + std::to_string(nodes[i]) +
               ", which $Nodes does not list");
    idx[i] = it->second;
  }
  if (kind.dim == 3) {
    mesh_.tets.push_back({idx[0], idx[1], idx[2], idx[3]});
    return;
  }
  // Physical groups get keys > 0, entities without a group keys < 0.
  const std::int64_t key = physical > 0 ? physical : -entity;
  auto [it, added] = patch_of_key_.try_emplace(key, std::uint32_t(keys_.size()));
  if (added) keys_.push_back(key);
  mesh_.boundary.push_back({{idx[0], idx[1], idx[2]}, it->second});
}

Mesh MshContent::finish() {
  for (auto key : keys_) {
    auto it = names_.find(key);
    mesh_.patches.push_back(key < 0                ? "surface " + std::to_string(-key)
                            : it != names_.end() ? it->second
                                                 : "group " + std::to_string(key));
  }
  return std::move(mesh_);
}

}  // namespace hetflow::fem
