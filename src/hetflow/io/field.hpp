#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace hetflow::io {

// The element types VTK XML names; writers produce the first four, readers accept all.
enum class ScalarType { Float32, Float64, Int32, UInt8, Int8, Int16, UInt16, UInt32, Int64, UInt64 };

std::string_view scalar_type_name(ScalarType t);  // VTK spelling: "Float32", "UInt8", ...
std::size_t scalar_type_size(ScalarType t);
bool parse_scalar_type(std::string_view name, ScalarType& out);

template <class T>
constexpr ScalarType scalar_type_of() {
  if constexpr (std::is_same_v<T, float>) return ScalarType::Float32;
  else if constexpr (std::is_same_v<T, double>) return ScalarType::Float64;
  else if constexpr (std::is_same_v<T, std::int32_t>) return ScalarType::Int32;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return ScalarType::UInt8;
  else if constexpr (std::is_same_v<T, std::int8_t>) return ScalarType::Int8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return ScalarType::Int16;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return ScalarType::UInt16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return ScalarType::UInt32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return ScalarType::Int64;
  else {
    static_assert(std::is_same_v<T, std::uint64_t>, "not a VTK scalar type");
    return ScalarType::UInt64;
  }
}

using FieldSpan = std::variant<std::span<const float>, std::span<const double>, std::span<const std::int32_t>,
                               std::span<const std::uint8_t>>;

// A named, non-owning view of field values to write: tuples of `components` values, x fastest on grids
// (index = i + nx*(j + ny*k)), components interleaved (vx,vy,vz,vx,...). The caller keeps the data alive.
struct Field {
  std::string name;
  int components = 1;
  FieldSpan data;

  Field(std::string field_name, FieldSpan values, int num_components = 1)
      : name(std::move(field_name)), components(num_components), data(values) {}

  // Any contiguous range of float/double/int32/uint8 (std::vector, std::array, ...).
  template <class Range, class T = std::remove_cv_t<std::remove_reference_t<decltype(*std::data(std::declval<const Range&>()))>>>
    requires(!std::is_same_v<std::remove_cvref_t<Range>, FieldSpan>)
  Field(std::string field_name, const Range& values, int num_components = 1)
      : name(std::move(field_name)),
        components(num_components),
        data(std::span<const T>(std::data(values), std::size(values))) {}

  std::size_t size() const {
    return std::visit([](auto s) { return s.size(); }, data);
  }
  ScalarType type() const {
    return std::visit([](auto s) { return scalar_type_of<std::remove_cv_t<typename decltype(s)::element_type>>(); }, data);
  }
  const void* bytes() const {
    return std::visit([](auto s) { return static_cast<const void*>(s.data()); }, data);
  }
  std::size_t byte_size() const {
    return std::visit([](auto s) { return s.size_bytes(); }, data);
  }
};

}  // namespace hetflow::io
