#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetflow/chem/chemkin_reader.hpp"
#include "hetflow/chem/mechanism_error.hpp"
#include "hetflow/chem/yaml_mechanism.hpp"

namespace hetflow::chem::test {

inline const std::filesystem::path test_data = std::filesystem::path(__FILE__).parent_path() / "data";
inline const std::filesystem::path mechanisms =
    std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "data" / "mechanisms";

inline Mechanism gri30_yaml() { return read_yaml_mechanism(mechanisms / "gri30.yaml"); }
inline Mechanism gri30_chemkin() { return read_chemkin(mechanisms / "gri30.inp", mechanisms / "gri30_thermo.dat"); }
// The mechanisms above 100 species (data/mechanisms/README.md): n-dodecane (Wang, Ra, Jia & Reitz; 100
// species, so n = 101) in its ideal-gas phase, and n-hexane (NUIG; 1268 species).
inline Mechanism dodecane_reitz() { return read_yaml_mechanism(mechanisms / "nDodecane_Reitz.yaml", "nDodecane_IG"); }
inline Mechanism hexane_nuig() { return read_yaml_mechanism(mechanisms / "n-hexane-NUIG-2015.yaml"); }

// The GRI 3.0 thermo file as text, for small mechanisms parsed from strings in the tests.
inline const std::string& gri_thermo() {
  static const std::string text = [] {
    std::ifstream in(mechanisms / "gri30_thermo.dat");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  return text;
}

inline nlohmann::json reference(const std::string& name) {
  std::ifstream in(test_data / (name + "_reference.json"));
  return nlohmann::json::parse(in);
}

// Per-species values of a reference table (in its `names` order) rearranged into the mechanism's order.
inline std::vector<double> in_mechanism_order(const Mechanism& m, const std::vector<std::string>& names,
                                              const std::vector<double>& values) {
  std::vector<double> out(m.species.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int k = m.species_index(names[i]);
    EXPECT_GE(k, 0) << names[i];
    if (k >= 0) out[static_cast<std::size_t>(k)] = values[i];
  }
  return out;
}

// Largest |x| of a list, for absolute floors on entries that cancel to near zero.
inline double largest(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// Every entry within rtol relative, or within `floor` absolute where the reference is that small.
// Returns the worst relative error among entries above the floor, which the tests print.
inline double expect_close(const std::string& what, const std::vector<double>& got, const std::vector<double>& want,
                           double rtol, double floor = 0.0) {
  EXPECT_EQ(got.size(), want.size()) << what;
  double worst = 0.0;
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    const double err = std::abs(got[i] - want[i]);
    if (std::abs(want[i]) > floor) worst = std::max(worst, err / std::abs(want[i]));
    EXPECT_LE(err, std::max(rtol * std::abs(want[i]), floor)) << what << "[" << i << "]: " << got[i] << " vs " << want[i];
  }
  return worst;
}

// Runs `read` and checks it throws MechanismError naming `file` (by its file name), `line` and the problem.
template <class Read>
void expect_error(Read read, const std::string& file, int line, const std::string& problem) {
  try {
    read();
    ADD_FAILURE() << "no error; expected " << problem;
  } catch (const MechanismError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(file + ":" + std::to_string(line) + ": "), std::string::npos) << what;
    EXPECT_EQ(e.line(), line) << what;
    EXPECT_NE(what.find(problem), std::string::npos) << what;
  }
}

}  // namespace hetflow::chem::test
