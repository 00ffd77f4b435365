// Malformed mechanisms: every error names the file, the line and the problem.
#include <gtest/gtest.h>

#include <algorithm>

#include "chem_test_util.hpp"

namespace hetflow::chem {
namespace {

using test::gri_thermo;

// Line 1 ELEMENTS, line 2 SPECIES, line 3 REACTIONS, reactions from line 4.
Mechanism chemkin(const std::string& reactions, const std::string& species = "H2 O2 H O OH H2O HO2") {
  return parse_chemkin("ELEMENTS H O END\nSPECIES " + species + " END\nREACTIONS\n" + reactions + "END\n", "bad.inp",
                       gri_thermo(), "gri30_thermo.dat");
}

TEST(ChemErrors, UndeclaredSpecies) {
  test::expect_error([] { chemkin("H2 + O <=> H + OH 1e12 0 0\nH2 + CH4 <=> H + OH 1e12 0 0\n"); }, "bad.inp", 5,
                     "undeclared species 'CH4'");
  test::expect_error([] { chemkin("2O + M <=> O2 + M 1e17 -1 0\nH2O/6/ N2/0.4/\n"); }, "bad.inp", 5,
                     "unknown auxiliary keyword 'N2'");
}

TEST(ChemErrors, UnbalancedReactionShowsTheImbalance) {
  test::expect_error([] { chemkin("H2 + O <=> H + OH 1e12 0 0\nH2 + O2 <=> OH + H 1e12 0 0\n"); }, "bad.inp", 5,
                     "not balanced in elements (products minus reactants: O: -1)");
}

TEST(ChemErrors, MissingThermo) {
  test::expect_error([] { parse_chemkin("ELEMENTS H O END\nSPECIES H2 O2\nXYZ END\nREACTIONS\nEND\n", "bad.inp", gri_thermo(),
                                        "therm.dat"); },
                     "bad.inp", 3, "species 'XYZ' has no thermo data in the mechanism or 'therm.dat'");
}

TEST(ChemErrors, UnmarkedDuplicate) {
  test::expect_error([] { chemkin("H + HO2 <=> H2 + O2 1e12 0 0\nDUP\nH2 + O2 <=> H + HO2 2e12 0 0\n"); }, "bad.inp", 6,
                     "repeats reaction 'H + HO2 <=> H2 + O2' (line 4) but both are not marked DUPLICATE");
  test::expect_error([] { chemkin("H + HO2 <=> H2 + O2 1e12 0 0\nDUPLICATE\n"); }, "bad.inp", 4,
                     "marked DUPLICATE but no other reaction repeats it");
}

TEST(ChemErrors, MalformedNumbers) {
  test::expect_error([] { chemkin("H2 + O <=> H + OH 1.0X12 0 0\n"); }, "bad.inp", 4, "malformed number '1.0X12'");
  test::expect_error([] { chemkin("H + O2 (+M) <=> HO2 (+M) 1e12 0 0\nLOW /1e18 -1 zero/\n"); }, "bad.inp", 5,
                     "malformed number 'zero' in LOW");
  // A thermo record whose coefficient field is broken, in a separate thermo file.
  std::string thermo = gri_thermo();
  const auto at = thermo.find("3.33727920E+00");
  thermo.replace(at, 14, "3.33727920E+0Q");
  try {
    (void)parse_chemkin("ELEMENTS H O END\nSPECIES H2 END\nREACTIONS\nEND\n", "bad.inp", thermo, "therm.dat");
    ADD_FAILURE() << "no error";
  } catch (const MechanismError& e) {
    EXPECT_EQ(e.file(), "therm.dat");
    EXPECT_NE(std::string(e.what()).find("malformed number '3.33727920E+0Q' in the thermo data of 'H2'"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.line(), 1 + static_cast<int>(std::count(thermo.begin(), thermo.begin() + static_cast<long>(at), '\n')));
  }
}

TEST(ChemErrors, UnknownAndUnsupportedAuxiliaryKeywords) {
  test::expect_error([] { chemkin("H2 + O <=> H + OH 1e12 0 0\nFOO /1 2 3/\n"); }, "bad.inp", 5, "unknown auxiliary keyword 'FOO'");
  test::expect_error([] { chemkin("H2 + O <=> H + OH 1e12 0 0\nCHEB /7 4/\n"); }, "bad.inp", 5,
                     "unsupported auxiliary keyword 'CHEB'");
  test::expect_error([] { chemkin("H2 + O <=> H + OH 1e12 0 0\nTROE /0.5 1 2/\n"); }, "bad.inp", 5, "but no '(+M)'");
}

TEST(ChemErrors, UnknownUnitsAndOrphanAuxiliaryLines) {
  test::expect_error([] { parse_chemkin("ELEMENTS H END\nSPECIES H2 H END\nREACTIONS FURLONGS\nEND\n", "bad.inp", gri_thermo(), "t"); },
                     "bad.inp", 3, "unknown unit keyword 'FURLONGS'");
  test::expect_error([] { chemkin("LOW /1 2 3/\n"); }, "bad.inp", 4, "before any reaction");
}

TEST(ChemErrors, YamlErrorsNameFileAndLine) {
  const std::string head =
      "units: {length: cm, quantity: mol, activation-energy: cal/mol}\n"  // 1
      "phases:\n"                                                           // 2
      "- name: gas\n"                                                       // 3
      "  elements: [H]\n"                                                   // 4
      "  species: [H2, H]\n"                                                // 5
      "species:\n"                                                          // 6
      "- name: H2\n"                                                        // 7
      "  composition: {H: 2}\n"                                             // 8
      "  thermo: {model: NASA7, temperature-ranges: [200, 6000], data: [[2.5, 0, 0, 0, 0, 0, 0]]}\n"  // 9
      "- name: H\n"                                                         // 10
      "  composition: {H: 1}\n"                                             // 11
      "  thermo: {model: NASA7, temperature-ranges: [200, 6000], data: [[2.5, 0, 0, 0, 0, 0, 0]]}\n"  // 12
      "reactions:\n";                                                       // 13
  test::expect_error([&] { parse_yaml_mechanism(head + "- equation: H2 <=> 2 H\n  rate-constant: {A: 1, b: 0, Ea: 0}\n"
                                                       "- equation: H2 <=> H\n  rate-constant: {A: 1, b: 0, Ea: 0}\n",
                                                "bad.yaml"); },
                     "bad.yaml", 16, "not balanced in elements (products minus reactants: H: -1)");
  test::expect_error([&] { parse_yaml_mechanism(head + "- equation: H2 + X <=> 2 H\n  rate-constant: {A: 1, b: 0, Ea: 0}\n",
                                                "bad.yaml"); },
                     "bad.yaml", 14, "undeclared species 'X'");
  test::expect_error([&] { parse_yaml_mechanism(head + "- equation: H2 <=> 2 H\n  rate-constant: {A: 1e1x, b: 0, Ea: 0}\n",
                                                "bad.yaml"); },
                     "bad.yaml", 15, "malformed number '1e1x'");
  test::expect_error([&] { parse_yaml_mechanism(head + "- equation: H2 <=> 2 H\n  rate-konstant: {A: 1, b: 0, Ea: 0}\n",
                                                "bad.yaml"); },
                     "bad.yaml", 15, "unknown reaction key 'rate-konstant'");
}

// Cantera's phase key `reactions`: `all` takes the default section, a missing named section is refused at
// the key's line instead of leaving the mechanism without reactions.
TEST(ChemErrors, YamlPhaseReactionsKey) {
  const std::string phase =
      "units: {length: cm, quantity: mol, activation-energy: cal/mol}\n"  // 1
      "phases:\n"                                                           // 2
      "- name: gas\n"                                                       // 3
      "  elements: [H]\n"                                                   // 4
      "  species: [H2, H]\n";                                               // 5
  const std::string rest =
      "species:\n"
      "- name: H2\n"
      "  composition: {H: 2}\n"
      "  thermo: {model: NASA7, temperature-ranges: [200, 6000], data: [[2.5, 0, 0, 0, 0, 0, 0]]}\n"
      "- name: H\n"
      "  composition: {H: 1}\n"
      "  thermo: {model: NASA7, temperature-ranges: [200, 6000], data: [[2.5, 0, 0, 0, 0, 0, 0]]}\n"
      "reactions:\n"
      "- equation: H2 <=> 2 H\n  rate-constant: {A: 1, b: 0, Ea: 0}\n";
  EXPECT_EQ(parse_yaml_mechanism(phase + "  reactions: all\n" + rest, "all.yaml").reactions.size(), 1u);
  EXPECT_EQ(parse_yaml_mechanism(phase + "  reactions: [reactions]\n" + rest, "named.yaml").reactions.size(), 1u);
  EXPECT_EQ(parse_yaml_mechanism(phase + "  reactions: none\n" + rest, "none.yaml").reactions.size(), 0u);
  test::expect_error([&] { parse_yaml_mechanism(phase + "  reactions: [hydrogen-reactions]\n" + rest, "bad.yaml"); },
                     "bad.yaml", 6, "names the reaction section 'hydrogen-reactions', which the file does not have");
  test::expect_error([&] { parse_yaml_mechanism(phase + "  reactions: declared-species\n" + rest, "bad.yaml"); },
                     "bad.yaml", 6, "declared-species");
}

// hetflow's thermo is the ideal gas's: a phase of another model is refused, naming the ideal-gas ones,
// which can be chosen by name (n-dodecane's first phase is Redlich-Kwong).
TEST(ChemErrors, YamlRealGasPhaseIsRefused) {
  test::expect_error([] { read_yaml_mechanism(test::mechanisms / "nDodecane_Reitz.yaml"); }, "nDodecane_Reitz.yaml", 24,
                     "phase 'nDodecane_RK' is thermo: Redlich-Kwong, and hetflow models ideal gases only; this file's "
                     "ideal-gas phases: 'nDodecane_IG'");
  EXPECT_EQ(test::dodecane_reitz().species.size(), 100u);
}

}  // namespace
}  // namespace hetflow::chem
