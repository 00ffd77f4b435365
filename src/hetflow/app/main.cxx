#include <cstdio>
#include <exception>

#include "hetflow/app/cli.hpp"
#include "hetflow/core/host_memory.hpp"
#include "hetflow/core/trace.hpp"

int main(int argc, char** argv) {
  hetflow::core::keep_freed_host_memory();
  const int status = hetflow::app::main(argc, argv);
  // After the command, whatever its outcome: the recorded events keep what the timeline needs.
  try {
    hetflow::core::trace::write();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetflow: trace: %s\n", e.what());
    return status != 0 ? status : 1;
  }
  return status;
}
