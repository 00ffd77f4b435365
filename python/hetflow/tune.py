"""hetflow.tune: the run-time autotuner, as `hetflow tune` runs it (docs/tune.md)."""
import os
from dataclasses import dataclass
from typing import Optional, Sequence

from . import _hetflow
from ._interrupt import stopped
from ._progress import progress_argument

_CLASS_OPTIONS = ("problem_class", "kappa", "active", "problems", "objective")


@dataclass
class TuneResult:
    """A finished tuning, stored in the tuning database as `hetflow tune` stores it.

    best: the best setting found ({parameter: value as text}); best_cost: its cost in cost_unit ("s": the
    median seconds of a timed run; else a count of work); best_rate: its figure of merit in rate_unit (e.g.
    MLUPs/s) where the tunable has one; defaults and defaults_cost: what runs untuned, and its cost where
    it was measured; best_over_mean, best_over_worst: the speed-up of the best over the mean and the worst
    setting measured; trials: every setting measured, in order ({setting, cost, failure}); search:
    "exhaustive" or "annealing"; space_size: the feasible settings (0 when a parameter is continuous);
    database: the file the best was written to."""

    name: str
    problem: str
    devices: str
    search: str
    space_size: int
    best: dict
    best_cost: float
    cost_unit: str
    best_rate: Optional[float]
    rate_unit: str
    defaults: dict
    defaults_cost: Optional[float]
    best_over_mean: float
    best_over_worst: float
    trials: list
    database: str


def tunables() -> list:
    """What can be tuned: a dict per tunable with its name, what it tunes (help), and what size, storage and
    case mean for it (empty: it takes none; fp16 says whether storage may be "fp16"), how it uses several
    devices (every_device) and whether it chooses among them (chooses_devices)."""
    return _hetflow._tunables()


def _positive_int(name, value, lowest, highest):
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= highest:
        raise ValueError(f"{name} = {value!r}: expected an integer in {lowest} .. {highest}")
    return value


def tune(name: str, *, device: str = "auto", size: Optional[int] = None, storage: Optional[str] = None,
         case=None, repeats: int = 5, search: Optional[str] = None, budget: Optional[int] = None,
         database=None, seed: int = 1, problem_class: Optional[str] = None, kappa: Optional[Sequence[float]] = None,
         active: Optional[Sequence[float]] = None, problems: Optional[Sequence[tuple]] = None,
         objective: Optional[str] = None, progress=True) -> TuneResult:
    """Tunes one of hetflow's kernels on a device and stores the best setting in the tuning database, where
    every later run on that device finds it (as `hetflow tune NAME`; hetflow.tunables() lists the names).

    device: a device selection as in the CLI (the first selected device is tuned, unless the tunable uses
    several); size, storage, case: what the tunable says they mean (None: its default); repeats: timed
    runs per setting after one warm-up; search: "exhaustive" or "annealing" (None: exhaustive when the
    space fits the budget); budget: settings measured at most; database: the tuning database's path (None:
    $HETFLOW_TUNING_DB, else the user's cache); seed: annealing's seed. nnls-constants only: problem_class
    (required there), kappa, active, problems ([(A file, b file), ...]) and objective ("time" or "work").
    progress: True shows the CLI's display once the call has taken a second, False nothing, a callable gets
    (settings measured, most settings to measure) after each.
    Returns a TuneResult. A Ctrl-C stops after the setting being measured, stores nothing and raises
    KeyboardInterrupt; its .trials holds the settings measured."""
    known = {t["name"]: t for t in tunables()}
    if name not in known:
        raise ValueError(f"name = {name!r}: expected one of {', '.join(known)}")
    target = known[name]
    request = _hetflow._TuneRequest()
    request.name, request.device, request.seed = name, device, seed
    request.repeats = _positive_int("repeats", repeats, 1, 1000)
    if size is not None:
        if not target["size"]:
            raise ValueError(f"size: tune {name!r} takes no size")
        request.size = _positive_int("size", size, 4, 10_000_000)
    if storage is not None:
        precisions = ("fp64", "fp32", "fp16") if target["fp16"] else ("fp64", "fp32")
        if not target["storage"] or storage not in precisions:
            raise ValueError(f"storage = {storage!r}: tune {name!r} takes "
                             + (" or ".join(precisions) if target["storage"] else "no storage"))
        request.storage = storage
    if case is not None:
        if not target["case"]:
            takers = [t for t, v in known.items() if v["case"]]
            raise ValueError(f"case: tune {name!r} takes no case file ({', '.join(takers)} only)")
        if not os.path.isfile(case):
            raise ValueError(f"case = {str(case)!r}: no such file")
        request.case_file = os.fspath(case)
    if search is not None:
        if search not in ("exhaustive", "annealing"):
            raise ValueError(f"search = {search!r}: expected 'exhaustive' or 'annealing'")
        request.search = search
    if budget is not None:
        request.budget = _positive_int("budget", budget, 1, 10**9)
    if database is not None:
        request.db = os.fspath(database)
    given = [k for k, v in zip(_CLASS_OPTIONS, (problem_class, kappa, active, problems, objective)) if v is not None]
    if given and name != "nnls-constants":
        raise ValueError(f"{', '.join(given)}: for tune 'nnls-constants' only")
    if problem_class is not None:
        request.problem_class = problem_class
    if kappa is not None:
        request.kappas = [float(k) for k in kappa]
    if active is not None:
        request.active = [float(a) for a in active]
    if problems is not None:
        pairs = [tuple(p) for p in problems]
        if any(len(p) != 2 for p in pairs):
            raise ValueError("problems: expected pairs (matrix file, right-hand-side file)")
        request.problems = [os.fspath(f) for p in pairs for f in p]
    if objective is not None:
        if objective not in ("time", "work"):
            raise ValueError(f"objective = {objective!r}: expected 'time' or 'work'")
        request.objective = objective
    out, trials, interrupted = _hetflow._tune(request, progress_argument(progress))
    if interrupted:
        raise stopped(f"hetflow.tune: interrupted after {len(trials)} settings; nothing was stored (the settings "
                      "measured are this exception's .trials)", trials=trials)
    defaults_cost = next((t["cost"] for t in trials if t["setting"] == out["defaults"] and t["cost"] is not None), None)
    return TuneResult(trials=trials, defaults_cost=defaults_cost, **out)
