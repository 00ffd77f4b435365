#include "hetflow/io/field.hpp"

#include <array>
#include <utility>

namespace hetflow::io {
namespace {

struct TypeInfo {
  ScalarType type;
  std::string_view name;
  std::size_t size;
};

constexpr std::array<TypeInfo, 10> kTypes{{
    {ScalarType::Float32, "Float32", 4},
    {ScalarType::Float64, "Float64", 8},
    {ScalarType::Int32, "Int32", 4},
    {ScalarType::UInt8, "UInt8", 1},
    {ScalarType::Int8, "Int8", 1},
    {ScalarType::Int16, "Int16", 2},
    {ScalarType::UInt16, "UInt16", 2},
    {ScalarType::UInt32, "UInt32", 4},
    {ScalarType::Int64, "Int64", 8},
    {ScalarType::UInt64, "UInt64", 8},
}};

const TypeInfo& info(ScalarType t) {
  for (const auto& i : kTypes)
    if (i.type == t) return i;
  return kTypes[0];
}

}  // namespace

std::string_view scalar_type_name(ScalarType t) { return info(t).name; }
std::size_t scalar_type_size(ScalarType t) { return info(t).size; }

bool parse_scalar_type(std::string_view name, ScalarType& out) {
  for (const auto& i : kTypes) {
    if (i.name == name) {
      out = i.type;
      return true;
    }
  }
  return false;
}

}  // namespace hetflow::io
