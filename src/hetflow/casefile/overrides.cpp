#include "hetflow/casefile/overrides.hpp"

namespace hetflow::casefile {
namespace {

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return std::string(s.substr(first, last - first + 1));
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

}  // namespace

std::string override_location(const std::string& source, const std::string& override_text) {
  return source + " (--set " + override_text + ")";
}

std::optional<CaseOverride> parse_override(std::string_view text, std::string& why) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos) {
    why = "no '=': expected --set section.key=value, e.g. --set output.dir=run2";
    return std::nullopt;
  }
  CaseOverride o{std::string(text), trim(text.substr(0, eq)), trim(text.substr(eq + 1))};
  if (o.path.empty()) {
    why = "no key before '=': expected --set section.key=value, e.g. --set output.dir=run2";
    return std::nullopt;
  }
  for (const auto& part : split_path(o.path)) {
    if (part.empty()) {
      why = "'" + o.path + "' has an empty name between dots: expected a key path such as lbm.tau";
      return std::nullopt;
    }
  }
  return o;
}

void apply_overrides(io::YamlNode& root, const std::vector<std::string>& overrides, const std::string& source,
                     std::vector<std::string>& errors) {
  if (root.kind == io::YamlNode::Kind::null) {
    root.kind = io::YamlNode::Kind::map;
    root.line = 1;
  }
  // A root that is not a map is reported by validation; there is nothing to set keys in.
  if (root.kind != io::YamlNode::Kind::map) return;

  for (std::size_t index = 0; index < overrides.size(); ++index) {
    const int origin = static_cast<int>(index);
    const std::string where = override_location(source, overrides[index]);
    std::string why;
    const auto o = parse_override(overrides[index], why);
    if (!o) {
      errors.push_back(where + ": " + why);
      continue;
    }
    std::vector<std::string> value_errors;
    io::YamlNode value = io::read_yaml_tree(o->value, "value", value_errors);
    if (!value_errors.empty()) {
      errors.push_back(where + ": " + o->path + " = " + o->value +
                       " is not valid YAML: expected a value such as 0.5, true, run2 or [4, 4, 4]");
      continue;
    }
    io::mark_origin(value, origin);

    const auto parts = split_path(o->path);
    io::YamlNode* node = &root;
    std::string walked;
    bool ok = true;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      walked += (i ? "." : "") + parts[i];
      io::YamlNode* child = node->find(parts[i]);
      if (!child) {
        io::YamlNode section;
        section.kind = io::YamlNode::Kind::map;
        section.key = parts[i];
        section.origin = origin;
        node->items.push_back(std::move(section));
        child = &node->items.back();
      } else if (child->kind == io::YamlNode::Kind::null) {
        child->kind = io::YamlNode::Kind::map;
      } else if (child->kind != io::YamlNode::Kind::map) {
        errors.push_back(where + ": " + walked + " = " + io::render_yaml_node(*child) + " is a key, not a section, so " +
                         o->path + " cannot be set: expected a path such as section.key");
        ok = false;
        break;
      }
      node = child;
    }
    if (!ok) continue;
    value.key = parts.back();
    if (io::YamlNode* existing = node->find(parts.back())) {
      *existing = std::move(value);
    } else {
      node->items.push_back(std::move(value));
    }
  }
}

}  // namespace hetflow::casefile
