#include "hetflow/fem/gmsh_binary.hpp"

#include <cstdint>
#include <vector>

namespace hetflow::fem {
namespace {

using Size = std::uint64_t;

// The count on the ASCII line that opens a 2.2 binary section.
std::int64_t ascii_count(MshCursor& at, std::string_view section) {
  at.require_next(std::string("the $").append(section).append(" count"));
  const std::int64_t n = at.integer(at.fields(1)[0]);
  if (n < 0) at.fail("negative count " + std::to_string(n));
  return n;
}

void close_section(MshCursor& at, std::string_view section) {
  at.end_binary(std::string("$").append(section).append(" data"));
  at.expect(std::string("$End").append(section));
}

Point binary_point(MshCursor& at, std::string_view what) {
  Point p;
  for (auto& x : p) x = at.binary<double>(what);
  return p;
}

// A 4.1 section of blocks: block count, item count, smallest and largest tag, then the blocks, each
// read by block(what), which returns its item count.
template <class F>
void read_binary_blocks(MshCursor& at, std::string_view section, std::string_view items, F&& block) {
  const std::string what = std::string("$").append(section).append(" data");
  const Size blocks = at.binary<Size>(what), total = at.binary<Size>(what);
  at.binary<Size>(what);  // smallest and largest tag
  at.binary<Size>(what);
  Size read = 0;
  for (Size b = 0; b < blocks; ++b) read += block(std::string_view(what));
  if (read != total)
    at.fail(std::string("$").append(section).append(" announces ") + std::to_string(total) + " " +
            std::string(items) + " but its blocks hold " + std::to_string(read));
  close_section(at, section);
}

}  // namespace

void read_binary_check(MshCursor& at) {
  if (at.binary<int>("byte order check") != 1)
    at.fail("the binary data is in the other byte order; convert the mesh on this machine");
  at.end_binary("byte order check");
}

void read_nodes_v2_binary(MshCursor& at, MshContent& content) {
  const std::int64_t n = ascii_count(at, "Nodes");
  for (std::int64_t i = 0; i < n; ++i) {
    const int id = at.binary<int>("$Nodes data");
    content.add_node(id, binary_point(at, "$Nodes data"));
  }
  close_section(at, "Nodes");
}

void read_elements_v2_binary(MshCursor& at, MshContent& content) {
  const std::int64_t n = ascii_count(at, "Elements");
  constexpr std::string_view what = "$Elements data";
  for (std::int64_t read = 0; read < n;) {
    const int type = at.binary<int>(what), follow = at.binary<int>(what), tags = at.binary<int>(what);
    const ElementKind kind = element_kind(type);
    if (kind.dim < 0) at.fail("unknown element type " + std::to_string(type));
    if (follow < 0 || tags < 0 || follow > n - read)
      at.fail("an element block of " + std::to_string(follow) + " elements with " + std::to_string(tags) +
              " tags does not fit the " + std::to_string(n) + " elements announced");
    for (int e = 0; e < follow; ++e) {
      const int id = at.binary<int>(what);
      std::vector<std::int64_t> tag(static_cast<std::size_t>(tags)), nodes(static_cast<std::size_t>(kind.nodes));
      for (auto& t : tag) t = at.binary<int>(what);
      for (auto& v : nodes) v = at.binary<int>(what);
      content.add_element(id, type, nodes, tags > 0 ? tag[0] : 0, tags > 1 ? tag[1] : 0);
    }
    read += follow;
  }
  close_section(at, "Elements");
}

void read_entities_v4_binary(MshCursor& at, SurfaceGroups& groups) {
  constexpr std::string_view what = "$Entities data";
  Size counts[4];
  for (auto& c : counts) c = at.binary<Size>(what);
  for (int dim = 0; dim < 4; ++dim)
    for (Size e = 0; e < counts[dim]; ++e) {
      const int tag = at.binary<int>(what);
      for (int x = 0; x < (dim == 0 ? 3 : 6); ++x) at.binary<double>(what);
      const Size n_groups = at.binary<Size>(what);
      std::int64_t first = 0;
      for (Size g = 0; g < n_groups; ++g) {
        const int group = at.binary<int>(what);
        if (g == 0) first = group;
      }
      if (dim == 2) groups[tag] = first;
      if (dim > 0)
        for (Size b = at.binary<Size>(what); b > 0; --b) at.binary<int>(what);
    }
  close_section(at, "Entities");
}

void read_nodes_v4_binary(MshCursor& at, MshContent& content) {
  read_binary_blocks(at, "Nodes", "nodes", [&](std::string_view what) {
    const int dim = at.binary<int>(what);
    at.binary<int>(what);  // entity tag
    const int parametric = at.binary<int>(what);
    const Size n = at.binary<Size>(what);
    std::vector<Size> ids;
    for (Size i = 0; i < n; ++i) ids.push_back(at.binary<Size>(what));
    for (Size i = 0; i < n; ++i) {
      content.add_node(std::int64_t(ids[i]), binary_point(at, what));
      if (parametric == 1)
        for (int u = 0; u < dim && u < 2; ++u) at.binary<double>(what);
    }
    return n;
  });
}

void read_elements_v4_binary(MshCursor& at, MshContent& content, const SurfaceGroups& groups) {
  read_binary_blocks(at, "Elements", "elements", [&](std::string_view what) {
    const int dim = at.binary<int>(what), entity = at.binary<int>(what), type = at.binary<int>(what);
    const Size n = at.binary<Size>(what);
    const ElementKind kind = element_kind(type);
    if (kind.dim < 0) at.fail("unknown element type " + std::to_string(type));
    auto group = groups.find(entity);
    const std::int64_t physical = dim == 2 && group != groups.end() ? group->second : 0;
    std::vector<std::int64_t> nodes(static_cast<std::size_t>(kind.nodes));
    for (Size e = 0; e < n; ++e) {
      const auto id = std::int64_t(at.binary<Size>(what));
      for (auto& v : nodes) v = std::int64_t(at.binary<Size>(what));
      content.add_element(id, type, nodes, physical, entity);
    }
    return n;
  });
}

}  // namespace hetflow::fem
