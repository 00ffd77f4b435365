#pragma once
#include <string>

namespace hetflow::app {

// `hetflow bench NAME`: runs a benchmark on the first selected device (a scaling case, such as lbm-scaling
// or fem's weak scaling, on all of them), prints its table and writes OUTPUT/<device-slug>/NAME.json.
// `build_options` are appended to every kernel build (to measure compiler options). `only`, when not
// empty, keeps the cases whose name it matches (a regular expression) and writes NAME-subset.json.
int bench_command(const std::string& name, const std::string& device, const std::string& output, int repeats,
                  const std::string& build_options, const std::string& only);

}  // namespace hetflow::app
