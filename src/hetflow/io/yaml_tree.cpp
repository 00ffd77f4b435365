#include "hetflow/io/yaml_tree.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <sstream>

namespace hetflow::io {
namespace {

// A case file is a few levels deep and a few hundred nodes; the limits stop cyclic aliases
// ("&a [*a]") and alias bombs from recursing or expanding without end.
constexpr int max_depth = 32;
constexpr std::size_t max_nodes = 100000;

// Strings reach the run manifest, and JSON holds only UTF-8; yaml-cpp passes stray bytes through.
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t extra = 0;
    unsigned min_code = 0;
    if (c >= 0x80) {
      if ((c & 0xE0) == 0xC0) {
        extra = 1;
        min_code = 0x80;
      } else if ((c & 0xF0) == 0xE0) {
        extra = 2;
        min_code = 0x800;
      } else if ((c & 0xF8) == 0xF0) {
        extra = 3;
        min_code = 0x10000;
      } else {
        return false;
      }
    }
    unsigned code = extra == 0 ? c : c & (0x3Fu >> extra);
    for (std::size_t k = 1; k <= extra; ++k) {
      if (i + k >= s.size()) return false;
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      code = (code << 6) | (d & 0x3Fu);
    }
    // Overlong forms, UTF-16 surrogates and code points past Unicode are not UTF-8 either.
    if (code < min_code || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return false;
    i += extra + 1;
  }
  return true;
}

// Finds where documents with content start. YAML::LoadAll is not used: on some malformed input
// (", 4]\nty 4, 4]") yaml-cpp 0.7 returns documents forever without consuming any, until memory
// runs out; counting through the event interface can stop after the second.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<int> lines;  // 1-based start line of each document that holds something

  void OnDocumentStart(const YAML::Mark& mark) override {
    start_ = mark.line >= 0 ? mark.line + 1 : 1;
    counted_ = false;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { content(); }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override { content(); }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    content();
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    content();
  }
  void OnMapEnd() override {}

 private:
  void content() {
    if (!counted_) lines.push_back(start_);
    counted_ = true;
  }
  int start_ = 1;
  bool counted_ = false;
};

struct Reader {
  const std::string& source;
  std::vector<std::string>& errors;
  std::size_t nodes = 0;
  bool failed = false;

  void fail(int line, const std::string& message) {
    if (!failed) errors.push_back(source + ":" + std::to_string(line) + ": " + message);
    failed = true;
  }

  static int line_of(const YAML::Node& node) {
    const int line = node.Mark().line;
    return line >= 0 ? line + 1 : 0;
  }

  YamlNode convert(const YAML::Node& node, int depth) {
    YamlNode out;
    if (failed) return out;
    if (++nodes > max_nodes || depth > max_depth) {
      fail(line_of(node), depth > max_depth ? "nesting is deeper than " + std::to_string(max_depth) +
                                                  " levels (a cyclic alias?): a case file is a map of sections"
                                            : "the document has more than " + std::to_string(max_nodes) +
                                                  " nodes: a case file is a small map of sections");
      return out;
    }
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        // The mark of a null value points at whatever token follows, so its line is not trusted.
        out.kind = YamlNode::Kind::null;
        return out;
      case YAML::NodeType::Scalar:
        out.kind = YamlNode::Kind::scalar;
        out.text = node.Scalar();
        out.line = line_of(node);
        if (!valid_utf8(out.text)) fail(out.line, "a value is not valid UTF-8 text: expected a UTF-8 case file");
        return out;
      case YAML::NodeType::Sequence:
        out.kind = YamlNode::Kind::sequence;
        out.line = line_of(node);
        for (const auto& item : node) {
          out.items.push_back(convert(item, depth + 1));
          if (failed) break;
        }
        return out;
      case YAML::NodeType::Map:
        out.kind = YamlNode::Kind::map;
        out.line = line_of(node);
        for (const auto& entry : node) {
          if (!entry.first.IsScalar()) {
            fail(line_of(entry.first) > 0 ? line_of(entry.first) : out.line,
                 "a map key must be a plain name, not a list, a map or nothing");
            break;
          }
          if (!valid_utf8(entry.first.Scalar())) {
            fail(line_of(entry.first), "a key is not valid UTF-8 text: expected a UTF-8 case file");
            break;
          }
          YamlNode child = convert(entry.second, depth + 1);
          child.key = entry.first.Scalar();
          child.key_line = line_of(entry.first);
          out.items.push_back(std::move(child));
          if (failed) break;
        }
        return out;
    }
    return out;
  }
};

}  // namespace

const YamlNode* YamlNode::find(std::string_view name) const {
  if (kind != Kind::map) return nullptr;
  for (const auto& item : items)
    if (item.key == name) return &item;
  return nullptr;
}

YamlNode* YamlNode::find(std::string_view name) {
  return const_cast<YamlNode*>(static_cast<const YamlNode&>(*this).find(name));
}

YamlNode read_yaml_tree(std::string_view text, const std::string& source, std::vector<std::string>& errors) {
  YAML::Node document;
  try {
    std::istringstream stream{std::string(text)};
    YAML::Parser parser(stream);
    DocumentStarts starts;
    for (int n = 0; n < 4 && starts.lines.size() < 2 && parser.HandleNextDocument(starts); ++n) {
    }
    if (starts.lines.size() > 1) {
      errors.push_back(source + ":" + std::to_string(starts.lines[1]) +
                       ": a second YAML document ('---'): expected one case per file");
      return {};
    }
    document = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    const int line = e.mark.line >= 0 ? e.mark.line + 1 : 1;
    const std::string column = e.mark.column >= 0 ? " (column " + std::to_string(e.mark.column + 1) + ")" : "";
    errors.push_back(source + ":" + std::to_string(line) + ": YAML syntax error" + column + ": " + e.msg +
                     ": expected a YAML map of sections and keys");
    return {};
  }
  Reader reader{source, errors};
  try {
    YamlNode root = reader.convert(document, 0);
    return reader.failed ? YamlNode{} : root;
  } catch (const YAML::Exception& e) {
    errors.push_back(source + ":" + std::to_string(e.mark.line >= 0 ? e.mark.line + 1 : 1) + ": " + e.msg);
    return {};
  }
}

std::string render_yaml_node(const YamlNode& node) {
  constexpr std::size_t max_length = 48;
  std::string out;
  switch (node.kind) {
    case YamlNode::Kind::null: return "(nothing)";
    case YamlNode::Kind::scalar: out = node.text; break;
    case YamlNode::Kind::sequence:
      out = "[";
      for (std::size_t i = 0; i < node.items.size() && out.size() < max_length; ++i)
        out += (i ? ", " : "") + render_yaml_node(node.items[i]);
      out += "]";
      break;
    case YamlNode::Kind::map:
      out = "{";
      for (std::size_t i = 0; i < node.items.size() && out.size() < max_length; ++i)
        out += (i ? ", " : "") + node.items[i].key + ": " + render_yaml_node(node.items[i]);
      out += "}";
      break;
  }
  // Control characters would break the one-line-per-error layout of the report.
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  if (out.size() > max_length) {
    std::size_t cut = max_length - 3;
    // Cut between characters, not inside one.
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out = out.substr(0, cut) + "...";
  }
  return out;
}

void mark_origin(YamlNode& node, int origin) {
  node.origin = origin;
  for (auto& item : node.items) mark_origin(item, origin);
}

}  // namespace hetflow::io
