#include "hetflow/casefile/schema.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace hetflow::casefile {
namespace {

std::string format_real(double v) {
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  if (std::isnan(v)) return ".nan";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, ec == std::errc{} ? end : buf);
  // A real written without a point would read back as an integer in a template or a manifest.
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// Bounds read better without a fraction where they have none: "in (0, 1]", "an integer >= 1".
std::string format_bound(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
    return std::to_string(static_cast<long long>(v));
  return format_real(v);
}

bool needs_quotes(const std::string& s) {
  if (s.empty()) return true;
  if (s.find_first_of(":#{}[],&*!|>'\"%@`\n\t") != std::string::npos) return true;
  if (s.front() == ' ' || s.back() == ' ' || s.front() == '-' || s.front() == '?') return true;
  static const char* const reserved[] = {"true", "false", "yes", "no", "on", "off", "null", "~"};
  for (const char* r : reserved)
    if (s == r) return true;
  return false;
}

std::string format_string(const std::string& s) {
  if (!needs_quotes(s)) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + '"';
}

template <class T, class F> std::string format_list(const std::vector<T>& items, F format_one) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += format_one(items[i]);
  }
  return out + "]";
}

bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

std::string plural_noun(KeyType t) {
  switch (t) {
    case KeyType::integer_list: return "integers";
    case KeyType::real_list: return "real numbers";
    default: return "strings";
  }
}

}  // namespace

std::string format_case_value(const CaseValue& value) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return format_real(d); }
    std::string operator()(const std::string& s) const { return format_string(s); }
    std::string operator()(const std::vector<std::int64_t>& v) const {
      return format_list(v, [](std::int64_t i) { return std::to_string(i); });
    }
    std::string operator()(const std::vector<double>& v) const { return format_list(v, format_real); }
    std::string operator()(const std::vector<std::string>& v) const { return format_list(v, format_string); }
  };
  return std::visit(Visitor{}, value);
}

// ---- Key -------------------------------------------------------------------------------------------

Key::Key(std::string name, KeyType type, std::optional<CaseValue> default_value, std::string description)
    : name_(std::move(name)), type_(type), default_(std::move(default_value)), description_(std::move(description)) {
  if (!valid_name(name_))
    throw std::logic_error("case key name '" + name_ + "' must be lower-case letters, digits and '_'");
}

bool Key::is_list() const {
  return type_ == KeyType::integer_list || type_ == KeyType::real_list || type_ == KeyType::string_list;
}

Key& Key::required() {
  default_.reset();
  return *this;
}

Key& Key::at_least(double lo) { return range(lo, inf, Bounds::inclusive); }
Key& Key::above(double lo) { return range(lo, inf, Bounds::exclusive_min); }
Key& Key::at_most(double hi) { return range(-inf, hi, Bounds::inclusive); }
Key& Key::below(double hi) { return range(-inf, hi, Bounds::exclusive_max); }

Key& Key::range(double lo, double hi, Bounds bounds) {
  const bool numeric = type_ == KeyType::integer || type_ == KeyType::real || type_ == KeyType::integer_list ||
                       type_ == KeyType::real_list;
  if (!numeric) throw std::logic_error("case key '" + name_ + "': a range needs a numeric key");
  if (std::isnan(lo) || std::isnan(hi) || lo > hi)
    throw std::logic_error("case key '" + name_ + "': empty range");
  // Calls compose: at_least(1) then below(10) keeps both ends.
  if (lo != -inf) {
    lo_ = lo;
    lo_open_ = bounds == Bounds::exclusive_min || bounds == Bounds::exclusive;
  }
  if (hi != inf) {
    hi_ = hi;
    hi_open_ = bounds == Bounds::exclusive_max || bounds == Bounds::exclusive;
  }
  return *this;
}

Key& Key::path() {
  if (type_ != KeyType::string && type_ != KeyType::string_list)
    throw std::logic_error("case key '" + name_ + "': a path needs a string key");
  path_ = true;
  return *this;
}

Key& Key::required_unless(std::string condition) {
  if (!default_) throw std::logic_error("case key '" + name_ + "': required_unless needs a default");
  required_unless_ = std::move(condition);
  return *this;
}

Key& Key::one_of(std::vector<std::string> choices) {
  if (type_ != KeyType::string && type_ != KeyType::string_list)
    throw std::logic_error("case key '" + name_ + "': choices need a string key");
  if (choices.empty()) throw std::logic_error("case key '" + name_ + "': no choices");
  choices_ = std::move(choices);
  return *this;
}

Key& Key::not_empty() {
  if (type_ != KeyType::string) throw std::logic_error("case key '" + name_ + "': not_empty needs a string key");
  not_empty_ = true;
  return *this;
}

Key& Key::length(std::size_t n) {
  if (!is_list()) throw std::logic_error("case key '" + name_ + "': a length needs a list key");
  length_ = n;
  return *this;
}

Key& Key::unit(std::string unit) {
  unit_ = std::move(unit);
  return *this;
}

std::string Key::expected_form() const {
  std::string range_text;
  if (lo_ && hi_) {
    range_text = std::string("in ") + (lo_open_ ? "(" : "[") + format_bound(*lo_) + ", " +
                 format_bound(*hi_) + (hi_open_ ? ")" : "]");
  } else if (lo_) {
    range_text = std::string(lo_open_ ? "> " : ">= ") + format_bound(*lo_);
  } else if (hi_) {
    range_text = std::string(hi_open_ ? "< " : "<= ") + format_bound(*hi_);
  }
  std::string choice_text;
  for (std::size_t i = 0; i < choices_.size(); ++i) choice_text += (i ? ", " : "") + choices_[i];

  std::string form;
  switch (type_) {
    case KeyType::boolean: form = "true or false"; break;
    case KeyType::integer: form = "an integer"; break;
    case KeyType::real: form = "a real number"; break;
    case KeyType::string:
      form = path_               ? "a file path"
             : !choices_.empty() ? "one of: " + choice_text
             : not_empty_        ? "a non-empty string"
                                 : "a string";
      break;
    case KeyType::integer_list:
    case KeyType::real_list:
    case KeyType::string_list:
      form = "a list of " + (length_ ? std::to_string(*length_) + " " : std::string()) +
             (path_ ? "file paths" : plural_noun(type_));
      break;
  }
  if (path_) form += ", relative to the case file's folder";
  if (is_list()) {
    if (!range_text.empty()) form += ", each " + range_text;
    if (!choice_text.empty()) form += ", each one of: " + choice_text;
  } else if (!range_text.empty()) {
    form += " " + range_text;
  }
  if (!unit_.empty()) form += " [" + unit_ + "]";
  return form;
}

std::string Key::element_problem(const CaseValue& element) const {
  if (const auto* s = std::get_if<std::string>(&element)) {
    if (not_empty_ && s->empty()) return "is empty";
    if (choices_.empty()) return {};
    for (const auto& c : choices_)
      if (c == *s) return {};
    return "is not a valid choice";
  }
  double v = 0;
  if (const auto* i = std::get_if<std::int64_t>(&element)) v = static_cast<double>(*i);
  else if (const auto* d = std::get_if<double>(&element)) v = *d;
  else return {};
  if (std::isnan(v)) return "is not a number";
  // No key takes an infinite value; caught here, the problem names its key instead of surfacing later
  // inside a solver.
  if (std::isinf(v)) return "is not a finite number";
  const bool low = lo_ && (lo_open_ ? !(v > *lo_) : !(v >= *lo_));
  const bool high = hi_ && (hi_open_ ? !(v < *hi_) : !(v <= *hi_));
  return low || high ? "is out of range" : std::string();
}

// ---- Section ---------------------------------------------------------------------------------------

Section::Section(std::string name, std::string description)
    : name_(std::move(name)), description_(std::move(description)) {}

Key& Section::add_key(Key key) {
  if (find_section(key.name()))
    throw std::logic_error("case key '" + key.name() + "' has the name of a section");
  for (auto& k : keys_)
    if (k.name() == key.name()) return k = std::move(key);
  return keys_.emplace_back(std::move(key));
}

Section& Section::section(std::string name, std::string description) {
  return child(std::move(name), std::move(description), false);
}

Section& Section::entries(std::string name, std::string description) {
  return child(std::move(name), std::move(description), true);
}

Section& Section::child(std::string name, std::string description, bool holds_entries) {
  for (auto& s : sections_)
    if (s.name() == name) {
      if (s.holds_entries_ != holds_entries)
        throw std::logic_error("case section '" + name + "' is declared both as a section and as a section of entries");
      if (!description.empty()) s.description_ = std::move(description);
      return s;
    }
  if (!valid_name(name))
    throw std::logic_error("case section name '" + name + "' must be lower-case letters, digits and '_'");
  if (find_key(name)) throw std::logic_error("case section '" + name + "' has the name of a key");
  Section& added = sections_.emplace_back(std::move(name), std::move(description));
  added.holds_entries_ = holds_entries;
  return added;
}

const Key* Section::find_key(std::string_view name) const {
  for (const auto& k : keys_)
    if (k.name() == name) return &k;
  return nullptr;
}

const Section* Section::find_section(std::string_view name) const {
  for (const auto& s : sections_)
    if (s.name() == name) return &s;
  return nullptr;
}

std::vector<std::string> Section::entry_names() const {
  std::vector<std::string> names;
  for (const auto& k : keys_) names.push_back(k.name());
  for (const auto& s : sections_) names.push_back(s.name());
  return names;
}

// ---- Schema ----------------------------------------------------------------------------------------

Schema::Schema(std::string type_name, std::string description)
    : Section("", std::move(description)), type_name_(std::move(type_name)) {
  key<std::string>("type", type_name_, "the case type, which names the solver").one_of({type_name_}).required();
  auto& device = section("device", "where the run executes");
  device.key<std::string>("select", "auto",
                          "device selection: auto, gpu, gpu:1, cpu, all, nvidia:0, a comma list, or tuned (lbm "
                          "and ftle: the devices and shares `hetflow tune lbm-devices` or `ftle-devices` chose)")
      .not_empty();
  device.key<std::string>("build_options", "", "extra OpenCL compiler options appended to every kernel build");
  auto& output = section("output", "what the run writes");
  output.key<std::string>("dir", "run", "output directory").not_empty();
  output.key<bool>("vti", true, "write fields as VTK image data (.vti) for ParaView");
  output.key<bool>("png", true, "write PNG previews");
  output.key<bool>("hdf5", false, "write fields as HDF5 + XDMF");
  output.key<int>("every", 100, "output interval").at_least(1).unit("steps");
}

const Key* Schema::find(std::string_view path) const {
  const Section* section = this;
  while (true) {
    const auto dot = path.find('.');
    if (dot == std::string_view::npos) return section->find_key(path);
    section = section->find_section(path.substr(0, dot));
    if (!section) return nullptr;
    path.remove_prefix(dot + 1);
    if (section->holds_entries()) {
      const auto name_end = path.find('.');
      if (name_end == std::string_view::npos) return nullptr;
      path.remove_prefix(name_end + 1);
    }
  }
}

namespace {

// The path prefix of a subsection's keys; a template's keys read as those of an example entry.
std::string sub_prefix(const Section& sub, const std::string& prefix) {
  return prefix + sub.name() + (sub.holds_entries() ? ".<name>." : ".");
}

void check_section(const Section& section, const std::string& prefix) {
  for (const auto& key : section.keys()) {
    if (!key.default_value()) continue;
    const std::string path = prefix + key.name();
    const CaseValue& value = *key.default_value();
    std::string problem;
    if (const auto* list = std::get_if<std::vector<std::int64_t>>(&value)) {
      for (auto e : *list)
        if (problem.empty()) problem = key.element_problem(e);
    } else if (const auto* rlist = std::get_if<std::vector<double>>(&value)) {
      for (auto e : *rlist)
        if (problem.empty()) problem = key.element_problem(e);
    } else if (const auto* slist = std::get_if<std::vector<std::string>>(&value)) {
      for (const auto& e : *slist)
        if (problem.empty()) problem = key.element_problem(e);
    } else {
      problem = key.element_problem(value);
    }
    if (problem.empty() && key.fixed_length()) {
      const std::size_t n = std::visit(
          [](const auto& v) -> std::size_t {
            if constexpr (detail::IsVector<std::decay_t<decltype(v)>>::value) return v.size();
            else return 0;
          },
          value);
      if (n != *key.fixed_length()) problem = "has the wrong length";
    }
    if (!problem.empty())
      throw std::logic_error("schema bug: default " + path + " = " + format_case_value(value) + " " + problem +
                             ": expected " + key.expected_form());
  }
  for (const auto& sub : section.sections()) {
    if (sub.holds_entries() && sub.keys().empty() && sub.sections().empty())
      throw std::logic_error("schema bug: " + prefix + sub.name() + " holds entries with no keys");
    check_section(sub, sub_prefix(sub, prefix));
  }
}

void describe_section(const Section& section, int depth, const std::string& type_name, std::string& out) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  for (const auto& key : section.keys()) {
    // The type has no default (a case must say what it is) but the template knows it.
    const bool is_type = depth == 0 && key.name() == "type";
    std::string line = indent + key.name() + ": ";
    line += is_type ? type_name : key.default_value() ? format_case_value(*key.default_value()) : "~";
    if (line.size() < 36) line.resize(36, ' ');
    line += "  # ";
    if (key.is_required()) line += "REQUIRED; ";
    if (!key.required_condition().empty()) line += "REQUIRED unless " + key.required_condition() + "; ";
    line += key.expected_form();
    if (!key.description().empty()) line += "; " + key.description();
    out += line + '\n';
  }
  for (const auto& sub : section.sections()) {
    out += indent + sub.name() + ":";
    if (!sub.description().empty()) out += "  # " + sub.description();
    out += '\n';
    if (!sub.holds_entries()) {
      describe_section(sub, depth + 1, type_name, out);
      continue;
    }
    // The example entry is commented out, so the template still reads as a case: "<name>" is no entry
    // name, and a section of entries may be empty. Commenting keeps the keys' comments in line.
    const std::size_t column = static_cast<std::size_t>(depth + 1) * 2;
    std::string example = std::string(column + 2, ' ') +
                          "<name>:  # an entry, named by the case (letters, digits, '_' and '-'), with these keys\n";
    describe_section(sub, depth + 3, type_name, example);
    for (std::size_t start = 0, end; (end = example.find('\n', start)) != std::string::npos; start = end + 1)
      out += example.substr(start, end - start + 1).replace(column, 2, "# ");
  }
}

}  // namespace

void Schema::check() const { check_section(*this, ""); }

std::string Schema::describe() const {
  std::string out = "# " + type_name_ + (description().empty() ? "" : ": " + description()) + '\n';
  describe_section(*this, 0, type_name_, out);
  return out;
}

}  // namespace hetflow::casefile
