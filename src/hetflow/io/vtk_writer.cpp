#include "hetflow/io/vtk_writer.hpp"

#include <algorithm>
#include <bit>
#include <set>
#include <string>
#include <string_view>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/xml_text.hpp"

namespace hetflow::io {
namespace {

constexpr std::string_view byte_order_name() {
  return std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";
}

// Collects DataArray elements and their raw blocks; offsets count from the byte after the '_' marker.
class AppendedArrays {
 public:
  void add(std::string& xml, std::string_view indent, ScalarType type, std::string_view name, int components,
           const void* data, std::size_t bytes) {
    xml += indent;
    xml += "<DataArray type=\"";
    xml += scalar_type_name(type);
    xml += '"';
    if (!name.empty()) {
      xml += " Name=\"";
      xml += xml_escape(name);
      xml += '"';
    }
    xml += " NumberOfComponents=\"" + std::to_string(components) + "\" format=\"appended\" offset=\"" +
           std::to_string(offset_) + "\"/>\n";
    blocks_.push_back({data, bytes});
    offset_ += sizeof(std::uint64_t) + bytes;
  }

  void write_to(AtomicFile& file) const {
    file.write("  <AppendedData encoding=\"raw\">\n   _");
    for (const auto& b : blocks_) {
      const std::uint64_t header = b.bytes;
      file.write(&header, sizeof header);
      if (b.bytes > 0) file.write(b.data, b.bytes);
    }
    file.write("\n  </AppendedData>\n</VTKFile>\n");
  }

 private:
  struct Block {
    const void* data;
    std::size_t bytes;
  };
  std::vector<Block> blocks_;
  std::uint64_t offset_ = 0;
};

std::string file_header(std::string_view type) {
  std::string xml = "<?xml version=\"1.0\"?>\n<VTKFile type=\"";
  xml += type;
  xml += "\" version=\"1.0\" byte_order=\"";
  xml += byte_order_name();
  xml += "\" header_type=\"UInt64\">\n";
  return xml;
}

void check_fields(const std::filesystem::path& path, std::span<const Field> fields, std::size_t tuples,
                  std::string_view where) {
  std::set<std::string> names;
  for (const auto& f : fields) {
    const std::string prefix = "cannot write '" + path.string() + "': " + std::string(where) + " field '" + f.name + "' ";
    if (f.name.empty()) throw IoError("cannot write '" + path.string() + "': a " + std::string(where) + " field has no name");
    if (!names.insert(f.name).second) throw IoError(prefix + "appears twice");
    if (f.components < 1) throw IoError(prefix + "has " + std::to_string(f.components) + " components");
    const auto expected = tuples * static_cast<std::size_t>(f.components);
    if (f.size() != expected)
      throw IoError(prefix + "has " + std::to_string(f.size()) + " values, expected " + std::to_string(expected) +
                    " (" + std::to_string(tuples) + " tuples x " + std::to_string(f.components) + " components)");
  }
}

// ParaView colours by the "active" arrays; the first scalar and the first 3-vector are the natural choice.
void add_field_section(std::string& xml, AppendedArrays& arrays, std::string_view tag, std::span<const Field> fields) {
  xml += "      <";
  xml += tag;
  const auto scalar = std::find_if(fields.begin(), fields.end(), [](const Field& f) { return f.components == 1; });
  const auto vector = std::find_if(fields.begin(), fields.end(), [](const Field& f) { return f.components == 3; });
  if (scalar != fields.end()) xml += " Scalars=\"" + xml_escape(scalar->name) + "\"";
  if (vector != fields.end()) xml += " Vectors=\"" + xml_escape(vector->name) + "\"";
  xml += ">\n";
  for (const auto& f : fields) arrays.add(xml, "        ", f.type(), f.name, f.components, f.bytes(), f.byte_size());
  xml += "      </";
  xml += tag;
  xml += ">\n";
}

std::string extent_text(const ImageGrid& g) {
  return "0 " + std::to_string(g.dims[0] - 1) + " 0 " + std::to_string(g.dims[1] - 1) + " 0 " +
         std::to_string(g.dims[2] - 1);
}

std::string triple(const std::array<double, 3>& v) {
  return format_double(v[0]) + " " + format_double(v[1]) + " " + format_double(v[2]);
}

}  // namespace

std::size_t ImageGrid::cell_count() const {
  std::size_t n = 1;
  for (const auto d : dims) n *= d > 1 ? d - 1 : 1;
  return n;
}

void write_vti(const std::filesystem::path& path, const ImageGrid& grid, std::span<const Field> point_data,
               std::span<const Field> cell_data) {
  for (const auto d : grid.dims)
    if (d == 0) throw IoError("cannot write '" + path.string() + "': image dimensions must be at least 1");
  check_fields(path, point_data, grid.point_count(), "point");
  check_fields(path, cell_data, grid.cell_count(), "cell");

  AppendedArrays arrays;
  std::string xml = file_header("ImageData");
  const std::string extent = extent_text(grid);
  xml += "  <ImageData WholeExtent=\"" + extent + "\" Origin=\"" + triple(grid.origin) + "\" Spacing=\"" +
         triple(grid.spacing) + "\" Direction=\"1 0 0 0 1 0 0 0 1\">\n";
  xml += "    <Piece Extent=\"" + extent + "\">\n";
  add_field_section(xml, arrays, "PointData", point_data);
  add_field_section(xml, arrays, "CellData", cell_data);
  xml += "    </Piece>\n  </ImageData>\n";

  AtomicFile file(path);
  file.write(xml);
  arrays.write_to(file);
  file.commit();
}

int cell_type_nodes(CellType type) {
  switch (type) {
    case CellType::Vertex: return 1;
    case CellType::Line: return 2;
    case CellType::Triangle: return 3;
    case CellType::Tetra: return 4;
    case CellType::Hexahedron: return 8;
  }
  return 0;
}

std::size_t UnstructuredMesh::point_count() const {
  return std::visit([](auto s) { return s.size() / 3; }, points);
}

std::vector<std::int64_t> uniform_offsets(std::size_t cells, int nodes_per_cell) {
  std::vector<std::int64_t> offsets(cells);
  for (std::size_t c = 0; c < cells; ++c) offsets[c] = static_cast<std::int64_t>(c + 1) * nodes_per_cell;
  return offsets;
}

namespace {

void check_mesh(const std::filesystem::path& path, const UnstructuredMesh& mesh) {
  const std::string prefix = "cannot write '" + path.string() + "': ";
  const std::size_t npoints_values = std::visit([](auto s) { return s.size(); }, mesh.points);
  if (npoints_values % 3 != 0)
    throw IoError(prefix + "point coordinates hold " + std::to_string(npoints_values) +
                  " values, not a multiple of 3");
  if (mesh.offsets.size() != mesh.types.size())
    throw IoError(prefix + std::to_string(mesh.types.size()) + " cell types but " +
                  std::to_string(mesh.offsets.size()) + " offsets");
  const auto npoints = static_cast<std::int64_t>(mesh.point_count());
  std::int64_t begin = 0;
  for (std::size_t c = 0; c < mesh.types.size(); ++c) {
    const int nodes = cell_type_nodes(mesh.types[c]);
    if (nodes == 0)
      throw IoError(prefix + "cell " + std::to_string(c) + " has unsupported type " +
                    std::to_string(static_cast<int>(mesh.types[c])));
    const std::int64_t end = mesh.offsets[c];
    if (end - begin != nodes || end > static_cast<std::int64_t>(mesh.connectivity.size()))
      throw IoError(prefix + "cell " + std::to_string(c) + " spans connectivity [" + std::to_string(begin) + ", " +
                    std::to_string(end) + ") but its type has " + std::to_string(nodes) + " nodes");
    for (std::int64_t k = begin; k < end; ++k) {
      const std::int64_t p = mesh.connectivity[static_cast<std::size_t>(k)];
      if (p < 0 || p >= npoints)
        throw IoError(prefix + "cell " + std::to_string(c) + " refers to point " + std::to_string(p) + " of " +
                      std::to_string(npoints));
    }
    begin = end;
  }
  if (begin != static_cast<std::int64_t>(mesh.connectivity.size()))
    throw IoError(prefix + "connectivity holds " + std::to_string(mesh.connectivity.size()) +
                  " entries but the cells use " + std::to_string(begin));
}

// The Points element, then the opening of the `section` element (Cells, Lines) with its connectivity and
// offsets, shared by unstructured grids and poly data; the caller closes the section.
template <class Points>
void add_topology(std::string& xml, AppendedArrays& arrays, const Points& points, const char* section,
                  std::span<const std::int64_t> connectivity, std::span<const std::int64_t> offsets) {
  xml += "      <Points>\n";
  std::visit(
      [&](auto s) {
        using T = std::remove_cv_t<typename decltype(s)::element_type>;
        arrays.add(xml, "        ", scalar_type_of<T>(), "Points", 3, s.data(), s.size_bytes());
      },
      points);
  xml += std::string("      </Points>\n      <") + section + ">\n";
  arrays.add(xml, "        ", ScalarType::Int64, "connectivity", 1, connectivity.data(), connectivity.size_bytes());
  arrays.add(xml, "        ", ScalarType::Int64, "offsets", 1, offsets.data(), offsets.size_bytes());
}

}  // namespace

void write_vtu(const std::filesystem::path& path, const UnstructuredMesh& mesh, std::span<const Field> point_data,
               std::span<const Field> cell_data) {
  check_mesh(path, mesh);
  check_fields(path, point_data, mesh.point_count(), "point");
  check_fields(path, cell_data, mesh.cell_count(), "cell");

  AppendedArrays arrays;
  std::string xml = file_header("UnstructuredGrid");
  xml += "  <UnstructuredGrid>\n    <Piece NumberOfPoints=\"" + std::to_string(mesh.point_count()) +
         "\" NumberOfCells=\"" + std::to_string(mesh.cell_count()) + "\">\n";
  add_field_section(xml, arrays, "PointData", point_data);
  add_field_section(xml, arrays, "CellData", cell_data);
  add_topology(xml, arrays, mesh.points, "Cells", mesh.connectivity, mesh.offsets);
  static_assert(sizeof(CellType) == 1, "cell types are written as UInt8");
  arrays.add(xml, "        ", ScalarType::UInt8, "types", 1, mesh.types.data(), mesh.types.size_bytes());
  xml += "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n";

  AtomicFile file(path);
  file.write(xml);
  arrays.write_to(file);
  file.commit();
}

std::size_t PolyLines::point_count() const {
  return std::visit([](auto s) { return s.size() / 3; }, points);
}

void write_vtp(const std::filesystem::path& path, const PolyLines& lines, std::span<const Field> point_data,
               std::span<const Field> cell_data) {
  const std::string prefix = "cannot write '" + path.string() + "': ";
  const std::size_t values = std::visit([](auto s) { return s.size(); }, lines.points);
  if (values % 3 != 0)
    throw IoError(prefix + "point coordinates hold " + std::to_string(values) + " values, not a multiple of 3");
  const auto npoints = static_cast<std::int64_t>(lines.point_count());
  std::int64_t begin = 0;
  for (std::size_t l = 0; l < lines.line_count(); ++l) {
    const std::int64_t end = lines.offsets[l];
    if (end - begin < 2 || end > static_cast<std::int64_t>(lines.connectivity.size()))
      throw IoError(prefix + "line " + std::to_string(l) + " spans connectivity [" + std::to_string(begin) + ", " +
                    std::to_string(end) + ") of " + std::to_string(lines.connectivity.size()) +
                    ": expected at least 2 points inside the connectivity");
    for (std::int64_t k = begin; k < end; ++k) {
      const std::int64_t p = lines.connectivity[static_cast<std::size_t>(k)];
      if (p < 0 || p >= npoints)
        throw IoError(prefix + "line " + std::to_string(l) + " refers to point " + std::to_string(p) + " of " +
                      std::to_string(npoints));
    }
    begin = end;
  }
  if (begin != static_cast<std::int64_t>(lines.connectivity.size()))
    throw IoError(prefix + "connectivity holds " + std::to_string(lines.connectivity.size()) +
                  " entries but the lines use " + std::to_string(begin));
  check_fields(path, point_data, lines.point_count(), "point");
  check_fields(path, cell_data, lines.line_count(), "cell");

  AppendedArrays arrays;
  std::string xml = file_header("PolyData");
  xml += "  <PolyData>\n    <Piece NumberOfPoints=\"" + std::to_string(lines.point_count()) +
         "\" NumberOfVerts=\"0\" NumberOfLines=\"" + std::to_string(lines.line_count()) +
         "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n";
  add_field_section(xml, arrays, "PointData", point_data);
  add_field_section(xml, arrays, "CellData", cell_data);
  add_topology(xml, arrays, lines.points, "Lines", lines.connectivity, lines.offsets);
  xml += "      </Lines>\n    </Piece>\n  </PolyData>\n";

  AtomicFile file(path);
  file.write(xml);
  arrays.write_to(file);
  file.commit();
}

}  // namespace hetflow::io
