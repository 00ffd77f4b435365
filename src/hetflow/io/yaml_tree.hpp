#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::io {

// A case file as parsed YAML, detached from yaml-cpp: yaml-cpp nodes are shared handles whose
// assignment rebinds the tree, and overrides need to edit it. Each node remembers where it came from.
struct YamlNode {
  enum class Kind { null, scalar, sequence, map };

  Kind kind = Kind::null;
  std::string text;              // scalar text as written (without quotes)
  std::string key;               // the name this node has in its parent map
  std::vector<YamlNode> items;   // sequence entries, or map entries in file order
  int line = 0;                  // 1-based line of the value; 0 when unknown
  int key_line = 0;              // 1-based line of the key in its parent map; 0 when unknown
  int origin = -1;               // index of the --set override that wrote this node; -1: the file

  // The entry of a map with this key, or nullptr (the first one when a key was given twice).
  const YamlNode* find(std::string_view name) const;
  YamlNode* find(std::string_view name);
  // The line to report for this node: its value line, else its key line.
  int report_line() const { return line > 0 ? line : key_line; }
};

// Parses YAML text into a tree. Syntax errors, several documents, non-scalar keys and absurd nesting
// (a cyclic alias, or input that is not a case file) are appended to errors as "<source>:<line>: ..."
// and make the result a null node.
YamlNode read_yaml_tree(std::string_view text, const std::string& source, std::vector<std::string>& errors);

// The node as the user wrote it, shortened for a message: 0.4, [4, 4], {dir: x, ...}.
std::string render_yaml_node(const YamlNode& node);

// Sets origin on the node and everything below it.
void mark_origin(YamlNode& node, int origin);

}  // namespace hetflow::io
