// Radau5's checks of a batch: every malformed input throws core::Error naming the value.
#include <atomic>
#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/core/parallel.hpp"
#include "hetflow/ode/radau5.hpp"
#include "hetflow/ode/radau5_buffers.hpp"

namespace hetflow::ode {
namespace {

using core::number_text;
using detail::parallel_grain;

// The first i < size for which bad(i) holds, or size; on all cores in ranges of `grain`. The errors
// name the first, as a serial scan would.
template <class Bad>
std::size_t first_bad(std::size_t size, std::size_t grain, const Bad& bad) {
  std::atomic<std::size_t> found{size};
  core::parallel_ranges(size, grain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      if (bad(i)) {
        std::size_t seen = found.load();
        while (i < seen && !found.compare_exchange_weak(seen, i)) {
        }
        return;
      }
  });
  return found.load();
}

void check_finite(std::span<const double> v, const char* name, std::size_t per_system) {
  if (const std::size_t i = first_bad(v.size(), parallel_grain, [&](std::size_t k) { return !std::isfinite(v[k]); });
      i < v.size())
    throw core::Error(std::string("batch ") + name + " of system " + std::to_string(i / per_system) +
                        ", component " + std::to_string(i % per_system) + " = " + number_text(v[i]) +
                        ": expected a finite value");
}

void check_times(BatchView b, std::size_t count) {
  for (const auto* list : {&b.t0, &b.t_end})
    if (list->size() != 1 && list->size() != count)
      throw core::Error(std::string("batch ") + (list == &b.t0 ? "t0" : "t_end") + " has " +
                        std::to_string(list->size()) + " values: expected 1 or one per system (" +
                        std::to_string(count) + ")");
  check_finite(b.t0, "t0", 1);
  check_finite(b.t_end, "t_end", 1);
  const bool shared = b.t0.size() == 1 && b.t_end.size() == 1;
  for (std::size_t s = 0; s < (shared ? 1 : count); ++s) {
    const double t0 = b.t0[b.t0.size() == 1 ? 0 : s], t1 = b.t_end[b.t_end.size() == 1 ? 0 : s];
    if (t0 == t1)
      throw core::Error("batch t_end = t0 = " + number_text(t0) + " for system " + std::to_string(s) +
                        ": expected an interval of non-zero length");
  }
}

// What is wrong with sample j of system s (Batch::samples), or nothing: a time outside the system's
// [t0, t_end], or before the sample ahead of it in the direction of integration.
std::string sample_problem(BatchView b, std::size_t s, std::size_t j, std::size_t per_system) {
  const std::size_t at = b.per_system_samples ? s * per_system + j : j;
  const double t = b.samples[at];
  const double t0 = b.t0[b.t0.size() == 1 ? 0 : s], t1 = b.t_end[b.t_end.size() == 1 ? 0 : s];
  const double direction = t1 > t0 ? 1.0 : -1.0;
  const auto name = [&] {
    return "batch samples[" + std::to_string(at) + "]" +
           (b.per_system_samples ? " (system " + std::to_string(s) + ", sample " + std::to_string(j) + ")" : "") +
           " = " + number_text(t);
  };
  if (!std::isfinite(t)) return name() + ": expected a finite time";
  if ((t - t0) * direction < 0.0 || (t1 - t) * direction < 0.0)
    return name() + ": expected a time within [t0, t_end] = [" + number_text(t0) + ", " + number_text(t1) +
           "] of system " + std::to_string(s);
  if (j > 0 && (t - b.samples[at - 1]) * direction < 0.0)
    return name() + " comes before samples[" + std::to_string(at - 1) + "] = " + number_text(b.samples[at - 1]) +
           ": expected the samples in the direction of integration, " +
           (direction > 0 ? "non-decreasing" : "non-increasing") + " from t0 = " + number_text(t0) +
           " to t_end = " + number_text(t1);
  return {};
}

// Batch::samples: one list for all systems, or one of the same length per system; every time within the
// system's interval and in the direction of integration.
void check_samples(BatchView b, std::size_t count) {
  if (b.per_system_samples && b.samples.size() % count != 0)
    throw core::Error("batch samples has " + std::to_string(b.samples.size()) +
                      " values with per_system_samples: expected the same number for each of the " +
                      std::to_string(count) + " systems");
  const std::size_t per_system = b.per_system_samples ? b.samples.size() / count : b.samples.size();
  if (per_system > std::numeric_limits<cl_uint>::max())
    throw core::Error("batch samples: " + std::to_string(per_system) + " per system: expected at most " +
                      std::to_string(std::numeric_limits<cl_uint>::max()));
  // A shared list against every system's interval only where the systems have intervals of their own.
  const bool shared = !b.per_system_samples && b.t0.size() == 1 && b.t_end.size() == 1;
  const std::size_t systems = shared ? 1 : count;
  const std::size_t i = first_bad(systems * per_system, parallel_grain, [&](std::size_t k) {
    return !sample_problem(b, k / per_system, k % per_system, per_system).empty();
  });
  if (i < systems * per_system) throw core::Error(sample_problem(b, i / per_system, i % per_system, per_system));
}

}  // namespace

std::size_t Radau5::checked_count(BatchView batch) const {
  const auto n = static_cast<std::size_t>(system_.n);
  if (batch.y0.empty() || batch.y0.size() % n != 0)
    throw core::Error("batch y0 has " + std::to_string(batch.y0.size()) + " values: expected a positive multiple of n = " +
                      std::to_string(n));
  const std::size_t count = batch.y0.size() / n;
  const std::size_t np = system_.parameters;
  if (batch.params.size() != count * np)
    throw core::Error("batch params has " + std::to_string(batch.params.size()) + " values: expected " +
                      std::to_string(np) + " per system x " + std::to_string(count) + " systems");
  check_finite(batch.y0, "y0", n);
  check_finite(batch.params, "params", std::max<std::size_t>(np, 1));
  check_times(batch, count);
  if (!batch.sort_key.empty() && batch.sort_key.size() != count)
    throw core::Error("batch sort_key has " + std::to_string(batch.sort_key.size()) + " values: expected none or " +
                      std::to_string(count) + " (one per system)");
  check_finite(batch.sort_key, "sort_key", 1);
  check_samples(batch, count);
  return count;
}

}  // namespace hetflow::ode
