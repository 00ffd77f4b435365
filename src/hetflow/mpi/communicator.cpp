#include "hetflow/mpi/communicator.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::mpi {
namespace {

constexpr int gather_tag = 32767;  // the largest tag every MPI accepts

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw core::Error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

// Starts sending (or receiving) `bytes`. MPI counts are ints, so a message travels in pieces of at
// most 1 GiB; pieces with one tag arrive in order, and both sides cut them alike.
void post(std::vector<MPI_Request>& requests, std::span<std::byte> bytes, std::size_t peer, int tag, MPI_Comm comm,
          bool send) {
  constexpr std::size_t piece = std::size_t{1} << 30;
  for (std::size_t at = 0; at < bytes.size(); at += piece) {
    const std::span<std::byte> part = bytes.subspan(at, std::min(piece, bytes.size() - at));
    const int count = static_cast<int>(part.size()), to = static_cast<int>(peer);
    MPI_Request& request = requests.emplace_back();
    if (send) {
      check(MPI_Isend(part.data(), count, MPI_BYTE, to, tag, comm, &request), "MPI_Isend");
    } else {
      check(MPI_Irecv(part.data(), count, MPI_BYTE, to, tag, comm, &request), "MPI_Irecv");
    }
  }
}

void wait(std::vector<MPI_Request>& requests) {
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

}  // namespace

Environment::Environment(int& argc, char**& argv) {
  int initialised = 0;
  check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (!initialised) {
    check(MPI_Init(&argc, &argv), "MPI_Init");
    owner_ = true;
  }
}

Environment::~Environment() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (owner_ && !finalised) MPI_Finalize();
}

Communicator::Communicator() {
  check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
  check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

Communicator::~Communicator() { MPI_Comm_free(&comm_); }

void Communicator::exchange(std::span<const core::Message> sends, std::span<const core::Message> receives) {
  std::vector<MPI_Request> requests;
  for (const core::Message& m : receives) post(requests, m.bytes, m.peer, m.tag, comm_, false);
  for (const core::Message& m : sends) post(requests, m.bytes, m.peer, m.tag, comm_, true);
  wait(requests);
}

std::vector<std::vector<double>> Communicator::all_gather(std::span<const double> mine) {
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), displacements(counts.size());
  check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_), "MPI_Allgather");
  int total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displacements[r] = total;
    total += counts[r];
  }
  std::vector<double> flat(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, flat.data(), counts.data(), displacements.data(), MPI_DOUBLE,
                       comm_),
        "MPI_Allgatherv");
  std::vector<std::vector<double>> all;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const auto first = flat.begin() + displacements[r];
    all.emplace_back(first, first + counts[r]);
  }
  return all;
}

void Communicator::gather(std::span<std::byte> whole, std::size_t offset, std::size_t count) {
  core::check_gather_range(whole.size(), offset, count);
  // Rank 0 learns where every contribution goes, then receives them all at once.
  const std::uint64_t mine[2] = {offset, count};
  std::vector<std::uint64_t> places(rank_ == 0 ? 2 * size() : 0);
  check(MPI_Gather(mine, 2, MPI_UINT64_T, places.data(), 2, MPI_UINT64_T, 0, comm_), "MPI_Gather");
  std::vector<MPI_Request> requests;
  if (rank_ == 0) {
    for (std::size_t r = 1; r < size(); ++r) {
      post(requests, whole.subspan(places[2 * r], places[2 * r + 1]), r, gather_tag, comm_, false);
    }
  } else {
    post(requests, whole.subspan(offset, count), 0, gather_tag, comm_, true);
  }
  wait(requests);
}

void Communicator::barrier() const { check(MPI_Barrier(comm_), "MPI_Barrier"); }

bool Communicator::any(bool mine) const {
  int local = mine ? 1 : 0, result = 0;
  check(MPI_Allreduce(&local, &result, 1, MPI_INT, MPI_LOR, comm_), "MPI_Allreduce");
  return result != 0;
}

}  // namespace hetflow::mpi
