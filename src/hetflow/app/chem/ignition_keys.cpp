#include "hetflow/app/chem/ignition_keys.hpp"

#include "hetflow/app/chem/chem_case_setup.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::app {

void declare_ignition_keys(casefile::Section& g) {
  g.key<std::string>("criterion", "temperature_rise",
                     "temperature_rise: first time T = T0 + rise; max_slope: "
                     "time of the largest dT/dt (a system must still reach T0 + rise)")
      .one_of({"temperature_rise", "max_slope"});
  g.key<double>("rise", 400.0, "temperature rise that marks ignition").above(0).unit("K");
  g.key<double>("end_time", 0.1, "integration end; a system below T0 + rise then has not ignited").above(0).unit("s");
  g.key<double>("first_sample", 1e-7, "first sample time after 0").above(0).unit("s");
  g.key<int>("samples_per_decade", 20, "sample grid density (geometric from first_sample to end_time)").range(1, 1000);
  g.key<int>("refinements", 3, "bracket refinement levels").range(0, 20);
  g.key<int>("candidates", 15, "sample times per refinement level inside the bracket").range(1, 1000);
  declare_reactor_key(g);
}

void check_ignition_keys(const casefile::Case& c, std::vector<std::string>& problems) {
  if (c.get<double>("ignition.first_sample") >= c.get<double>("ignition.end_time"))
    problems.push_back(c.where("ignition.first_sample") +
                       ": ignition.first_sample = " + core::number_text(c.get<double>("ignition.first_sample"), 6) +
                       " is not below ignition.end_time = " + core::number_text(c.get<double>("ignition.end_time"), 6));
}

IgnitionSettings ignition_settings(const casefile::Case& c) {
  IgnitionSettings s;
  s.criterion = c.get<std::string>("ignition.criterion") == "max_slope" ? IgnitionCriterion::max_slope
                                                                        : IgnitionCriterion::temperature_rise;
  s.rise = c.get<double>("ignition.rise");
  s.end_time = c.get<double>("ignition.end_time");
  s.first_sample = c.get<double>("ignition.first_sample");
  s.samples_per_decade = c.get<int>("ignition.samples_per_decade");
  s.refinements = c.get<int>("ignition.refinements");
  s.candidates = c.get<int>("ignition.candidates");
  return s;
}

}  // namespace hetflow::app
