#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// Reads a Chemkin-II/III mechanism: ELEMENTS, SPECIES, THERMO [ALL] and REACTIONS sections (keywords
// may be shortened to four letters, END may be left out before the next section), '!' comments and '&'
// line continuations. Thermo data come from the mechanism's THERMO section first, then from the
// separate thermo file when one is given. Every problem is a MechanismError naming file and line.
Mechanism read_chemkin(const std::filesystem::path& mechanism, const std::filesystem::path& thermo = {});

// The same from text in memory; `source` and `thermo_source` name the texts in messages.
Mechanism parse_chemkin(std::string_view text, const std::string& source, std::string_view thermo_text = {},
                        const std::string& thermo_source = {});

}  // namespace hetflow::chem
