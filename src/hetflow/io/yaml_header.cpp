#include "hetflow/io/yaml_header.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "hetflow/io/error.hpp"

namespace hetflow::io {
namespace {

std::string in_quotes(std::string_view s) {
  std::string out(1, '\'');
  out.append(s).push_back('\'');
  return out;
}

std::optional<std::string> nonempty_text(std::string_view text) {
  if (text.empty()) return std::nullopt;
  return std::string(text);
}

template <class T>
std::optional<T> whole_number(std::string_view text) {
  T out{};
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, out);
  if (ec != std::errc() || p != end || text.empty()) return std::nullopt;
  return out;
}

}  // namespace

std::optional<std::int64_t> header_integer(std::string_view text) { return whole_number<std::int64_t>(text); }

std::optional<double> header_real(std::string_view text) {
  const std::optional<double> v = whole_number<double>(text);
  if (v && !std::isfinite(*v)) return std::nullopt;
  return v;
}

YamlHeader::YamlHeader(std::string_view text, std::string source, const std::vector<std::string>& known_keys)
    : source_(std::move(source)) {
  std::string known;
  for (const auto& k : known_keys) known += (known.empty() ? "" : ", ") + k;
  std::vector<std::string> errors;
  root_ = read_yaml_tree(text, source_, errors);
  if (errors.empty() && root_.kind != YamlNode::Kind::map)
    errors.push_back(source_ + ":1: expected a YAML map of the keys " + known);
  if (!errors.empty()) throw FormatError(errors.front());
  for (const YamlNode& entry : root_.items) {
    const std::string where = source_ + ":" + std::to_string(entry.key_line) + ": ";
    if (root_.find(entry.key) != &entry) {
      problems_.push_back(where + "key " + in_quotes(entry.key) + " is given twice: expected it once");
    } else if (std::find(known_keys.begin(), known_keys.end(), entry.key) == known_keys.end()) {
      problems_.push_back(where + "unknown key " + in_quotes(entry.key) + ": expected one of " + known);
    }
  }
}

int YamlHeader::line(std::string_view key) const {
  const YamlNode* node = find(key);
  return node ? node->report_line() : 0;
}

const YamlNode* YamlHeader::require(std::string_view key, const std::string& expected, bool required) {
  const YamlNode* node = find(key);
  if (!node && required) problems_.push_back(source_ + ": missing key " + in_quotes(key) + ": expected " + expected);
  return node;
}

void YamlHeader::fail(std::string_view key, const std::string& expected) {
  const YamlNode* node = find(key);
  problems_.push_back(source_ + ":" + std::to_string(line(key)) + ": key " + in_quotes(key) + ": expected " + expected +
                      ", got " + (node ? render_yaml_node(*node) : std::string("nothing")));
}

void YamlHeader::problem(std::string_view key, const std::string& text) {
  problems_.push_back(source_ + ":" + std::to_string(line(key)) + ": key " + in_quotes(key) + ": " + text);
}

template <class T, class Parse>
std::optional<std::vector<T>> YamlHeader::list(std::string_view key, const std::string& expected, bool required,
                                               bool allow_scalar, Parse parse) {
  const YamlNode* node = require(key, expected, required);
  if (!node) return std::nullopt;
  std::vector<const YamlNode*> items;
  if (node->kind == YamlNode::Kind::scalar && allow_scalar) items.push_back(node);
  if (node->kind == YamlNode::Kind::sequence)
    for (const auto& item : node->items) items.push_back(&item);
  std::vector<T> out;
  for (const YamlNode* item : items) {
    std::optional<T> v;
    if (item->kind == YamlNode::Kind::scalar) v = parse(item->text);
    if (!v) break;
    out.push_back(std::move(*v));
  }
  if (items.empty() || out.size() != items.size()) {
    fail(key, expected);
    return std::nullopt;
  }
  return out;
}

std::optional<std::string> YamlHeader::text(std::string_view key, const std::string& expected, bool required) {
  const YamlNode* node = require(key, expected, required);
  if (!node) return std::nullopt;
  if (node->kind != YamlNode::Kind::scalar || node->text.empty()) {
    fail(key, expected);
    return std::nullopt;
  }
  return node->text;
}

std::optional<std::vector<std::string>> YamlHeader::texts(std::string_view key, const std::string& expected,
                                                          bool required) {
  return list<std::string>(key, expected, required, true, nonempty_text);
}

std::optional<std::vector<std::int64_t>> YamlHeader::integers(std::string_view key, const std::string& expected,
                                                              bool required, bool allow_scalar) {
  return list<std::int64_t>(key, expected, required, allow_scalar, header_integer);
}

std::optional<std::vector<double>> YamlHeader::reals(std::string_view key, const std::string& expected, bool required,
                                                     bool allow_scalar) {
  return list<double>(key, expected, required, allow_scalar, header_real);
}

void YamlHeader::finish() const {
  if (problems_.empty()) return;
  std::string all;
  for (const auto& p : problems_) all += (all.empty() ? "" : "\n") + p;
  throw FormatError(all);
}

}  // namespace hetflow::io
