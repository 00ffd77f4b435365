#!/usr/bin/env python3
"""The Python package's overhead: each call's wall time in Python against the C++ work inside the same
call, the work a C++ program or the CLI does for the same problem (hetflow.nnls: the solve as `hetflow
nnls` times it, device selection and KKT report included; hetflow.reactor_batch: set-up, RADAU5's
integration and the release of the device's buffers and context, `setup_seconds` + `seconds` +
`release_seconds`, as a C++ program and the CLI pay them). The difference is split into the data transfer itself (the
copies the binding still makes: none for nnls, whose A, b and x cross in place; for reactor_batch the
states in, which the batch takes into its own array), timed as numpy copies of the same sizes, and what is
left: argument checks, the layout of the states (T beside Y) and of the results.

    PYTHONPATH=build/release/python python3 scripts/python_overhead.py --device cpu:0 -o overhead.json
"""
import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import numpy as np

import hetflow


def copy_seconds(*arrays):
    """The data transfer itself: one fresh copy of each array the binding copies."""
    start = time.perf_counter()
    for a in arrays:
        np.array(a, order="K", copy=True)
    return time.perf_counter() - start


def nnls_case(n, device, repeats):
    """A square problem with about half of x at zero, solved by TNT."""
    rng = np.random.default_rng(5)
    A = np.asfortranarray(rng.standard_normal((n, n)) + 4 * np.sqrt(n) * np.eye(n))
    x = np.where(rng.random(n) < 0.5, 0.0, rng.random(n))
    b = A @ x + 1e-6 * rng.standard_normal(n)
    hetflow.nnls(A, b, device=device)  # warm-up: kernels built and cached
    walls, inner, transfer = [], [], []
    for _ in range(repeats):
        start = time.perf_counter()
        x, report = hetflow.nnls(A, b, device=device)
        walls.append(time.perf_counter() - start)
        inner.append(report.raw["seconds"])
        transfer.append(copy_seconds())  # A, b and x are read and returned in place
    return walls, inner, transfer


def chem_case(n, device, repeats):
    """n hydrogen-air reactors at 1000-1500 K over 1e-5 s."""
    gas = hetflow.Mechanism(str(Path(__file__).resolve().parent.parent / "data" / "mechanisms" / "h2o2.yaml"))
    rng = np.random.default_rng(2)
    X = np.zeros(len(gas.species))
    X[gas.species_index("H2")], X[gas.species_index("O2")], X[gas.species_index("N2")] = 2.0, 1.0, 3.76
    Y = np.tile(X * gas.molecular_weights / (X * gas.molecular_weights).sum(), (n, 1))
    T, p = rng.uniform(1000, 1500, n), np.full(n, 101325.0)
    hetflow.reactor_batch(gas, T, p, Y, 1e-5, device=device, progress=False)  # warm-up at the timed size
    walls, inner, transfer = [], [], []
    states = np.column_stack([Y, T])  # the (n, species + 1) array the batch copies in
    for _ in range(repeats):
        start = time.perf_counter()
        out = hetflow.reactor_batch(gas, T, p, Y, 1e-5, device=device)
        walls.append(time.perf_counter() - start)
        inner.append(out.setup_seconds + out.seconds + out.release_seconds)
        transfer.append(copy_seconds(states))
    return walls, inner, transfer


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--nnls-n", type=int, default=2000)
    parser.add_argument("--chem-n", type=int, default=100000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    device = hetflow.devices(args.device)[0]
    report = {"what": "hetflow's Python calls: wall time against the C++ work inside the same call and the "
                      "arrays' copies (medians)",
              "date": time.strftime("%Y-%m-%d"), "hetflow": f"{hetflow.__version__} ({hetflow.__commit__})", "python": platform.python_version(),
              "numpy": np.__version__, "device": {k: device[k] for k in ("name", "type", "platform", "driver")},
              "cases": []}
    for name, size, run in (("nnls tnt", args.nnls_n, nnls_case), ("reactor_batch h2o2", args.chem_n, chem_case)):
        walls, inner, transfer = run(size, args.device, args.repeats)
        wall, work, copies = statistics.median(walls), statistics.median(inner), statistics.median(transfer)
        rest = wall - work - copies
        report["cases"].append({"name": f"{name} n={size}", "wall_seconds": walls, "inner_seconds": inner,
                                "transfer_seconds": transfer, "median_wall": wall, "median_inner": work,
                                "median_transfer": copies, "overhead_percent": 100 * (wall - work) / work,
                                "beyond_transfer_percent": 100 * rest / work})
        print(f"{name} n={size}: wall {wall:.4f} s, C++ work {work:.4f} s, transfer {copies:.4f} s; overhead "
              f"{100 * (wall - work) / work:.2f} %, beyond the transfer {100 * rest / work:.2f} %", flush=True)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(report, indent=1) + "\n")
    print("wrote", args.output)


if __name__ == "__main__":
    main()
