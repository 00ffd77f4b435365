#pragma once
#include "hetflow/mpi/communicator.hpp"

namespace hetflow::test {

// Every rank of the test run (main.cpp owns it); tests call its collectives on every rank alike.
mpi::Communicator& world();

}  // namespace hetflow::test
