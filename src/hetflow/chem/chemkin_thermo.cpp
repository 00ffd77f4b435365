// THERMO sections: the fixed-column 4-line NASA-7 records of Chemkin's thermodynamic database format.
#include <algorithm>

#include "hetflow/chem/chemkin_lines.hpp"
#include "hetflow/chem/mechanism_error.hpp"
#include "hetflow/chem/parse_text.hpp"

namespace hetflow::chem::chemkin {
namespace {

struct Ranges {
  double low = 300.0, mid = 1000.0, high = 5000.0;
};

std::string_view columns(std::string_view text, std::size_t first, std::size_t count) {
  if (first >= text.size()) return {};
  return text.substr(first, count);
}

double number_at(const Line& line, std::size_t first, std::size_t count, const std::string& what, const std::string& file) {
  const std::string_view field = columns(line.text, first, count);
  const auto v = parse_real(field);
  if (!v)
    throw MechanismError(file, line.number, "malformed number '" + std::string(trim(field)) + "' in " + what + " (columns " +
                                                std::to_string(first + 1) + "-" + std::to_string(first + count) + ")");
  return *v;
}

// Element counts sit in 5-column groups: a 2-column symbol and a 3-column count (columns 25-44, and
// 74-78 for a fifth element in Chemkin-III files).
void read_composition(const Line& line, Species& s, const Mechanism& m, const std::string& file) {
  s.composition.clear();
  for (std::size_t first : {24u, 29u, 34u, 39u, 73u}) {
    const std::string_view symbol = trim(columns(line.text, first, 2));
    if (symbol.empty() || symbol == "0" || symbol == "00") continue;
    const std::string_view count_text = trim(columns(line.text, first + 2, 3));
    if (count_text.empty() && first == 73u) continue;
    const double count = number_at(line, first + 2, 3, "the element count of '" + std::string(symbol) + "'", file);
    if (count == 0.0) continue;
    const int e = m.element_index(symbol);
    if (e < 0)
      throw MechanismError(file, line.number, "species '" + s.name + "' contains element '" + std::string(symbol) +
                                                  "', which ELEMENTS does not declare");
    s.composition.emplace_back(e, count);
  }
}

void read_record(const std::vector<Line>& record, const Ranges& defaults, Species& s, const Mechanism& m,
                 const std::string& file) {
  read_composition(record[0], s, m, file);
  const std::string who = "the thermo data of '" + s.name + "'";
  Nasa7& t = s.thermo;
  t.t_low = number_at(record[0], 45, 10, who, file);
  t.t_high = number_at(record[0], 55, 10, who, file);
  t.t_mid = trim(columns(record[0].text, 65, 8)).empty() ? defaults.mid : number_at(record[0], 65, 8, who, file);
  // Lines 2-4 hold 14 coefficients in 15-column fields: the upper range first, then the lower.
  for (int k = 0; k < 14; ++k) {
    const Line& line = record[static_cast<std::size_t>(1 + k / 5)];
    const double v = number_at(line, static_cast<std::size_t>(15 * (k % 5)), 15, who, file);
    if (k < 7)
      t.high[static_cast<std::size_t>(k)] = v;
    else
      t.low[static_cast<std::size_t>(k - 7)] = v;
  }
  if (!(t.t_low < t.t_mid && t.t_mid < t.t_high))
    throw MechanismError(file, record[0].number, "temperature ranges of '" + s.name + "' are not increasing (" +
                                                     std::to_string(t.t_low) + ", " + std::to_string(t.t_mid) + ", " +
                                                     std::to_string(t.t_high) + ")");
}

bool all_numbers(const std::vector<std::string_view>& words) {
  return std::all_of(words.begin(), words.end(), [](std::string_view w) { return parse_real(w).has_value(); });
}

}  // namespace

std::size_t read_thermo(const std::vector<Line>& lines, std::size_t i, bool all, Mechanism& m, std::vector<bool>& found,
                        const std::string& file) {
  found.resize(m.species.size(), false);
  Ranges defaults;
  while (i < lines.size() && trim(lines[i].text).empty()) ++i;
  // The default temperature ranges: required after THERMO ALL, optional otherwise.
  if (i < lines.size()) {
    const auto words = split_whitespace(lines[i].text);
    if (words.size() == 3 && all_numbers(words)) {
      defaults = {*parse_real(words[0]), *parse_real(words[1]), *parse_real(words[2])};
      ++i;
    } else if (all) {
      throw MechanismError(file, lines[i].number, "THERMO ALL must be followed by the default temperatures "
                                                  "'T_low T_common T_high'");
    }
  }
  std::vector<Line> record;
  for (; i < lines.size(); ++i) {
    const std::string word = first_word(lines[i]);
    if (word.empty()) continue;
    if (record.empty() && word == "END") return i + 1;
    if (record.empty() && is_section_keyword(word)) return i;
    record.push_back(lines[i]);
    if (record.size() < 4) continue;
    const std::string name(split_whitespace(record[0].text).front());
    const int k = m.species_index(name);
    if (k >= 0 && !found[static_cast<std::size_t>(k)]) {
      read_record(record, defaults, m.species[static_cast<std::size_t>(k)], m, file);
      found[static_cast<std::size_t>(k)] = true;
    }
    record.clear();
  }
  if (!record.empty())
    throw MechanismError(file, record.front().number, "thermo record for '" + std::string(split_whitespace(record[0].text).front()) +
                                                          "' is cut short: it needs 4 lines");
  return i;
}

}  // namespace hetflow::chem::chemkin
