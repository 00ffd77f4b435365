#include "hetflow/app/compressible/compressible_stepping.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hetflow/app/compressible/compressible_checkpoint.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/io/interrupt.hpp"

namespace hetflow::app {
namespace {

// The progress bar counts thousandths (‰) of the simulated time still to run: the CFL step does not
// know the number of steps in advance.
constexpr long kProgressTicks = 1000;
// Steps end within this fraction of a step of an output time or the end, rather than leave a sliver.
constexpr double kTimeSlack = 1e-9;
// Adaptations that took longer than this (the bar's redraw interval) are announced on the bar.
constexpr double kShownAdaptation = 0.1;

}  // namespace

CompressibleSchedule compressible_schedule(const casefile::Case& c, const CompressibleSetup& setup) {
  return {setup.end,
          setup.cfl,
          c.get<long>("output.every"),
          c.get<double>("output.interval"),
          c.get<long>("output.checkpoint_every"),
          setup.adaptation};
}

CompressibleStepping::CompressibleStepping(RunContext& context, mrag::BlockFlow& flow, const CompressibleGrid& grid,
                                           const CompressibleSchedule& schedule, CompressibleOutputs* outputs)
    : ctx_(context), flow_(flow), grid_(grid), schedule_(schedule), outputs_(outputs) {}

double CompressibleStepping::next_dt(double stable) const {
  const double t = flow_.time();
  double stop = schedule_.end;
  if (schedule_.interval > 0)
    stop = std::min(stop, (std::floor(t / schedule_.interval * (1 + kTimeSlack)) + 1) * schedule_.interval);
  return t + stable * (1 + kTimeSlack) >= stop ? stop - t : stable;
}

void CompressibleStepping::snapshot() {
  const core::WallTimer timer;
  const bool first = last_snapshot_ < 0;
  last_snapshot_ = flow_.steps();
  const FlowSnapshot snapshot = flow_snapshot(flow_);
  if (outputs_) summary_.last = outputs_->write(snapshot);
  if (first) summary_.first = summary_.last;
  summary_.output_seconds += timer.seconds();
}

void CompressibleStepping::checkpoint() {
  const core::WallTimer timer;
  const CompressibleCheckpoint state = checkpoint_of(flow_, grid_);
  if (outputs_) write_checkpoint(ctx_.directory.file("checkpoint.bin"), state);
  summary_.output_seconds += timer.seconds();
}

CompressibleRunSummary CompressibleStepping::run() {
  const core::WallTimer total;
  const double start = flow_.time();
  const double span = std::max(schedule_.end - start, 1e-300);
  display::Progress progress(kProgressTicks, "compressible", ctx_.verbosity);
  progress.count("‰");
  const CompressibleAdaptation& a = schedule_.adaptation;
  // An adaptation is decided after every a.every-th step and carried out by the step after it
  // (BlockFlow::adapt_with_next_step), so that the device steps while the host plans the new tree.
  const auto adapts_after = [&](long step) { return a.every > 0 && step > 0 && step % a.every == 0; };
  double adapt_seconds = 0;  // the last step that carried out an adaptation, with it
  try {
    double stable = flow_.stable_dt(schedule_.cfl);
    // A run resumed after such a step decides again, from the same state, the adaptation it left pending.
    if (adapts_after(flow_.steps())) flow_.adapt_with_next_step(a.eps_refine, a.eps_compress);
    snapshot();
    bool interrupted = io::interrupted();
    while (flow_.time() < schedule_.end && !interrupted) {
      const long step = flow_.steps() + 1;
      const bool adapting = adapts_after(step - 1);
      // An adaptation of a large tree takes longer than a redraw of the bar: say so while it runs.
      if (adapting && adapt_seconds > kShownAdaptation) progress.activity("adapting the grid");
      interrupted = ctx_.ranks
                        .together([&] {
                          const core::WallTimer timer;
                          flow_.step(next_dt(stable));
                          stable = flow_.stable_dt(schedule_.cfl);
                          if (adapting) adapt_seconds = timer.seconds();
                          if (adapts_after(step)) flow_.adapt_with_next_step(a.eps_refine, a.eps_compress);
                        })
                        .interrupted;
      ++summary_.steps;
      const double t = flow_.time();
      const bool at_interval =
          schedule_.interval > 0 && std::abs(t / schedule_.interval - std::round(t / schedule_.interval)) < kTimeSlack;
      if (step % schedule_.every == 0 || at_interval) snapshot();
      if (schedule_.checkpoint_every > 0 && step % schedule_.checkpoint_every == 0) checkpoint();
      progress.update(static_cast<long>(std::floor(kProgressTicks * (t - start) / span)));
    }
  } catch (const core::Error& e) {
    progress.finish();
    if (outputs_) outputs_->close();
    const std::string kept = last_snapshot_ < 0 ? "nothing was written"
                                                : "the snapshot of step " + std::to_string(last_snapshot_) +
                                                      " (t = " + core::number_text(summary_.last.time, 6) +
                                                      ") and those before it are kept";
    throw core::Error("compressible: " + std::string(e.what()) + "; " + kept);
  }
  if (last_snapshot_ != flow_.steps()) snapshot();
  checkpoint();
  if (outputs_) outputs_->close();
  progress.finish();
  summary_.seconds = total.seconds();
  return summary_;
}

}  // namespace hetflow::app
