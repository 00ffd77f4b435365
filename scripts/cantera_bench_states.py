#!/usr/bin/env python3
"""Cantera on the states of `hetflow bench chem`, at the same tolerances, on every core.

  pip install cantera   # 3.2
  scripts/cantera_bench_states.py data/mechanisms/n-hexane-NUIG-2015.yaml NC6H14 --count 100 \\
      --rtol 1e-8 --atol 1e-14 -o bench/results/cpu-NAME/cantera-hexane-tight.json

The states are chem::partly_burnt_states (docs/chem.md, Performance): 12 fuel/air points at 300 K and
1 atm, phi = 0.5 * 4^(j/11), each burnt state the HP equilibrium of its unburnt mixture; state i takes point
i mod 12 and mixes (1 - c) unburnt + c burnt (mass fractions and T) with c = frac((i + 1) * 0.618...).
Each is advanced over --dt by Cantera's IdealGasConstPressureReactor (CVODES, dense finite-difference
Jacobian) at --rtol and --atol for every component, one state per task over --processes worker
processes; the time is the wall clock of the whole batch after an untimed warm-up of one state per
process. Equal tolerances are not equal accuracy (scripts/cpu_peers.py compares at equal accuracy).
"""
import argparse
import json
import multiprocessing
import os
import platform
import time

import numpy as np

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
    """(whether CVODES reached dt, seconds, final T) of one state."""
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
    return reached, time.perf_counter() - start, reactor.T


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mechanism", help="the mechanism's YAML file")
    parser.add_argument("fuel", help="the fuel species")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--dt", type=float, default=1e-6)
    parser.add_argument("--rtol", type=float, default=1e-8)
    parser.add_argument("--atol", type=float, default=1e-14)
    parser.add_argument("--processes", type=int, default=os.cpu_count())
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    import cantera as ct

    states = partly_burnt_states(args.mechanism, args.fuel, args.count)
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
              "T_final_K": [r[2] for r in results]}
    with open(args.output, "w") as f:
        json.dump(report, f, indent=1)
    print(f"{args.count} states in {wall:.2f} s: {args.count / wall:.3f} states/s, {report['failed']} failed")


if __name__ == "__main__":
    main()
