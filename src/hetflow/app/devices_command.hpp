#pragma once
#include <iosfwd>
#include <string>

namespace hetflow::app {

// `hetflow devices [--device SPEC] [--bench]`: one block per device (name, platform, driver, memory,
// compute units, OpenCL C version, fp64); --bench adds measured copy and triad bandwidth.
int devices_command(const std::string& spec, bool bench, std::ostream& out);

}  // namespace hetflow::app
