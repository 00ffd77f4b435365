#pragma once
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "hetflow/casefile/error.hpp"
#include "hetflow/casefile/registry.hpp"
#include "hetflow/casefile/schema.hpp"

namespace hetflow::casefile {

class CaseResolver;

// A validated case: every key of its schema has a value (given, overridden or the default).
class Case {
 public:
  const std::string& type() const { return type_; }
  // The file path as given, or "<string>".
  const std::string& source() const { return source_; }
  // The --set overrides applied, in order, as given ("lbm.tau=0.6").
  const std::vector<std::string>& overrides() const { return overrides_; }

  // The value at a dotted path, converted to T: bool, any integer or floating type, std::string, or a
  // std::vector of those. Integers are range-checked on narrowing (CaseError); asking for a key the
  // schema does not have, or for the wrong kind of value, is a program bug (std::logic_error).
  template <class T> T get(std::string_view path) const;

  const CaseValue& value(std::string_view path) const;
  bool contains(std::string_view path) const { return values_.find(path) != values_.end(); }
  // True when the case left this key out and the schema default applies.
  bool is_default(std::string_view path) const;
  // True when the case gives this key a value other than the schema default. A key written with its
  // default value reads as left out here, so a template that prints every key with its default passes
  // the checks that reject keys of another variant (a radius for a box); behaviour that depends on
  // whether a key was given at all asks is_default.
  bool is_set(std::string_view path) const;
  // A path-valued key's value for messages: "mech.yaml (resolved to /home/u/case/mech.yaml)" when the
  // case gave a relative path, else the path itself; lists read "[a.vti, b.vti] (resolved to [...])".
  std::string path_text(std::string_view path) const;
  // The message for a path-valued key whose file does not exist, naming where the key was given, the
  // path as given and where it resolved.
  std::string missing_file(std::string_view path) const;
  // Where a value came from, to prefix a solver's own messages about it: "case.yaml:7",
  // "case.yaml (--set lbm.tau=0.6)" or "case.yaml (default)".
  std::string where(std::string_view path) const;
  // Every key path, sorted.
  std::vector<std::string> paths() const;
  // The names of the entries the case gave in a section of entries ("boundary"), sorted; none when it
  // left the section out. Their keys read as any other: get<std::string>("boundary.lid.type").
  std::vector<std::string> entry_names(std::string_view section_path) const;
  // The key paths the case gave (in its file or by --set), sorted. An entry that gives none of its
  // keys ("walls: {}") is given all the same: its keys stand for it, so a record of the case keeps it.
  std::vector<std::string> given_paths() const;
  // The fully resolved case as nested objects, for the run manifest.
  nlohmann::json to_json() const;
  // The keys at `paths` alone, as nested objects.
  nlohmann::json to_json(const std::vector<std::string>& paths) const;
  // The keys at `paths` as a YAML case (type first, then the sections), values written so that they
  // read back exactly: a case file that gives these keys as this case does.
  std::string to_yaml(const std::vector<std::string>& paths) const;

 private:
  friend class CaseResolver;
  struct Entry {
    CaseValue value;
    int line = 0;     // 0: default
    int origin = -1;  // override index, -1: file or default
    bool equals_default = true;        // the value is the schema default, given or not
    std::optional<CaseValue> as_given;  // a path key's value as written, when resolving changed it
  };

  const Entry& entry(std::string_view path) const;
  bool boolean_at(std::string_view path) const;
  std::int64_t integer_at(std::string_view path) const;
  double real_at(std::string_view path) const;
  const std::string& string_at(std::string_view path) const;
  const std::vector<std::int64_t>& integer_list_at(std::string_view path) const;
  std::vector<double> real_list_at(std::string_view path) const;
  const std::vector<std::string>& string_list_at(std::string_view path) const;
  [[noreturn]] void throw_narrowing(std::string_view path, std::int64_t value, std::int64_t lo,
                                     std::int64_t hi) const;

  template <class I> I narrow(std::string_view path, std::int64_t v) const {
    if (!std::in_range<I>(v)) {
      constexpr auto max = std::numeric_limits<I>::max();
      throw_narrowing(path, v, static_cast<std::int64_t>(std::numeric_limits<I>::min()),
                      std::in_range<std::int64_t>(max) ? static_cast<std::int64_t>(max)
                                                       : std::numeric_limits<std::int64_t>::max());
    }
    return static_cast<I>(v);
  }

  std::string type_;
  std::string source_;
  std::vector<std::string> overrides_;
  std::map<std::string, Entry, std::less<>> values_;
  std::map<std::string, std::vector<std::string>, std::less<>> entries_;  // section path -> entry names
};

// Reads, overrides and validates a case. The schema comes from the registry by the case's `type:`.
// Throws CaseError with every problem found, each naming the file, line, key path, value and the
// expected form; nothing of the case is returned unless all of it is valid.
Case load_case(const std::filesystem::path& file, const CaseRegistry& types,
               const std::vector<std::string>& overrides = {});
Case parse_case(std::string_view yaml, const CaseRegistry& types, const std::vector<std::string>& overrides = {},
                const std::string& source = "<string>");
// The same against one schema (tests, fuzzing, a solver's own driver).
Case load_case(const std::filesystem::path& file, const Schema& schema,
               const std::vector<std::string>& overrides = {});
Case parse_case(std::string_view yaml, const Schema& schema, const std::vector<std::string>& overrides = {},
                const std::string& source = "<string>");

template <class T> T Case::get(std::string_view path) const {
  if constexpr (std::is_same_v<T, bool>) {
    return boolean_at(path);
  } else if constexpr (std::is_integral_v<T>) {
    return narrow<T>(path, integer_at(path));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(real_at(path));
  } else if constexpr (std::is_same_v<T, std::string>) {
    return string_at(path);
  } else if constexpr (detail::IsVector<T>::value) {
    using E = typename detail::IsVector<T>::Element;
    if constexpr (std::is_integral_v<E> && !std::is_same_v<E, bool>) {
      T out;
      for (std::int64_t v : integer_list_at(path)) out.push_back(narrow<E>(path, v));
      return out;
    } else if constexpr (std::is_floating_point_v<E>) {
      const auto values = real_list_at(path);
      return T(values.begin(), values.end());
    } else {
      static_assert(std::is_same_v<E, std::string>, "unsupported list type for Case::get");
      return string_list_at(path);
    }
  } else {
    static_assert(sizeof(T) == 0, "unsupported type for Case::get");
  }
}

}  // namespace hetflow::casefile
