"""hetflow.reactor_batch: many adiabatic reactors integrated over one interval by RADAU5 on a device,
as `type: reactor_batch` runs them (docs/chem.md)."""
import json
from dataclasses import dataclass

import numpy as np

from . import _hetflow
from ._arrays import real_array
from ._interrupt import stopped
from ._progress import progress_argument

STATUS = {1: "ok", -2: "too_many_steps", -3: "step_too_small", -4: "singular_matrix", 0: "not_run"}


@dataclass
class ReactorBatchResult:
    """Final states: T [K] (n,), Y mass fractions (n, species), per system its RADAU5 status ("ok",
    "too_many_steps", "step_too_small", "singular_matrix", "not_run") and steps, and for a failed
    system the integrator's reason. A failed system's T and Y are its last accepted step's."""

    T: np.ndarray
    Y: np.ndarray
    status: np.ndarray
    steps: np.ndarray
    reasons: list
    seconds: float = 0.0

    @property
    def ok(self):
        """Whether every system reached dt."""
        return bool((self.status == "ok").all())


def reactor_batch(mechanism: _hetflow.Mechanism, T: np.ndarray, p: np.ndarray, Y: np.ndarray, dt: float,
                  device: str = "auto", *, reactor: str = "constant_pressure", progress=True,
                  **solver) -> ReactorBatchResult:
    """Integrates reactor states over dt [s].

    mechanism: a hetflow.Mechanism; T [K] and p [Pa]: arrays (n,); Y: mass fractions (n, species) in
    the mechanism's species order (Cantera's gas.Y), rows summing to 1 within 1e-6.
    reactor: "constant_pressure" (p held) or "constant_volume" (the density of each initial state held).
    solver: the case keys of `solver:` (rtol, atol, max_steps, h0, jacobian, thet, fnewt, quot1, quot2;
    docs/chem.md), with the same defaults and checks as a case file.
    progress: True shows the CLI's progress display on sys.stderr once the call has taken a second, False
    nothing; a callable is called as progress(systems done, systems) after each chunk, and an exception it
    raises stops the batch and propagates.
    A Ctrl-C stops the batch after the chunk in flight and raises KeyboardInterrupt; its .result holds the
    systems integrated so far.
    Returns a ReactorBatchResult; the final states equal `hetflow run`'s bit for bit."""
    if not isinstance(mechanism, _hetflow.Mechanism):
        raise TypeError(f"mechanism: expected a hetflow.Mechanism, got {type(mechanism).__name__}")
    t = real_array("T", T, (1,), order="C")
    pressures = real_array("p", p, (1,), order="C")
    y = real_array("Y", Y, (2,), order="C")
    species = len(mechanism.species)
    if y.shape != (t.shape[0], species) or pressures.shape != t.shape:
        raise ValueError(f"T {t.shape}, p {pressures.shape}, Y {y.shape}: expected (n,), (n,) and (n, {species}) "
                         f"for the mechanism's {species} species")
    if (t <= 0).any() or (pressures <= 0).any():
        raise ValueError("T and p must be positive")
    sums = y.sum(axis=1)
    if (np.abs(sums - 1) > 1e-6).any():
        i = int(np.argmax(np.abs(sums - 1)))
        raise ValueError(f"Y[{i}] sums to {float(sums[i])!r}: mass fractions must sum to 1 (within 1e-6)")
    if not np.isscalar(dt) or not dt > 0:
        raise ValueError(f"dt = {dt!r}: expected a positive number of seconds")
    case = json.dumps({"type": "reactor_batch", "batch": {"reactor": reactor}, "solver": solver}, indent=1)
    y0 = np.ascontiguousarray(np.column_stack([y, t]))
    final, status, steps, reasons, seconds, interrupted = _hetflow._reactor_batch(mechanism, y0, pressures,
                                                                                  float(dt), case, device,
                                                                                  progress_argument(progress))
    result = ReactorBatchResult(final[:, -1].copy(), final[:, :-1].copy(), np.array([STATUS[s] for s in status]),
                                steps, reasons, seconds)
    if interrupted:
        done = int((result.status != "not_run").sum())
        raise stopped(f"hetflow.reactor_batch: interrupted after {done} of {len(t)} systems (their states are "
                      "in this exception's .result; the others' status is not_run)", result=result)
    return result
