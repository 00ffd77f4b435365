#pragma once
#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include "hetflow/mrag/block_flow.hpp"

namespace hetflow::mrag {

// The fronts of a shock–bubble interaction along the axis of symmetry, as a wave diagram of an experiment
// reads them (docs/mrag.md, Validation): a planar shock runs east (+x) through a gas and meets a disc of a
// second gas centred on the wall y = 0, which stands for the axis. The functions read a line of cells in
// the order of x, each cell's centre, size and primitive state, as BlockFlow::cells() gives them.

// The cells whose lower edge lies on the wall y = 0, in the order of x: the line nearest the axis. On an
// adapted grid their sizes differ, and each leaf along the wall gives one row of them.
std::vector<BlockFlow::Cell> centreline(const std::vector<BlockFlow::Cell>& cells);

// The east-running shock farthest east among the cells of `line` whose centres lie in [x_min, x_max]. A
// pair of neighbours whose western pressure exceeds the eastern one by more than `threshold` times the
// eastern one is part of a shock (an east-running shock has the higher pressure behind it, to the west);
// the easternmost run of such pairs is the shock. Its place is where the pressure, linear between
// centres, crosses the mean of the pressures at the two ends of the run: a captured shock is spread over
// a few cells, and the mid-value crossing moves smoothly with it instead of by whole cells. None where
// no pair qualifies.
std::optional<double> shock_front(const std::vector<BlockFlow::Cell>& line, double threshold,
                                  double x_min = -std::numeric_limits<double>::infinity(),
                                  double x_max = std::numeric_limits<double>::infinity());

// The volume fraction of the inner gas in a cell from its advected Γ = 1/(γ − 1): the one-fluid model
// mixes Γ linearly in the volume fractions, so α = (Γ − Γ_outer)/(Γ_inner − Γ_outer).
double inner_fraction(const BlockFlow::Cell& cell, double outer_big_gamma, double inner_big_gamma);

// Where the inner gas's volume fraction crosses 1/2 along `line`, linear between centres: the westernmost
// rise through 1/2 (the upstream interface, which a shock from the west meets first) and the easternmost
// fall (the downstream interface). None where no cell holds at least half inner gas.
struct Interfaces {
  double upstream = 0, downstream = 0;
};
std::optional<Interfaces> interfaces(const std::vector<BlockFlow::Cell>& line, double outer_big_gamma,
                                     double inner_big_gamma);

// The fronts of one line at one time. The lead shock is the farthest east: the incident shock before it
// meets the disc, the refracted shock while that runs ahead inside the disc, the transmitted shock once it
// has left. The refracted shock is the farthest east between the interfaces, so it is found only while
// it is inside the inner gas. Late on, the upstream interface is the tip of the jet of outer gas that
// drives into the disc along the axis.
struct Fronts {
  double time = 0;
  std::optional<double> lead_shock, refracted_shock, upstream, downstream;
};
Fronts fronts(const std::vector<BlockFlow::Cell>& line, double time, double threshold, double outer_big_gamma,
              double inner_big_gamma);

// The (time, x) points of one front over a series of samples, leaving out the samples that did not find
// it: `front` names the member of Fronts, e.g. &Fronts::upstream.
std::vector<std::array<double, 2>> track(const std::vector<Fronts>& samples, std::optional<double> Fronts::*front);

// The least-squares line x = intercept + slope t through the points of `points` (time, x) whose times lie in
// [t_begin, t_end]: the slope is the front's mean speed over that window. `rms` is the points' root mean
// square distance from the line, which shows whether the front moved steadily. Throws core::Error for
// fewer than two points in the window or a window whose points all share one time.
struct LineFit {
  double slope = 0, intercept = 0, rms = 0;
  double t_begin = 0, t_end = 0;
  std::size_t points = 0;
};
LineFit fit_line(const std::vector<std::array<double, 2>>& points, double t_begin, double t_end);

}  // namespace hetflow::mrag
