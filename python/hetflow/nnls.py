"""hetflow.nnls: non-negative least squares, as `hetflow nnls` solves it (docs/nnls.md)."""
import json
from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import _hetflow
from ._arrays import real_array
from ._interrupt import stopped
from ._progress import progress_argument

METHODS = ("tnt", "fnnls", "lawson-hanson")


@dataclass
class NnlsReport:
    """What the solve reported, as `hetflow nnls` writes report.json.

    converged: every right-hand side met the KKT test; residual_norm: ||b - Ax|| per right-hand side;
    rhs: report.json's entries per right-hand side (iterations, KKT quality, TNT's counters);
    raw: the whole report."""

    converged: bool
    residual_norm: np.ndarray
    rhs: list
    raw: dict


def nnls(A: np.ndarray, b: np.ndarray, method: str = "tnt", device: str = "auto", *, fp32: bool = False,
         reduction: Optional[float] = None, expansion: Optional[float] = None, problem_class: str = "",
         early_reach: Optional[float] = None, tolerance: float = 0.0, max_iterations: int = 0, tune: bool = True,
         progress=True) -> tuple[np.ndarray, NnlsReport]:
    """min ||A x - b||_2 subject to x >= 0, for b a vector or each column of a matrix of right-hand sides.

    A: float64 array (m, n); b: float64 array (m,) or (m, k). A Fortran-ordered A is read in place, not
    copied (np.asfortranarray(A) once if you solve often: A in C order is copied into Fortran order on
    each call); do not change A from another thread during the call.
    method: "tnt" (on the device; default), "fnnls" or "lawson-hanson" (host, LAPACK).
    device: a device selection as in the CLI ("auto", "gpu:0", "cpu:0", ...); tnt only.
    fp32, reduction, expansion, problem_class, early_reach (--reach), tune: TNT's options (`hetflow nnls
    --help`); tolerance: the KKT tolerance (0: the method's own); max_iterations: 0 for 3n.
    progress (tnt): True shows the CLI's progress display on sys.stderr once the call has taken a second,
    False nothing; a callable is called as progress(outer iterations, 0) before each outer iteration after
    the first and at the end (counted over all right-hand sides), and an exception it raises stops TNT.
    Returns (x, NnlsReport): x of shape (n,) or (n, k). Raises HetflowError when a right-hand side did not
    converge (its x is in the exception's `x`), TypeError/ValueError for bad arrays. A Ctrl-C stops TNT
    before its next outer iteration and raises KeyboardInterrupt carrying .x and .report."""
    if method not in METHODS:
        raise ValueError(f"method = {method!r}: expected one of {', '.join(METHODS)}")
    a = real_array("A", A, (2,))
    rhs = real_array("b", b, (1, 2))
    if rhs.shape[0] != a.shape[0]:
        raise ValueError(f"b has {rhs.shape[0]} rows but A has {a.shape[0]}: they must match")
    if 0 in a.shape:
        raise ValueError(f"A has shape {a.shape}: it must have rows and columns")
    request = _hetflow._NnlsRequest()
    request.method, request.device, request.fp32 = method, device, fp32
    request.reduction, request.expansion, request.problem_class = reduction, expansion, problem_class
    request.early_reach = early_reach
    request.tolerance, request.max_iterations, request.no_tune = tolerance, max_iterations, not tune
    vector = rhs.ndim == 1
    x, text, interrupted = _hetflow._nnls(a, np.asfortranarray(rhs.reshape(rhs.shape[0], -1, order="F")), vector, request,
                                         progress_argument(progress))
    raw = json.loads(text)
    report = NnlsReport(all(r["converged"] for r in raw["rhs"]),
                        np.array([r["residual_norm"] for r in raw["rhs"]]), raw["rhs"], raw)
    if interrupted:
        raise stopped("hetflow.nnls: interrupted; x and report at the best point so far are in this exception's "
                      ".x and .report", x=x, report=report)
    if not report.converged:
        failed = sum(not r["converged"] for r in raw["rhs"])
        error = _hetflow.HetflowError(f"{failed} of {len(raw['rhs'])} right-hand sides did not converge: "
                                      + "; ".join(r["diagnosis"] for r in raw["rhs"] if not r["converged"]))
        error.x, error.report = x, report
        raise error
    return x, report
