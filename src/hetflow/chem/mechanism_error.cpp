#include "hetflow/chem/mechanism_error.hpp"

#include <utility>

namespace hetflow::chem {

MechanismError::MechanismError(std::string file, int line, const std::string& problem)
    : io::FormatError(file + ":" + std::to_string(line) + ": " + problem), file_(std::move(file)), line_(line) {}

}  // namespace hetflow::chem
