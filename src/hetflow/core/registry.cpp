#include "hetflow/core/registry.hpp"

#include <set>
#include <sstream>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_source.hpp"

namespace hetflow::core {
namespace {

const KernelSource* find(std::string_view name) {
  for (const auto& table : detail::kernel_tables()) {
    for (const KernelSource& k : table) {
      if (name == k.name) return &k;
    }
  }
  return nullptr;
}

void expand(std::string_view name, std::set<std::string, std::less<>>& seen, std::string& out,
            std::string_view included_from) {
  const KernelSource* k = find(name);
  if (!k) {
    std::string known;
    for (const std::string& n : kernel_names()) known += (known.empty() ? "" : ", ") + n;
    throw Error("kernel file '" + std::string(name) + "'" +
                (included_from.empty() ? "" : " (included from " + std::string(included_from) + ")") +
                " is not registered; registered: " + known);
  }
  if (!seen.insert(std::string(name)).second) return;
  // #line keeps the compiler's messages pointing at the original file and line.
  out += "#line 1 \"" + std::string(name) + "\"\n";
  std::istringstream in(k->source);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 8, "#include") == 0) {
      const auto open = line.find('"', first);
      const auto close = open == std::string::npos ? open : line.find('"', open + 1);
      if (close != std::string::npos) {
        expand(std::string_view(line).substr(open + 1, close - open - 1), seen, out, name);
        out += "#line " + std::to_string(number + 1) + " \"" + std::string(name) + "\"\n";
        continue;
      }
    }
    out += line;
    out += '\n';
  }
}

}  // namespace

std::string kernel_source(std::string_view name) {
  std::set<std::string, std::less<>> seen;
  std::string out;
  expand(name, seen, out, {});
  return out;
}

std::vector<std::string> kernel_names() {
  std::set<std::string> names;
  for (const auto& table : detail::kernel_tables()) {
    for (const KernelSource& k : table) names.insert(k.name);
  }
  return {names.begin(), names.end()};
}

}  // namespace hetflow::core
