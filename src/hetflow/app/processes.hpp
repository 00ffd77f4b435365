#pragma once
#include <memory>

#include "hetflow/core/link.hpp"

namespace hetflow::app {

// The processes that run this `hetflow run`. Started by an MPI launcher as one of several processes
// (`mpiexec -n 4 hetflow run ...`), it initialises MPI for its lifetime and links them; otherwise it is
// one process and MPI is neither initialised nor needed, so a plain `hetflow` never pays for it.
// Throws when a launcher started several processes and this build has no MPI, rather than let each
// run alone into the same run directory.
class Processes {
 public:
  Processes(int& argc, char**& argv);
  ~Processes();
  Processes(const Processes&) = delete;
  Processes& operator=(const Processes&) = delete;

  // Null for one process.
  core::Link* link() const;

 private:
  struct World;
  std::unique_ptr<World> world_;
};

}  // namespace hetflow::app
