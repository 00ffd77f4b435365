#pragma once
#include <filesystem>

#include "hetflow/app/case_type.hpp"
#include "hetflow/app/compressible/compressible_outputs.hpp"
#include "hetflow/app/compressible/compressible_setup.hpp"
#include "hetflow/mrag/block_flow.hpp"

namespace hetflow::app {

// When a compressible run steps, adapts and writes.
struct CompressibleSchedule {
  double end = 0;
  double cfl = 0.5;
  long every = 1000000;  // a snapshot every this many steps
  double interval = 0;   // > 0: also a snapshot at every multiple of this time, which steps end on
  long checkpoint_every = 0;
  CompressibleAdaptation adaptation;
};

// How the stepping went, for the manifest and the headline.
struct CompressibleRunSummary {
  long steps = 0;  // steps this run took
  double seconds = 0, output_seconds = 0;
  FlowMeasures first, last;  // the first and last snapshot's
};

// Steps a flow from its present state to the schedule's end or an interruption: the CFL step (shortened
// to end on output times), an adaptation every adaptation.every steps, a snapshot every `every` steps,
// at each interval and at the end, checkpoint.bin every checkpoint_every steps and at the end. Each step's
// state is checked (BlockFlow::stable_dt) before it is adapted or written, so a failing step stops the
// run with the solver's message, which names step, leaf and cell, and the files of the last good
// snapshot stay. Under MPI every rank steps and reads the flow's state alike, the ranks agree after each
// step whether to stop, and rank 0 alone, which has the outputs, writes.
class CompressibleStepping {
 public:
  CompressibleStepping(RunContext& context, mrag::BlockFlow& flow, const CompressibleGrid& grid,
                       const CompressibleSchedule& schedule, CompressibleOutputs* outputs);

  CompressibleRunSummary run();

 private:
  double next_dt(double stable) const;
  void snapshot();
  void checkpoint();

  RunContext& ctx_;
  mrag::BlockFlow& flow_;
  CompressibleGrid grid_;
  CompressibleSchedule schedule_;
  CompressibleOutputs* outputs_;  // rank 0's
  CompressibleRunSummary summary_;
  long last_snapshot_ = -1;
};

CompressibleSchedule compressible_schedule(const casefile::Case& c, const CompressibleSetup& setup);

}  // namespace hetflow::app
