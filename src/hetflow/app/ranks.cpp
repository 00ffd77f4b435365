#include "hetflow/app/ranks.hpp"

#include <algorithm>
#include <cstring>
#include <span>

#include "hetflow/io/interrupt.hpp"

namespace hetflow::app {
namespace {

// One run per process: an agreed failure is the process's, whichever copy of its Ranks agreed it.
bool agreed_failure = false;

std::string message_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

Ranks::Agreed Ranks::agree(const std::exception_ptr& failure, double seconds) const {
  if (!link_) {
    if (failure) std::rethrow_exception(failure);
    return {io::interrupted(), seconds};
  }
  const double mine[3] = {failure ? 1.0 : 0.0, io::interrupted() ? 1.0 : 0.0, seconds};
  Agreed agreed;
  std::optional<std::size_t> failed;
  const std::vector<std::vector<double>> all = link_->all_gather(mine);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r][0] != 0 && !failed) failed = r;
    agreed.interrupted = agreed.interrupted || all[r][1] != 0;
    agreed.seconds = std::max(agreed.seconds, all[r][2]);
  }
  if (!failed) return agreed;
  agreed_failure = true;
  // Every rank knows that one failed, so all take part in collecting the messages for rank 0's manifest.
  const std::vector<std::string> messages = gather_texts(failure ? message_of(failure) : std::string());
  if (failure) std::rethrow_exception(failure);
  throw RankFailed("rank " + std::to_string(*failed) + " failed" +
                   (root() ? ": " + messages[*failed] : std::string(" (its own message says why)")));
}

bool failure_agreed() { return agreed_failure; }

std::vector<std::string> Ranks::gather_texts(const std::string& mine) const {
  if (!link_) return {mine};
  const double length = static_cast<double>(mine.size());
  const std::vector<std::vector<double>> lengths = link_->all_gather(std::span(&length, 1));
  std::vector<std::size_t> offsets(lengths.size() + 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) offsets[r + 1] = offsets[r] + static_cast<std::size_t>(lengths[r][0]);
  std::string whole(offsets.back(), '\0');
  std::memcpy(whole.data() + offsets[rank()], mine.data(), mine.size());
  link_->gather(std::as_writable_bytes(std::span(whole)), offsets[rank()], mine.size());
  if (!root()) return {};
  std::vector<std::string> texts;
  for (std::size_t r = 0; r < lengths.size(); ++r) texts.push_back(whole.substr(offsets[r], offsets[r + 1] - offsets[r]));
  return texts;
}

}  // namespace hetflow::app
