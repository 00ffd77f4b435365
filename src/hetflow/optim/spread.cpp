#include "hetflow/optim/spread.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "hetflow/core/error.hpp"

namespace hetflow::optim {
namespace {

// The exchange moves doubles only: text travels as its length, then its bytes packed eight per double.
void put_text(std::vector<double>& out, const std::string& text) {
  out.push_back(static_cast<double>(text.size()));
  for (std::size_t i = 0; i < text.size(); i += sizeof(double)) {
    double word = 0;
    std::memcpy(&word, text.data() + i, std::min(sizeof(double), text.size() - i));
    out.push_back(word);
  }
}

// Reads what put_text wrote at `at`, advancing it.
std::string take_text(const std::vector<double>& in, std::size_t& at) {
  std::string text(static_cast<std::size_t>(in.at(at++)), '\0');
  for (std::size_t i = 0; i < text.size(); i += sizeof(double)) {
    const double word = in.at(at++);
    std::memcpy(text.data() + i, &word, std::min(sizeof(double), text.size() - i));
  }
  return text;
}

// A process's message: 1 and the error when its share threw, else 0, then per evaluation its value,
// residual count, residuals and failure text.
std::vector<double> encode(const std::vector<Evaluation>& evaluations, const std::string& error, bool threw) {
  std::vector<double> out{threw ? 1.0 : 0.0};
  if (threw) {
    put_text(out, error);
    return out;
  }
  for (const Evaluation& e : evaluations) {
    out.push_back(e.value);
    out.push_back(static_cast<double>(e.residuals.size()));
    out.insert(out.end(), e.residuals.begin(), e.residuals.end());
    put_text(out, e.failure);
  }
  return out;
}

}  // namespace

BatchObjective spread_over(core::Link& link, BatchObjective objective) {
  return [&link, objective = std::move(objective)](std::span<const Point> batch) {
    const std::size_t processes = link.size(), rank = link.rank();
    const auto share_start = [&](std::size_t r) { return batch.size() * r / processes; };
    const std::span<const Point> mine = batch.subspan(share_start(rank), share_start(rank + 1) - share_start(rank));

    std::vector<Evaluation> local;
    std::exception_ptr failure;
    std::string error;
    try {
      if (!mine.empty()) local = objective(mine);
      if (local.size() != mine.size())
        throw core::Error("spread objective: " + std::to_string(local.size()) + " evaluations for " +
                          std::to_string(mine.size()) + " points");
    } catch (const std::exception& e) {
      failure = std::current_exception();
      error = e.what();
    } catch (...) {
      failure = std::current_exception();
      error = "an unknown exception";
    }
    const std::vector<std::vector<double>> all = link.all_gather(encode(local, error, failure != nullptr));
    if (failure) std::rethrow_exception(failure);

    std::vector<Evaluation> evaluations;
    evaluations.reserve(batch.size());
    for (std::size_t r = 0; r < processes; ++r) {
      const std::vector<double>& message = all[r];
      std::size_t at = 1;
      if (message.at(0) != 0)
        throw core::Error("spread objective: the evaluation on process " + std::to_string(r) + " failed: " +
                          take_text(message, at));
      for (std::size_t k = share_start(r); k < share_start(r + 1); ++k) {
        Evaluation e;
        e.value = message.at(at++);
        e.residuals.resize(static_cast<std::size_t>(message.at(at++)));
        for (double& v : e.residuals) v = message.at(at++);
        e.failure = take_text(message, at);
        evaluations.push_back(std::move(e));
      }
    }
    return evaluations;
  };
}

}  // namespace hetflow::optim
