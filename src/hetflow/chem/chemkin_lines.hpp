#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem::chemkin {

// One input line with its comment removed, and its 1-based number in the file.
struct Line {
  std::string text;
  int number = 0;
};

std::vector<Line> split_lines(std::string_view text);

// Whether `word` opens a section (ELEMENTS, SPECIES, THERMO, REACTIONS, TRANSPORT, or their
// four-letter forms), which also ends the section before it when END is missing.
bool is_section_keyword(std::string_view word);

// The first word of a line, upper-cased ("" for a blank line).
std::string first_word(const Line& line);

// Thermo records of a THERMO section (from just after its keyword line up to END or the next section)
// for the species of `m`; `found[k]` is set for each species given data, the first record winning.
// Returns the index of the first line after the section.
std::size_t read_thermo(const std::vector<Line>& lines, std::size_t begin, bool all, Mechanism& m,
                        std::vector<bool>& found, const std::string& file);

// The REACTIONS section from its keyword line; returns the index of the first line after it.
std::size_t read_reactions(const std::vector<Line>& lines, std::size_t begin, Mechanism& m, const std::string& file);

}  // namespace hetflow::chem::chemkin
