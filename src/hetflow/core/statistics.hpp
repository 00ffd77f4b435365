#pragma once
#include <vector>

namespace hetflow::core {

// Median and spread of repeated measurements: benchmarks report the median, never the best run alone.
struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
  int repeats = 0;
};

Summary summarize(std::vector<double> samples);

}  // namespace hetflow::core
