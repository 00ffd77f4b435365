#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace hetflow::test {

// The name of a test instantiated per edge lane count: "L4" for 4 lanes per node row.
inline std::string lane_name(const ::testing::TestParamInfo<std::size_t>& p) { return "L" + std::to_string(p.param); }

}  // namespace hetflow::test
