#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace hetflow::casefile {

// Everything wrong with a case file, found in one pass: users fix a file faster when they see every
// problem at once than when they rerun once per mistake. what() holds all messages, one per line.
class CaseError : public std::runtime_error {
 public:
  explicit CaseError(std::vector<std::string> messages);
  explicit CaseError(std::string message);

  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::vector<std::string> messages_;
};

}  // namespace hetflow::casefile
