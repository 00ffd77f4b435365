#include "hetflow/casefile/error.hpp"

#include <utility>

namespace hetflow::casefile {
namespace {

std::string join_lines(const std::vector<std::string>& messages) {
  std::string text;
  if (messages.size() > 1) text = std::to_string(messages.size()) + " errors in the case:\n";
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (i > 0) text += '\n';
    text += messages[i];
  }
  return text;
}

}  // namespace

CaseError::CaseError(std::vector<std::string> messages)
    : std::runtime_error(join_lines(messages)), messages_(std::move(messages)) {}

CaseError::CaseError(std::string message) : CaseError(std::vector<std::string>{std::move(message)}) {}

}  // namespace hetflow::casefile
