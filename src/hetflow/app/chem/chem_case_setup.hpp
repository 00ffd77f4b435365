#pragma once
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/ode/options.hpp"
#include "hetflow/ode/radau5.hpp"
#include "hetflow/ode/statistics.hpp"

namespace hetflow::app {

// What the chemistry case types (`ignition`, `reactor_batch`) share: the `mechanism:` section, the
// fuel / oxidizer mixture at an equivalence ratio, pressures in the case's unit and the `solver:`
// section of ode::Radau5's options.

// Species and amounts as written, "CH4:1, O2:2" (Cantera's form); normalised by the users of it.
using Composition = std::vector<std::pair<std::string, double>>;

void declare_mechanism_keys(casefile::Schema& schema);
// fuel and oxidizer in `section`.
void declare_mixture_keys(casefile::Section& section);
void declare_solver_keys(casefile::Schema& schema);

// The mechanism named by mechanism.file (and mechanism.thermo), relative to the case file's folder;
// a missing or unreadable file is a problem at mechanism.file's line. Read once per process: check and
// run share it. nullptr when it could not be read (the problem is in `problems`).
std::shared_ptr<const chem::Mechanism> case_mechanism(const casefile::Case& c, std::vector<std::string>& problems);

// Parses the composition at `key`; each problem (syntax, unknown species, amount <= 0) names the key's line.
Composition case_composition(const casefile::Case& c, const std::string& key, const chem::Mechanism* mechanism,
                             std::vector<std::string>& problems);

// The mechanism and mixture.fuel / mixture.oxidizer together, as both case types read them.
struct CaseMixture {
  std::shared_ptr<const chem::Mechanism> mechanism;
  Composition fuel, oxidizer;
};
CaseMixture case_mixture(const casefile::Case& c, std::vector<std::string>& problems);
// For a sweep's check(): case_mixture's problems, each of the list keys `lists` empty, and a mixture that
// cannot burn (no oxygen to give or none needed at phi = 1). Returns what case_mixture read.
CaseMixture check_sweep_mixture(const casefile::Case& c, std::initializer_list<const char*> lists,
                                std::vector<std::string>& problems);

// Mole fractions (mechanism order) of fuel and oxidizer mixed at equivalence ratio phi: the oxidizer's
// amount is what burns the fuel to CO2 and H2O, divided by phi (Cantera's set_equivalence_ratio).
// Throws core::Error when the oxidizer carries no net oxygen or the fuel needs none.
std::vector<double> mixture_mole_fractions(const chem::Mechanism& m, const Composition& fuel,
                                           const Composition& oxidizer, double phi);
// The mole fractions (mechanism order) of a composition, its amounts normalised to `share`.
std::vector<double> composition_mole_fractions(const chem::Mechanism& m, const Composition& mixture,
                                               double share = 1.0);
std::vector<double> mass_fractions(const chem::Mechanism& m, const std::vector<double>& mole_fractions);

// A pressure written in the unit of `unit_key` ("atm" or "Pa"), in Pa.
double pressure_in_pa(const casefile::Case& c, const std::string& unit_key, double value);

ode::Options case_solver_options(const casefile::Case& c);
// What a notice of the RADAU5 kernel's build calls it: "RADAU5 kernel for gri30.yaml (53 species)".
std::string radau5_build_label(const casefile::Case& c, const chem::Mechanism& mechanism);
// solver.jacobian: how Radau5 gets the reactor's Jacobian.
chem::ReactorJacobian case_jacobian(const casefile::Case& c);
// `reactor` in `section`: the adiabatic reactor every system runs in, constant_pressure (the default) or
// constant_volume (chem::ReactorKind); read back by case_reactor with the key's full name.
void declare_reactor_key(casefile::Section& section);
chem::ReactorKind case_reactor(const casefile::Case& c, const std::string& key);
const char* reactor_name(chem::ReactorKind kind);
// A system's reactor parameter (chem::reactor_system) from its initial state y (mass fractions, then T)
// and pressure [Pa]: that pressure at constant pressure, the initial density at constant volume.
double reactor_parameter(const chem::Mechanism& m, chem::ReactorKind kind, std::span<const double> y,
                         double pressure);

// Trajectories (trajectories.csv): output.samples states per system from RADAU5's dense output
// (ode::Batch::samples), at times spaced `linear` or `log` (output.sample_spacing, `default_spacing`
// unless given) over [0, end]; output.first_sample is log spacing's first time after 0.
void declare_sample_keys(casefile::Section& output, const std::string& default_spacing);
// Problems of the sample keys against the integration's end, `end_key` (a first sample at or past it,
// keys that do not apply).
void check_sample_keys(const casefile::Case& c, const std::string& end_key, std::vector<std::string>& problems);
// The sample times over [0, end]: none when output.samples is 0; linear: output.samples times evenly
// spaced from 0 to end; log: 0, then output.samples - 1 times geometric from output.first_sample to end.
// Both end at `end` exactly, so the last sample is the final state.
std::vector<double> sample_times(const casefile::Case& c, double end);
// The species an ignition trajectory shows: those of the fuel and the oxidizer and, where the mechanism
// has them, H2O, CO2, CO, OH and H; in mechanism order.
std::vector<std::size_t> main_species(const chem::Mechanism& m, const Composition& fuel, const Composition& oxidizer);
// trajectories.csv: a row per sample per system (`system` numbers the rows of the case's other table),
// t, T and the mass fractions of `species`; a sample the system never reached (a failure, an interrupted
// run) keeps empty cells.
std::string trajectory_table(const chem::Mechanism& m, const ode::Result& r, const std::vector<double>& times,
                             const std::vector<std::size_t>& species);

}  // namespace hetflow::app
