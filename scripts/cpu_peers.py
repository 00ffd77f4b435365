#!/usr/bin/env python3
"""hetflow against the CPU tool a user would otherwise run, at equal accuracy on the same cores.

  pip install numbacs packaging   # NumbaCS 0.2 needs packaging too
  scripts/cpu_peers.py ftle --hetflow build/release/hetflow -o bench/results/cpu-NAME/ftle-peers.json

ftle: two flows. The double gyre (A 0.1, epsilon 0.25, omega 2 pi / 10) on NumbaCS's example grid, 401 x
201 seeds on [0, 2] x [0, 1], t0 = 0, T = -10; and the steady ABC flow (A sqrt 3, B sqrt 2, C 1; given
to NumbaCS as its own compiled right-hand side, since its predefined "abc" is another flow) on 64 x 64 x
16 seeds over the 2 pi cube, T = 8. The flow map of every setting is compared with a reference (NumbaCS's
DOP853 at rtol 1e-12, checked against hetflow's DOP853 at rtol 1e-13); for each accuracy asked for
(largest position error), each tool's fastest setting that reaches it is timed, as the median of
--repeats runs after a warm-up (NumbaCS's compilation and hetflow's kernel build are not counted):
NumbaCS's flow-map call with --threads Numba threads, hetflow's advection (manifest timings_s.stepping)
on one PoCL device of the same cores. Equal tolerances are not equal accuracy, so both sweep theirs.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

GYRE = {"name": "double gyre 401x201 T=-10", "t0": 0.0, "T": -10.0,
        "seeds": "  counts: [401, 201]\n", "flow": ""}
ABC = {"name": "abc 64x64x16 T=8", "t0": 0.0, "T": 8.0,
       "seeds": "  origin: [0, 0, 0]\n  extent: [6.283185307179586, 6.283185307179586, 6.283185307179586]\n"
                "  counts: [64, 64, 16]\n", "flow": "  flow: abc\n"}


def numbacs_runner(problem):
    """NumbaCS's flow map of `problem` as (seconds, positions in hetflow's layout: x fastest, last axis the
    components)."""
    from numbacs.integration import flowmap_grid_2D, flowmap_grid_ND

    if problem is GYRE:
        from numbacs.flows import get_predefined_flow

        funcptr, params, _ = get_predefined_flow("double_gyre", int_direction=np.sign(problem["T"]))
        x, y = np.linspace(0, 2, 401), np.linspace(0, 1, 201)

        def run(rtol, atol):
            start = time.perf_counter()
            # With int_direction -1 NumbaCS integrates s = -t from -t0 to -(t0 + T) of u(-s): T as signed.
            flowmap = flowmap_grid_2D(funcptr, problem["t0"], problem["T"], x, y, params, rtol=rtol, atol=atol)
            return time.perf_counter() - start, np.ascontiguousarray(flowmap.transpose(1, 0, 2))  # (ny, nx, 2)

        return run
    from math import cos, sin

    from numba import cfunc
    from numbalsoda import lsoda_sig

    @cfunc(lsoda_sig)
    def abc(t, y, dy, p):  # p: direction (NumbaCS scales time by it), A, B, C
        dy[0] = p[0] * (p[1] * sin(y[2]) + p[3] * cos(y[1]))
        dy[1] = p[0] * (p[2] * sin(y[0]) + p[1] * cos(y[2]))
        dy[2] = p[0] * (p[3] * sin(y[1]) + p[2] * cos(y[0]))

    params = np.array([1.0, 3**0.5, 2**0.5, 1.0])
    axes = [np.linspace(0, 2 * np.pi, n) for n in (64, 64, 16)]
    z, y, x = np.meshgrid(axes[2], axes[1], axes[0], indexing="ij")  # x fastest when flattened
    start_points = np.column_stack([x.ravel(), y.ravel(), z.ravel()]).ravel()

    def run(rtol, atol):
        start = time.perf_counter()
        flowmap = flowmap_grid_ND(abc.address, problem["t0"], problem["T"], start_points, 3, params, rtol=rtol,
                                  atol=atol)
        return time.perf_counter() - start, flowmap.reshape(16, 64, 64, 3)

    return run


def hetflow_runner(problem, exe, device, workdir):
    def run(label, ftle_keys):
        case = workdir / f"{label}.yaml"
        # hetflow never writes into an existing run folder (it picks label-2, ...): clear the last one.
        shutil.rmtree(workdir / label, ignore_errors=True)
        keys = "".join(f"  {k}: {v}\n" for k, v in ftle_keys.items())
        case.parent.mkdir(exist_ok=True)
        case.write_text(
            f"type: ftle\nftle:\n{problem['flow']}  t0: {problem['t0']}\n  duration: {problem['T']}\n{keys}"
            f"seeds:\n{problem['seeds']}output:\n  dir: {workdir / label}\n  vti: false\n  png: false\n  npy: true\n"
            "  flow_map: true\n"
        )
        subprocess.run([exe, "run", str(case), "--device", device, "-q"], check=True,
                       stdout=subprocess.DEVNULL, env={**os.environ, "POCL_DEVICES": "pthread"})
        manifest = json.loads((workdir / label / "manifest.json").read_text())
        return manifest["timings_s"]["stepping"], np.load(workdir / label / "flow_map.npy")

    return run


def timed(run, repeats, *args):
    """A warm-up, then the median time of `repeats` runs and the last flow map."""
    run(*args)
    times, flowmap = [], None
    for _ in range(repeats):
        seconds, flowmap = run(*args)
        times.append(seconds)
    return statistics.median(times), flowmap


def error(flowmap, reference):
    return float(np.max(np.abs(flowmap - reference)))


def fastest_at(name, accuracy, trials):
    """Each tool's fastest trial whose error is at most `accuracy`, and the speed ratio (None where a tool
    has none)."""
    best = {tool: min((t for t in ts if t["error"] <= accuracy), key=lambda t: t["seconds"], default=None)
            for tool, ts in trials.items()}
    ratio = best["numbacs"]["seconds"] / best["hetflow"]["seconds"] if all(best.values()) else None
    return {"problem": name, "accuracy": accuracy, "numbacs": best["numbacs"], "hetflow": best["hetflow"],
            "speedup_over_numbacs": ratio}


def compare(problem, args, workdir):
    """Both tools' sweeps of `problem` and, per accuracy, each one's fastest setting reaching it."""
    numbacs = numbacs_runner(problem)
    het = hetflow_runner(problem, args.hetflow, args.device, workdir / problem["name"].split()[0])
    print(problem["name"], "reference: NumbaCS DOP853 rtol 1e-12", flush=True)
    _, reference = numbacs(1e-12, 1e-14)
    span = abs(problem["T"])
    _, check = het("reference", {"integrator": "dop853", "dt": span, "rtol": 1e-13, "atol": 1e-15})
    trials = {"numbacs": [], "hetflow": []}
    for rtol in [10.0 ** -k for k in range(3, 12)]:
        seconds, flowmap = timed(numbacs, args.repeats, rtol, rtol * 1e-2)
        trials["numbacs"].append({"setting": f"dop853 rtol {rtol:g} atol {rtol * 1e-2:g}", "seconds": seconds,
                                  "error": error(flowmap, reference)})
        print("numbacs", trials["numbacs"][-1], flush=True)
    settings = [(f"rk4 {n} steps", {"integrator": "rk4", "steps": n}) for n in (25, 50, 100, 200, 400, 800, 1600)]
    for integrator in ("dopri5", "dop853"):
        settings += [(f"{integrator} rtol {10.0 ** -k:g}", {"integrator": integrator, "dt": span, "rtol": 10.0 ** -k,
                                                           "atol": 10.0 ** -(k + 2)}) for k in range(3, 12)]
    for label, keys in settings:
        seconds, flowmap = timed(het, args.repeats, label.replace(" ", "_"), keys)
        trials["hetflow"].append({"setting": label, "seconds": seconds, "error": error(flowmap, reference)})
        print("hetflow", trials["hetflow"][-1], flush=True)
    cases = [fastest_at(problem["name"], accuracy, trials) for accuracy in args.accuracy]
    for case in cases:
        print(case, flush=True)
    return {"cases": cases, "trials": trials,
            "reference_check": {"hetflow dop853 rtol 1e-13 vs reference": error(check, reference)}}


def ftle(args):
    os.environ["NUMBA_NUM_THREADS"] = str(args.threads)  # before Numba is imported
    workdir = Path(tempfile.mkdtemp(prefix="hetflow-peers-"))
    import numbacs as nb

    version = subprocess.run([args.hetflow, "--version"], capture_output=True, text=True).stdout.strip()
    report = {
        "date": time.strftime("%Y-%m-%d"),
        "hetflow": version,
        "what": "FTLE flow maps at equal accuracy (largest position error against NumbaCS DOP853 rtol 1e-12); "
                "each tool's fastest setting reaching it",
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "threads": args.threads},
        "versions": {"numbacs": getattr(nb, "__version__", "0.2.0"), "numpy": np.__version__,
                     "python": sys.version.split()[0]},
        "hetflow_device": args.device,
        "problems": {p["name"]: compare(p, args, workdir) for p in (GYRE, ABC)},
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(report, indent=1) + "\n")
    print("wrote", args.output)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    f = sub.add_parser("ftle", help="FTLE flow maps against NumbaCS")
    f.add_argument("--hetflow", required=True, help="the hetflow executable")
    f.add_argument("--device", default="cpu:0", help="hetflow's device (default cpu:0, one PoCL device)")
    f.add_argument("--threads", type=int, default=os.cpu_count(), help="NumbaCS's threads (default: every core)")
    f.add_argument("--repeats", type=int, default=3)
    f.add_argument("--accuracy", type=float, nargs="+", default=[1e-4, 1e-6, 1e-7])
    f.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    ftle(args)


if __name__ == "__main__":
    main()
