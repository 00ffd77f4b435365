#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/io/yaml_tree.hpp"

namespace hetflow::io {

// The number a header scalar's whole text spells in decimal (reals also with an exponent; no leading
// '+', no surrounding spaces), or nullopt; a real must be finite. What YamlHeader reads numbers with,
// for any reader of a data-file header.
std::optional<std::int64_t> header_integer(std::string_view text);
std::optional<double> header_real(std::string_view text);

// The YAML header of a data file (a raw array's shape, type and files): a flat map read with typed
// accessors. Problems are collected, each as "<source>:<line>: key '<k>': expected <form>, got <value>",
// and finish() throws them all at once as a FormatError, so a user fixes a header in one pass.
class YamlHeader {
 public:
  // Parses `text`; YAML syntax errors or a document that is not a map throw FormatError at once.
  // Keys not in `known_keys` and keys given twice are problems.
  YamlHeader(std::string_view text, std::string source, const std::vector<std::string>& known_keys);

  const YamlNode* find(std::string_view key) const { return root_.find(key); }
  int line(std::string_view key) const;

  // A value of the key, or nullopt after recording a problem ("missing key" when it is absent and
  // required). Lists accept a single scalar where `allow_scalar` is set.
  std::optional<std::string> text(std::string_view key, const std::string& expected, bool required = true);
  std::optional<std::vector<std::string>> texts(std::string_view key, const std::string& expected, bool required = true);
  std::optional<std::vector<std::int64_t>> integers(std::string_view key, const std::string& expected,
                                                    bool required = true, bool allow_scalar = false);
  std::optional<std::vector<double>> reals(std::string_view key, const std::string& expected, bool required = true,
                                           bool allow_scalar = false);

  // Records "key '<key>': expected <expected>, got <value>" at the key's line.
  void fail(std::string_view key, const std::string& expected);
  // Records a problem that is not about one key's form (sizes that must agree), at `key`'s line.
  void problem(std::string_view key, const std::string& text);
  bool ok() const { return problems_.empty(); }
  // Throws FormatError with every problem, one per line, if there is any.
  void finish() const;

  const std::string& source() const { return source_; }

 private:
  const YamlNode* require(std::string_view key, const std::string& expected, bool required);
  template <class T, class Parse>
  std::optional<std::vector<T>> list(std::string_view key, const std::string& expected, bool required,
                                     bool allow_scalar, Parse parse);

  std::string source_;
  YamlNode root_;
  std::vector<std::string> problems_;
};

}  // namespace hetflow::io
