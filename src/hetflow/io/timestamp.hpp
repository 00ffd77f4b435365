#pragma once
#include <string>

namespace hetflow::io {

// The current UTC time as ISO 8601, "2026-11-22T02:38:20Z": how manifests and benchmark files date themselves.
std::string utc_timestamp();

}  // namespace hetflow::io
