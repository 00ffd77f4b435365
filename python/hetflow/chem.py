"""hetflow.reactor_batch: many adiabatic reactors integrated over one interval by RADAU5 on a device,
as `type: reactor_batch` runs them (docs/chem.md)."""
import json
from dataclasses import dataclass

import numpy as np

from . import _hetflow
from ._arrays import real_array
from ._interrupt import stopped
from ._progress import progress_argument
from .ode import status_names


@dataclass
class ReactorBatchResult:
    """Final states: T [K] (n,), Y mass fractions (n, species), per system its RADAU5 status ("ok",
    "too_many_steps", "step_too_small", "singular_matrix", "not_run") and steps, and for a failed
    system the integrator's reason. A failed system's T and Y are its last accepted step's (T and Y are
    views of one array of final states). seconds: the integration (a reactor_batch case's
    integration_seconds); setup_seconds: everything before it: the states and parameters of the batch,
    device selection, kernels (built on a first call, else loaded from the cache) and buffers;
    release_seconds: freeing the buffers and the devices after it."""

    T: np.ndarray
    Y: np.ndarray
    status: np.ndarray
    steps: np.ndarray
    reasons: list
    seconds: float = 0.0
    setup_seconds: float = 0.0
    release_seconds: float = 0.0

    @property
    def ok(self):
        """Whether every system reached dt."""
        return bool((self.status == "ok").all())


def _states(mechanism, T, p, Y):
    """The reactor states checked, as C-ordered arrays: Y (n, species), T (n,) and p (n,)."""
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
    return y, t, pressures


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
    y, t, pressures = _states(mechanism, T, p, Y)
    if not np.isscalar(dt) or not dt > 0:
        raise ValueError(f"dt = {dt!r}: expected a positive number of seconds")
    case = json.dumps({"type": "reactor_batch", "batch": {"reactor": reactor}, "solver": solver}, indent=1)
    final, status, steps, failures, seconds, setup_seconds, release_seconds, interrupted = _hetflow._reactor_batch(
        mechanism, y, t, pressures, float(dt), case, device, progress_argument(progress))
    reasons = [""] * len(pressures)
    for i, reason in failures.items():
        reasons[i] = reason
    result = ReactorBatchResult(final[:, -1], final[:, :-1], status_names(status), steps, reasons, seconds,
                                setup_seconds, release_seconds)
    if interrupted:
        done = int((result.status != "not_run").sum())
        raise stopped(f"hetflow.reactor_batch: interrupted after {done} of {len(pressures)} systems (their states are "
                      "in this exception's .result; the others' status is not_run)", result=result)
    return result


@dataclass
class IgnitionResult:
    """Per state: its ignition delay [s] (NaN unless ignited), status ("ignited", "no_ignition": T0 + rise
    not reached by end_time, "failed" with the integrator's reason, "interrupted"), the temperature [K] at
    end_time (NaN unless known), and T [K] at the sample times (n, len(times); NaN after a failure);
    launches: the batch integrations the search took."""

    delay: np.ndarray
    status: np.ndarray
    final_T: np.ndarray
    reasons: list
    times: np.ndarray
    T: np.ndarray
    launches: int = 0

    @property
    def ignited(self):
        """Whether each state ignited."""
        return self.status == "ignited"


def ignition_delays(mechanism: _hetflow.Mechanism, T: np.ndarray, p: np.ndarray, Y: np.ndarray,
                    device: str = "auto", *, reactor: str = "constant_pressure", criterion: str = "temperature_rise",
                    rise: float = 400.0, end_time: float = 0.1, first_sample: float = 1e-7,
                    samples_per_decade: int = 20, refinements: int = 3, candidates: int = 15, progress=True,
                    **solver) -> IgnitionResult:
    """Ignition delays of reactor states, found as a `type: ignition` case finds them (docs/chem.md).

    mechanism, T [K], p [Pa], Y (n, species) and reactor as for hetflow.reactor_batch. Every state is
    integrated over a geometric sample grid (first_sample to end_time, samples_per_decade), its ignition
    bracketed between two samples and the bracket refined `refinements` times with `candidates` times each;
    criterion "temperature_rise" takes the time T reaches T0 + rise (cubic Hermite root), "max_slope" the
    time of the largest dT/dt (for states that reach T0 + rise). solver: the case keys of `solver:` (rtol,
    atol, ...), with the same defaults and checks as a case file.
    progress: True shows the CLI's progress display on sys.stderr once the call has taken a second, False
    nothing; a callable is called as progress(launches done, launches planned) after each launch.
    A Ctrl-C stops the search after the launch in flight and raises KeyboardInterrupt; its .result holds
    the samples taken (every status "interrupted")."""
    y, t, pressures = _states(mechanism, T, p, Y)
    keys = dict(reactor=reactor, criterion=criterion, rise=rise, end_time=end_time, first_sample=first_sample,
                samples_per_decade=samples_per_decade, refinements=refinements, candidates=candidates)
    case = json.dumps({"type": "ignition_delays", "ignition": keys, "solver": solver}, indent=1)
    delay, status, final_t, reasons, times, temperature, launches, interrupted = _hetflow._ignition_delays(
        mechanism, y, t, pressures, case, device, progress_argument(progress))
    result = IgnitionResult(delay, np.array(status), final_t, reasons, times, temperature, launches)
    if interrupted:
        raise stopped(f"hetflow.ignition_delays: interrupted after {launches} launches; the samples taken are in "
                      "this exception's .result", result=result)
    return result
