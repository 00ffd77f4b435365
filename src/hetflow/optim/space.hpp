#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/optim/evaluation.hpp"

namespace hetflow::optim {

// One dimension of a mixed search space (the autotuner's machine and algorithm parameters).
struct Parameter {
  enum class Kind { integer, real, categorical };

  std::string name;
  Kind kind = Kind::integer;
  double lower = 0;  // integer and real: the range [lower, upper]
  double upper = 0;
  // integer: the spacing of the values (lower, lower + step, … ≤ upper); real: 0 for a continuous
  // range, or a spacing that makes it a grid (then it can be enumerated).
  double step = 0;
  std::vector<std::string> choices;  // categorical; a point holds the index of its choice

  static Parameter integer(std::string name, long long lower, long long upper, long long step = 1);
  static Parameter real(std::string name, double lower, double upper, double step = 0);
  static Parameter categorical(std::string name, std::vector<std::string> choices);

  bool enumerable() const { return kind != Kind::real || step > 0; }
  // Number of values; 0 for a continuous range.
  std::size_t size() const;
  // The k-th value as a point coordinate (an enumerable parameter).
  double value(std::size_t k) const;
  // Whether v is one of its values (on the grid, inside the range).
  bool holds(double v) const;
};

// A mixed integer/real/categorical space, optionally restricted by a feasibility test (no device
// selected, more GPUs than present, …): infeasible points are never evaluated.
class Space {
 public:
  using Constraint = std::function<bool(const Point&)>;

  // core::Error naming the parameter for an empty name or range, a non-positive step or no choices.
  explicit Space(std::vector<Parameter> parameters, Constraint feasible = {});

  const std::vector<Parameter>& parameters() const { return parameters_; }
  std::size_t dimension() const { return parameters_.size(); }
  // Number of points, feasible or not; nothing if a parameter is continuous or the count overflows.
  std::optional<std::size_t> size() const;
  // The point of enumeration index k, the last parameter varying fastest.
  Point at(std::size_t k) const;
  bool contains(const Point& p) const;
  bool feasible(const Point& p) const { return !feasible_ || feasible_(p); }
  // "threads=256, algorithm=sweep, rc=0.2", for reports.
  std::string describe(const Point& p) const;

 private:
  std::vector<Parameter> parameters_;
  Constraint feasible_;
};

}  // namespace hetflow::optim
