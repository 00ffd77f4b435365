#pragma once
#include <string>

#include "hetflow/io/error.hpp"

namespace hetflow::chem {

// A mechanism file that cannot be read as written. what() is "<file>:<line>: <problem>", the form
// compilers use, so editors jump to the line; file() and line() let tests and tools check each part.
class MechanismError : public io::FormatError {
 public:
  MechanismError(std::string file, int line, const std::string& problem);
  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

}  // namespace hetflow::chem
