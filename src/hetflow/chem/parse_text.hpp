#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::chem {

// Small text helpers shared by the mechanism readers.
std::string_view trim(std::string_view s);
std::string upper(std::string_view s);
std::vector<std::string_view> split_whitespace(std::string_view s);
// A whole token as a finite real: Fortran 'D' exponents and a leading '+' are accepted, as Chemkin
// files use both; anything else left over makes it not a number.
std::optional<double> parse_real(std::string_view s);

}  // namespace hetflow::chem
