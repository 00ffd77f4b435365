// Radau5's checks of a batch: every malformed input throws core::Error naming the value.
#include <atomic>
#include <cmath>
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

void check_finite(const std::vector<double>& v, const char* name, std::size_t per_system) {
  std::atomic<std::size_t> first_bad{v.size()};  // the error names the first, as a serial scan would
  core::parallel_ranges(v.size(), parallel_grain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      if (!std::isfinite(v[i])) {
        std::size_t seen = first_bad.load();
        while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
        }
        return;
      }
  });
  if (const std::size_t i = first_bad.load(); i < v.size())
    throw core::Error(std::string("batch ") + name + " of system " + std::to_string(i / per_system) +
                        ", component " + std::to_string(i % per_system) + " = " + number_text(v[i]) +
                        ": expected a finite value");
}

void check_times(const Batch& b, std::size_t count) {
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

}  // namespace

std::size_t Radau5::checked_count(const Batch& batch) const {
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
  return count;
}

}  // namespace hetflow::ode
