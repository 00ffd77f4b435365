#include "hetflow/casefile/case.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "hetflow/casefile/overrides.hpp"
#include "hetflow/casefile/resolver.hpp"
#include "hetflow/casefile/suggest.hpp"
#include "hetflow/casefile/text_file.hpp"
#include "hetflow/io/yaml_tree.hpp"

namespace hetflow::casefile {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

std::string node_location(const io::YamlNode& node, const std::string& source, const std::vector<std::string>& overrides) {
  if (node.origin >= 0 && static_cast<std::size_t>(node.origin) < overrides.size())
    return override_location(source, overrides[static_cast<std::size_t>(node.origin)]);
  return source + ":" + std::to_string(node.report_line() > 0 ? node.report_line() : 1);
}

// The registry's schema for the case's `type:`; without one nothing else can be checked.
const Schema* pick_schema(const io::YamlNode& root, const CaseRegistry& registry, const std::string& source,
                          const std::vector<std::string>& overrides, std::vector<std::string>& errors) {
  const auto types = registry.types();
  const std::string expected = "expected one of: " + join(types);
  if (root.kind != io::YamlNode::Kind::map) {
    errors.push_back(source + ":" + std::to_string(root.line > 0 ? root.line : 1) + ": the case is " +
                     (root.kind == io::YamlNode::Kind::null ? std::string("empty") : io::render_yaml_node(root)) +
                     ": expected a map of sections starting with 'type:', " + expected);
    return nullptr;
  }
  const io::YamlNode* type = root.find("type");
  if (!type) {
    errors.push_back(source + ":" + std::to_string(root.line > 0 ? root.line : 1) +
                     ": type is missing: the case type names the solver, " + expected);
    return nullptr;
  }
  const std::string where = node_location(*type, source, overrides);
  if (type->kind != io::YamlNode::Kind::scalar) {
    errors.push_back(where + ": type = " + io::render_yaml_node(*type) + " is not a name: " + expected);
    return nullptr;
  }
  if (const Schema* schema = registry.find(type->text)) return schema;
  const std::string near = closest_name(type->text, types);
  errors.push_back(where + ": type = " + io::render_yaml_node(*type) + " is not a known case type" +
                   (near.empty() ? "" : " (did you mean '" + near + "'?)") + ": " + expected);
  return nullptr;
}

Case parse_any(std::string_view yaml, const Schema* schema, const CaseRegistry* registry,
               const std::vector<std::string>& overrides, const std::string& source) {
  std::vector<std::string> errors;
  io::YamlNode root = io::read_yaml_tree(yaml, source, errors);
  if (!errors.empty()) throw CaseError(std::move(errors));
  // Checked before the overrides, which would turn an empty file into a map: an empty case file is a
  // wrong path or an unsaved editor buffer, whatever --set says.
  if (root.kind == io::YamlNode::Kind::null) {
    const std::string type = schema ? schema->type_name() : std::string("<") + join(registry->types()) + std::string(">");
    throw CaseError(source + ":1: the case is empty: expected a map of sections starting with 'type: " + type + "'");
  }
  apply_overrides(root, overrides, source, errors);
  if (!schema) {
    schema = pick_schema(root, *registry, source, overrides, errors);
    if (!schema) throw CaseError(std::move(errors));
  }
  CaseResolver resolver(*schema, source, overrides);
  Case resolved = resolver.resolve(root, errors);
  if (!errors.empty()) throw CaseError(std::move(errors));
  return resolved;
}

std::string read_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    throw CaseError(file.string() + ": no such case file: expected the path of a YAML case file");
  if (std::filesystem::is_directory(file, ec))
    throw CaseError(file.string() + ": is a directory: expected the path of a YAML case file");
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw CaseError(file.string() + ": cannot be read: expected a readable YAML case file");
  check_text_file(text.str(), file.string());
  return text.str();
}


// A run's manifest.json stands for the case it records: the keys that case gave ("case_given"), as JSON,
// which is YAML's flow form and so reads as a case.
std::string case_text(const std::filesystem::path& file) {
  std::string text = read_file(file);
  if (file.extension() != ".json") return text;
  const nlohmann::json manifest = nlohmann::json::parse(text, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object() || !manifest.contains("case_given") ||
      !manifest["case_given"].is_object())
    throw CaseError(file.string() + ": is not a hetflow run's manifest (no case_given in it): expected a YAML case "
                    "file or the manifest.json of a run");
  return manifest["case_given"].dump();
}

}  // namespace

Case parse_case(std::string_view yaml, const CaseRegistry& types, const std::vector<std::string>& overrides,
                const std::string& source) {
  return parse_any(yaml, nullptr, &types, overrides, source);
}

Case parse_case(std::string_view yaml, const Schema& schema, const std::vector<std::string>& overrides,
                const std::string& source) {
  return parse_any(yaml, &schema, nullptr, overrides, source);
}

Case load_case(const std::filesystem::path& file, const CaseRegistry& types,
               const std::vector<std::string>& overrides) {
  return parse_any(case_text(file), nullptr, &types, overrides, file.string());
}

Case load_case(const std::filesystem::path& file, const Schema& schema, const std::vector<std::string>& overrides) {
  return parse_any(case_text(file), &schema, nullptr, overrides, file.string());
}

// ---- Case ------------------------------------------------------------------------------------------

const Case::Entry& Case::entry(std::string_view path) const {
  const auto it = values_.find(path);
  if (it == values_.end())
    throw std::logic_error("case type '" + type_ + "' has no key '" + std::string(path) + "'");
  return it->second;
}

const CaseValue& Case::value(std::string_view path) const { return entry(path).value; }

bool Case::is_default(std::string_view path) const { return entry(path).line == 0 && entry(path).origin < 0; }

bool Case::is_set(std::string_view path) const { return !entry(path).equals_default; }

std::string Case::path_text(std::string_view path) const {
  const Entry& e = entry(path);
  const std::string resolved = format_case_value(e.value);
  return e.as_given ? format_case_value(*e.as_given) + " (resolved to " + resolved + ")" : resolved;
}

std::string Case::missing_file(std::string_view path) const {
  return where(path) + ": " + std::string(path) + " = " + path_text(path) +
         ": no such file (a relative path reads from the case file's folder)";
}

std::string Case::where(std::string_view path) const {
  const Entry& e = entry(path);
  if (e.origin >= 0 && static_cast<std::size_t>(e.origin) < overrides_.size())
    return override_location(source_, overrides_[static_cast<std::size_t>(e.origin)]);
  if (e.line > 0) return source_ + ":" + std::to_string(e.line);
  return source_ + " (default)";
}

std::vector<std::string> Case::paths() const {
  std::vector<std::string> out;
  for (const auto& entry : values_) out.push_back(entry.first);
  return out;
}

namespace {
[[noreturn]] void wrong_kind(std::string_view path, const char* wanted) {
  throw std::logic_error("case key '" + std::string(path) + "' is not " + wanted);
}
}  // namespace

bool Case::boolean_at(std::string_view path) const {
  if (const auto* v = std::get_if<bool>(&value(path))) return *v;
  wrong_kind(path, "a boolean");
}

std::int64_t Case::integer_at(std::string_view path) const {
  if (const auto* v = std::get_if<std::int64_t>(&value(path))) return *v;
  wrong_kind(path, "an integer");
}

double Case::real_at(std::string_view path) const {
  const CaseValue& v = value(path);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  wrong_kind(path, "a number");
}

const std::string& Case::string_at(std::string_view path) const {
  if (const auto* v = std::get_if<std::string>(&value(path))) return *v;
  wrong_kind(path, "a string");
}

const std::vector<std::int64_t>& Case::integer_list_at(std::string_view path) const {
  if (const auto* v = std::get_if<std::vector<std::int64_t>>(&value(path))) return *v;
  wrong_kind(path, "a list of integers");
}

std::vector<double> Case::real_list_at(std::string_view path) const {
  const CaseValue& v = value(path);
  if (const auto* d = std::get_if<std::vector<double>>(&v)) return *d;
  if (const auto* i = std::get_if<std::vector<std::int64_t>>(&v)) {
    std::vector<double> out;
    for (auto x : *i) out.push_back(static_cast<double>(x));
    return out;
  }
  wrong_kind(path, "a list of numbers");
}

const std::vector<std::string>& Case::string_list_at(std::string_view path) const {
  if (const auto* v = std::get_if<std::vector<std::string>>(&value(path))) return *v;
  wrong_kind(path, "a list of strings");
}

void Case::throw_narrowing(std::string_view path, std::int64_t value, std::int64_t lo, std::int64_t hi) const {
  throw CaseError(where(path) + ": " + std::string(path) + " = " + std::to_string(value) +
                  " does not fit this program's integer type: expected an integer in [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + "]");
}

std::vector<std::string> Case::entry_names(std::string_view section_path) const {
  const auto it = entries_.find(section_path);
  if (it == entries_.end())
    throw std::logic_error("case type '" + type_ + "' has no section of entries '" + std::string(section_path) + "'");
  return it->second;
}

std::vector<std::string> Case::given_paths() const {
  const auto given = [](const auto& value) { return value.second.line > 0 || value.second.origin >= 0; };
  std::vector<std::string> out;
  for (const auto& value : values_)
    if (given(value)) out.push_back(value.first);
  for (const auto& [section, names] : entries_)
    for (const std::string& name : names) {
      const std::string prefix = section + "." + name + ".";
      const auto first = values_.lower_bound(prefix);
      auto last = first;
      while (last != values_.end() && last->first.starts_with(prefix)) ++last;
      if (std::none_of(first, last, given))
        for (auto it = first; it != last; ++it) out.push_back(it->first);
    }
  std::sort(out.begin(), out.end());
  return out;
}

nlohmann::json Case::to_json() const { return to_json(paths()); }

nlohmann::json Case::to_json(const std::vector<std::string>& paths) const {
  nlohmann::json out = nlohmann::json::object();
  for (const std::string& path : paths) {
    const Entry& e = entry(path);
    nlohmann::json* node = &out;
    std::size_t start = 0;
    for (auto dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
      node = &(*node)[path.substr(start, dot - start)];
      start = dot + 1;
    }
    nlohmann::json& leaf = (*node)[path.substr(start)];
    std::visit(
        [&leaf](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          // JSON has no infinity; the YAML spelling keeps the manifest readable and exact.
          if constexpr (std::is_same_v<V, double>) {
            if (std::isfinite(v)) leaf = v;
            else leaf = format_case_value(v);
          } else if constexpr (std::is_same_v<V, std::vector<double>>) {
            leaf = nlohmann::json::array();
            for (double d : v) leaf.push_back(std::isfinite(d) ? nlohmann::json(d) : nlohmann::json(format_case_value(d)));
          } else {
            leaf = v;
          }
        },
        e.value);
  }
  return out;
}

std::string Case::to_yaml(const std::vector<std::string>& paths) const {
  std::vector<std::string> ordered = paths;
  std::sort(ordered.begin(), ordered.end());
  // `type` first, as every case starts; the rest sorted, which keeps each section's keys together.
  std::stable_partition(ordered.begin(), ordered.end(), [](const std::string& p) { return p == "type"; });
  std::string out;
  std::vector<std::string> open;  // the sections of the previous key
  for (const std::string& path : ordered) {
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
      const auto dot = path.find('.', start);
      parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    std::size_t shared = 0;
    while (shared < open.size() && shared + 1 < parts.size() && open[shared] == parts[shared]) ++shared;
    open.resize(shared);
    // Names are written as YAML strings: an entry may be called "yes" or "-inlet".
    for (std::size_t d = shared; d + 1 < parts.size(); ++d) {
      out += std::string(2 * d, ' ') + format_case_value(parts[d]) + ":\n";
      open.push_back(parts[d]);
    }
    out += std::string(2 * (parts.size() - 1), ' ') + format_case_value(parts.back()) + ": " +
           format_case_value(value(path)) + "\n";
  }
  return out;
}

}  // namespace hetflow::casefile
