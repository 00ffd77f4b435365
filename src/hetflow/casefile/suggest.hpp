#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::casefile {

// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours
// each cost 1, so "tua" is one edit from "tau".
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate a user most likely meant by `typed`, or "" when none is close enough to be a
// helpful guess rather than noise.
std::string closest_name(std::string_view typed, const std::vector<std::string>& candidates);

}  // namespace hetflow::casefile
