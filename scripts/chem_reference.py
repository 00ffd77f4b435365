#!/usr/bin/env python3
"""Reference tables for the chemistry tests (tests/chem), computed with Cantera.

For GRI-Mech 3.0, the H2/O2 mechanism (data/mechanisms) and the Chemkin feature fixture
(tests/chem/data/features.inp, converted with Cantera's ck2yaml) this writes, at several
(T, p, phi) states, the species' standard-state cp, h, s, the forward and reverse rate constants,
the rates of progress, the net production rates and the constant-pressure adiabatic reactor RHS.
For H2/air (h2o2) and CH4/air (GRI 3.0) it also writes ignition delays of Cantera's
IdealGasConstPressureReactor (h2_ignition, gri30_ignition) and HP equilibria (equilibrium). The
constant-volume tables (constant_volume, and the ignition delays of Cantera's IdealGasReactor in
h2_ignition_constant_volume and gri30_ignition_constant_volume) hold the adiabatic constant-volume
reactor's RHS at the same states, with the density in place of the pressure.
Everything is in SI mole units (Cantera works in kmol): concentrations mol/m^3, rates mol/(m^3 s),
rate constants (m^3/mol)^(order-1)/s, with kf excluding [M] of three-body reactions as Cantera does.

    pip install cantera && python3 scripts/chem_reference.py [equilibrium_holds | large | constant_volume]
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile

import cantera as ct
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
MECHS = ROOT / "data" / "mechanisms"
OUT = ROOT / "tests" / "chem" / "data"
COMMAND = "pip install cantera && python3 scripts/chem_reference.py"

# (T [K], p [atm], phi): lean/rich, below and above T_common = 1000 K, and pressures from well below
# to well above the falloff centres of GRI's Troe reactions and the fixture's PLOG table.
STATES = [(600.0, 1.0, 1.0), (1000.0, 1.0, 1.0), (1500.0, 0.05, 0.5), (1800.0, 1.0, 1.0),
          (2200.0, 20.0, 2.0), (1200.0, 100.0, 1.0), (2500.0, 0.005, 0.7), (1300.0, 3.0, 1.2)]


def feature_yaml(tmp):
    # Cantera's ck2yaml does not read '&' continuation lines: join them first.
    text = (OUT / "features.inp").read_text()
    joined = pathlib.Path(tmp) / "features.inp"
    joined.write_text(re.sub(r"&[ \t]*\n", " ", text))
    out = pathlib.Path(tmp) / "features.yaml"
    subprocess.run([sys.executable, "-m", "cantera.ck2yaml", f"--input={joined}",
                    f"--thermo={MECHS / 'gri30_thermo.dat'}", f"--output={out}", "--quiet"], check=True)
    return str(out)


def set_state(gas, fuel, T, p_atm, phi):
    """A partly burnt mixture: every reaction runs in both directions at a visible rate."""
    gas.TP = T, p_atm * ct.one_atm
    gas.set_equivalence_ratio(phi, fuel, "O2:1.0, N2:3.76")
    fresh = gas.Y.copy()
    gas.equilibrate("TP")
    y = 0.8 * fresh + 0.2 * gas.Y + 1e-6
    gas.TPY = T, p_atm * ct.one_atm, y / y.sum()


def order_to_mol(order):
    # (m^3/kmol)^(n-1)/s -> (m^3/mol)^(n-1)/s
    return 1e-3 ** (order - 1.0)


def table(gas):
    rows = []
    for r in gas.reactions():
        orders = dict(r.reactants)
        orders.update(r.orders)
        extra = 1.0 if r.reaction_type.startswith("three-body") else 0.0
        rows.append((sum(orders.values()) + extra, sum(r.products.values()) + extra))
    kf_scale = np.array([order_to_mol(n) for n, _ in rows])
    kr_scale = np.array([order_to_mol(n) for _, n in rows])
    wdot = gas.net_production_rates
    h = gas.standard_enthalpies_RT * ct.gas_constant * gas.T  # J/kmol
    # Species thermo at the 1 atm reference pressure (Cantera's "standard" entropies are at p).
    species = [sp.thermo for sp in gas.species()]
    return {
        "T": gas.T, "p": gas.P, "Y": list(gas.Y),
        "cp": [t.cp(gas.T) * 1e-3 for t in species], "h": [t.h(gas.T) * 1e-3 for t in species],
        "s": [t.s(gas.T) * 1e-3 for t in species],
        "kf": list(gas.forward_rate_constants * kf_scale), "kr": list(gas.reverse_rate_constants * kr_scale),
        "qf": list(gas.forward_rates_of_progress * 1e3), "qr": list(gas.reverse_rates_of_progress * 1e3),
        "wdot": list(wdot * 1e3),
        "dYdt": list(wdot * gas.molecular_weights / gas.density),
        "dTdt": float(-np.dot(h, wdot) / (gas.density * gas.cp_mass)),
    }


def rev_pairs(gas):
    """ck2yaml turns a reaction with REV into two irreversible reactions, one after the other; the
    C++ reader keeps one reversible reaction, so the tables merge each such pair back."""
    rs = gas.reactions()
    return [i for i in range(len(rs) - 1)
            if not rs[i].reversible and not rs[i + 1].reversible
            and rs[i + 1].reactants == rs[i].products and rs[i + 1].products == rs[i].reactants]


def merge_rev(doc, pairs):
    for i in reversed(pairs):
        doc["reactions"][i] = doc["reactions"][i].replace("=>", "<=>")
        del doc["reactions"][i + 1]
        for st in doc["states"]:
            st["kr"][i], st["qr"][i] = st["kf"][i + 1], st["qf"][i + 1]
            for key in ("kf", "kr", "qf", "qr"):
                del st[key][i + 1]


def write(name, path, fuel, phase="", states_in=STATES, merge=True):
    gas = ct.Solution(path, phase)
    states = []
    for T, p, phi in states_in:
        set_state(gas, fuel, T, p, phi)
        states.append(table(gas))
    doc = {"generator": "scripts/chem_reference.py", "cantera": ct.__version__,
           "species": gas.species_names, "reactions": [r.equation for r in gas.reactions()], "states": states}
    if merge:
        merge_rev(doc, rev_pairs(gas))
    (OUT / f"{name}_reference.json").write_text(json.dumps(doc, indent=0) + "\n")
    print(f"{name}: {gas.n_species} species, {gas.n_reactions} reactions, {len(states)} states")


# (T0 [K], p [atm]) of the stoichiometric H2/air ignition cases.
IGNITION_CASES = [(1000.0, 1.0), (1200.0, 1.0)]
# (T0 [K], p [atm]) of the stoichiometric CH4/air ignition cases (GRI 3.0).
GRI_IGNITION_CASES = [(1200.0, 1.0), (1400.0, 1.0), (1600.0, 1.0)]
# The ignition criterion: the time at which T first reaches T0 + IGNITION_RISE.
IGNITION_RISE = 400.0


# How each reactor's state is set and held: the pressure at constant pressure, the density at constant volume.
REACTORS = {"constant_pressure": (ct.IdealGasConstPressureReactor, "TPY"),
            "constant_volume": (ct.IdealGasReactor, "TDY")}


def temperature_at(gas, T, x, Y, t, kind="constant_pressure"):
    reactor_type, hold = REACTORS[kind]
    setattr(gas, hold, (T, x, Y))
    reactor = reactor_type(gas, clone=False)
    net = ct.ReactorNet([reactor])
    net.rtol, net.atol = 1e-13, 1e-20
    net.advance(t)
    return reactor.T


def ignition_delay(gas, T0, x, Y, kind="constant_pressure"):
    """First time T reaches T0 + IGNITION_RISE: stepped to a bracket, then bisected to 1e-12 relative,
    each trial integrating from the state at the bracket's start (so a large mechanism takes minutes).
    x is the pressure held at constant pressure, the density at constant volume."""
    reactor_type, hold = REACTORS[kind]
    setattr(gas, hold, (T0, x, Y))
    reactor = reactor_type(gas, clone=False)
    net = ct.ReactorNet([reactor])
    net.rtol, net.atol = 1e-13, 1e-20
    net.initialize()
    lo, start = 0.0, (T0, Y.copy())
    t_at, y_at = reactor.component_index("temperature"), reactor.component_index(gas.species_name(0))
    while True:
        # The integrator's accepted state ((mass, T, Y) or (mass, volume, T, Y)): after step() the reactor's
        # gas object may hold the state of the last right-hand side evaluated instead.
        state = net.get_state()
        if state[t_at] >= T0 + IGNITION_RISE:
            break
        lo, start = net.time, (state[t_at], state[y_at:].copy())
        net.step()
    hi = net.time
    t_start, (T_start, Y_start) = lo, start
    while hi - lo > 1e-12 * hi:
        mid = 0.5 * (lo + hi)
        if temperature_at(gas, T_start, x, Y_start, mid - t_start, kind) < T0 + IGNITION_RISE:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def write_ignition(name, mechanism, fuel, cases_in, phase="", kind="constant_pressure"):
    gas = ct.Solution(str(MECHS / mechanism), phase)
    cases = []
    for T0, p_atm in cases_in:
        gas.TP = T0, p_atm * ct.one_atm
        gas.set_equivalence_ratio(1.0, fuel, "O2:1.0, N2:3.76")
        gas.TP = T0, p_atm * ct.one_atm  # setting a composition keeps the density, not the pressure
        Y, rho = gas.Y.copy(), gas.density
        delay = ignition_delay(gas, T0, gas.P if kind == "constant_pressure" else rho, Y, kind)
        cases.append({"T0": T0, "p": p_atm * ct.one_atm, "rho": rho, "phi": 1.0, "Y": list(Y), "delay": delay})
        print(f"{name}: T0 = {T0} K, p = {p_atm} atm: delay {delay:.6e} s")
    doc = {"generator": "scripts/chem_reference.py", "command": COMMAND, "cantera": ct.__version__,
           "mechanism": mechanism, "reactor": REACTORS[kind][0].__name__, "criterion": f"T = T0 + {IGNITION_RISE} K",
           "rise": IGNITION_RISE, "species": gas.species_names, "cases": cases}
    (OUT / f"{name}_reference.json").write_text(json.dumps(doc, indent=0) + "\n")


# HP equilibria of stoichiometric fuel/air at 1 atm, two kinds per mechanism:
#  - "preheated": the fresh mixture at T0, hot enough for the reactor to ignite and burn out on its own;
#  - "flame": the adiabatic flame of the fresh mixture at 300 K. The reactor cannot ignite at 300 K, so
#    the table also gives a start state that can: the mass-weighted mean of the fresh mixture and its
#    burnt HP equilibrium, at the temperature that gives it the fresh mixture's enthalpy. Mass fractions
#    mix linearly, so it has the fresh mixture's elements, enthalpy and pressure, and with them the same
#    HP equilibrium (checked below with Cantera).
EQUILIBRIUM_CASES = [("h2o2.yaml", "H2:1.0", "preheated", 1200.0), ("h2o2.yaml", "H2:1.0", "flame", 300.0),
                     ("gri30.yaml", "CH4:1.0", "preheated", 1400.0), ("gri30.yaml", "CH4:1.0", "flame", 300.0)]
FLAME_MIX = 0.5  # burnt share of the flame cases' start state


def write_equilibrium():
    cases = []
    for mechanism, fuel, kind, T0 in EQUILIBRIUM_CASES:
        gas = ct.Solution(str(MECHS / mechanism))
        gas.TP = T0, ct.one_atm
        gas.set_equivalence_ratio(1.0, fuel, "O2:1.0, N2:3.76")
        fresh, h0 = gas.Y.copy(), gas.enthalpy_mass
        gas.equilibrate("HP")
        burnt, T_eq = gas.Y.copy(), gas.T
        case = {"mechanism": mechanism, "fuel": fuel, "kind": kind, "T0": T0, "p": ct.one_atm, "phi": 1.0,
                "Y0": list(fresh), "h0": h0, "T_eq": T_eq, "Y_eq": list(burnt), "species": gas.species_names}
        if kind == "flame":
            start = (1.0 - FLAME_MIX) * fresh + FLAME_MIX * burnt
            gas.HPY = h0, ct.one_atm, start
            case["start_T"], case["start_Y"] = gas.T, list(gas.Y)
            gas.equilibrate("HP")
            assert abs(gas.T - T_eq) < 1e-8 * T_eq and np.allclose(gas.Y, burnt, rtol=1e-6, atol=1e-14)
        else:
            case["start_T"], case["start_Y"] = T0, list(fresh)
        cases.append(case)
        print(f"equilibrium: {mechanism} {fuel} {kind} T0 = {T0} K: start {case['start_T']:.3f} K, "
              f"HP equilibrium {T_eq:.6f} K")
    doc = {"generator": "scripts/chem_reference.py", "command": COMMAND, "cantera": ct.__version__,
           "method": "ThermoPhase.equilibrate('HP') of (T0, 1 atm, Y0); Cantera's default solver and tolerances",
           "flame_mix": FLAME_MIX, "cases": cases}
    (OUT / "equilibrium_reference.json").write_text(json.dumps(doc, indent=0) + "\n")


# (mechanism, fuel, hold, T [K], p [atm], phi) for the equilibrium solver's own tests: TP at hot states,
# HP and UV from fresh mixtures (adiabatic flames at constant pressure and in a closed vessel), and air
# alone, whose dissociation leaves nitrogen and oxygen as the only elements.
EQUILIBRIUM_HOLD_CASES = [
    ("h2o2.yaml", "H2:1.0", "TP", 2500.0, 1.0, 1.0), ("h2o2.yaml", "H2:1.0", "TP", 1500.0, 10.0, 0.5),
    ("h2o2.yaml", "H2:1.0", "TP", 3200.0, 0.1, 2.0), ("h2o2.yaml", "H2:1.0", "HP", 300.0, 1.0, 1.0),
    ("h2o2.yaml", "H2:1.0", "HP", 500.0, 5.0, 0.6), ("h2o2.yaml", "H2:1.0", "UV", 300.0, 1.0, 1.0),
    ("gri30.yaml", "CH4:1.0", "TP", 2200.0, 1.0, 1.0), ("gri30.yaml", "CH4:1.0", "TP", 1800.0, 20.0, 1.3),
    ("gri30.yaml", "CH4:1.0", "HP", 300.0, 1.0, 1.0), ("gri30.yaml", "CH4:1.0", "HP", 700.0, 10.0, 0.8),
    ("gri30.yaml", "CH4:1.0", "UV", 300.0, 1.0, 1.0), ("gri30.yaml", "CH4:1.0", "UV", 300.0, 1.0, 1.6),
    ("gri30.yaml", None, "TP", 3500.0, 1.0, 0.0),
]


def write_equilibrium_holds():
    cases = []
    for mechanism, fuel, hold, T0, p_atm, phi in EQUILIBRIUM_HOLD_CASES:
        gas = ct.Solution(str(MECHS / mechanism))
        gas.TP = T0, p_atm * ct.one_atm
        if fuel:
            gas.set_equivalence_ratio(phi, fuel, "O2:1.0, N2:3.76")
        else:
            gas.X = "O2:1.0, N2:3.76"
        gas.TP = T0, p_atm * ct.one_atm  # setting a composition keeps the density, not the pressure
        start = {"T": gas.T, "p": gas.P, "Y": list(gas.Y)}
        # The tightest tolerance Cantera's solver meets for the case.
        for rtol in (1e-14, 1e-13, 1e-12, 1e-11, 1e-10):
            try:
                gas.TPY = start["T"], start["p"], start["Y"]
                gas.equilibrate(hold, rtol=rtol, max_steps=10000, max_iter=1000)
                break
            except ct.CanteraError:
                continue
        cases.append({"mechanism": mechanism, "hold": hold, "species": gas.species_names, "start": start,
                      "rtol": rtol, "T": gas.T, "p": gas.P, "Y": list(gas.Y)})
        print(f"equilibrium {hold}: {mechanism} T0 = {T0} K, p0 = {p_atm} atm, phi = {phi}: "
              f"T = {gas.T:.6f} K, p = {gas.P:.3f} Pa (rtol {rtol:g})")
    doc = {"generator": "scripts/chem_reference.py equilibrium_holds", "command": COMMAND, "cantera": ct.__version__,
           "method": "ThermoPhase.equilibrate(hold) of the start state, at the smallest rtol from 1e-14 up that converges (per case)", "cases": cases}
    (OUT / "equilibrium_holds_reference.json").write_text(json.dumps(doc, indent=0) + "\n")


# Mechanisms above 100 species (data/mechanisms/README.md): (table, file, phase, fuel, rate-table states,
# ignition cases). The rate tables of the 1268-species mechanism keep three of STATES: below and above
# T_mid, and the lowest and highest pressures of its PLOG tables' range. Both files come from cti2yaml,
# not ck2yaml: their pairs of opposite irreversible reactions are the mechanisms' own, and stay apart.
LARGE_MECHANISMS = [
    ("dodecane_reitz", "nDodecane_Reitz.yaml", "nDodecane_IG", "c12h26:1.0", STATES, [(1200.0, 10.0)]),
    ("hexane_nuig", "n-hexane-NUIG-2015.yaml", "", "NC6H14:1.0", [STATES[1], STATES[2], STATES[5]], [(1200.0, 10.0)]),
]


# The state of n-hexane's ignition case (1200 K, 10 atm) after EARLY_TIME, for a test short enough for a CPU.
EARLY_TIME = 1e-6


def write_early(name, mechanism, fuel, T0, p_atm):
    gas = ct.Solution(str(MECHS / mechanism))
    gas.TP = T0, p_atm * ct.one_atm
    gas.set_equivalence_ratio(1.0, fuel, "O2:1.0, N2:3.76")
    Y0 = gas.Y.copy()
    reactor = ct.IdealGasConstPressureReactor(gas, clone=False)
    net = ct.ReactorNet([reactor])
    net.rtol, net.atol = 1e-13, 1e-20
    net.advance(EARLY_TIME)
    state = net.get_state()
    doc = {"generator": "scripts/chem_reference.py", "command": COMMAND, "cantera": ct.__version__,
           "mechanism": mechanism, "reactor": "IdealGasConstPressureReactor", "T0": T0, "p": p_atm * ct.one_atm,
           "Y0": list(Y0), "t": EARLY_TIME, "T": state[1], "Y": list(state[2:]), "species": gas.species_names}
    (OUT / f"{name}_early_reference.json").write_text(json.dumps(doc, indent=0) + "\n")
    print(f"{name}: T({EARLY_TIME} s) = {state[1]:.12f} K")


def write_large():
    for name, mechanism, phase, fuel, states, ignition in LARGE_MECHANISMS:
        write(name, str(MECHS / mechanism), fuel, phase, states, merge=False)
        write_ignition(f"{name}_ignition", mechanism, fuel, ignition, phase)
    write_early("hexane_nuig", "n-hexane-NUIG-2015.yaml", "NC6H14:1.0", 1200.0, 10.0)


def constant_volume_table(gas):
    """The right-hand side of Cantera's IdealGasReactor (adiabatic, constant volume) at the gas's state:
    dY/dt = W w / rho, dT/dt = -sum(u_k w_k) / (rho c_v)."""
    wdot = gas.net_production_rates
    return {"T": gas.T, "rho": gas.density, "Y": list(gas.Y),
            "dYdt": list(wdot * gas.molecular_weights / gas.density),
            "dTdt": float(-np.dot(gas.partial_molar_int_energies, wdot) / (gas.density * gas.cv_mass))}


def write_constant_volume():
    mechanisms = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, path, fuel in [("gri30", str(MECHS / "gri30.yaml"), "CH4:1.0"),
                                 ("h2o2", str(MECHS / "h2o2.yaml"), "H2:1.0"), ("features", feature_yaml(tmp), "H2:1.0")]:
            gas = ct.Solution(path)
            states = []
            for T, p, phi in STATES:
                set_state(gas, fuel, T, p, phi)
                states.append(constant_volume_table(gas))
            mechanisms[name] = {"species": gas.species_names, "states": states}
            print(f"constant_volume: {name}, {len(states)} states")
    doc = {"generator": "scripts/chem_reference.py constant_volume", "command": COMMAND, "cantera": ct.__version__,
           "reactor": "IdealGasReactor", "mechanisms": mechanisms}
    (OUT / "constant_volume_reference.json").write_text(json.dumps(doc, indent=0) + "\n")
    write_ignition("h2_ignition_constant_volume", "h2o2.yaml", "H2:1.0", IGNITION_CASES, kind="constant_volume")
    write_ignition("gri30_ignition_constant_volume", "gri30.yaml", "CH4:1.0", [GRI_IGNITION_CASES[2]],
                   kind="constant_volume")


def write_all():
    write("gri30", str(MECHS / "gri30.yaml"), "CH4:1.0")
    write("h2o2", str(MECHS / "h2o2.yaml"), "H2:1.0")
    with tempfile.TemporaryDirectory() as tmp:
        write("features", feature_yaml(tmp), "H2:1.0")
    write_ignition("h2_ignition", "h2o2.yaml", "H2:1.0", IGNITION_CASES)
    write_ignition("gri30_ignition", "gri30.yaml", "CH4:1.0", GRI_IGNITION_CASES)
    write_equilibrium()
    write_equilibrium_holds()
    write_large()
    write_constant_volume()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    # With a name, only that table: the others keep the Cantera version they were made with.
    if sys.argv[1:] == ["equilibrium_holds"]:
        write_equilibrium_holds()
    elif sys.argv[1:] == ["large"]:
        write_large()
    elif sys.argv[1:] == ["constant_volume"]:
        write_constant_volume()
    else:
        write_all()


if __name__ == "__main__":
    main()
