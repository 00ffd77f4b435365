#include "hetflow/lbm/geometry_io.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <fstream>
#include <limits>
#include <system_error>

#include "hetflow/io/error.hpp"
#include "hetflow/io/vtk_writer.hpp"
#include "hetflow/io/yaml_header.hpp"

namespace hetflow::lbm {
namespace {

using io::FormatError;

// A mask larger than this is not a lattice any device holds; the limit keeps byte counts far from overflow.
constexpr std::size_t max_nodes = std::size_t{1} << 40;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::uint64_t read_le(const std::uint8_t* p, std::size_t size) {
  std::uint64_t v = 0;
  for (std::size_t i = size; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

std::int64_t raw_value(const std::uint8_t* p, RawType t) {
  switch (t) {
    case RawType::uint8: return p[0];
    case RawType::uint16: return static_cast<std::int64_t>(read_le(p, 2));
    case RawType::int32: return static_cast<std::int32_t>(static_cast<std::uint32_t>(read_le(p, 4)));
  }
  return 0;
}

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

std::string read_whole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::system_error("open", path, errno);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw io::system_error("read", path, errno);
  return s;
}

}  // namespace

std::size_t raw_type_size(RawType t) {
  switch (t) {
    case RawType::uint8: return 1;
    case RawType::uint16: return 2;
    case RawType::int32: return 4;
  }
  return 1;
}

std::string_view raw_type_name(RawType t) {
  switch (t) {
    case RawType::uint8: return "uint8";
    case RawType::uint16: return "uint16";
    case RawType::int32: return "int32";
  }
  return "?";
}

std::size_t RawHeader::byte_count() const { return dims[0] * dims[1] * dims[2] * raw_type_size(type); }

RawHeader parse_raw_header(std::string_view text, const std::string& source_name) {
  io::YamlHeader p(text, source_name, {"file", "dims", "type", "solid", "fluid", "spacing", "order"});
  RawHeader h;

  h.file_line = p.line("file");
  if (const auto file = p.text("file", "the raw file's name")) h.file = *file;

  const std::string dims_form = "three positive integers [nx, ny, nz]";
  if (const auto d = p.integers("dims", dims_form)) {
    if (d->size() != 3 || std::any_of(d->begin(), d->end(), [](std::int64_t v) { return v <= 0; })) {
      p.fail("dims", dims_form);
    } else {
      std::size_t n = 1;
      for (std::size_t i = 0; i < 3; ++i) {
        const auto v = static_cast<std::size_t>((*d)[i]);
        if (v > max_nodes || n > max_nodes / v) {
          p.fail("dims", "at most 2^40 nodes in all");
          break;
        }
        n *= v;
        h.dims[i] = v;
      }
    }
  }

  const std::string type_form = "uint8, uint16 or int32";
  if (const auto type = p.text("type", type_form, false)) {
    if (*type == "uint8") h.type = RawType::uint8;
    else if (*type == "uint16") h.type = RawType::uint16;
    else if (*type == "int32") h.type = RawType::int32;
    else p.fail("type", type_form);
  }

  const std::string spacing_form = "a positive number or three positive numbers [dx, dy, dz]";
  if (const auto s = p.reals("spacing", spacing_form, false, true)) {
    if ((s->size() != 1 && s->size() != 3) || std::any_of(s->begin(), s->end(), [](double v) { return v <= 0.0; }))
      p.fail("spacing", spacing_form);
    else
      for (std::size_t i = 0; i < 3; ++i) h.spacing[i] = (*s)[s->size() == 1 ? 0 : i];
  }

  const std::string order_form = "xyz (x fastest) or zyx (z fastest)";
  if (const auto order = p.text("order", order_form, false)) {
    if (*order == "xyz") h.order = RawOrder::xyz;
    else if (*order == "zyx") h.order = RawOrder::zyx;
    else p.fail("order", order_form);
  }

  const bool solid = p.find("solid") != nullptr;
  h.values_are_fluid = p.find("fluid") != nullptr;
  if (solid && h.values_are_fluid) {
    p.problem("fluid", "given together with key 'solid' (line " + std::to_string(p.line("solid")) +
                           "): expected only one of them");
  } else {
    const std::string key = h.values_are_fluid ? "fluid" : "solid";
    // The form is only shown for a missing key (then neither is given) or a malformed list.
    const std::string values_form =
        solid || h.values_are_fluid
            ? "a list of integer voxel values, e.g. [1]"
            : "the voxel values meaning solid, e.g. solid: [1] (or key 'fluid' with the values meaning fluid)";
    if (const auto values = p.integers(key, values_form, true, true)) {
      h.values = *values;
      // A value the type cannot hold never matches, which silently turns the whole mask solid or fluid.
      const std::int64_t lo = h.type == RawType::int32 ? std::numeric_limits<std::int32_t>::min() : 0;
      const std::int64_t hi = h.type == RawType::uint8 ? 255 : h.type == RawType::uint16 ? 65535 : std::numeric_limits<std::int32_t>::max();
      if (std::any_of(h.values.begin(), h.values.end(), [&](std::int64_t v) { return v < lo || v > hi; }))
        p.fail(key, "values within " + std::string(raw_type_name(h.type)) + "'s range " + std::to_string(lo) + ".." +
                        std::to_string(hi));
    }
  }
  p.finish();
  return h;
}

Geometry decode_raw_voxels(const RawHeader& h, std::span<const std::uint8_t> bytes, const std::string& header_name,
                           const std::string& raw_name) {
  const std::size_t width = raw_type_size(h.type);
  if (bytes.size() != h.byte_count())
    throw FormatError(quoted(raw_name) + " holds " + std::to_string(bytes.size()) + " bytes, but " + quoted(header_name) +
                      " (dims " + dims_text(h.dims) + ", type " + std::string(raw_type_name(h.type)) + ") needs " +
                      std::to_string(h.byte_count()) + " bytes");
  Geometry g(h.dims[0], h.dims[1], h.dims[2]);
  g.spacing = h.spacing;
  const auto node_of = [&](std::int64_t v) {
    const bool listed = std::find(h.values.begin(), h.values.end(), v) != h.values.end();
    return static_cast<std::uint8_t>(listed != h.values_are_fluid ? NodeType::wall : NodeType::fluid);
  };
  // Values repeat heavily; a one-entry cache avoids a list search per voxel.
  std::int64_t last_value = 0;
  std::uint8_t last_node = node_of(0);
  auto codes = g.codes();
  const auto [nx, ny, nz] = h.dims;
  for (std::size_t n = 0; n < codes.size(); ++n) {
    const std::int64_t v = raw_value(bytes.data() + n * width, h.type);
    if (v != last_value) {
      last_value = v;
      last_node = node_of(v);
    }
    // zyx files hold n = z + nz*(y + ny*x); the mask wants x fastest.
    const std::size_t i = h.order == RawOrder::xyz ? n : n / (nz * ny) + nx * ((n / nz) % ny + ny * (n % nz));
    codes[i] = last_node;
  }
  if (!g.any_fluid())
    throw FormatError(quoted(header_name) + ": the mask in " + quoted(raw_name) + " has no fluid node (key " +
                      quoted(h.values_are_fluid ? "fluid" : "solid") + " makes every voxel solid)");
  return g;
}

Geometry read_raw_geometry(const std::filesystem::path& header_path) {
  const std::string header_name = header_path.string();
  const RawHeader h = parse_raw_header(read_whole(header_path), header_name);
  const std::filesystem::path raw_path = header_path.parent_path() / h.file;
  std::error_code ec;
  const auto size = std::filesystem::file_size(raw_path, ec);
  if (ec)
    throw io::IoError(header_name + ":" + std::to_string(h.file_line) + ": key 'file': cannot read " +
                      quoted(raw_path.string()) + ": " + ec.message());
  if (size != h.byte_count())
    throw FormatError(quoted(raw_path.string()) + " holds " + std::to_string(size) + " bytes, but " +
                      quoted(header_name) + " (dims " + dims_text(h.dims) + ", type " +
                      std::string(raw_type_name(h.type)) + ") needs " + std::to_string(h.byte_count()) + " bytes");
  const std::string raw = read_whole(raw_path);
  return decode_raw_voxels(h, {reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()}, header_name,
                           raw_path.string());
}

Geometry geometry_from_vti(const io::VtkImageData& image, std::string_view array_name, const std::string& source_name) {
  const io::DataArray* array = nullptr;
  bool cells = false;
  if (array_name.empty()) {
    if (!image.point_data.empty()) array = &image.point_data.front();
    else if (!image.cell_data.empty()) array = &image.cell_data.front(), cells = true;
  } else {
    array = image.point_array(array_name);
    if (array == nullptr && (array = image.cell_array(array_name)) != nullptr) cells = true;
  }
  if (array == nullptr) {
    std::string names;
    for (const auto* set : {&image.point_data, &image.cell_data})
      for (const auto& a : *set) names += (names.empty() ? "" : ", ") + quoted(a.name);
    throw FormatError(quoted(source_name) + ": no data array " +
                      (array_name.empty() ? std::string("at all") : quoted(std::string(array_name))) +
                      ": expected a point or cell data mask" + (names.empty() ? "" : " (arrays: " + names + ")"));
  }
  std::array<std::size_t, 3> dims = image.dims;
  if (cells)
    for (auto& d : dims) d = d > 1 ? d - 1 : 1;
  if (array->components != 1)
    throw FormatError(quoted(source_name) + ": array " + quoted(array->name) + " has " +
                      std::to_string(array->components) + " components: expected a one-component mask");
  if (dims[0] == 0 || dims[1] == 0 || dims[2] == 0 || dims[0] * dims[1] * dims[2] > max_nodes ||
      array->tuples() != dims[0] * dims[1] * dims[2])
    throw FormatError(quoted(source_name) + ": array " + quoted(array->name) + " has " + std::to_string(array->tuples()) +
                      " values: expected one per " + (cells ? "cell" : "point") + " of the " + dims_text(dims) + " grid");
  Geometry g(dims[0], dims[1], dims[2]);
  g.spacing = image.spacing;
  auto codes = g.codes();
  if (array->name == "node_type" && array->type == io::ScalarType::UInt8) {
    const auto v = array->values<std::uint8_t>();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] > max_node_code)
        throw FormatError(quoted(source_name) + ": array 'node_type' holds code " + std::to_string(v[i]) +
                          ": expected a node type 0.." + std::to_string(max_node_code));
      codes[i] = v[i];
    }
  } else {
    const auto v = array->to_double();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!std::isfinite(v[i]))
        throw FormatError(quoted(source_name) + ": array " + quoted(array->name) + " holds a non-finite value: expected a mask");
      codes[i] = static_cast<std::uint8_t>(v[i] != 0.0 ? NodeType::wall : NodeType::fluid);
    }
  }
  if (!g.any_fluid())
    throw FormatError(quoted(source_name) + ": the mask in array " + quoted(array->name) + " has no fluid node");
  return g;
}

Geometry read_vti_geometry(const std::filesystem::path& path, std::string_view array_name) {
  return geometry_from_vti(io::read_vti(path), array_name, path.string());
}

Geometry load_geometry(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".yaml" || ext == ".yml") return read_raw_geometry(path);
  if (ext == ".vti") return read_vti_geometry(path);
  throw FormatError(quoted(path.string()) + ": unknown geometry file type " + quoted(ext) +
                    ": expected .yaml/.yml (a raw voxel file's header) or .vti");
}

void write_geometry_vti(const std::filesystem::path& path, const Geometry& geometry) {
  io::ImageGrid grid;
  grid.dims = geometry.dims();
  grid.spacing = geometry.spacing;
  const io::Field field("node_type", io::FieldSpan(geometry.codes()));
  io::write_vti(path, grid, std::span<const io::Field>(&field, 1));
}

}  // namespace hetflow::lbm
