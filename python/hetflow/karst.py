"""hetflow.karst_outlets and hetflow.karst_inversion: batched forward runs of the karst-conduit transport model
and the inversion of its heat parameters from an observed outlet (docs/karst.md)."""
import json
from dataclasses import dataclass

import numpy as np

from . import _hetflow
from ._arrays import real_array
from ._interrupt import stopped
from ._progress import progress_argument


def _series(name, series):
    """(t*, value) as two lists: from a tuple of two 1-D arrays, or (n, 2) rows (an array or nested lists)."""
    if isinstance(series, tuple) and len(series) == 2:
        t, value = (real_array(f"{name}[{k}]", np.asarray(series[k], dtype=float), (1,), order="C") for k in (0, 1))
    else:
        # Nested lists of numbers are converted; arrays keep the package's rule (float64 only).
        pairs = real_array(name, np.asarray(series, dtype=float) if isinstance(series, list) else series, (2,),
                           order="C")
        if pairs.shape[1] != 2:
            raise ValueError(f"{name}: shape {pairs.shape}: expected (n, 2) rows of t*, value, or a tuple (t, value)")
        t, value = pairs[:, 0], pairs[:, 1]
    if t.shape != value.shape:
        raise ValueError(f"{name}: {t.size} times and {value.size} values: expected one value per time")
    return t.tolist(), value.tolist()


def karst_outlets(inlet, velocity, times, *, model: str = "heat", Pe=2000.0, St=10.0, Theta=4.5, Da=0.0,
                  Psi: float = 2.235, device: str = "auto", progress=True, **grid_keys) -> np.ndarray:
    """The outlet series of the karst-conduit model (Myre 2013, Ch. 4) for many parameter sets at once.

    inlet, velocity: the driving series in dimensionless time, each (n, 2) rows of (t*, value) (an array or nested
    lists) or a tuple (t*, values); the velocity v* = V(t)/V̄ > 0. times: the step ends t*_1 < ... < t*_K (t* > 0), inside
    both series. model: "heat" (water and rock: Pe, St, Theta, Psi) or "solute" (water: Pe, Da).
    Pe, St, Theta, Da: numbers or arrays, broadcast together to the parameter sets; Psi: one number.
    grid_keys: the case file's `grid:` keys (nodes, rock_nodes, rock_extent, outlet, far_field, initial;
    docs/karst.md), with the same defaults and checks.
    progress: True shows the CLI's display once the call has taken a second, False nothing, a callable
    gets (sets done, sets) between batches. A Ctrl-C stops after the batch in flight and raises
    KeyboardInterrupt; its .result holds the outlets of the sets done (their rows).
    Returns the outlets, shape (sets, K) (a 0-D Pe ... gives one set); the same values as a `type: karst`
    case's outlet.csv, bit for bit."""
    if model not in ("heat", "solute"):
        raise ValueError(f"model = {model!r}: expected 'heat' or 'solute'")
    groups = np.broadcast_arrays(*(np.atleast_1d(np.asarray(g, dtype=float)) for g in (Pe, St, Theta)),
                                 np.atleast_1d(np.asarray(Psi, dtype=float)), np.atleast_1d(np.asarray(Da, dtype=float)))
    if groups[0].ndim != 1:
        raise ValueError("Pe, St, Theta and Da: expected numbers or 1-D arrays of the parameter sets")
    if np.asarray(Psi).ndim != 0:
        raise ValueError("Psi: expected one number for every set (as the case's model.psi)")
    sets = np.column_stack(groups).tolist()
    step_ends = real_array("times", np.atleast_1d(np.asarray(times, dtype=float)), (1,), order="C").tolist()
    case = json.dumps({"type": "karst_outlets", "grid": grid_keys}, indent=1)
    outlets, interrupted = _hetflow._karst_outlets(*_series("inlet", inlet), *_series("velocity", velocity),
                                                   step_ends, sets, model, case, device, progress_argument(progress))
    if interrupted:
        raise stopped(f"hetflow.karst_outlets: interrupted after {len(outlets)} of {len(sets)} sets (their outlets "
                      "are this exception's .result)", result=outlets)
    return outlets


@dataclass
class KarstInversionResult:
    """An inversion's outcome, as a `type: karst_inversion` case's inversion.json and fit.csv hold it.

    parameters, sigma: {"Pe", "St", "Theta"}: the best point and one standard deviation of each (None where
    the Gauss-Newton covariance could not be formed); rms: the RMS misfit there; noise: the observations'
    standard deviation used (given, or estimated from the residuals); t, fit: the fitted outlet at the
    observation times; converged, stop_reason, iterations, evaluations, forward_runs: how the method ended;
    summary: the whole of inversion.json."""

    parameters: dict
    sigma: dict
    rms: float
    noise: float
    t: np.ndarray
    fit: np.ndarray
    converged: bool
    stop_reason: str
    iterations: int
    evaluations: int
    forward_runs: int
    summary: dict


def karst_inversion(inlet, velocity, observed, *, substeps: int = 1, method: str = "nlcg",
                    start=(2000.0, 10.0, 4.5), lower=(1900.0, 0.75, 0.1), upper=(2050.0, 20.0, 6.0),
                    Psi: float = 2.235, noise: float = 0.0, max_evaluations: int = 1000, on_failure: str = "stop",
                    device: str = "auto", progress=True, **grid_keys) -> KarstInversionResult:
    """(Pe, St, Theta) of the karst heat model from an observed outlet series (Myre 2013, Ch. 7), as a
    `type: karst_inversion` case finds them (docs/karst.md).

    inlet, velocity, observed: series as for karst_outlets ((n, 2) rows of (t*, value) or a tuple); the
    observations at t* > 0, increasing. substeps: model steps per observation interval. method: "nlcg" or
    "lm" (Levenberg-Marquardt); start, lower, upper: [Pe, St, Theta]; Psi: the heat capacity ratio (not
    inverted); noise: the observations' standard deviation (0: estimated from the residuals);
    max_evaluations: the method's budget of forward runs; on_failure: "stop" or "skip" a failed forward
    run. grid_keys: the case's `grid:` keys, with its defaults and checks.
    progress: True shows the CLI's display once the call has taken a second, False nothing, a callable gets
    (evaluations so far, max_evaluations) before each batch; an exception it raises ends the method at its
    best point. A Ctrl-C does the same and raises KeyboardInterrupt; its .result holds that point's
    KarstInversionResult. Returns a KarstInversionResult equal to the case's inversion.json (but its
    seconds)."""
    if isinstance(substeps, bool) or not isinstance(substeps, int) or substeps < 1:
        raise ValueError(f"substeps = {substeps!r}: expected an integer >= 1")
    keys = {"method": method, "start": list(start), "lower": list(lower), "upper": list(upper), "psi": Psi,
            "noise": noise, "max_evaluations": max_evaluations, "on_failure": on_failure}
    case = json.dumps({"type": "karst_inversion", "grid": grid_keys, "inversion": keys}, indent=1)
    text, t, fit, interrupted = _hetflow._karst_inversion(*_series("inlet", inlet), *_series("velocity", velocity),
                                                          *_series("observed", observed), substeps, case, device,
                                                          progress_argument(progress))
    summary = json.loads(text)
    result = KarstInversionResult(summary["parameters"], summary["sigma"], summary["rms"], summary["noise"],
                                  np.array(t), np.array(fit), summary["converged"], summary["stop_reason"],
                                  summary["iterations"], summary["evaluations"], summary["forward_runs"], summary)
    if interrupted:
        raise stopped(f"hetflow.karst_inversion: interrupted after {result.evaluations} evaluations (the best point "
                      "so far is this exception's .result)", result=result)
    return result
