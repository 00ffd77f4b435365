#include "hetflow/app/compressible/compressible_case.hpp"

#include <cmath>
#include <iostream>
#include <optional>

#include "hetflow/app/compressible/compressible_checkpoint.hpp"
#include "hetflow/app/compressible/compressible_schema.hpp"
#include "hetflow/app/compressible/compressible_setup.hpp"
#include "hetflow/app/compressible/compressible_stepping.hpp"
#include "hetflow/casefile/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/core/partition.hpp"
#include "hetflow/io/error.hpp"

namespace hetflow::app {
namespace {

// The flow at its start: continued from initial.checkpoint, or the initial state sampled, the tree
// adapted to it and the state sampled again on the new tree, adaptation.initial_passes times
// (docs/mrag.md, Adaptation: predicted children carry no detail of their own). Each pass says on stderr
// how many leaves it left and how long it took, so that the set-up of a deep tree is not a silent wait.
std::optional<mrag::BlockFlow> start_flow(const casefile::Case& c, const CompressibleSetup& setup,
                                          const RunContext& ctx) {
  const CompressibleGrid& g = setup.grid;
  // Several devices share the leaves by their measured copy bandwidth, several processes equally
  // (docs/mrag.md, Several devices).
  const std::vector<double> weights = ctx.devices.size() == 1
                                          ? std::vector<double>{1}
                                          : core::distribution_weights(core::Distribution::bandwidth, ctx.devices);
  core::Link* processes = ctx.ranks.size() > 1 ? ctx.ranks.link() : nullptr;
  if (setup.local_steps > 0 && (weights.size() > 1 || processes))
    throw casefile::CaseError(c.where("scheme.local_steps") + ": scheme.local_steps = " +
                              std::to_string(setup.local_steps) + " runs on one device, and this run has " +
                              std::to_string(processes ? ctx.ranks.size() : weights.size()) +
                              (processes ? " processes" : " devices") + ": select one, or set it to 0");
  std::optional<mrag::BlockFlow> flow;
  const auto make = [&](const mrag::BlockTree& tree) {
    flow.emplace(ctx.devices, tree, g.block_size, setup.sides, g.root_size, setup.scheme, setup.precision,
                 setup.spatial, weights, processes);
    flow->local_time_steps(setup.local_steps);
  };
  const std::string checkpoint = c.get<std::string>("initial.checkpoint");
  if (!checkpoint.empty()) {
    // Every rank reads the file, and none goes on to the flow's collective calls unless all could.
    const CompressibleCheckpoint saved = ctx.ranks.make_together([&] {
      try {
        return read_checkpoint(checkpoint, g);
      } catch (const io::IoError& e) {
        throw casefile::CaseError(c.where("initial.checkpoint") +
                                  ": initial.checkpoint = " + c.path_text("initial.checkpoint") + ": " + e.what());
      }
    });
    make(saved.tree());
    flow->load(saved.conserved, saved.time, saved.steps);
    return flow;
  }
  make(mrag::BlockTree(g.roots_x, g.roots_y, g.max_level));
  const auto initial = [&](double x, double y) { return setup.initial(x, y); };
  const bool say = ctx.verbosity != display::Verbosity::quiet;
  const core::WallTimer timer;
  flow->set(initial);
  for (int pass = 0; pass < setup.adaptation.initial_passes; ++pass) {
    flow->adapt(setup.adaptation.eps_refine, setup.adaptation.eps_compress);
    flow->set(initial);
    if (say)
      std::cerr << "compressible: initial state, adaptation " << pass + 1 << " of " << setup.adaptation.initial_passes
                << ": " << flow->tree().leaves().size() << " leaves, " << core::number_text(timer.seconds(), 2)
                << " s\n";
  }
  return flow;
}

std::string headline(const CompressibleRunSummary& s, const CompressibleGrid& g) {
  using core::number_text;
  const FlowMeasures& m = s.last;
  const double finest = static_cast<double>(g.finest_cells_x()) * static_cast<double>(g.finest_cells_y());
  std::string text = "compressible: t = " + number_text(m.time, 6) + " after " + std::to_string(s.steps) + " steps, " +
                     std::to_string(m.leaves) + " leaves (" + std::to_string(m.cells) + " cells, " +
                     number_text(static_cast<double>(m.cells) / finest, 3) + " of the finest grid's), mass change " +
                     number_text((m.mass - s.first.mass) / s.first.mass, 3);
  if (!std::isnan(m.shock_x)) text += ", shock at x = " + number_text(m.shock_x, 5);
  if (!std::isnan(m.interface_x_min))
    text +=
        ", tracked material over x = " + number_text(m.interface_x_min, 5) + " .. " + number_text(m.interface_x_max, 5);
  return text;
}

}  // namespace

casefile::Schema CompressibleCase::schema() const {
  casefile::Schema s("compressible",
                     "2D compressible two-phase flow (stiffened gases) on a wavelet-adapted "
                     "quadtree of blocks: WENO5, HLLE, SSP Runge-Kutta (docs/compressible.md)");
  declare_compressible(s);
  return s;
}

void CompressibleCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  check_compressible_case(c, problems);
  throw_problems(c, std::move(problems));
}

RunOutcome CompressibleCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  // Every device holds block data of the whole grid (docs/mrag.md, Several devices).
  std::vector<std::string> labels;
  for (std::size_t k = 0; k < ctx.devices.size(); ++k) {
    const core::Device& device = ctx.devices.device(k);
    check_grid_fits(c, device.info.global_mem, device.label());
    labels.push_back(device.label());
  }
  const CompressibleSetup setup = compressible_setup(c);
  dir.manifest()["solver"] = {
      {"devices", labels},
      {"finest_cells", {setup.grid.finest_cells_x(), setup.grid.finest_cells_y()}},
      {"finest_grid_bytes", setup.grid.finest_bytes(setup.precision == core::Precision::f32 ? 4 : 8)}};

  const core::WallTimer setup_timer;
  std::optional<mrag::BlockFlow> flow = start_flow(c, setup, ctx);
  dir.add_timing("setup", setup_timer.seconds());
  // Rank 0 alone writes; the others take part in the flow's reads.
  std::optional<CompressibleOutputs> outputs;
  ctx.ranks.together([&] {
    if (ctx.ranks.root()) outputs.emplace(dir, compressible_output_options(c));
  });
  dir.add_output("checkpoint.bin", "the last state, to continue from with initial.checkpoint");

  CompressibleStepping stepping(ctx, *flow, setup.grid, compressible_schedule(c, setup), outputs ? &*outputs : nullptr);
  const CompressibleRunSummary s = stepping.run();
  const FlowMeasures& m = s.last;
  dir.manifest()["result"] = {{"steps", s.steps},
                              {"time", m.time},
                              {"leaves", m.leaves},
                              {"cells", m.cells},
                              {"mass", m.mass},
                              {"mass_change", (m.mass - s.first.mass) / s.first.mass},
                              {"energy", m.energy},
                              {"min_p", m.min_p},
                              {"shock_x", m.shock_x},
                              {"interface_x_min", m.interface_x_min},
                              {"interface_x_max", m.interface_x_max}};
  print_headline(ctx, headline(s, setup.grid));
  dir.add_timing("stepping", s.seconds - s.output_seconds);
  dir.add_timing("output", s.output_seconds);
  dir.add_timing("total", total.seconds());
  return flow->time() >= setup.end ? RunOutcome::complete : RunOutcome::interrupted;
}

}  // namespace hetflow::app
