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

  pip install cantera   # 3.2
  scripts/cpu_peers.py chem --hetflow build/release/hetflow -o bench/results/cpu-NAME/chem-peers.json

chem: batches of partially burnt constant-pressure states at 1 atm (GRI-Mech 3.0 with CH4, H2/O2 with H2,
n-hexane (NUIG, --mechanisms hexane_nuig) with NC6H14; air
as oxidizer), each advanced over dt = 1e-4 s and 1e-6 s. State i starts fresh at T0 in [1000, 1500] K and phi
in [0.5, 1.5] (uniform, --seed) and is taken from Cantera's ignition trajectory where its temperature first
reaches T0 + c (T_end - T0), c uniform in [0, 1), T_end where the trajectory stops (T0 + 400 K, or 1 s):
fresh, reacting and igniting states side by side. The error of a run is the largest over the states of
|T - T_ref| / T_ref and |Y_k - Y_k,ref| (mass fractions), against Cantera at rtol 1e-13 (checked against
hetflow at rtol 1e-12). Cantera runs one process per core (--processes), each reusing one reactor and
network per state (state set, then ReactorNet.initial_time = 0), in two set-ups: the default
IdealGasConstPressureReactor (CVODES, dense finite-difference Jacobian) and the
IdealGasConstPressureMoleReactor with the AdaptivePreconditioner (sparse approximate Jacobian, GMRES);
hetflow runs reactor_batch on one device (by default one PoCL device of all the cores; on a GPU each state
--replicate times in one batch), timed by its manifest's integration seconds (kernel build excluded).
Each tool sweeps its settings (chem_settings), timed as the median of --repeats runs after an untimed
warm-up, and for each accuracy the fastest setting of each tool reaching it is compared.
"""
import argparse
import csv
import json
import multiprocessing
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


def report_header(args, what, machine, versions):
    """What every comparison records first: the date, hetflow's version, the machine and the peers' versions."""
    version = subprocess.run([args.hetflow, "--version"], capture_output=True, text=True).stdout.strip()
    return {"date": time.strftime("%Y-%m-%d"), "hetflow": version, "what": what,
            "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(), **machine},
            "versions": {**versions, "numpy": np.__version__, "python": sys.version.split()[0]},
            "hetflow_device": args.device}


MECHANISMS = {"gri30": ("gri30.yaml", "CH4:1"), "h2o2": ("h2o2.yaml", "H2:1"),
              "hexane_nuig": ("n-hexane-NUIG-2015.yaml", "NC6H14:1")}
AIR = "O2:1, N2:3.76"


def partly_burnt_states(mechanism, fuel, count, seed):
    """(T, mole fractions) of `count` states along Cantera ignition trajectories (the module's docstring)."""
    import cantera as ct

    rng = np.random.default_rng(seed)
    gas = ct.Solution(mechanism)
    states = []
    for _ in range(count):
        T0, phi, c = rng.uniform(1000, 1500), rng.uniform(0.5, 1.5), rng.uniform(0, 1)
        gas.set_equivalence_ratio(phi, fuel, AIR)
        gas.TP = T0, ct.one_atm
        reactor = ct.IdealGasConstPressureReactor(gas, clone=False)
        net = ct.ReactorNet([reactor])
        path = [(T0, gas.X.copy())]
        while reactor.T < T0 + 400 and net.time < 1.0:
            net.step()
            path.append((reactor.T, reactor.phase.X.copy()))
        target = T0 + c * (path[-1][0] - T0)
        states.append(next(p for p in path if p[0] >= target))
    return gas.species_names, states


_WORKER = {}


def _cantera_start(mechanism, setup):
    import cantera as ct

    _WORKER.update(ct=ct, gas=ct.Solution(mechanism), setup=setup)
    _cantera_network()


def _cantera_network():
    """A fresh reactor and network on the worker's gas: after a failed integration CVODES's network fails
    every state that follows, so a failure replaces them."""
    ct, setup = _WORKER["ct"], _WORKER["setup"]
    kind = ct.IdealGasConstPressureMoleReactor if setup == "preconditioned" else ct.IdealGasConstPressureReactor
    reactor = kind(_WORKER["gas"], clone=False)
    net = ct.ReactorNet([reactor])
    if setup == "preconditioned":
        net.preconditioner = ct.AdaptivePreconditioner()
    _WORKER.update(reactor=reactor, net=net)


def _cantera_chunk(task):
    """Final (T, Y) of each state of the chunk; NaN for a state whose integration failed."""
    states, dt, rtol, atol = task
    gas = _WORKER["gas"]
    out = []
    for T, X in states:
        reactor, net = _WORKER["reactor"], _WORKER["net"]
        net.rtol, net.atol = rtol, atol
        gas.TPX = T, _WORKER["ct"].one_atm, X
        reactor.syncState()
        net.initial_time = 0.0
        try:
            net.advance(dt)
            out.append(np.r_[reactor.T, reactor.phase.Y])
        except _WORKER["ct"].CanteraError:  # a failed state reaches no accuracy (state_error)
            out.append(np.full(len(gas.Y) + 1, np.nan))
            _cantera_network()
    return out


def cantera_runner(mechanism, states, processes, setup, limit):
    """Cantera's run of the states at dt with a setting, in `processes` worker processes: its seconds and the
    final states. A run past `limit` seconds is stopped (its workers replaced) and reaches no accuracy:
    CVODES with iterative solves can crawl for many minutes through a single state."""
    chunks = [states[i::processes] for i in range(processes)]
    pools = [multiprocessing.get_context("fork").Pool(processes, _cantera_start, (mechanism, setup))]

    def run(dt, setting):
        start = time.perf_counter()
        work = pools[0].map_async(_cantera_chunk, [(chunk, dt, setting["rtol"], setting["atol"]) for chunk in chunks])
        final = np.full((len(states), len(states[0][1]) + 1), np.nan)
        try:
            parts = work.get(limit)
        except multiprocessing.TimeoutError:
            pools[0].terminate()
            pools[0] = multiprocessing.get_context("fork").Pool(processes, _cantera_start, (mechanism, setup))
            return time.perf_counter() - start, final
        seconds = time.perf_counter() - start
        for i, part in enumerate(parts):
            final[i::processes] = np.array(part)
        return seconds, final

    return pools, run


def hetflow_chem_runner(mechanism, fuel, states_csv, count, species, args, workdir):
    """hetflow's run of the states (each --replicate times, to fill a GPU) at dt with `solver` keys: its
    integration seconds per state of the file, and the final states of the first copy."""

    def run(dt, solver):
        label = "run_" + "_".join(f"{v:g}" for v in (dt, *solver.values()))
        shutil.rmtree(workdir / label, ignore_errors=True)
        case = workdir / f"{label}.yaml"
        keys = "".join(f"  {k}: {v!r}\n" for k, v in solver.items())
        # The fuel names the trajectories' main species, which a batch from a file does not write.
        case.write_text(f"type: reactor_batch\nmechanism:\n  file: {mechanism}\nmixture:\n  fuel: \"{fuel}\"\n"
                        f"batch:\n  file: {states_csv}\n  dt: {dt!r}\nsolver:\n{keys}"
                        f"output:\n  dir: {workdir / label}\n")
        subprocess.run([args.hetflow, "run", str(case), "--device", args.device, "-q"], check=True,
                       stdout=subprocess.DEVNULL)
        manifest = json.loads((workdir / label / "manifest.json").read_text())
        with open(workdir / label / "final_states.csv") as f:
            header = next(csv.reader([f.readline()]))
            # A failed system's cells are empty: NaN here, so its run reaches no accuracy.
            table = np.genfromtxt(f, delimiter=",", usecols=range(3 + len(species)), ndmin=2, max_rows=count)
        columns = [header.index("T_K")] + [header.index("Y_" + s) for s in species]
        return manifest["result"]["integration_seconds"] / args.replicate, table[:, columns]

    return run


def state_error(final, reference):
    """The largest relative T error and absolute Y error; None where a state failed (NaN)."""
    if np.isnan(final).any():
        return None
    return float(max(np.max(np.abs(final[:, 0] - reference[:, 0]) / reference[:, 0]),
                     np.max(np.abs(final[:, 1:] - reference[:, 1:]))))


def chem_settings(tool, args):
    """Each tool's sweep: rtol in half decades, two atol each; hetflow also RADAU5's Jacobian reuse threshold
    (thet, Hairer & Wanner's advice for costly Jacobians) and its first step (h0, which RADAU5 takes from
    its user), as --hetflow-rtol-decades, --hetflow-rtol-step, --hetflow-atol, --hetflow-thet and --hetflow-h0 choose (on a GPU,
    where each run takes seconds, fewer). The preconditioned Cantera set-up, the slower one at every setting
    measured, in whole decades down to 1e-9 (its iterative solves can crawl through single GRI-Mech 3.0
    states: cantera_runner's limit)."""
    def decades(first, last, step):  # 10^-first ... 10^-last as Python floats (YAML and JSON take them)
        return [float(10.0 ** -e) for e in np.arange(first, last + step / 2, step)]

    if tool == "hetflow":
        first, last = args.hetflow_rtol_decades
        return [{"rtol": r, "atol": r * a, "thet": t, "h0": h} for r in decades(first, last, args.hetflow_rtol_step)
                for a in args.hetflow_atol for t in args.hetflow_thet for h in args.hetflow_h0]
    if tool == "cantera dense":
        return [{"rtol": r, "atol": a} for r in decades(3, 11, 0.5) for a in (1e-15, r * 1e-4)]
    return [{"rtol": r, "atol": a} for r in decades(3, 9, 1) for a in (1e-15, r * 1e-4)]


def compare_chem(name, dt, tools, reference, args):
    """Every tool's sweep at dt and, per accuracy, each one's fastest setting reaching it."""
    trials = {}
    for tool, run in tools.items():
        trials[tool] = []
        for setting in chem_settings(tool, args):
            runs = [run(dt, setting) for _ in range(args.repeats)]
            seconds, final = statistics.median(r[0] for r in runs), runs[-1][1]
            trials[tool].append({"setting": setting, "seconds_per_state": seconds / len(reference),
                                 "states_per_second": len(reference) / seconds, "error": state_error(final, reference)})
            print(name, dt, tool, trials[tool][-1], flush=True)
    cases = []
    for accuracy in args.accuracy:
        best = {tool: min((t for t in ts if t["error"] is not None and t["error"] <= accuracy),
                          key=lambda t: t["seconds_per_state"], default=None) for tool, ts in trials.items()}
        peers = [b for tool, b in best.items() if tool != "hetflow" and b]
        ratio = (min(p["seconds_per_state"] for p in peers) / best["hetflow"]["seconds_per_state"]
                 if peers and best["hetflow"] else None)
        cases.append({"mechanism": name, "dt": dt, "accuracy": accuracy, **best, "speedup_over_cantera": ratio})
        print(cases[-1], flush=True)
    return {"cases": cases, "trials": trials}


def chem(args):
    import cantera as ct

    workdir = Path(tempfile.mkdtemp(prefix="hetflow-chem-peers-"))
    data = Path(__file__).resolve().parent.parent / "data" / "mechanisms"
    report = report_header(args, "constant-pressure reactor batches at equal accuracy (largest |dT|/T and |dY| "
                                 "against Cantera at rtol 1e-13); each tool's fastest setting reaching it",
                           {"processes": args.processes}, {"cantera": ct.__version__})
    report.update({"states": args.states, "seed": args.seed, "mechanisms": {}})
    for name in args.mechanisms:
        file, fuel = MECHANISMS[name]
        species, states = partly_burnt_states(str(data / file), fuel, args.states, args.seed)
        states_csv = workdir / f"{name}_states.csv"
        with open(states_csv, "w") as f:
            csv.writer(f, lineterminator="\n").writerow(["T", "p", *species])  # quotes names with commas
            for _ in range(args.replicate):
                for T, X in states:
                    f.write(f"{T!r},1," + ",".join(repr(float(x)) for x in X) + "\n")
        het = hetflow_chem_runner(data / file, fuel, states_csv, len(states), species, args, workdir)
        pools, tools = [], {}
        for setup in ("dense", "preconditioned"):
            pool, run = cantera_runner(str(data / file), states, args.processes, setup, args.cantera_limit)
            pools.append(pool)
            tools[f"cantera {setup}"] = run
        tools["hetflow"] = het
        report["mechanisms"][name] = {}
        for dt in args.dt:
            _, reference = tools["cantera dense"](dt, {"rtol": 1e-13, "atol": 1e-20})
            for tool, run in tools.items():  # a warm-up, not timed; it also builds hetflow's kernels
                run(dt, chem_settings(tool, args)[0])
            result = compare_chem(name, dt, tools, reference, args)
            if not args.no_check:
                _, check = het(dt, {"rtol": 1e-12, "atol": 1e-16})
                result["reference_check"] = {"hetflow rtol 1e-12 atol 1e-16 vs reference":
                                             state_error(check, reference)}
            report["mechanisms"][name][f"dt={dt:g}"] = result
            write_report(report, args.output)  # after every comparison, so a stopped run keeps what it has
        for pool in pools:
            pool[0].terminate()
    print("wrote", args.output)


def write_report(report, output):
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    Path(output).write_text(json.dumps(report, indent=1) + "\n")


def ftle(args):
    os.environ["NUMBA_NUM_THREADS"] = str(args.threads)  # before Numba is imported
    workdir = Path(tempfile.mkdtemp(prefix="hetflow-peers-"))
    import numbacs as nb

    report = report_header(args, "FTLE flow maps at equal accuracy (largest position error against NumbaCS DOP853 "
                                 "rtol 1e-12); each tool's fastest setting reaching it",
                           {"threads": args.threads}, {"numbacs": getattr(nb, "__version__", "0.2.0")})
    report["problems"] = {p["name"]: compare(p, args, workdir) for p in (GYRE, ABC)}
    write_report(report, args.output)
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
    c = sub.add_parser("chem", help="reactor batches against Cantera")
    c.add_argument("--hetflow", required=True, help="the hetflow executable")
    c.add_argument("--device", default="cpu:0", help="hetflow's device (default cpu:0, one PoCL device)")
    c.add_argument("--processes", type=int, default=os.cpu_count(), help="Cantera's processes (default: every core)")
    c.add_argument("--states", type=int, default=1000)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--repeats", type=int, default=1, help="timed runs per setting (their median)")
    c.add_argument("--replicate", type=int, default=1,
                   help="hetflow integrates every state this many times in one batch (a GPU needs 1e5 systems)")
    c.add_argument("--cantera-limit", type=float, default=120,
                   help="seconds after which a Cantera run is stopped and counts as failed")
    c.add_argument("--no-check", action="store_true",
                   help="skip hetflow's check of the reference at rtol 1e-12 (a minute per comparison on a GPU)")
    c.add_argument("--hetflow-rtol-decades", type=float, nargs=2, default=[3, 9], metavar=("FIRST", "LAST"),
                   help="hetflow's rtol from 10^-FIRST to 10^-LAST")
    c.add_argument("--hetflow-rtol-step", type=float, default=0.5, help="decades between hetflow's rtol values")
    c.add_argument("--hetflow-atol", type=float, nargs="+", default=[1e-4, 1e-6], help="hetflow's atol / rtol values")
    c.add_argument("--hetflow-thet", type=float, nargs="+", default=[0.001, 0.01], help="hetflow's thet values")
    c.add_argument("--hetflow-h0", type=float, nargs="+", default=[1e-10], help="hetflow's first steps [s]")
    c.add_argument("--accuracy", type=float, nargs="+", default=[1e-6, 1e-8])
    c.add_argument("--mechanisms", nargs="+", default=["gri30", "h2o2"])
    c.add_argument("--dt", type=float, nargs="+", default=[1e-4, 1e-6])
    c.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    ftle(args) if args.what == "ftle" else chem(args)


if __name__ == "__main__":
    main()
