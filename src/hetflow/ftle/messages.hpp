#pragma once
#include <span>
#include <string>

namespace hetflow::ftle {

// How FTLE messages print a number (9 significant digits, shortest form) and a point, "(x, y, z)".
std::string number(double v);
std::string point(std::span<const double> x);

}  // namespace hetflow::ftle
