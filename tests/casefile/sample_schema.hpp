#pragma once
// A case schema shaped like a small solver's (the fixtures in data/cases name it "selftest"), so the
// case-file tests exercise every kind of key without depending on the app's case types.
#include "hetflow/casefile/schema.hpp"

namespace hetflow::casefile::test {

inline Schema sample_schema() {
  Schema s("selftest", "a sample solver for the case-file tests");
  auto& t = s.section("selftest", "the sample run");
  t.key<std::vector<int>>("size", {48, 40, 32}, "grid size nx, ny, nz").length(3).at_least(2).unit("cells");
  t.key<int>("steps", 200, "number of steps").at_least(1);
  t.key<std::string>("precision", "float", "real type of the kernels (-D REAL=...)").one_of({"float", "double"});
  t.key<double>("tolerance", 1e-5, "largest relative difference to the reference").above(0).below(1);
  t.key<bool>("bandwidth", true, "measure bandwidth");
  s.section("output").key<int>("every", 50, "output interval").at_least(1).unit("steps");
  return s;
}

}  // namespace hetflow::casefile::test
