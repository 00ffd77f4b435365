"""hetflow.karst_outlets: batched forward runs of the karst-conduit transport model (docs/karst.md)."""
import json

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
