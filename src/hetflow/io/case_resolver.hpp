#pragma once
#include <string>
#include <vector>

#include "hetflow/io/case_file.hpp"
#include "hetflow/io/case_tree.hpp"

namespace hetflow::io {

// Checks a parsed (and overridden) tree against a schema and fills a Case with the values and the
// defaults. Problems are collected, not thrown, so one pass reports all of them.
class CaseResolver {
 public:
  CaseResolver(const Schema& schema, std::string source, std::vector<std::string> overrides);

  // Resolves the tree; errors are appended in file order, override errors after file errors.
  Case resolve(const CaseNode& root, std::vector<std::string>& errors);

  // "case.yaml:7" or "case.yaml (--set x=1)": the location prefix of a message about this node.
  std::string where(const CaseNode& node) const;

 private:
  struct Problem {
    int origin;
    int line;
    std::string text;
  };

  void report(const CaseNode& node, const std::string& text);
  void resolve_section(const Section& section, const CaseNode* node, const std::string& prefix,
                       const CaseNode& anchor);
  void resolve_key(const Key& key, const CaseNode& node, const std::string& path);
  bool parse_scalar(const Key& key, KeyType element_type, const CaseNode& node, const std::string& label,
                    CaseValue& out);
  std::string suggestion(const Section& section, const std::string& typed) const;

  const Schema& schema_;
  std::string source_;
  std::vector<std::string> overrides_;
  std::vector<Problem> problems_;
  Case case_;
};

}  // namespace hetflow::io
