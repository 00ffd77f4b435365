#include "hetflow/mrag/front_tracks.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::mrag {

namespace {

// The x where the linear interpolant between the centres of cells a and b takes `level`, for values va, vb
// on either side of it.
double crossing(const BlockFlow::Cell& a, const BlockFlow::Cell& b, double va, double vb, double level) {
  return a.x + (level - va) / (vb - va) * (b.x - a.x);
}

}  // namespace

std::vector<BlockFlow::Cell> centreline(const std::vector<BlockFlow::Cell>& cells) {
  std::vector<BlockFlow::Cell> line;
  // A relative tolerance: the centres come from sums of block origins and cell offsets.
  for (const BlockFlow::Cell& c : cells)
    if (std::abs(c.y - c.h / 2) <= 1e-9 * c.h) line.push_back(c);
  std::sort(line.begin(), line.end(), [](const BlockFlow::Cell& a, const BlockFlow::Cell& b) { return a.x < b.x; });
  return line;
}

std::optional<double> shock_front(const std::vector<BlockFlow::Cell>& line, double threshold, double x_min,
                                  double x_max) {
  std::vector<BlockFlow::Cell> cells;
  for (const BlockFlow::Cell& c : line)
    if (c.x >= x_min && c.x <= x_max) cells.push_back(c);
  const auto p = [&](std::size_t k) { return cells[k].state.p; };
  const auto falls = [&](std::size_t a, std::size_t b) { return p(a) - p(b) > threshold * p(b); };
  for (std::size_t k = cells.size(); k-- > 1;) {
    if (!falls(k - 1, k)) continue;
    // The smeared shock is the run of neighbouring pairs that each fall by more than the threshold: a
    // gentler slope behind or ahead of it (a rarefaction, a compression wave) is not part of the jump.
    std::size_t behind = k - 1;
    while (behind > 0 && falls(behind - 1, behind)) --behind;
    const double mid = (p(behind) + p(k)) / 2;
    std::size_t j = behind;
    while (p(j + 1) >= mid) ++j;  // stops at k − 1 at the latest: every pair of the run falls
    return crossing(cells[j], cells[j + 1], p(j), p(j + 1), mid);
  }
  return std::nullopt;
}

double inner_fraction(const BlockFlow::Cell& cell, double outer_big_gamma, double inner_big_gamma) {
  return (cell.state.big_gamma - outer_big_gamma) / (inner_big_gamma - outer_big_gamma);
}

std::optional<Interfaces> interfaces(const std::vector<BlockFlow::Cell>& line, double outer_big_gamma,
                                     double inner_big_gamma) {
  const auto alpha = [&](std::size_t k) { return inner_fraction(line[k], outer_big_gamma, inner_big_gamma); };
  std::optional<std::size_t> first, last;
  for (std::size_t k = 0; k < line.size(); ++k) {
    if (alpha(k) < 0.5) continue;
    if (!first) first = k;
    last = k;
  }
  if (!first) return std::nullopt;
  // A disc reaching the line's end has its interface there: no crossing lies beyond the last centre.
  Interfaces i{line[*first].x, line[*last].x};
  if (*first > 0) i.upstream = crossing(line[*first - 1], line[*first], alpha(*first - 1), alpha(*first), 0.5);
  if (*last + 1 < line.size())
    i.downstream = crossing(line[*last], line[*last + 1], alpha(*last), alpha(*last + 1), 0.5);
  return i;
}

Fronts fronts(const std::vector<BlockFlow::Cell>& line, double time, double threshold, double outer_big_gamma,
              double inner_big_gamma) {
  Fronts f;
  f.time = time;
  f.lead_shock = shock_front(line, threshold);
  if (const std::optional<Interfaces> i = interfaces(line, outer_big_gamma, inner_big_gamma)) {
    f.upstream = i->upstream;
    f.downstream = i->downstream;
    f.refracted_shock = shock_front(line, threshold, i->upstream, i->downstream);
  }
  return f;
}

std::vector<std::array<double, 2>> track(const std::vector<Fronts>& samples, std::optional<double> Fronts::*front) {
  std::vector<std::array<double, 2>> points;
  for (const Fronts& f : samples)
    if (const std::optional<double>& x = f.*front) points.push_back({f.time, *x});
  return points;
}

LineFit fit_line(const std::vector<std::array<double, 2>>& points, double t_begin, double t_end) {
  std::vector<std::array<double, 2>> window;
  for (const std::array<double, 2>& point : points)
    if (point[0] >= t_begin && point[0] <= t_end) window.push_back(point);
  std::string where = "fit_line over [";
  where += core::number_text(t_begin, 6) + ", " + core::number_text(t_end, 6) + "]: ";
  if (window.size() < 2) throw core::Error(where + std::to_string(window.size()) + " point(s), at least 2 needed");
  const double n = static_cast<double>(window.size());
  double t_mean = 0, x_mean = 0;
  for (const auto& [t, x] : window) {
    t_mean += t / n;
    x_mean += x / n;
  }
  // Sums about the means: the times may sit far from zero, where the raw sums would cancel.
  double stt = 0, stx = 0;
  for (const auto& [t, x] : window) {
    stt += (t - t_mean) * (t - t_mean);
    stx += (t - t_mean) * (x - x_mean);
  }
  if (stt == 0) throw core::Error(where + "every point has the same time");
  LineFit fit;
  fit.slope = stx / stt;
  fit.intercept = x_mean - fit.slope * t_mean;
  fit.t_begin = t_begin;
  fit.t_end = t_end;
  fit.points = window.size();
  double squares = 0;
  for (const auto& [t, x] : window) squares += std::pow(x - fit.intercept - fit.slope * t, 2);
  fit.rms = std::sqrt(squares / n);
  return fit;
}

}  // namespace hetflow::mrag
