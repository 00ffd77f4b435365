#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::core {

// The text of the embedded kernel file `name` ("lbm/lbm.cl"), with every line
// `#include "other/file.cl"` replaced by that registered file (each file once), so kernels share
// headers such as core/common.cl without any file lookup at run time. Throws Error for unknown names,
// listing the registered ones.
std::string kernel_source(std::string_view name);

// Every registered kernel file, sorted.
std::vector<std::string> kernel_names();

}  // namespace hetflow::core
