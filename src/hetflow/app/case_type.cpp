#include "hetflow/app/case_type.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <limits>

#include "hetflow/app/solvers.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/casefile/error.hpp"

namespace hetflow::app {

void throw_problems(const casefile::Case& c, std::vector<std::string> problems) {
  if (problems.empty()) return;
  const auto line = [&](const std::string& p) {
    const std::string prefix = c.source() + ":";
    if (p.rfind(prefix, 0) != 0) return std::numeric_limits<long>::max();
    return std::strtol(p.c_str() + prefix.size(), nullptr, 10);
  };
  std::stable_sort(problems.begin(), problems.end(),
                   [&](const std::string& a, const std::string& b) { return line(a) < line(b); });
  throw casefile::CaseError(std::move(problems));
}

void print_headline(const RunContext& context, const std::string& line) {
  if (context.verbosity != display::Verbosity::quiet) std::cout << line << "\n";
}

const std::vector<const CaseType*>& case_types() {
  static const std::vector<const CaseType*> all = [] {
    std::vector<const CaseType*> v;
    for (const Solver& s : solvers()) {
      for (const auto& t : s.case_types) v.push_back(t.get());
    }
    return v;
  }();
  return all;
}

const casefile::CaseRegistry& case_registry() {
  static const casefile::CaseRegistry registry = [] {
    casefile::CaseRegistry r;
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
