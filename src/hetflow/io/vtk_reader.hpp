#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hetflow/io/field.hpp"

namespace hetflow::io {

// One DataArray as read: values in native byte order, whatever the file's encoding was.
struct DataArray {
  std::string name;
  int components = 1;
  ScalarType type = ScalarType::Float64;
  std::vector<std::uint8_t> bytes;

  std::size_t size() const { return bytes.size() / scalar_type_size(type); }
  std::size_t tuples() const { return size() / static_cast<std::size_t>(components); }

  // The values as their stored type, bit for bit; FormatError if T is not that type.
  template <class T>
  std::vector<T> values() const {
    check_type(scalar_type_of<T>());
    std::vector<T> out(size());
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
  std::vector<double> to_double() const;      // any type, converted
  std::vector<std::int64_t> to_int64() const;  // integer types only (UInt64 above INT64_MAX is an error)

 private:
  void check_type(ScalarType wanted) const;
};

struct VtkImageData {
  std::array<std::int64_t, 6> extent{};  // WholeExtent: x0 x1 y0 y1 z0 z1
  std::array<std::size_t, 3> dims{};     // points per axis
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  std::array<double, 3> spacing{1.0, 1.0, 1.0};
  std::array<double, 9> direction{1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::vector<DataArray> point_data;
  std::vector<DataArray> cell_data;

  const DataArray* point_array(std::string_view name) const;
  const DataArray* cell_array(std::string_view name) const;
};

struct VtkUnstructuredGrid {
  DataArray points;  // 3 components, Float32 or Float64 as stored
  std::vector<std::int64_t> connectivity;
  std::vector<std::int64_t> offsets;  // end of each cell in connectivity
  std::vector<std::uint8_t> types;    // VTK cell type codes
  std::vector<DataArray> point_data;
  std::vector<DataArray> cell_data;

  std::size_t point_count() const { return points.tuples(); }
  std::size_t cell_count() const { return types.size(); }
  const DataArray* point_array(std::string_view name) const;
  const DataArray* cell_array(std::string_view name) const;
};

// Readers for single-piece VTK XML ImageData and UnstructuredGrid: DataArrays inline "ascii", inline
// "binary" (base64) or appended raw; UInt32 or UInt64 block headers; either byte order; uncompressed or
// vtkZLibDataCompressor. Every malformed input raises FormatError "<file>:<line>: <what is wrong>"; sizes
// are checked against the bytes actually present before anything is allocated or read.
VtkImageData read_vti(const std::filesystem::path& path);
VtkUnstructuredGrid read_vtu(const std::filesystem::path& path);

// The same from memory; `source_name` stands for the file name in messages.
VtkImageData parse_vti(std::string_view content, std::string_view source_name = "<memory>");
VtkUnstructuredGrid parse_vtu(std::string_view content, std::string_view source_name = "<memory>");
std::variant<VtkImageData, VtkUnstructuredGrid> parse_vtk(std::string_view content,
                                                          std::string_view source_name = "<memory>");

}  // namespace hetflow::io
