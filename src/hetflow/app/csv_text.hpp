#pragma once
#include <string>

// Text of the CSV tables the case types write (ignition, reactor_batch, karst).
namespace hetflow::app {

// A CSV field: quoted when it holds a comma or a quote (RFC 4180).
std::string csv_field(const std::string& text);
// The shortest text that reads back as the same double.
std::string exact_number(double v);

}  // namespace hetflow::app
