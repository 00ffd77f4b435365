#pragma once
#include <mpi.h>

#include "hetflow/core/link.hpp"

namespace hetflow::mpi {

// MPI for the lifetime of the object: initialised on construction (unless something else already did),
// finalised on destruction. One per process, created first thing in main.
class Environment {
 public:
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  bool owner_ = false;
};

// The processes of MPI_COMM_WORLD, one per host or device, as a core::Link. It talks on a private
// duplicate of the world communicator so that hetflow's messages never match an application's own, and
// reports MPI errors as core::Error instead of aborting. Must be destroyed before the Environment.
class Communicator final : public core::Link {
 public:
  Communicator();
  ~Communicator() override;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  std::size_t rank() const override { return static_cast<std::size_t>(rank_); }
  std::size_t size() const override { return static_cast<std::size_t>(size_); }
  // Tags must be below 32767, which gather() keeps for itself.
  void exchange(std::span<const core::Message> sends, std::span<const core::Message> receives) override;
  std::vector<std::vector<double>> all_gather(std::span<const double> mine) override;
  void gather(std::span<std::byte> whole, std::size_t offset, std::size_t count) override;

  void barrier() const;
  // Collective: true on every process when `mine` is true on any (to agree on failure, for instance).
  bool any(bool mine) const;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace hetflow::mpi
