#!/usr/bin/env python3
"""hetflow against the CPU tool a user would otherwise run, at equal accuracy on the same cores.

  pip install numbacs packaging   # NumbaCS 0.2 needs packaging too
  scripts/cpu_peers.py ftle --hetflow build/release/hetflow -o bench/results/cpu-NAME/ftle-peers.json

ftle: the double gyre (A 0.1, epsilon 0.25, omega 2 pi / 10) on NumbaCS's example grid, 401 x 201 seeds
on [0, 2] x [0, 1], t0 = 0, T = -10. The flow map of every setting is compared with a reference (NumbaCS's
DOP853 at rtol 1e-12, checked against hetflow's DOP853 at rtol 1e-13); for each accuracy asked for
(largest position error), each tool's fastest setting that reaches it is timed, as the median of
--repeats runs after a warm-up (NumbaCS's compilation and hetflow's kernel build are not counted):
NumbaCS's flowmap_grid_2D with --threads Numba threads, hetflow's advection (manifest timings_s.stepping)
on one PoCL device of the same cores. Equal tolerances are not equal accuracy, so both sweep theirs.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

NX, NY = 401, 201
T0, T = 0.0, -10.0


def numbacs_runner(threads):
    os.environ["NUMBA_NUM_THREADS"] = str(threads)
    from numbacs.flows import get_predefined_flow
    from numbacs.integration import flowmap_grid_2D

    funcptr, params, _ = get_predefined_flow("double_gyre", int_direction=np.sign(T))
    x, y = np.linspace(0, 2, NX), np.linspace(0, 1, NY)

    def run(rtol, atol):
        start = time.perf_counter()
        # With int_direction -1 NumbaCS integrates s = -t from -t0 to -(t0 + T) of u(-s): T as signed.
        flowmap = flowmap_grid_2D(funcptr, T0, T, x, y, params, rtol=rtol, atol=atol)
        return time.perf_counter() - start, np.ascontiguousarray(flowmap.transpose(1, 0, 2))  # (ny, nx, 2)

    return run


def hetflow_runner(exe, device, workdir):
    def run(label, ftle_keys):
        case = workdir / f"{label}.yaml"
        keys = "".join(f"  {k}: {v}\n" for k, v in ftle_keys.items())
        case.write_text(
            f"type: ftle\nftle:\n  t0: {T0}\n  duration: {T}\n{keys}seeds:\n  counts: [{NX}, {NY}]\n"
            f"output:\n  dir: {workdir / label}\n  vti: false\n  png: false\n  npy: true\n  flow_map: true\n"
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


def ftle(args):
    workdir = Path(tempfile.mkdtemp(prefix="hetflow-peers-"))
    numbacs = numbacs_runner(args.threads)
    het = hetflow_runner(args.hetflow, args.device, workdir)
    print("reference: NumbaCS DOP853 rtol 1e-12", flush=True)
    _, reference = numbacs(1e-12, 1e-14)
    _, check = het("reference", {"integrator": "dop853", "dt": abs(T), "rtol": 1e-13, "atol": 1e-15})
    trials = {"numbacs": [], "hetflow": []}
    for rtol in [10.0 ** -k for k in range(3, 12)]:
        seconds, flowmap = timed(numbacs, args.repeats, rtol, rtol * 1e-2)
        trials["numbacs"].append({"setting": f"dop853 rtol {rtol:g} atol {rtol * 1e-2:g}", "seconds": seconds,
                                  "error": error(flowmap, reference)})
        print("numbacs", trials["numbacs"][-1], flush=True)
    settings = [(f"rk4 {n} steps", {"integrator": "rk4", "steps": n}) for n in (25, 50, 100, 200, 400, 800, 1600)]
    for integrator in ("dopri5", "dop853"):
        settings += [(f"{integrator} rtol {10.0 ** -k:g}", {"integrator": integrator, "dt": abs(T), "rtol": 10.0 ** -k,
                                                           "atol": 10.0 ** -(k + 2)}) for k in range(3, 12)]
    for label, keys in settings:
        seconds, flowmap = timed(het, args.repeats, label.replace(" ", "_"), keys)
        trials["hetflow"].append({"setting": label, "seconds": seconds, "error": error(flowmap, reference)})
        print("hetflow", trials["hetflow"][-1], flush=True)
    cases = []
    for accuracy in args.accuracy:
        best = {tool: min((t for t in ts if t["error"] <= accuracy), key=lambda t: t["seconds"], default=None)
                for tool, ts in trials.items()}
        ratio = best["numbacs"]["seconds"] / best["hetflow"]["seconds"] if all(best.values()) else None
        cases.append({"accuracy": accuracy, "numbacs": best["numbacs"], "hetflow": best["hetflow"],
                      "speedup_over_numbacs": ratio})
        print(f"accuracy {accuracy:g}: {cases[-1]}", flush=True)
    import numbacs as nb
    version = subprocess.run([args.hetflow, "--version"], capture_output=True, text=True).stdout.strip()
    report = {
        "date": time.strftime("%Y-%m-%d"),
        "hetflow": version,
        "what": "FTLE flow map of the double gyre, 401 x 201 seeds, t0 0, T -10, at equal accuracy (largest "
                "position error against NumbaCS DOP853 rtol 1e-12); each tool's fastest setting reaching it",
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "threads": args.threads},
        "versions": {"numbacs": getattr(nb, "__version__", "0.2.0"), "numpy": np.__version__,
                     "python": sys.version.split()[0]},
        "hetflow_device": args.device,
        "reference_check": {"hetflow dop853 rtol 1e-13 vs reference": error(check, reference)},
        "cases": cases,
        "trials": trials,
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
    f.add_argument("--accuracy", type=float, nargs="+", default=[1e-4, 1e-7])
    f.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    ftle(args)


if __name__ == "__main__":
    main()
