#include "hetflow/fem/gmsh_reader.hpp"


#include "hetflow/fem/mesh_error.hpp"
#include "hetflow/fem/gmsh_binary.hpp"
#include "hetflow/fem/msh_content.hpp"
#include "hetflow/fem/msh_cursor.hpp"
#include "hetflow/io/atomic_file.hpp"

namespace hetflow::fem {
namespace {

// A count on its own, or the first field of a section's header line.
std::int64_t count_field(MshCursor& at, std::string_view field, std::string_view what) {
  const std::int64_t n = at.integer(field);
  if (n < 0) at.fail("negative " + std::string(what) + " " + std::to_string(n));
  return n;
}

// The next line of a section that announced `count` items, of which `done` were read.
void next_item(MshCursor& at, std::string_view section, std::int64_t count, std::int64_t done) {
  at.require_next(std::string("$End").append(section));
  if (at.line().starts_with("$"))
    at.fail(std::string("$").append(section).append(" announces ") + std::to_string(count) +
            " entries but lists " + std::to_string(done));
}

// A section made of a count line, that many item lines, and its $End line; calls item() on each.
template <class F>
void read_counted(MshCursor& at, std::string_view section, F&& item) {
  at.require_next(std::string("the $").append(section).append(" count"));
  const std::int64_t n = count_field(at, at.fields(1)[0], "count");
  for (std::int64_t i = 0; i < n; ++i) {
    next_item(at, section, n, i);
    item();
  }
  at.expect(std::string("$End").append(section));
}

void read_physical_names(MshCursor& at, MshContent& content) {
  read_counted(at, "PhysicalNames", [&] {
    const auto f = at.fields(3);
    const auto open = at.line().find('"'), close = at.line().rfind('"');
    if (open == std::string_view::npos || close == open) at.fail("expected a quoted physical name");
    if (at.integer(f[0]) == 2)
      content.name_surface_group(at.integer(f[1]), std::string(at.line().substr(open + 1, close - open - 1)));
  });
}

std::vector<std::int64_t> integers(const MshCursor& at, const std::vector<std::string_view>& f, std::size_t first) {
  std::vector<std::int64_t> out;
  for (std::size_t i = first; i < f.size(); ++i) out.push_back(at.integer(f[i]));
  return out;
}

Point point_of(const MshCursor& at, const std::vector<std::string_view>& f, std::size_t first) {
  return {at.real(f[first]), at.real(f[first + 1]), at.real(f[first + 2])};
}

void read_nodes_v2(MshCursor& at, MshContent& content) {
  read_counted(at, "Nodes", [&] {
    const auto f = at.fields(4);
    content.add_node(at.integer(f[0]), point_of(at, f, 1));
  });
}

void read_elements_v2(MshCursor& at, MshContent& content) {
  read_counted(at, "Elements", [&] {
    const auto f = at.fields(3);
    const std::int64_t tags = count_field(at, f[2], "tag count");
    if (std::int64_t(f.size()) < 3 + tags) at.fail("the line ends inside its " + std::to_string(tags) + " tags");
    const std::int64_t physical = tags > 0 ? at.integer(f[3]) : 0;
    const std::int64_t entity = tags > 1 ? at.integer(f[4]) : 0;
    content.add_element(at.integer(f[0]), at.integer(f[1]), integers(at, f, 3 + tags), physical, entity);
  });
}

void read_entities_v4(MshCursor& at, SurfaceGroups& groups) {
  at.require_next("the $Entities counts");
  const auto head = at.fields(4);
  std::int64_t counts[4];
  for (int d = 0; d < 4; ++d) counts[d] = count_field(at, head[d], "entity count");
  const std::int64_t total = counts[0] + counts[1] + counts[2] + counts[3];
  for (std::int64_t i = 0; i < total; ++i) {
    next_item(at, "Entities", total, i);
    const bool is_point = i < counts[0];
    const bool is_surface = i >= counts[0] + counts[1] && i < counts[0] + counts[1] + counts[2];
    const std::size_t groups_at = is_point ? 4 : 7;  // after tag and x y z, or tag and a bounding box
    const auto f = at.fields(groups_at + 1);
    const std::int64_t n_groups = count_field(at, f[groups_at], "physical tag count");
    if (std::int64_t(f.size()) < std::int64_t(groups_at) + 1 + n_groups)
      at.fail("the line ends inside its " + std::to_string(n_groups) + " physical tags");
    if (is_surface) groups[at.integer(f[0])] = n_groups > 0 ? at.integer(f[groups_at + 1]) : 0;
  }
  at.expect("$EndEntities");
}

// A 4.1 section: a header line (block count, item count, ...), blocks of a header line and their item
// lines, and its $End line. block(header, next_line) reads one block's items, calling next_line(i) to
// move to a line of its item i, and returns how many items it read.
template <class F>
void read_blocks(MshCursor& at, std::string_view section, std::string_view items, F&& block) {
  at.require_next(std::string("the $").append(section).append(" header"));
  const auto head = at.fields(4);
  const std::int64_t blocks = count_field(at, head[0], "block count");
  const std::int64_t total = count_field(at, head[1], "count");
  std::int64_t read = 0;
  auto next_line = [&](std::int64_t i) { next_item(at, section, total, read + i); };
  for (std::int64_t b = 0; b < blocks; ++b) {
    next_item(at, section, total, read);
    read += block(at.fields(4), next_line);
  }
  if (read != total)
    at.fail(std::string("$").append(section).append(" announces ") + std::to_string(total) + " " +
            std::string(items) + " but its blocks hold " + std::to_string(read));
  at.expect(std::string("$End").append(section));
}

void read_nodes_v4(MshCursor& at, MshContent& content) {
  read_blocks(at, "Nodes", "nodes", [&](const std::vector<std::string_view>& head, auto& next_line) {
    const std::int64_t n = count_field(at, head[3], "node count");
    std::vector<std::int64_t> ids;
    for (std::int64_t i = 0; i < n; ++i) {
      next_line(i);
      ids.push_back(at.integer(at.fields(1)[0]));
    }
    for (std::int64_t i = 0; i < n; ++i) {
      next_line(i);
      content.add_node(ids[std::size_t(i)], point_of(at, at.fields(3), 0));
    }
    return n;
  });
}

void read_elements_v4(MshCursor& at, MshContent& content, const SurfaceGroups& groups) {
  read_blocks(at, "Elements", "elements", [&](const std::vector<std::string_view>& head, auto& next_line) {
    const std::int64_t dim = at.integer(head[0]), entity = at.integer(head[1]), type = at.integer(head[2]);
    const std::int64_t n = count_field(at, head[3], "element count");
    auto group = groups.find(entity);
    const std::int64_t physical = dim == 2 && group != groups.end() ? group->second : 0;
    for (std::int64_t i = 0; i < n; ++i) {
      next_line(i);
      const auto f = at.fields(1);
      content.add_element(at.integer(f[0]), type, integers(at, f, 1), physical, entity);
    }
    return n;
  });
}

// Skips a section this reader does not use, up to its $End line.
void skip_section(MshCursor& at, std::string_view name) {
  const std::string end = std::string("$End").append(name);
  do at.require_next(end);
  while (at.line() != end);
}

}  // namespace

Mesh parse_gmsh(std::string_view text, const std::string& source) {
  MshCursor at(text, source);
  do at.require_next("$MeshFormat");
  while (at.fields().empty());
  if (at.line() != "$MeshFormat")
    at.fail("expected $MeshFormat, found '" + std::string(at.line()) + "': not a Gmsh mesh");
  at.require_next("the format version line");
  const auto format = at.fields(3);
  const bool v2 = format[0] == "2.2", v4 = format[0] == "4.1";
  if (!v2 && !v4) at.fail("Gmsh format version " + std::string(format[0]) + " is not supported (2.2 and 4.1 are)");
  if (format[1] != "0" && format[1] != "1")
    at.fail("file type " + std::string(format[1]) + " is neither 0 (ASCII) nor 1 (binary)");
  const bool binary = format[1] == "1";
  if (binary && format[2] != "8") at.fail("data size " + std::string(format[2]) + " is not supported (8 is)");
  if (binary) read_binary_check(at);
  at.expect("$EndMeshFormat");

  MshContent content(at);
  SurfaceGroups groups;
  bool has_nodes = false, has_elements = false;
  while (at.next()) {
    const std::string_view line = at.line();
    if (at.fields().empty()) continue;
    if (!line.starts_with("$")) at.fail("expected a section such as $Nodes, found '" + std::string(line) + "'");
    const std::string_view name = line.substr(1);
    if (name == "PhysicalNames") {
      read_physical_names(at, content);
    } else if (name == "Entities" && v4) {
      binary ? read_entities_v4_binary(at, groups) : read_entities_v4(at, groups);
    } else if (name == "Nodes") {
      if (v2) binary ? read_nodes_v2_binary(at, content) : read_nodes_v2(at, content);
      else binary ? read_nodes_v4_binary(at, content) : read_nodes_v4(at, content);
      has_nodes = true;
    } else if (name == "Elements") {
      if (v2) binary ? read_elements_v2_binary(at, content) : read_elements_v2(at, content);
      else binary ? read_elements_v4_binary(at, content, groups) : read_elements_v4(at, content, groups);
      has_elements = true;
    } else {
      skip_section(at, name);
    }
  }
  if (!has_nodes || !has_elements)
    throw MeshError(source + ": no " + std::string(has_nodes ? "$Elements" : "$Nodes") + " section");
  return content.finish();
}

Mesh read_gmsh(const std::filesystem::path& path) {
  const auto bytes = io::read_file_bytes(path);
  return parse_gmsh(std::string_view(bytes.data(), bytes.size()), path.string());
}

}  // namespace hetflow::fem
