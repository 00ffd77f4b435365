#include "hetflow/chem/chemkin_reader.hpp"

#include <cctype>
#include <cerrno>
#include <fstream>
#include <sstream>

#include "hetflow/chem/chemkin_lines.hpp"
#include "hetflow/chem/mechanism_check.hpp"
#include "hetflow/chem/mechanism_error.hpp"
#include "hetflow/chem/parse_text.hpp"

namespace hetflow::chem {
namespace chemkin {

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  bool continued = false;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (const auto bang = raw.find('!'); bang != std::string_view::npos) raw = raw.substr(0, bang);
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    // '&' at the end continues the line; the joined line keeps the number where it began.
    std::string_view body = raw;
    const bool continues = !trim(body).empty() && trim(body).back() == '&';
    if (continues) body = trim(body).substr(0, trim(body).size() - 1);
    if (continued) {
      lines.back().text += ' ';
      lines.back().text += body;
    } else
      lines.push_back({std::string(body), number});
    continued = continues;
    if (end == text.size()) break;
  }
  return lines;
}

bool is_section_keyword(std::string_view word) {
  const std::string w = upper(word);
  for (const char* k : {"ELEMENTS", "SPECIES", "THERMO", "REACTIONS", "TRANSPORT"})
    if (w == k || w == std::string_view(k).substr(0, 4)) return true;
  return false;
}

std::string first_word(const Line& line) {
  const auto words = split_whitespace(line.text);
  return words.empty() ? std::string() : upper(words.front());
}

}  // namespace chemkin

namespace {

using chemkin::Line;

// Names of an ELEMENTS or SPECIES section, each with the "/value/" that may follow it (element weight
// overrides), from the keyword line to END or the next section.
struct Entry {
  std::string name;
  std::string value;  // text between slashes, "" when none
  int line = 0;
};

std::size_t read_names(const std::vector<Line>& lines, std::size_t i, std::vector<Entry>& out, const std::string& file) {
  bool keyword_line = true;
  for (; i < lines.size(); ++i) {
    std::string_view text = lines[i].text;
    if (!keyword_line && chemkin::is_section_keyword(chemkin::first_word(lines[i]))) return i;
    std::size_t p = 0;
    while (p < text.size()) {
      while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
      const std::size_t start = p;
      while (p < text.size() && !std::isspace(static_cast<unsigned char>(text[p])) && text[p] != '/') ++p;
      std::string word(text.substr(start, p - start));
      if (keyword_line) {  // the section keyword itself
        keyword_line = false;
        continue;
      }
      if (upper(word) == "END") return i + 1;
      while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
      std::string value;
      if (p < text.size() && text[p] == '/') {
        const auto close = text.find('/', p + 1);
        if (close == std::string_view::npos)
          throw MechanismError(file, lines[i].number, "unclosed '/' after '" + word + "'");
        value = std::string(trim(text.substr(p + 1, close - p - 1)));
        p = close + 1;
      }
      if (!word.empty()) out.push_back({word, value, lines[i].number});
    }
  }
  return i;
}

void add_elements(const std::vector<Entry>& entries, Mechanism& m, const std::string& file) {
  for (const Entry& e : entries) {
    if (m.element_index(e.name) >= 0) continue;  // Chemkin tolerates a repeated element
    std::optional<double> weight;
    if (!e.value.empty()) {
      const auto w = parse_real(e.value);
      if (!w || *w <= 0.0)
        throw MechanismError(file, e.line, "malformed number '" + e.value + "' as the atomic weight of '" + e.name + "'");
      weight = *w * 1e-3;
    } else {
      weight = standard_atomic_weight(e.name);
    }
    if (!weight)
      throw MechanismError(file, e.line, "element '" + e.name + "' has no standard atomic weight; give one as '" + e.name + "/weight/'");
    m.elements.push_back({e.name, *weight});
  }
}

void add_species(const std::vector<Entry>& entries, Mechanism& m, std::vector<int>& declared_at, const std::string& file) {
  for (const Entry& e : entries) {
    if (!e.value.empty()) throw MechanismError(file, e.line, "unexpected '/" + e.value + "/' after species '" + e.name + "'");
    if (m.species_index(e.name) >= 0) throw MechanismError(file, e.line, "species '" + e.name + "' is declared twice");
    m.species.push_back({e.name, {}, 0.0, {}});
    declared_at.push_back(e.line);
  }
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::system_error("open", path, errno);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A separate thermo file may open with THERMO [ALL] or directly with the temperature-range line.
void read_thermo_file(std::string_view text, const std::string& source, Mechanism& m, std::vector<bool>& found) {
  const std::vector<Line> lines = chemkin::split_lines(text);
  std::size_t i = 0;
  while (i < lines.size() && trim(lines[i].text).empty()) ++i;
  if (i == lines.size()) return;
  const std::string word = chemkin::first_word(lines[i]);
  if (word == "THERMO" || word == "THER") {
    const auto words = split_whitespace(lines[i].text);
    chemkin::read_thermo(lines, i + 1, words.size() > 1 && upper(words[1]) == "ALL", m, found, source);
  } else {
    chemkin::read_thermo(lines, i, true, m, found, source);
  }
}

}  // namespace

Mechanism parse_chemkin(std::string_view text, const std::string& source, std::string_view thermo_text,
                        const std::string& thermo_source) {
  const std::vector<Line> lines = chemkin::split_lines(text);
  Mechanism m;
  std::vector<int> declared_at;
  std::vector<bool> found;
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string word = chemkin::first_word(lines[i]);
    if (word.empty()) {
      ++i;
    } else if (word == "ELEMENTS" || word == "ELEM") {
      std::vector<Entry> entries;
      i = read_names(lines, i, entries, source);
      add_elements(entries, m, source);
    } else if (word == "SPECIES" || word == "SPEC") {
      std::vector<Entry> entries;
      i = read_names(lines, i, entries, source);
      add_species(entries, m, declared_at, source);
      found.resize(m.species.size(), false);
    } else if (word == "THERMO" || word == "THER") {
      const auto words = split_whitespace(lines[i].text);
      i = chemkin::read_thermo(lines, i + 1, words.size() > 1 && upper(words[1]) == "ALL", m, found, source);
    } else if (word == "REACTIONS" || word == "REAC") {
      i = chemkin::read_reactions(lines, i, m, source);
    } else if (word == "TRANSPORT" || word == "TRAN") {
      // Transport data are not used by the kinetics; skip to END or the next section.
      for (++i; i < lines.size(); ++i) {
        const std::string w = chemkin::first_word(lines[i]);
        if (w == "END") { ++i; break; }
        if (chemkin::is_section_keyword(w)) break;
      }
    } else if (word == "END") {
      ++i;  // a stray END after a section that already ended
    } else {
      throw MechanismError(source, lines[i].number, "unexpected '" + std::string(split_whitespace(lines[i].text).front()) +
                                                        "' outside a section (expected ELEMENTS, SPECIES, THERMO or REACTIONS)");
    }
  }
  // After the mechanism's own THERMO section, so that its records take precedence over the file's.
  if (!thermo_text.empty()) read_thermo_file(thermo_text, thermo_source, m, found);
  for (std::size_t k = 0; k < m.species.size(); ++k)
    if (!found[k])
      throw MechanismError(source, declared_at[k], "species '" + m.species[k].name + "' has no thermo data" +
                                                       (thermo_source.empty() ? std::string(" (no thermo file given)")
                                                                              : " in the mechanism or '" + thermo_source + "'"));
  finish_mechanism(m, source);
  return m;
}

Mechanism read_chemkin(const std::filesystem::path& mechanism, const std::filesystem::path& thermo) {
  const std::string text = read_text(mechanism);
  const std::string thermo_text = thermo.empty() ? std::string() : read_text(thermo);
  return parse_chemkin(text, mechanism.string(), thermo_text, thermo.string());
}

}  // namespace hetflow::chem
