#pragma once
#include <filesystem>
#include <string>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// A mechanism from its file by the file's kind: Cantera YAML (.yaml, .yml; `phase` picks one of its
// phases, empty the first), else Chemkin (`thermo` its thermo file, empty when the mechanism holds
// THERMO). MechanismError for content that cannot be read, io::FormatError for a phase given to a
// Chemkin file, io::IoError for a file that cannot be opened.
Mechanism read_mechanism(const std::filesystem::path& file, const std::filesystem::path& thermo = {},
                         const std::string& phase = {});

}  // namespace hetflow::chem
