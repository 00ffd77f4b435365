#include "hetflow/app/case_type.hpp"

#include "hetflow/app/ftle_case.hpp"
#include "hetflow/app/lbm_case.hpp"
#include "hetflow/app/selftest_case.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::app {

const std::vector<std::unique_ptr<CaseType>>& case_types() {
  static const std::vector<std::unique_ptr<CaseType>> all = [] {
    std::vector<std::unique_ptr<CaseType>> v;
    v.push_back(std::make_unique<FtleCase>());
    v.push_back(std::make_unique<SelftestCase>());
    v.push_back(std::make_unique<LbmCase>());
    return v;
  }();
  return all;
}

const io::CaseRegistry& case_registry() {
  static const io::CaseRegistry registry = [] {
    io::CaseRegistry r;
    for (const auto& t : case_types()) r.add(t->schema());
    return r;
  }();
  return registry;
}

const CaseType& find_case_type(const std::string& name) {
  for (const auto& t : case_types()) {
    if (t->schema().type_name() == name) return *t;
  }
  throw core::Error("no case type named '" + name + "'");
}

}  // namespace hetflow::app
