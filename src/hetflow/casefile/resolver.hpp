#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "hetflow/casefile/case.hpp"
#include "hetflow/io/yaml_tree.hpp"

namespace hetflow::casefile {

// Checks a parsed (and overridden) tree against a schema and fills a Case with the values and the
// defaults. Problems are collected, not thrown, so one pass reports all of them.
class CaseResolver {
 public:
  CaseResolver(const Schema& schema, std::string source, std::vector<std::string> overrides);

  // Resolves the tree; errors are appended in file order, override errors after file errors.
  Case resolve(const io::YamlNode& root, std::vector<std::string>& errors);

  // "case.yaml:7" or "case.yaml (--set x=1)": the location prefix of a message about this node.
  std::string where(const io::YamlNode& node) const;

 private:
  struct Problem {
    int origin;
    int line;
    std::string text;
  };

  void report(const io::YamlNode& node, const std::string& text);
  // `as_entry`: the node is one entry of a section of entries, checked against the section as its template.
  void resolve_section(const Section& section, const io::YamlNode* node, const std::string& prefix,
                       const io::YamlNode& anchor, bool as_entry = false);
  bool resolve_entry(const Section& entry_template, const io::YamlNode& node, const std::string& prefix);
  void resolve_key(const Key& key, const io::YamlNode& node, const std::string& path);
  bool parse_scalar(const Key& key, KeyType element_type, const io::YamlNode& node, const std::string& label,
                    CaseValue& out);
  std::string suggestion(const Section& section, const std::string& typed) const;

  const Schema& schema_;
  std::string source_;
  std::vector<std::string> overrides_;
  std::filesystem::path base_;  // where relative paths in the case point from
  std::vector<Problem> problems_;
  Case case_;
};

}  // namespace hetflow::casefile
