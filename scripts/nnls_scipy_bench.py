#!/usr/bin/env python3
"""Times scipy.optimize.nnls on the problems `hetflow bench nnls` kept, for the comparison the
benchmark binary cannot make itself.

    HETFLOW_BENCH_KEEP_PROBLEMS=/tmp/nnls-problems hetflow bench nnls --device gpu
    scripts/nnls_scipy_bench.py /tmp/nnls-problems bench/results/nvidia-h200/nnls.json

reads PROBLEMS/problems.json (the matrices and right-hand sides with n <= 5000, written as .npy, with
the medians hetflow measured on each: the SVC series and the problem families, which carry a "family")
and writes scipy.json beside the bench JSON: one case per problem with the median, min and max of the
timed runs, the relative error against the known solution and the speedup of hetflow's TNT. A size is
skipped when the last one of its family and active fraction predicts, by n^4 (Lawson-Hanson releases one
variable per iteration and refactors), a run over --cap seconds. With --processes P, the problems of one
size run P at a time, each process with one BLAS thread (say so beside the numbers: P processes share
the memory bandwidth and the clock).
"""
import argparse
import datetime
import json
import multiprocessing
import os
import pathlib
import platform
import time

import numpy as np
import scipy
from scipy.optimize import nnls


def timed_runs(A, b, cap, budget, max_repeats):
    """Seconds of each run and the last solution: runs fill about `budget`, one at least."""
    seconds, x = [], None
    while True:
        start = time.perf_counter()
        x, _ = nnls(A, b, maxiter=3 * A.shape[1])
        seconds.append(time.perf_counter() - start)
        if sum(seconds) + seconds[-1] > budget or len(seconds) >= max_repeats or seconds[-1] > cap:
            return seconds, x


def solve_problem(task):
    """One problem's timed runs, in a worker or in the main process: (problem, seconds, relative error, residual, m)."""
    folder, prob, cap, budget, repeats = task
    A = np.load(folder / prob["A"])
    b = np.load(folder / prob["b"])
    x_true = np.load(folder / prob["x"])
    seconds, x = timed_runs(A, b, cap, budget, repeats)
    return (prob, seconds, float(np.linalg.norm(x - x_true) / np.linalg.norm(x_true)),
            float(np.linalg.norm(A @ x - b)), A.shape[0])


def write_result(bench_json, listing, skipped, cases):
    """scipy.json beside the bench JSON, rewritten after every case so that a run cut short keeps what it timed."""
    result = {
        "benchmark": "nnls-scipy",
        "device": f"host: {platform.processor() or platform.machine()}",
        "hetflow_device": listing.get("device"),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "timed": "wall clock of scipy.optimize.nnls(A, b, maxiter=3n)",
        "skipped": skipped,
        "cases": cases,
    }
    out = pathlib.Path(bench_json).parent / "scipy.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("problems", help="the folder HETFLOW_BENCH_KEEP_PROBLEMS named")
    p.add_argument("bench_json", help="the bench's nnls.json; scipy.json goes beside it")
    p.add_argument("--cap", type=float, default=60.0, help="longest predicted single run in s (default 60)")
    p.add_argument("--budget", type=float, default=10.0, help="seconds of repeats per problem (default 10)")
    p.add_argument("--repeats", type=int, default=5, help="most runs per problem (default 5)")
    p.add_argument("--processes", type=int, default=1,
                   help="problems of one size solved at once, one BLAS thread each (default 1)")
    args = p.parse_args()

    folder = pathlib.Path(args.problems)
    listing = json.loads((folder / "problems.json").read_text())
    pool = None
    if args.processes > 1:
        # Spawned workers import numpy afresh, after these settings.
        os.environ.update({k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")})
        pool = multiprocessing.get_context("spawn").Pool(args.processes)
    listing["scipy_processes"] = args.processes
    cases, skipped, last = [], [], {}  # last: (family, active fraction) -> (n, seconds)
    for n in sorted({q["n"] for q in listing["problems"]}):
        tasks = []
        for prob in sorted((q for q in listing["problems"] if q["n"] == n),
                           key=lambda q: (q.get("family", ""), q["active_fraction"])):
            group = (prob.get("family", ""), prob["active_fraction"])
            if group in last:
                n0, t0 = last[group]
                predicted = t0 * (n / n0) ** 4
                if predicted > args.cap:
                    print(f"skipping {group[0]} n={n} active={group[1]:.0%}: one run would take about {predicted:.3g} s")
                    skipped.append({"family": group[0], "n": n, "active_fraction": group[1], "predicted_s": predicted})
                    continue
            tasks.append(prob)
        work = [(folder, prob, args.cap, args.budget, args.repeats) for prob in tasks]
        # Unordered: a run cut short keeps every problem that finished, not only those before the slowest.
        results = pool.imap_unordered(solve_problem, work) if pool else map(solve_problem, work)
        for prob, seconds, error, residual, m in results:
            family, fraction = prob.get("family", ""), prob["active_fraction"]
            median = float(np.median(seconds))
            last[(family, fraction)] = (n, median)
            params = {k: v for k, v in prob.items() if k not in ("A", "b", "x", "seconds", "n", "active_fraction")}
            params.update({"n": n, "m": m, "active_fraction": fraction, "relative_error_x": error,
                           "residual_norm": residual, "hetflow_seconds": prob["seconds"],
                           "processes": args.processes})
            if "tnt" in prob["seconds"]:
                params["tnt_speedup"] = median / prob["seconds"]["tnt"]
            name = f"scipy-nnls{' ' + family if family else ''} n={n} active={fraction * 100:g}%"
            cases.append({"name": name, "unit": "s", "value": median, "median": median, "min": min(seconds),
                          "max": max(seconds), "repeats": len(seconds), "bytes_per_unit": 0, "efficiency": 0,
                          "params": params})
            print(f"{name}: {median:.4g} s (error {error:.1e})", flush=True)
            print(f"wrote {write_result(args.bench_json, listing, skipped, cases)}", flush=True)
    write_result(args.bench_json, listing, skipped, cases)
    if pool:
        pool.close()


if __name__ == "__main__":
    main()
