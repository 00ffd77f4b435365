#pragma once
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::test {

// The message of the core::Error that `f()` throws, or "no error": what a test of bad input compares.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const core::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace hetflow::test
