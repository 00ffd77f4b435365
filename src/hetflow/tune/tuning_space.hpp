#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "hetflow/optim/space.hpp"

namespace hetflow::tune {

// A configuration by parameter name, each value as text ("256", "aa", "0.2"): what the database stores
// and what a solver reads back, independent of how the search numbered the values.
using Setting = std::map<std::string, std::string>;

// One tuning parameter. Work-group sizes, device counts and grid extents are `ordered`: the search
// steps to a neighbouring value (128 → 256), which is what makes annealing beat random sampling on
// them. Kernel variants and patterns are `choice`s with no order. Numerical constants are `real`s.
struct Dimension {
  enum class Kind { ordered, choice, real };
  std::string name;
  Kind kind = Kind::ordered;
  std::vector<std::string> values;  // ordered and choice
  double lower = 0, upper = 0, step = 0;  // real (step 0: continuous)

  static Dimension ordered(std::string name, std::vector<std::string> values);
  static Dimension choice(std::string name, std::vector<std::string> values);
  static Dimension real(std::string name, double lower, double upper, double step = 0);
};

// The powers of two from `lowest` to `highest` (inclusive), as ordered values: the usual work-group sizes.
std::vector<std::string> powers_of_two(std::size_t lowest, std::size_t highest);

// A tuning space over an optim::Space: ordered dimensions become integer indices into their values,
// choices categorical parameters, reals real ones; Settings translate to and from the Space's points.
class TuningSpace {
 public:
  using Constraint = std::function<bool(const Setting&)>;

  // core::Error for an empty dimension or a repeated name (as optim::Space).
  explicit TuningSpace(std::vector<Dimension> dimensions, Constraint feasible = {});

  const optim::Space& space() const { return space_; }
  const std::vector<Dimension>& dimensions() const { return dimensions_; }
  Setting setting(const optim::Point& point) const;
  // core::Error naming the parameter if `setting` lacks one or holds a value outside the space.
  optim::Point point(const Setting& setting) const;
  bool feasible(const Setting& setting) const { return !feasible_ || feasible_(setting); }
  // The feasible settings one step from `setting` in one dimension: the next value either way of an
  // ordered one or a gridded real, every other value of a choice (a continuous real has none).
  std::vector<Setting> neighbours(const Setting& setting) const;
  // Feasible points, or 0 when a dimension is continuous.
  std::size_t feasible_size() const;

 private:
  std::vector<Dimension> dimensions_;
  Constraint feasible_;
  optim::Space space_;
};

// "work_group=128, pattern=aa", for reports.
std::string describe(const Setting& setting);

}  // namespace hetflow::tune
