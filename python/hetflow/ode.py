"""hetflow.radau5: a batch of your own ODE systems integrated by RADAU5 on a device (docs/ode.md)."""
import re
from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import _hetflow
from ._arrays import real_array
from ._interrupt import stopped
from ._progress import progress_argument

# RADAU5's status codes (1, 0, -2, -3, -4; C++ ode::Status) at index code + 4.
_STATUS_BY_CODE = np.array(["singular_matrix", "step_too_small", "too_many_steps", "", "not_run", "ok"])


def status_names(codes) -> np.ndarray:
    """RADAU5's status codes as names, in one lookup for the whole batch (a Python loop over a large batch
    takes longer than a GPU's integration of it)."""
    return _STATUS_BY_CODE[np.asarray(codes, dtype=np.int64) + 4]


@dataclass
class Radau5Result:
    """y: the states at t_end (systems, n); samples: the dense output at the requested times (systems,
    times, n), or None; status per system ("ok", "too_many_steps", "step_too_small", "singular_matrix",
    "not_run"); counters: Hairer & Wanner's per system (idid, nfcn, njac, nstep, naccpt, nrejct, ndec,
    nsol); reasons: why a failed system stopped. A failed system's y is its last accepted state."""

    y: np.ndarray
    samples: Optional[np.ndarray]
    status: np.ndarray
    counters: dict
    reasons: list

    @property
    def ok(self):
        return bool((self.status == "ok").all())


def _per_system(name, value, systems):
    array = real_array(name, np.atleast_1d(np.asarray(value, dtype=np.float64)), (1,), order="C")
    if array.shape[0] not in (1, systems):
        raise ValueError(f"{name}: expected one value or one per system ({systems}), got {array.shape[0]}")
    return array


def radau5(source: str, y0: np.ndarray, t_end, *, params: Optional[np.ndarray] = None, t0=0.0,
           samples: Optional[np.ndarray] = None, rtol=1e-6, atol=1e-6, h0: float = 0.0, h_max: float = 0.0,
           max_steps: int = 100000, nit: int = 7, thet: float = 0.001, fnewt: float = 0.0, quot1: float = 1.0,
           quot2: float = 1.2, safe: float = 0.9, jacobian: str = "automatic", mapping: str = "automatic",
           device: str = "auto", progress=True) -> Radau5Result:
    """Integrates y' = f(t, y) for every row of y0 from t0 to t_end with RADAU5 (Hairer & Wanner).

    source: OpenCL C defining `void rhs(double t, const double* y, double* f, __global const double* p)`
    and optionally `void jac(double t, const double* y, double* dfdy, __global const double* p)`
    (column-major: dfdy[i + j n] = df_i/dy_j); p points at the system's row of params.
    y0: float64 (systems, n); params: float64 (systems, parameters) or None (both read in place when
    C-ordered; do not change them from another thread during the call); t0, t_end: one value or one per
    system; samples: times at which to return every state too (within [t0, t_end]).
    rtol, atol: one value or one per component. h0 ... safe: RADAU5's options (docs/ode.md), with its
    defaults; jacobian: "automatic" (jac when the source has it), "analytic", "finite_difference";
    mapping: how systems map onto a GPU (same results in any). progress: True shows the CLI's progress
    display on sys.stderr once the call has taken a second, False nothing; a callable is called as
    progress(systems done, systems) after each chunk, and an exception it raises stops the batch. A Ctrl-C stops the batch after the
    chunk in flight (a 32nd) and raises KeyboardInterrupt; its .result holds the systems integrated so far."""
    y = real_array("y0", y0, (2,), order="C")
    systems, n = y.shape
    p = np.zeros((systems, 0)) if params is None else real_array("params", params, (2,), order="C")
    if p.shape[0] != systems:
        raise ValueError(f"params has {p.shape[0]} rows but y0 has {systems}: one row per system")
    times = np.zeros(0) if samples is None else real_array("samples", samples, (1,), order="C")
    has_jac = re.search(r"\bvoid\s+jac\s*\(", source) is not None
    settings = dict(h0=h0, h_max=h_max, max_steps=max_steps, nit=nit, thet=thet, fnewt=fnewt, quot1=quot1,
                    quot2=quot2, safe=safe, jacobian=jacobian, mapping=mapping)
    final, sampled, counters, reasons, interrupted = _hetflow._radau5(
        source, n, p.shape[1], has_jac, y, np.ascontiguousarray(p), _per_system("t0", t0, systems),
        _per_system("t_end", t_end, systems), times, _per_system("rtol", rtol, n), _per_system("atol", atol, n),
        settings, device, progress_argument(progress))
    status = status_names(counters["idid"])
    result = Radau5Result(final, sampled if times.size else None, status, counters, reasons)
    if interrupted:
        raise stopped(f"hetflow.radau5: interrupted after {int((status != 'not_run').sum())} of {systems} systems "
                      "(their states are in this exception's .result)", result=result)
    return result
