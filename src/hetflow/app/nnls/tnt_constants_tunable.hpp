#pragma once
#include <string>

#include "hetflow/app/nnls/tnt_class.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/tune/database.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// The tunable's name (`hetflow tune nnls-constants`), which keys its database entries.
inline constexpr const char* tnt_constants_name = "nnls-constants";

// What a setting of rc and ec costs on a class. `time`: the wall clock of TNT on every problem of the
// class (the median of the measurement's repeats, summed), what a user waits for, on the device tuned.
// `work`: nnls::tnt_work summed over the problems, a count that repeats exactly and holds on every device.
enum class TntObjective { time, work };

// "time" / "work" → TntObjective; core::Error naming the value otherwise.
TntObjective parse_tnt_objective(const std::string& text);
const char* to_string(TntObjective objective);

// The database key of class `class_name`'s constants: for `device` when they were timed there, for
// tune::any_device when they were counted (`work`).
tune::Key tnt_constants_key(const core::DeviceInfo& device, const std::string& class_name, TntObjective objective);

// TNT's reduction constant rc in [0.05, 0.95] by 0.05 and expansion constant ec in [1.05, 1.95] by 0.15
// (the ranges of the thesis's case study, Myre 2013, Ch. 7; 19 x 7 settings, the defaults 0.2 and
// 1.2 among them), as ordered values so that annealing steps to the neighbouring constant. ec's grid is
// coarser because it matters far less: the thesis's sweeps (Ch. 5) moved TNT's inner iterations by
// about 5 over ec 1.1 .. 1.9 and by more than 80 over rc. Each setting runs TNT on every problem of the
// class on the first device; a problem it leaves unconverged fails the setting, so tuning never trades
// the answer for speed.
tune::Tunable tnt_constants_tunable(const core::DeviceSet& devices, const TntClass& problem_class,
                                    TntObjective objective, const tune::MeasureOptions& measure);

}  // namespace hetflow::app
