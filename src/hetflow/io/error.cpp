#include "hetflow/io/error.hpp"

#include <cstring>

namespace hetflow::io {

IoError system_error(std::string_view action, const std::filesystem::path& path, int err) {
  std::string msg = "cannot ";
  msg += action;
  msg += " '";
  msg += path.string();
  msg += "': ";
  msg += std::strerror(err);
  return IoError(msg);
}

}  // namespace hetflow::io
