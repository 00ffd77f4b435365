#pragma once
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/link.hpp"

namespace hetflow::app {

// What a rank that did not fail throws when another rank of the run failed.
class RankFailed : public core::Error {
 public:
  using core::Error::Error;
};

// Whether this process has agreed with the others that the run failed: every rank then knows, reports
// its error and may meet the others once more (so that rank 0 has printed before any rank exits and
// the launcher stops the rest).
bool failure_agreed();

// The processes of one `hetflow run` (a single one without a link) and the agreements that keep them in
// step. The solvers' collective calls must come in the same order on every rank, so a rank must neither
// stop at another chunk than the others nor leave them waiting in a collective when it fails: work that
// can fail on one rank alone goes through together(), which makes every rank fail with it.
class Ranks {
 public:
  explicit Ranks(core::Link* link) : link_(link) {}

  core::Link* link() const { return link_; }
  std::size_t rank() const { return link_ ? link_->rank() : 0; }
  std::size_t size() const { return link_ ? link_->size() : 1; }
  // Rank 0 alone writes the run directory and prints.
  bool root() const { return rank() == 0; }

  struct Agreed {
    bool interrupted = false;  // io::interrupted() on any rank, so that all stop at the same chunk
    double seconds = 0;        // the slowest rank's time for the work, so that all size chunks alike
  };
  // Collective: runs `work`, then agrees with the other ranks. When it threw on any rank it throws on
  // every rank: its own exception where it threw, RankFailed (naming the first rank that failed, with
  // that rank's message on rank 0) elsewhere.
  //
  // Agreements nest (a case's chunk inside the whole run), and a rank may fail outside any agreement
  // while the others reach their next one: the ranks agree on a failure once, wherever each rank is,
  // and an outer together() lets a failure that is already agreed pass without another collective.
  template <class Work>
  Agreed together(Work&& work) const {
    std::exception_ptr failure;
    const core::WallTimer timer;
    try {
      work();
    } catch (...) {
      if (failure_agreed()) throw;
      failure = std::current_exception();
    }
    return agree(failure, timer.seconds());
  }
  // together() for work that makes a value.
  template <class Make>
  auto make_together(Make&& make) const {
    std::optional<decltype(make())> made;
    together([&] { made.emplace(make()); });
    return std::move(*made);
  }

  // Collective: every rank's text, in rank order, on rank 0 (empty elsewhere).
  std::vector<std::string> gather_texts(const std::string& mine) const;

 private:
  Agreed agree(const std::exception_ptr& failure, double seconds) const;

  core::Link* link_;
};

}  // namespace hetflow::app
