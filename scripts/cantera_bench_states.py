#!/usr/bin/env python3
"""Cantera on the states of `hetflow bench chem`, at the same tolerances, on every core.

  pip install cantera   # 3.2
  scripts/cantera_bench_states.py data/mechanisms/n-hexane-NUIG-2015.yaml NC6H14 --count 100 \\
      --rtol 1e-8 --atol 1e-14 -o bench/results/cpu-NAME/cantera-hexane-tight.json

For a comparison at equal accuracy, a run at rtol 1e-13 and atol 1e-20 with --finals ref.npy and
--states-csv states.csv gives the reference and the states as a reactor_batch `batch.file`; a later run
with --reference ref.npy records its own error, and --hetflow final_states.csv (reactor_batch's output on
those states) records hetflow's: the largest over the states of |T - T_ref| / T_ref and |Y_k - Y_k,ref|.

The states are chem::partly_burnt_states (docs/chem.md, Performance): 12 fuel/air points at 300 K and
1 atm, phi = 0.5 * 4^(j/11), each burnt state the HP equilibrium of its unburnt mixture; state i takes point
i mod 12 and mixes (1 - c) unburnt + c burnt (mass fractions and T) with c = frac((i + 1) * 0.618...).
Each is advanced over --dt by Cantera's IdealGasConstPressureReactor (CVODES, dense finite-difference
Jacobian) at --rtol and --atol for every component, one state per task over --processes worker
processes; the time is the wall clock of the whole batch after an untimed warm-up of one state per
process. Equal tolerances are not equal accuracy (scripts/cpu_peers.py compares at equal accuracy).
"""
import argparse
import csv
import json
import multiprocessing
import os
import platform
import time

import numpy as np

from cpu_peers import state_error

_WORKER = {}


def partly_burnt_states(mechanism, fuel, count):
    import cantera as ct

    gas = ct.Solution(mechanism)
    unburnt, burnt = [], []
    for j in range(12):
        gas.set_equivalence_ratio(0.5 * 4.0 ** (j / 11), f"{fuel}:1", "O2:1, N2:3.76")
        gas.TP = 300.0, ct.one_atm
        unburnt.append(np.r_[gas.Y, gas.T])
        gas.equilibrate("HP")
        burnt.append(np.r_[gas.Y, gas.T])
    states = []
    for i in range(count):
        c = ((i + 1) * 0.6180339887498949) % 1.0
        states.append((1 - c) * unburnt[i % 12] + c * burnt[i % 12])
    return states


def _start(mechanism, dt, rtol, atol):
    import cantera as ct

    _WORKER.update(ct=ct, gas=ct.Solution(mechanism), dt=dt, rtol=rtol, atol=atol)


def _advance(state):
    """(whether CVODES reached dt, seconds, final T and Y) of one state."""
    ct, gas = _WORKER["ct"], _WORKER["gas"]
    gas.TPY = state[-1], ct.one_atm, state[:-1]
    reactor = ct.IdealGasConstPressureReactor(gas, clone=False)
    net = ct.ReactorNet([reactor])
    net.rtol, net.atol = _WORKER["rtol"], _WORKER["atol"]
    start = time.perf_counter()
    try:
        net.advance(_WORKER["dt"])
        reached = True
    except ct.CanteraError:
        reached = False
    return reached, time.perf_counter() - start, np.r_[reactor.T, reactor.phase.Y]


def write_states_csv(mechanism, states, path):
    """The states as reactor_batch's batch.file: T, p in atm and the mole fractions. Large mechanisms name
    species with commas (n-hexane's C3H51-2,3OOH), which the header quotes (RFC 4180), as hetflow does."""
    import cantera as ct

    gas = ct.Solution(mechanism)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["T", "p"] + gas.species_names)
        for state in states:
            gas.TPY = state[-1], ct.one_atm, state[:-1]
            writer.writerow([repr(float(state[-1])), "1"] + [repr(float(x)) for x in gas.X])


def hetflow_finals(path, species, count):
    """T and the mass fractions in mechanism order from reactor_batch's final_states.csv."""
    with open(path, newline="") as f:
        header = next(csv.reader([f.readline()]))
        table = np.genfromtxt(f, delimiter=",", ndmin=2, max_rows=count)
    return table[:, [header.index("T_K")] + [header.index("Y_" + name) for name in species]]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mechanism", help="the mechanism's YAML file")
    parser.add_argument("fuel", help="the fuel species")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--dt", type=float, default=1e-6)
    parser.add_argument("--rtol", type=float, default=1e-8)
    parser.add_argument("--atol", type=float, default=1e-14)
    parser.add_argument("--processes", type=int, default=os.cpu_count())
    parser.add_argument("--states-csv", help="also write the states as a reactor_batch batch.file")
    parser.add_argument("--finals", help="write the final states (T, then Y) to this .npy file")
    parser.add_argument("--reference", help="a reference run's --finals: record this run's error against it")
    parser.add_argument("--hetflow", help="with --reference: reactor_batch's final_states.csv, whose error is recorded")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    import cantera as ct

    states = partly_burnt_states(args.mechanism, args.fuel, args.count)
    if args.states_csv:
        write_states_csv(args.mechanism, states, args.states_csv)
    context = multiprocessing.get_context("fork")
    with context.Pool(args.processes, _start, (args.mechanism, args.dt, args.rtol, args.atol)) as pool:
        pool.map(_advance, states[: args.processes])
        start = time.perf_counter()
        results = pool.map(_advance, states, chunksize=1)
        wall = time.perf_counter() - start
    report = {"generator": "scripts/cantera_bench_states.py", "cantera": ct.__version__,
              "machine": {"processor": platform.processor() or platform.machine(), "cores": os.cpu_count()},
              "mechanism": os.path.basename(args.mechanism), "fuel": args.fuel, "states": args.count,
              "dt_s": args.dt, "rtol": args.rtol, "atol": args.atol, "processes": args.processes,
              "wall_s": wall, "states_per_s": args.count / wall, "failed": sum(not r[0] for r in results),
              "max_state_s": max(r[1] for r in results), "sum_state_s": sum(r[1] for r in results),
              "T_final_K": [r[2][0] for r in results]}
    finals = np.array([r[2] if r[0] else np.full(len(r[2]), np.nan) for r in results])
    if args.finals:
        np.save(args.finals, finals)
    if args.reference:
        reference = np.load(args.reference)
        report["error"] = state_error(finals, reference)
        if args.hetflow:
            species = ct.Solution(args.mechanism).species_names
            report["hetflow_error"] = state_error(hetflow_finals(args.hetflow, species, args.count), reference)
    with open(args.output, "w") as f:
        json.dump(report, f, indent=1)
    print(f"{args.count} states in {wall:.2f} s: {args.count / wall:.3f} states/s, {report['failed']} failed, "
          f"error {report.get('error')}, hetflow's {report.get('hetflow_error')}")


if __name__ == "__main__":
    main()
