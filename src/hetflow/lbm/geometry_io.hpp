#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/io/vtk_reader.hpp"
#include "hetflow/lbm/geometry.hpp"

namespace hetflow::lbm {

// Reading and writing voxel masks. Content errors raise io::FormatError, missing or unreadable files
// io::IoError; every message names the file, and for YAML headers the line, the key and what was
// expected. A mask without a single fluid node is an error: no solver can use it.

enum class RawType { uint8, uint16, int32 };  // multi-byte values are little-endian
enum class RawOrder { xyz, zyx };             // axes from fastest to slowest in the raw file

// The YAML header of a raw voxel file, e.g.
//   file: sample.raw        # relative to the header's folder
//   dims: [nx, ny, nz]
//   type: uint8             # optional: uint8 (default) | uint16 | int32
//   solid: [1]              # values meaning solid; or  fluid: [0]  (values meaning fluid), not both
//   spacing: 1.0e-6         # optional voxel size: one number or [dx, dy, dz]
//   order: xyz              # optional: xyz (x fastest, default) or zyx (z fastest)
struct RawHeader {
  std::string file;
  int file_line = 0;  // where 'file' was written, for messages about the raw file
  std::array<std::size_t, 3> dims{};
  RawType type = RawType::uint8;
  std::vector<std::int64_t> values;  // the listed solid (or fluid) values
  bool values_are_fluid = false;     // true when the header listed 'fluid' rather than 'solid'
  std::array<double, 3> spacing{1.0, 1.0, 1.0};
  RawOrder order = RawOrder::xyz;

  std::size_t byte_count() const;  // dims x value size; the header parser guarantees it does not overflow
};

std::size_t raw_type_size(RawType t);
std::string_view raw_type_name(RawType t);

// From memory: `source_name` stands for the header file in messages. The raw bytes are decoded with
// decode_raw_voxels, whose `raw_name` names the raw file in messages.
RawHeader parse_raw_header(std::string_view text, const std::string& source_name);
Geometry decode_raw_voxels(const RawHeader& header, std::span<const std::uint8_t> bytes,
                           const std::string& header_name, const std::string& raw_name);

// A raw voxel file through its YAML header; the size is checked before the raw file is read.
Geometry read_raw_geometry(const std::filesystem::path& header_path);

// A mask from a .vti point or cell data array (one component): `array_name`, or when empty the first
// point array, else the first cell array. Nonzero values are solid, except in an array named
// "node_type" of type UInt8 (what write_geometry_vti writes), whose values are node codes.
// Cell data gives one node per cell. The voxel size comes from the file's spacing.
Geometry read_vti_geometry(const std::filesystem::path& path, std::string_view array_name = {});
Geometry geometry_from_vti(const io::VtkImageData& image, std::string_view array_name, const std::string& source_name);

// Dispatches on the extension: .yaml / .yml (raw file + header) or .vti.
Geometry load_geometry(const std::filesystem::path& path);

// The mask as UInt8 point data "node_type", for ParaView; read_vti_geometry reads it back exactly.
void write_geometry_vti(const std::filesystem::path& path, const Geometry& geometry);

}  // namespace hetflow::lbm
