#include "hetflow/app/chem/flamelet_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hetflow/app/csv_text.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/display/line_plot.hpp"
#include "hetflow/io/atomic_file.hpp"

namespace hetflow::app {
namespace {

std::string number(double v) { return core::number_text(v, 6); }

// The species species.png shows: those whose largest mass fraction over z reaches 1e-3, at most eight,
// the largest first.
std::vector<std::size_t> main_species(const chem::Mechanism& m, const std::vector<double>& state) {
  const std::size_t n = m.species.size() + 1;
  std::vector<std::pair<double, std::size_t>> peaks;
  for (std::size_t k = 0; k < m.species.size(); ++k) {
    double peak = 0.0;
    for (std::size_t j = 0; j * n < state.size(); ++j) peak = std::max(peak, state[j * n + k]);
    if (peak >= 1e-3) peaks.emplace_back(peak, k);
  }
  std::sort(peaks.begin(), peaks.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < peaks.size() && i < 8; ++i) out.push_back(peaks[i].second);
  return out;
}

void write_plots(RunDirectory& dir, const chem::Mechanism& m, const FlameletGridData& grid,
                 const std::vector<FlameletPoint>& points) {
  const std::size_t n = m.species.size() + 1;
  display::LinePlot temperature{"flamelet temperature", {"mixture fraction z", false}, {"T (K)", false}, {}};
  const FlameletPoint* first = nullptr;
  for (const FlameletPoint& p : points) {
    if (p.state.empty()) continue;
    if (!first) first = &p;
    display::PlotSeries s{"chi_st = " + number(p.chi_st) + " 1/s (" + p.status + ")", grid.z, {}, false};
    for (std::size_t j = 0; j < grid.z.size(); ++j) s.y.push_back(p.state[j * n + n - 1]);
    temperature.series.push_back(std::move(s));
  }
  if (!first) return;
  display::PlotSeries mixing{"mixing line", grid.z, {}, false};
  for (std::size_t j = 0; j < grid.z.size(); ++j) mixing.y.push_back(grid.mixing[j * n + n - 1]);
  temperature.series.push_back(std::move(mixing));
  display::write_line_plot_png(dir.file("temperature.png"), temperature, 800, 560);
  dir.add_output("temperature.png", "T(z), one curve per chi_st, and the mixing line");

  display::LinePlot species{
      "mass fractions at chi_st = " + number(first->chi_st) + " 1/s", {"mixture fraction z", false}, {"Y", false}, {}};
  for (const std::size_t k : main_species(m, first->state)) {
    display::PlotSeries s{m.species[k].name, grid.z, {}, false};
    for (std::size_t j = 0; j < grid.z.size(); ++j) s.y.push_back(first->state[j * n + k]);
    species.series.push_back(std::move(s));
  }
  display::write_line_plot_png(dir.file("species.png"), species, 800, 560);
  dir.add_output("species.png", "the main mass fractions (peak >= 1e-3) against z at the first chi_st");

  if (points.size() < 2) return;
  display::LinePlot curve{"S-curve", {"chi_st (1/s)", true}, {"T_max (K)", false}, {{"flamelet", {}, {}, true}}};
  for (const FlameletPoint& p : points) {
    curve.series[0].x.push_back(p.chi_st);
    curve.series[0].y.push_back(p.state.empty() ? std::numeric_limits<double>::quiet_NaN() : p.t_max);
  }
  display::write_line_plot_png(dir.file("scurve.png"), curve, 800, 560);
  dir.add_output("scurve.png", "the largest T against chi_st (log)");
}

}  // namespace

void write_flamelet_outputs(RunDirectory& dir, const chem::Mechanism& m, const FlameletGridData& grid,
                            const std::vector<FlameletPoint>& points, bool png) {
  const std::size_t n = m.species.size() + 1;
  std::string profiles = "chi_st_per_s,z,chi_per_s,T_K,T_mixing_K";
  for (const chem::Species& s : m.species) profiles += "," + csv_field("Y_" + s.name);
  profiles += "\n";
  for (const FlameletPoint& p : points) {
    // A rate that failed or was never reached has no profile: no row, never a number made up.
    if (p.state.empty()) continue;
    for (std::size_t j = 0; j < grid.z.size(); ++j) {
      profiles += exact_number(p.chi_st) + "," + exact_number(grid.z[j]) + "," + exact_number(p.chi[j]) + "," +
                  exact_number(p.state[j * n + n - 1]) + "," + exact_number(grid.mixing[j * n + n - 1]);
      for (std::size_t k = 0; k + 1 < n; ++k) {
        profiles += ',';
        profiles += exact_number(p.state[j * n + k]);
      }
      profiles += "\n";
    }
  }
  io::write_file_atomically(dir.file("flamelet.csv"), profiles);
  dir.add_output(
      "flamelet.csv",
      "per chi_st with a profile and node: chi_st, z, chi(z), T, T of the mixing line and every mass fraction");

  std::string curve = "chi_st_per_s,status,T_max_K,rise_K,steps,time_s,rate_per_s,reactor_steps,reason\n";
  for (const FlameletPoint& p : points) {
    const bool has = !p.state.empty();
    curve += exact_number(p.chi_st) + "," + p.status + "," + (has ? exact_number(p.t_max) : "") + "," +
             (has ? exact_number(p.rise) : "") + "," + std::to_string(p.steps) + "," + exact_number(p.time) + "," +
             (has ? exact_number(p.rate) : "") + "," + std::to_string(p.reactor_steps) + "," + csv_field(p.reason) +
             "\n";
  }
  io::write_file_atomically(dir.file("scurve.csv"), curve);
  dir.add_output("scurve.csv",
                 "per chi_st: status (steady, extinct, end_time, not_steady, failed, interrupted, not_run), T_max, "
                 "rise above the mixing line, split steps, time, last change rate, RADAU5 steps, reason");
  if (png) write_plots(dir, m, grid, points);
}

}  // namespace hetflow::app
