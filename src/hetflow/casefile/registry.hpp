#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/casefile/schema.hpp"

namespace hetflow::casefile {

// The case types the application knows, by `type:` name. Each solver contributes one schema.
class CaseRegistry {
 public:
  // Throws std::logic_error for a second schema of the same type or a schema whose defaults break
  // its own constraints.
  void add(Schema schema);
  const Schema* find(std::string_view type) const;
  std::vector<std::string> types() const;

 private:
  std::map<std::string, Schema, std::less<>> schemas_;
};

}  // namespace hetflow::casefile
