#pragma once
#include <cstdint>
#include <limits>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace hetflow::casefile {

// The value of one case key after parsing; integers stay exact (64-bit) until a getter narrows them.
using CaseValue = std::variant<bool, std::int64_t, double, std::string, std::vector<std::int64_t>,
                               std::vector<double>, std::vector<std::string>>;

enum class KeyType { boolean, integer, real, string, integer_list, real_list, string_list };

// Which ends of a range are open; `range(0.5, inf, Bounds::exclusive_min)` reads "tau > 0.5".
enum class Bounds { inclusive, exclusive_min, exclusive_max, exclusive };

inline constexpr double inf = std::numeric_limits<double>::infinity();

namespace detail {
template <class T> struct IsVector : std::false_type {};
template <class T> struct IsVector<std::vector<T>> : std::true_type {
  using Element = T;
};

template <class T> constexpr KeyType key_type_of() {
  if constexpr (std::is_same_v<T, bool>) return KeyType::boolean;
  else if constexpr (std::is_integral_v<T>) return KeyType::integer;
  else if constexpr (std::is_floating_point_v<T>) return KeyType::real;
  else if constexpr (std::is_convertible_v<T, std::string_view>) return KeyType::string;
  else if constexpr (IsVector<T>::value) {
    using E = typename IsVector<T>::Element;
    static_assert(!std::is_same_v<E, bool>, "lists of booleans are not a case key type");
    if constexpr (std::is_integral_v<E>) return KeyType::integer_list;
    else if constexpr (std::is_floating_point_v<E>) return KeyType::real_list;
    else {
      static_assert(std::is_same_v<E, std::string>, "unsupported list element type for a case key");
      return KeyType::string_list;
    }
  } else {
    static_assert(sizeof(T) == 0, "unsupported case key type");
    return KeyType::boolean;
  }
}

template <class T> CaseValue to_case_value(const T& v) {
  constexpr KeyType type = key_type_of<T>();
  if constexpr (type == KeyType::boolean) return CaseValue{v};
  else if constexpr (type == KeyType::integer) return CaseValue{static_cast<std::int64_t>(v)};
  else if constexpr (type == KeyType::real) return CaseValue{static_cast<double>(v)};
  else if constexpr (type == KeyType::string) return CaseValue{std::string(v)};
  else if constexpr (type == KeyType::integer_list) return CaseValue{std::vector<std::int64_t>(v.begin(), v.end())};
  else if constexpr (type == KeyType::real_list) return CaseValue{std::vector<double>(v.begin(), v.end())};
  else return CaseValue{v};
}
}  // namespace detail

// One key of a case: its type, default (none = required) and the constraints validation enforces.
// The setters return *this so a declaration reads as one sentence.
class Key {
 public:
  Key(std::string name, KeyType type, std::optional<CaseValue> default_value, std::string description);

  Key& required();
  Key& at_least(double lo);
  Key& above(double lo);
  Key& at_most(double hi);
  Key& below(double hi);
  Key& range(double lo, double hi, Bounds bounds = Bounds::inclusive);
  Key& one_of(std::vector<std::string> choices);  // string keys and string lists only
  Key& not_empty();                                // string keys only: "" is no value
  Key& length(std::size_t n);                      // lists only: exactly n entries
  Key& unit(std::string unit);
  // A string or string-list key naming files: the resolver makes a relative value absolute against the
  // case file's folder (the working directory for a case given as a string), so solvers, the manifest
  // and a re-run all read the same file wherever they run.
  Key& path();
  // A key with a default that the case must still give unless `condition` holds ("kind is file"): the
  // template marks it "REQUIRED unless ...", and the case type's check() enforces it.
  Key& required_unless(std::string condition);

  const std::string& name() const { return name_; }
  KeyType type() const { return type_; }
  const std::string& description() const { return description_; }
  const std::string& unit_name() const { return unit_; }
  bool is_required() const { return !default_.has_value(); }
  bool is_path() const { return path_; }
  const std::string& required_condition() const { return required_unless_; }
  const std::optional<CaseValue>& default_value() const { return default_; }
  const std::vector<std::string>& choices() const { return choices_; }
  std::optional<std::size_t> fixed_length() const { return length_; }

  bool is_list() const;
  // What a valid value looks like, for messages and help: "a real number > 0.5".
  std::string expected_form() const;
  // Why one element (or the whole value of a scalar key) breaks the range or choice constraint;
  // empty when it satisfies them.
  std::string element_problem(const CaseValue& element) const;

 private:
  std::string name_;
  KeyType type_;
  std::optional<CaseValue> default_;
  std::string description_;
  std::string unit_;
  std::optional<double> lo_, hi_;
  bool lo_open_ = false, hi_open_ = false;
  std::vector<std::string> choices_;
  bool not_empty_ = false;
  std::optional<std::size_t> length_;
  bool path_ = false;
  std::string required_unless_;
};

// A named group of keys and subsections. std::list keeps the references handed out by key() and
// section() valid while the declaration goes on.
class Section {
 public:
  explicit Section(std::string name, std::string description = {});

  // A key with a default; declaring a name again replaces the earlier declaration, which is how a
  // solver changes a common default such as output.every.
  template <class T> Key& key(std::string name, const T& default_value, std::string description) {
    return add_key(Key(std::move(name), detail::key_type_of<T>(), detail::to_case_value(default_value),
                       std::move(description)));
  }
  // A required key: the case must give it.
  template <class T> Key& key(std::string name, std::string description) {
    return add_key(Key(std::move(name), detail::key_type_of<T>(), std::nullopt, std::move(description)));
  }
  // The subsection of that name, created on first use.
  Section& section(std::string name, std::string description = {});
  // A subsection that holds entries named by the case ("boundary: {lid: {...}, walls: {...}}"). The
  // returned section is the template every entry is checked against: declare its keys and subsections
  // as in any section. The case may give any number of entries; their names are letters, digits, '_'
  // and '-'. An entry takes the template's defaults; a section of entries left out has no entries.
  Section& entries(std::string name, std::string description);
  bool holds_entries() const { return holds_entries_; }

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::list<Key>& keys() const { return keys_; }
  const std::list<Section>& sections() const { return sections_; }
  const Key* find_key(std::string_view name) const;
  const Section* find_section(std::string_view name) const;
  // Names of every key and subsection, in declaration order.
  std::vector<std::string> entry_names() const;

 private:
  Key& add_key(Key key);
  Section& child(std::string name, std::string description, bool holds_entries);

  std::string name_;
  std::string description_;
  std::list<Key> keys_;
  std::list<Section> sections_;
  bool holds_entries_ = false;
};

// The schema of one case type. The constructor declares what every case has: `type`, `device`
// (select, build_options) and `output` (dir, vti, png, hdf5, every); the solver adds its own sections.
class Schema : public Section {
 public:
  Schema(std::string type_name, std::string description);

  const std::string& type_name() const { return type_name_; }
  // The key at a dotted path ("lbm.tau"), or nullptr; in a section of entries any entry name leads to
  // the template's key ("boundary.lid.type").
  const Key* find(std::string_view path) const;
  // Throws std::logic_error when a default breaks its own key's constraints, or a template of entries
  // declares nothing: a schema bug, caught by the registry and by tests rather than by the first user
  // whose case leaves the key out.
  void check() const;
  // A commented YAML template of the whole case, for `hetflow help <type>`. A section of entries shows
  // one example entry, `<name>:` with the template's keys, commented out: the template then reads as a
  // case with no entries, and uncommenting the example (with a real name) adds one.
  std::string describe() const;

 private:
  std::string type_name_;
};

// Formats a value the way a user would write it in YAML: 0.5, true, [64, 64, 64], "".
std::string format_case_value(const CaseValue& value);

}  // namespace hetflow::casefile
