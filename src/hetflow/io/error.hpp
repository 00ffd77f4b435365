#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hetflow::io {

// Base of every error the io layer reports; what() is a complete sentence naming the file involved.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file exists and was read, but its content is not what the format requires.
class FormatError : public IoError {
 public:
  using IoError::IoError;
};

// "cannot <action> '<path>': <strerror(err)>" — the form every failed system call is reported in.
IoError system_error(std::string_view action, const std::filesystem::path& path, int err);

}  // namespace hetflow::io
