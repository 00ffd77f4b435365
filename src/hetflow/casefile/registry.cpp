#include "hetflow/casefile/registry.hpp"

#include <stdexcept>

namespace hetflow::casefile {

void CaseRegistry::add(Schema schema) {
  schema.check();
  const std::string name = schema.type_name();
  if (!schemas_.emplace(name, std::move(schema)).second)
    throw std::logic_error("case type '" + name + "' is registered twice");
}

const Schema* CaseRegistry::find(std::string_view type) const {
  const auto it = schemas_.find(type);
  return it == schemas_.end() ? nullptr : &it->second;
}

std::vector<std::string> CaseRegistry::types() const {
  std::vector<std::string> names;
  for (const auto& entry : schemas_) names.push_back(entry.first);
  return names;
}

}  // namespace hetflow::casefile
