#include "hetflow/casefile/resolver.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <utility>

#include "hetflow/casefile/overrides.hpp"
#include "hetflow/casefile/suggest.hpp"

namespace hetflow::casefile {
namespace {

std::string lowercase(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// YAML 1.1 spellings, which yaml-cpp and most users accept.
std::optional<bool> parse_bool(const std::string& text) {
  const std::string s = lowercase(text);
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  return std::nullopt;
}

std::string_view without_plus(std::string_view s) {
  if (s.size() > 1 && s.front() == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
  return s;
}

enum class NumberStatus { ok, not_a_number, too_large };

NumberStatus parse_integer(const std::string& text, std::int64_t& out) {
  const std::string_view s = without_plus(text);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec == std::errc::result_out_of_range) return NumberStatus::too_large;
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return NumberStatus::not_a_number;
  return NumberStatus::ok;
}

NumberStatus parse_real(const std::string& text, double& out) {
  const std::string s = lowercase(text);
  if (s == ".inf" || s == "+.inf") {
    out = inf;
    return NumberStatus::ok;
  }
  if (s == "-.inf") {
    out = -inf;
    return NumberStatus::ok;
  }
  const std::string_view v = without_plus(s);
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec == std::errc::result_out_of_range) return NumberStatus::too_large;
  if (ec != std::errc{} || end != v.data() + v.size() || v.empty() || std::isnan(out))
    return NumberStatus::not_a_number;
  return NumberStatus::ok;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

std::string kind_word(const io::YamlNode& node) {
  switch (node.kind) {
    case io::YamlNode::Kind::sequence: return "a list";
    case io::YamlNode::Kind::map: return "a section";
    case io::YamlNode::Kind::scalar: return "a single value";
    case io::YamlNode::Kind::null: break;
  }
  return "empty";
}

// What a section's value must be, for messages.
std::string section_form(const Section& section) {
  return section.holds_entries() ? "a map of named entries, each a map of keys: " + join(section.entry_names())
                                 : "a map of keys: " + join(section.entry_names());
}

// Entry names become parts of key paths: no '.', and no spaces, so that a --set names an entry as written.
bool is_entry_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  return true;
}

// The path of a key or section called `name` anywhere in the schema, for keys put in the wrong section.
std::string find_anywhere(const Section& section, const std::string& name, const std::string& prefix) {
  if (section.find_key(name) || section.find_section(name)) return prefix + name;
  for (const auto& sub : section.sections()) {
    std::string found = find_anywhere(sub, name, prefix + sub.name() + (sub.holds_entries() ? ".<name>." : "."));
    if (!found.empty()) return found;
  }
  return {};
}

// The folder relative paths in a case read from: its file's folder, or the working directory for a case
// given as a string ("<string>", "<built-in default case>"), which has no folder of its own.
std::filesystem::path base_folder(const std::string& source) {
  std::error_code ec;
  if (source.empty() || source.front() == '<') return std::filesystem::current_path(ec);
  const std::filesystem::path folder = std::filesystem::absolute(source, ec).parent_path();
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(folder, ec);
  return ec ? folder : canonical;
}

std::string resolved_path(const std::filesystem::path& base, const std::string& given) {
  const std::filesystem::path p = given;
  if (given.empty() || p.is_absolute()) return given;
  return (base / p.lexically_normal()).string();
}

}  // namespace

CaseResolver::CaseResolver(const Schema& schema, std::string source, std::vector<std::string> overrides)
    : schema_(schema), source_(std::move(source)), overrides_(std::move(overrides)), base_(base_folder(source_)) {}

std::string CaseResolver::where(const io::YamlNode& node) const {
  if (node.origin >= 0 && static_cast<std::size_t>(node.origin) < overrides_.size())
    return override_location(source_, overrides_[static_cast<std::size_t>(node.origin)]);
  const int line = node.report_line();
  return source_ + ":" + std::to_string(line > 0 ? line : 1);
}

void CaseResolver::report(const io::YamlNode& node, const std::string& text) {
  problems_.push_back({node.origin, node.report_line(), where(node) + ": " + text});
}

std::string CaseResolver::suggestion(const Section& section, const std::string& typed) const {
  std::string near = closest_name(typed, section.entry_names());
  if (near.empty()) near = find_anywhere(schema_, typed, "");
  return near.empty() ? std::string() : " (did you mean '" + near + "'?)";
}

Case CaseResolver::resolve(const io::YamlNode& root, std::vector<std::string>& errors) {
  case_ = Case{};
  case_.source_ = source_;
  case_.overrides_ = overrides_;
  problems_.clear();
  if (root.kind != io::YamlNode::Kind::map) {
    io::YamlNode anchor = root;
    anchor.line = std::max(root.line, 1);
    report(anchor, "the case is " + (root.kind == io::YamlNode::Kind::null ? std::string("empty")
                                                                        : io::render_yaml_node(root)) +
                       ": expected a map of sections starting with 'type: " + schema_.type_name() + "'");
  } else {
    resolve_section(schema_, &root, "", root);
  }
  std::stable_sort(problems_.begin(), problems_.end(), [](const Problem& a, const Problem& b) {
    if (a.origin != b.origin) return a.origin < b.origin;  // the file (-1) first, then overrides in order
    return a.line < b.line;
  });
  for (auto& p : problems_) errors.push_back(std::move(p.text));
  if (const auto it = case_.values_.find("type"); it != case_.values_.end())
    if (const auto* type = std::get_if<std::string>(&it->second.value)) case_.type_ = *type;
  return std::move(case_);
}

void CaseResolver::resolve_section(const Section& section, const io::YamlNode* node, const std::string& prefix,
                                   const io::YamlNode& anchor, bool as_entry) {
  const bool of_entries = section.holds_entries() && !as_entry;
  std::map<std::string, int, std::less<>> seen;  // key -> line of its first appearance
  std::vector<std::string> entries;                // the valid entries of a section of entries
  if (node && node->kind == io::YamlNode::Kind::map) {
    for (const auto& child : node->items) {
      const std::string path = prefix + child.key;
      if (const auto first = seen.find(child.key); first != seen.end()) {
        io::YamlNode at = child;
        at.line = child.key_line;
        report(at, path + " is given twice (first on line " + std::to_string(first->second) +
                       "): expected each key once");
        continue;
      }
      seen.emplace(child.key, child.key_line);
      if (of_entries) {
        if (resolve_entry(section, child, prefix)) entries.push_back(child.key);
      } else if (const Key* key = section.find_key(child.key)) {
        resolve_key(*key, child, path);
      } else if (const Section* sub = section.find_section(child.key)) {
        if (child.kind != io::YamlNode::Kind::map && child.kind != io::YamlNode::Kind::null)
          report(child, path + " = " + io::render_yaml_node(child) + " is " + kind_word(child) +
                            ", not a section: expected " + section_form(*sub));
        resolve_section(*sub, &child, path + ".", child);
      } else {
        io::YamlNode at = child;
        if (child.key_line > 0 && child.origin < 0) at.line = child.key_line;
        report(at, "unknown key " + path + " = " + io::render_yaml_node(child) + suggestion(section, child.key) +
                       ": expected one of: " + join(section.entry_names()));
      }
    }
  }
  // The template's keys belong to each entry; the section itself has none of its own.
  if (of_entries) {
    std::sort(entries.begin(), entries.end());
    case_.entries_[prefix.substr(0, prefix.size() - 1)] = std::move(entries);
    return;
  }
  for (const auto& key : section.keys()) {
    if (seen.count(key.name())) continue;
    const std::string path = prefix + key.name();
    if (key.default_value()) {
      case_.values_[path] = Case::Entry{*key.default_value(), 0, -1, true, std::nullopt};
    } else {
      io::YamlNode at = anchor;
      if (anchor.key_line > 0) at.line = anchor.key_line;
      report(at, path + " is missing: expected " + key.expected_form() +
                     (key.description().empty() ? "" : " (" + key.description() + ")"));
    }
  }
  for (const auto& sub : section.sections())
    if (!seen.count(sub.name())) resolve_section(sub, nullptr, prefix + sub.name() + ".", anchor);
}

bool CaseResolver::resolve_entry(const Section& entry_template, const io::YamlNode& node, const std::string& prefix) {
  const std::string path = prefix + node.key;
  if (!is_entry_name(node.key)) {
    io::YamlNode at = node;
    if (node.key_line > 0 && node.origin < 0) at.line = node.key_line;
    report(at, "entry name '" + node.key + "' in " + prefix.substr(0, prefix.size() - 1) +
                   " is not a name: expected letters, digits, '_' and '-' only (no spaces; '.' separates key paths)");
    return false;
  }
  if (node.kind != io::YamlNode::Kind::map && node.kind != io::YamlNode::Kind::null) {
    const std::vector<std::string> keys = entry_template.entry_names();
    const std::string first = keys.empty() ? std::string("key") : keys.front();
    const std::string example = node.key + ": {" + first + ": " +
                                (node.kind == io::YamlNode::Kind::scalar ? io::render_yaml_node(node) : "...") + "}";
    report(node, path + " = " + io::render_yaml_node(node) + " is " + kind_word(node) +
                     ", not an entry: expected a map of its keys (" + join(keys) + "), e.g. " + example);
    return false;
  }
  resolve_section(entry_template, &node, path + ".", node, true);
  return true;
}

void CaseResolver::resolve_key(const Key& key, const io::YamlNode& node, const std::string& path) {
  CaseValue value;
  if (!key.is_list()) {
    if (!parse_scalar(key, key.type(), node, path, value)) return;
  } else {
    if (node.kind != io::YamlNode::Kind::sequence) {
      report(node, path + (node.kind == io::YamlNode::Kind::null ? " has no value" : " = " + io::render_yaml_node(node) +
                                                                                     " is not a list") +
                       ": expected " + key.expected_form());
      return;
    }
    const KeyType element_type = key.type() == KeyType::integer_list ? KeyType::integer
                                 : key.type() == KeyType::real_list  ? KeyType::real
                                                                     : KeyType::string;
    std::vector<std::int64_t> integers;
    std::vector<double> reals;
    std::vector<std::string> strings;
    bool ok = true;
    for (std::size_t i = 0; i < node.items.size(); ++i) {
      CaseValue element;
      io::YamlNode item = node.items[i];
      if (item.line == 0) item.line = node.line;
      if (!parse_scalar(key, element_type, item, path + "[" + std::to_string(i) + "]", element)) {
        ok = false;
        continue;
      }
      if (auto* n = std::get_if<std::int64_t>(&element)) integers.push_back(*n);
      else if (auto* r = std::get_if<double>(&element)) reals.push_back(*r);
      else if (auto* s = std::get_if<std::string>(&element)) strings.push_back(std::move(*s));
    }
    if (key.fixed_length() && node.items.size() != *key.fixed_length()) {
      report(node, path + " = " + io::render_yaml_node(node) + " has " + std::to_string(node.items.size()) +
                       (node.items.size() == 1 ? " entry" : " entries") + ": expected " + key.expected_form());
      ok = false;
    }
    if (!ok) return;
    if (element_type == KeyType::integer) value = std::move(integers);
    else if (element_type == KeyType::real) value = std::move(reals);
    else value = std::move(strings);
  }
  Case::Entry entry{std::move(value), node.report_line(), node.origin, false, std::nullopt};
  entry.equals_default = key.default_value() && *key.default_value() == entry.value;
  if (key.is_path()) {
    CaseValue resolved = entry.value;
    if (auto* one = std::get_if<std::string>(&resolved)) *one = resolved_path(base_, *one);
    if (auto* many = std::get_if<std::vector<std::string>>(&resolved))
      for (std::string& p : *many) p = resolved_path(base_, p);
    if (resolved != entry.value) entry.as_given = std::exchange(entry.value, std::move(resolved));
  }
  case_.values_[path] = std::move(entry);
}

bool CaseResolver::parse_scalar(const Key& key, KeyType element_type, const io::YamlNode& node, const std::string& label,
                                CaseValue& out) {
  if (node.kind == io::YamlNode::Kind::null) {
    // "build_options:" with nothing after it plainly means the empty string.
    if (element_type == KeyType::string && key.choices().empty()) {
      out = std::string();
      const std::string problem = key.element_problem(out);  // unless the key must not be empty
      if (problem.empty()) return true;
      report(node, label + " " + problem + ": expected " + key.expected_form());
      return false;
    }
    report(node, label + " has no value: expected " + key.expected_form());
    return false;
  }
  if (node.kind != io::YamlNode::Kind::scalar) {
    report(node, label + " = " + io::render_yaml_node(node) + " is " + kind_word(node) + ": expected " +
                     key.expected_form());
    return false;
  }
  const std::string& text = node.text;
  const std::string shown = io::render_yaml_node(node);
  switch (element_type) {
    case KeyType::boolean: {
      const auto b = parse_bool(text);
      if (!b) {
        report(node, label + " = " + shown + " is not a boolean: expected " + key.expected_form());
        return false;
      }
      out = *b;
      break;
    }
    case KeyType::integer: {
      std::int64_t i = 0;
      const NumberStatus status = parse_integer(text, i);
      if (status != NumberStatus::ok) {
        report(node, label + " = " + shown +
                         (status == NumberStatus::too_large ? " is too large for a 64-bit integer" : " is not an integer") +
                         ": expected " + key.expected_form());
        return false;
      }
      out = i;
      break;
    }
    case KeyType::real: {
      double r = 0;
      const NumberStatus status = parse_real(text, r);
      if (status != NumberStatus::ok) {
        report(node, label + " = " + shown +
                         (status == NumberStatus::too_large ? " is too large for a real number" : " is not a number") +
                         ": expected " + key.expected_form());
        return false;
      }
      out = r;
      break;
    }
    default: out = text; break;
  }
  const std::string problem = key.element_problem(out);
  if (!problem.empty()) {
    std::string hint;
    if (!key.choices().empty()) {
      const std::string near = closest_name(text, key.choices());
      if (!near.empty()) hint = " (did you mean '" + near + "'?)";
    }
    report(node, label + " = " + shown + " " + problem + hint + ": expected " + key.expected_form());
    return false;
  }
  return true;
}

}  // namespace hetflow::casefile
