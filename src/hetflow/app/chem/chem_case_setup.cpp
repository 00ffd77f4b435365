#include "hetflow/app/chem/chem_case_setup.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

#include "hetflow/app/csv_text.hpp"
#include "hetflow/chem/mechanism_file.hpp"
#include "hetflow/chem/thermo.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/casefile/error.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t");
  const auto b = s.find_last_not_of(" \t");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// Oxygen atoms needed (> 0) or supplied (< 0) per molecule burnt to CO2 and H2O: 2C + H/2 - O.
double oxygen_demand(const chem::Mechanism& m, const Composition& mixture) {
  double total = 0, amount = 0;
  for (const auto& [name, x] : mixture) {
    const chem::Species& s = m.species[static_cast<std::size_t>(m.species_index(name))];
    double d = 0;
    for (const auto& [e, atoms] : s.composition) {
      const std::string& symbol = m.elements[static_cast<std::size_t>(e)].symbol;
      if (symbol == "C") d += 2 * atoms;
      else if (symbol == "H") d += atoms / 2;
      else if (symbol == "O") d -= atoms;
    }
    total += x * d;
    amount += x;
  }
  return total / amount;
}

}  // namespace

void declare_mechanism_keys(casefile::Schema& s) {
  auto& m = s.section("mechanism", "the reaction mechanism");
  m.key<std::string>("file", "a Cantera .yaml or Chemkin .inp mechanism").path();
  m.key<std::string>("thermo", "", "Chemkin only: a separate thermo file for species the mechanism's THERMO lacks")
      .path();
  m.key<std::string>("phase", "", "Cantera YAML only: the phase to read (an ideal-gas one); empty: the first");
}

void declare_mixture_keys(casefile::Section& m) {
  m.key<std::string>("fuel", "CH4:1", "fuel mole amounts, \"species:amount, ...\" (normalised)");
  m.key<std::string>("oxidizer", "O2:1, N2:3.76", "oxidizer mole amounts, \"species:amount, ...\" (normalised)");
}

void declare_solver_keys(casefile::Schema& s) {
  auto& o = s.section("solver", "ode::Radau5 options (docs/ode.md)");
  o.key<double>("rtol", 1e-8, "relative tolerance").above(0).below(1);
  o.key<double>("atol", 1e-14, "absolute tolerance (mass fractions and T)").above(0);
  o.key<long>("max_steps", 100000, "most steps per integration; a system that needs more fails").at_least(1);
  o.key<double>("h0", 1e-10, "first step of every integration").above(0).unit("s");
  o.key<std::string>("jacobian", "automatic",
                     "the reactor's Jacobian: analytic (generated jac()), finite_difference (Radau5's own) or "
                     "automatic (the analytic one)")
      .one_of({"automatic", "analytic", "finite_difference"});
  o.key<double>("thet", 0.001,
                "RADAU5's WORK(3): J is kept while the Newton contraction stays below it; Hairer & Wanner advise "
                "0.1 where J is costly; < 0: a new J every step")
      .below(1);
  o.key<double>("fnewt", 0.0,
                "RADAU5's WORK(4), the Newton iteration's stopping tolerance; 0: its default "
                "max(10 uround / rtol', min(0.03, rtol'^0.5)), rtol' = 0.1 rtol^(2/3)")
      .at_least(0);
  o.key<double>("quot1", 1.0, "RADAU5's WORK(5): h, J and the factors are kept while quot1 <= h_new / h <= quot2")
      .above(0)
      .at_most(1);
  o.key<double>("quot2", 1.2, "RADAU5's WORK(6), the upper end of that interval").at_least(1);
}

std::shared_ptr<const chem::Mechanism> case_mechanism(const casefile::Case& c, std::vector<std::string>& problems) {
  static std::map<std::pair<std::string, std::string>, std::shared_ptr<const chem::Mechanism>> cache;
  const fs::path path = c.get<std::string>("mechanism.file");
  const fs::path thermo_path = c.get<std::string>("mechanism.thermo");
  const std::string phase = c.get<std::string>("mechanism.phase");
  const auto key = std::pair{path.string(), thermo_path.string() + "\n" + phase};
  if (const auto hit = cache.find(key); hit != cache.end()) return hit->second;
  for (const auto& [p, k] : {std::pair{path, "mechanism.file"}, std::pair{thermo_path, "mechanism.thermo"}}) {
    if (!p.empty() && !fs::is_regular_file(p)) {
      problems.push_back(c.missing_file(k));
      return nullptr;
    }
  }
  try {
    const std::string ext = path.extension().string();
    const bool yaml = ext == ".yaml" || ext == ".yml";
    if (!yaml && !phase.empty()) {
      problems.push_back(c.where("mechanism.phase") + ": mechanism.phase = " + phase +
                         ": a Chemkin mechanism has no phases (only Cantera YAML files do)");
      return nullptr;
    }
    auto m = std::make_shared<const chem::Mechanism>(chem::read_mechanism(path, thermo_path, phase));
    cache[key] = m;
    return m;
  } catch (const std::exception& e) {
    problems.push_back(c.where("mechanism.file") + ": mechanism.file: " + e.what());
    return nullptr;
  }
}

Composition case_composition(const casefile::Case& c, const std::string& key, const chem::Mechanism* mechanism,
                             std::vector<std::string>& problems) {
  Composition out;
  std::stringstream items(c.get<std::string>(key));
  std::string item;
  const auto bad = [&](const std::string& why) { problems.push_back(c.where(key) + ": " + key + ": " + why); };
  while (std::getline(items, item, ',')) {
    const auto colon = item.find(':');
    const std::string name = trim(item.substr(0, colon));
    const std::string amount = colon == std::string::npos ? "" : trim(item.substr(colon + 1));
    double x = 0;
    const auto [end, ec] = std::from_chars(amount.data(), amount.data() + amount.size(), x);
    if (name.empty() || ec != std::errc() || end != amount.data() + amount.size()) {
      bad("'" + trim(item) + "' is not species:amount (expected e.g. \"O2:1, N2:3.76\")");
    } else if (!(x > 0) || !std::isfinite(x)) {
      bad("the amount of " + name + " is " + amount + ": expected a number > 0");
    } else if (mechanism && mechanism->species_index(name) < 0) {
      bad("unknown species '" + name + "': the mechanism has no species of that name");
    } else {
      out.emplace_back(name, x);
    }
  }
  if (out.empty() && problems.empty()) bad("no species given");
  return out;
}

CaseMixture case_mixture(const casefile::Case& c, std::vector<std::string>& problems) {
  CaseMixture m;
  m.mechanism = case_mechanism(c, problems);
  m.fuel = case_composition(c, "mixture.fuel", m.mechanism.get(), problems);
  m.oxidizer = case_composition(c, "mixture.oxidizer", m.mechanism.get(), problems);
  return m;
}

CaseMixture check_sweep_mixture(const casefile::Case& c, std::initializer_list<const char*> lists,
                                std::vector<std::string>& problems) {
  CaseMixture mixture = case_mixture(c, problems);
  for (const char* key : lists)
    if (c.get<std::vector<double>>(key).empty())
      problems.push_back(c.where(key) + ": " + key + " is empty: expected at least one value");
  if (mixture.mechanism && problems.empty()) {
    try {
      mixture_mole_fractions(*mixture.mechanism, mixture.fuel, mixture.oxidizer, 1.0);
    } catch (const std::exception& e) {
      problems.push_back(c.where("mixture.oxidizer") + ": mixture: " + e.what());
    }
  }
  return mixture;
}

std::vector<double> composition_mole_fractions(const chem::Mechanism& m, const Composition& mixture, double share) {
  std::vector<double> x(m.species.size(), 0.0);
  double total = 0;
  for (const auto& [name, amount] : mixture) total += amount;
  for (const auto& [name, amount] : mixture)
    x[static_cast<std::size_t>(m.species_index(name))] += share * amount / total;
  return x;
}

std::vector<double> mixture_mole_fractions(const chem::Mechanism& m, const Composition& fuel,
                                           const Composition& oxidizer, double phi) {
  const double need = oxygen_demand(m, fuel), supply = -oxygen_demand(m, oxidizer);
  if (!(need > 0)) throw core::Error("the fuel needs no oxygen to burn: no equivalence ratio can be set");
  if (!(supply > 0)) throw core::Error("the oxidizer carries no net oxygen: no equivalence ratio can be set");
  const double oxidizer_per_fuel = need / (phi * supply);
  std::vector<double> x = composition_mole_fractions(m, fuel, 1.0 / (1.0 + oxidizer_per_fuel));
  const std::vector<double> o = composition_mole_fractions(m, oxidizer, oxidizer_per_fuel / (1.0 + oxidizer_per_fuel));
  for (std::size_t k = 0; k < x.size(); ++k) x[k] += o[k];
  return x;
}

std::vector<double> mass_fractions(const chem::Mechanism& m, const std::vector<double>& x) {
  const std::vector<double> w = m.molecular_weights();
  double mean = 0;
  for (std::size_t k = 0; k < x.size(); ++k) mean += x[k] * w[k];
  std::vector<double> y(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) y[k] = x[k] * w[k] / mean;
  return y;
}

double pressure_in_pa(const casefile::Case& c, const std::string& unit_key, double value) {
  return c.get<std::string>(unit_key) == "atm" ? value * chem::one_atm : value;
}

ode::Options case_solver_options(const casefile::Case& c) {
  ode::Options o;
  o.rtol = {c.get<double>("solver.rtol")};
  o.atol = {c.get<double>("solver.atol")};
  o.nmax = c.get<long>("solver.max_steps");
  o.h0 = c.get<double>("solver.h0");
  o.thet = c.get<double>("solver.thet");
  o.fnewt = c.get<double>("solver.fnewt");
  o.quot1 = c.get<double>("solver.quot1");
  o.quot2 = c.get<double>("solver.quot2");
  o.jacobian = *ode::jacobian_named(c.get<std::string>("solver.jacobian"));  // the schema allows only these
  return o;
}

// Without jac() when differences are asked for: its code only lengthens the kernel build.
chem::ReactorJacobian case_jacobian(const casefile::Case& c) {
  return c.get<std::string>("solver.jacobian") == "finite_difference" ? chem::ReactorJacobian::finite_difference
                                                                      : chem::ReactorJacobian::analytic;
}

void declare_reactor_key(casefile::Section& section) {
  section
      .key<std::string>("reactor", "constant_pressure",
                        "constant_pressure: p held (a flow or open vessel); constant_volume: the volume held, "
                        "the density fixed at its initial value and p following T and composition (a closed "
                        "vessel, a shock tube behind the reflected shock)")
      .one_of({"constant_pressure", "constant_volume"});
}

chem::ReactorKind case_reactor(const casefile::Case& c, const std::string& key) {
  return c.get<std::string>(key) == "constant_volume" ? chem::ReactorKind::constant_volume
                                                      : chem::ReactorKind::constant_pressure;
}

const char* reactor_name(chem::ReactorKind kind) {
  return kind == chem::ReactorKind::constant_volume ? "constant_volume" : "constant_pressure";
}

double reactor_parameter(const chem::Mechanism& m, chem::ReactorKind kind, std::span<const double> y,
                         double pressure) {
  if (kind == chem::ReactorKind::constant_pressure) return pressure;
  return chem::density(y.back(), pressure, y.first(y.size() - 1), m.molecular_weights());
}

void declare_sample_keys(casefile::Section& output, const std::string& default_spacing) {
  output.key<long>("samples", 0, "states per system in trajectories.csv, from RADAU5's dense output (0: none)")
      .at_least(0);
  output.key<std::string>("sample_spacing", default_spacing,
                          "linear: evenly from 0 to the end; log: 0, then geometric from first_sample to the end")
      .one_of({"linear", "log"});
  output.key<double>("first_sample", 1e-7, "log spacing: the first sample time after 0").above(0).unit("s");
}

void check_sample_keys(const casefile::Case& c, const std::string& end_key, std::vector<std::string>& problems) {
  const bool sampled = c.get<long>("output.samples") > 0;
  const bool log = c.get<std::string>("output.sample_spacing") == "log";
  for (const char* key : {"output.sample_spacing", "output.first_sample"})
    if (!sampled && c.is_set(key))
      problems.push_back(c.where(key) + ": " + key + " does not apply: output.samples is 0 (no trajectories)");
  if (sampled && !log && c.is_set("output.first_sample"))
    problems.push_back(c.where("output.first_sample") +
                       ": output.first_sample does not apply: output.sample_spacing is linear");
  const double first = c.get<double>("output.first_sample"), end = c.get<double>(end_key);
  if (sampled && log && first >= end)
    problems.push_back(c.where("output.first_sample") + ": output.first_sample = " + core::number_text(first) +
                       " is not below " + end_key + " = " + core::number_text(end) +
                       ": expected the first sample inside the interval");
}

std::vector<double> sample_times(const casefile::Case& c, double end) {
  const auto count = static_cast<std::size_t>(c.get<long>("output.samples"));
  std::vector<double> t;
  if (count == 0) return t;
  const bool log = c.get<std::string>("output.sample_spacing") == "log";
  const double first = c.get<double>("output.first_sample");
  for (std::size_t k = 0; k + 1 < count; ++k) {
    const auto i = static_cast<double>(k);
    if (!log) t.push_back(end * i / static_cast<double>(count - 1));
    else t.push_back(k == 0 ? 0.0 : first * std::pow(end / first, (i - 1) / static_cast<double>(count - 2)));
  }
  t.push_back(end);
  return t;
}

std::vector<std::size_t> main_species(const chem::Mechanism& m, const Composition& fuel, const Composition& oxidizer) {
  std::vector<bool> shown(m.species.size(), false);
  for (const Composition* mixture : {&fuel, &oxidizer})
    for (const auto& [name, amount] : *mixture) shown[static_cast<std::size_t>(m.species_index(name))] = true;
  for (const char* name : {"H2O", "CO2", "CO", "OH", "H"})
    if (const int k = m.species_index(name); k >= 0) shown[static_cast<std::size_t>(k)] = true;
  std::vector<std::size_t> species;
  for (std::size_t k = 0; k < shown.size(); ++k)
    if (shown[k]) species.push_back(k);
  return species;
}

std::string trajectory_table(const chem::Mechanism& m, const ode::Result& r, const std::vector<double>& times,
                             const std::vector<std::size_t>& species) {
  const std::size_t n = m.species.size() + 1;
  std::string table = "system,t_s,T_K";
  for (const std::size_t k : species) table += "," + csv_field("Y_" + m.species[k].name);
  table += "\n";
  const auto cell = [&table](double v) {
    table += ',';
    if (std::isfinite(v)) table += exact_number(v);
  };
  for (std::size_t s = 0; s < r.statistics.size(); ++s)
    for (std::size_t j = 0; j < times.size(); ++j) {
      const double* state = r.samples.data() + (s * r.sample_count + j) * n;
      table += std::to_string(s);
      table += ',';
      table += exact_number(times[j]);
      cell(state[n - 1]);
      for (const std::size_t k : species) cell(state[k]);
      table += '\n';
    }
  return table;
}

std::string radau5_build_label(const casefile::Case& c, const chem::Mechanism& mechanism) {
  return "RADAU5 kernel for " + std::filesystem::path(c.get<std::string>("mechanism.file")).filename().string() + " (" +
         std::to_string(mechanism.species.size()) + " species)";
}

}  // namespace hetflow::app
