#include "hetflow/app/processes.hpp"

#include <cstdlib>
#include <string>

#include "hetflow/core/error.hpp"
#if HETFLOW_HAVE_MPI
#include "hetflow/mpi/communicator.hpp"
#endif

namespace hetflow::app {
namespace {

// Whether a launcher started this process as one of several, from what launchers put in the
// environment before MPI is initialised: the process count (Open MPI, MPICH's Hydra and Slurm's PMI,
// MVAPICH), or else only a PMIx rank, whose count MPI must tell.
bool launched_as_several() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"}) {
    if (const char* value = std::getenv(name)) return std::strtol(value, nullptr, 10) > 1;
  }
  return std::getenv("PMIX_RANK") != nullptr;
}

}  // namespace

#if HETFLOW_HAVE_MPI
struct Processes::World {
  World(int& argc, char**& argv) : environment(argc, argv) {}
  mpi::Environment environment;  // outlives the communicator, which MPI_Finalize would invalidate
  mpi::Communicator communicator;
};

Processes::Processes(int& argc, char**& argv) {
  if (launched_as_several()) world_ = std::make_unique<World>(argc, argv);
}

core::Link* Processes::link() const {
  return world_ && world_->communicator.size() > 1 ? &world_->communicator : nullptr;
}
#else
struct Processes::World {};

Processes::Processes(int&, char**&) {
  if (launched_as_several()) {
    throw core::Error("an MPI launcher started this hetflow as one of several processes, but it was built without "
                      "MPI (-DHETFLOW_MPI=OFF, or CMake found no MPI): run it without mpiexec");
  }
}

core::Link* Processes::link() const { return nullptr; }
#endif

Processes::~Processes() = default;

}  // namespace hetflow::app
