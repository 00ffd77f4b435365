"""hetflow.ftle: one finite-time Lyapunov exponent field, as `type: ftle` computes it (docs/ftle.md)."""
import json
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from . import _hetflow
from ._arrays import real_array
from ._interrupt import stopped
from ._progress import progress_argument


@dataclass
class FtleResult:
    """ftle: the field, shape (ny, nx) or (nz, ny, nx), x fastest as the seeds run; axes: the seed
    coordinates per axis (x, y[, z]); flow_map: the final tracer positions, shape ftle.shape + (dimension,),
    when asked for; dt and steps: the step size and the steps taken; flow: the flow as run (parameters)."""

    ftle: np.ndarray
    axes: list
    dt: float
    steps: int
    flow: dict
    flow_map: Optional[np.ndarray] = field(default=None)

    def coords(self):
        """The field's coordinates for xarray: {"z": ..., "y": ..., "x": ...} in the field's axis order,
        e.g. xarray.DataArray(r.ftle, coords=r.coords(), dims=list(r.coords()))."""
        names = "xyz"[:len(self.axes)]
        return {n: a for n, a in reversed(list(zip(names, self.axes)))}


def _velocity(velocity, grid_origin, spacing, times):
    """The arrays of gridded velocity as hetflow._ftle takes them: (snapshots, nz, ny, nx, dimension),
    C order, with the grid's origin and spacing per axis and one time per snapshot."""
    u = real_array("velocity", velocity, (3, 4, 5), order="C")
    dim = u.shape[-1]
    if dim not in (2, 3):
        raise ValueError(f"velocity: shape {u.shape}: the last axis holds the components, 2 (2D) or 3 (3D)")
    series = times is not None
    if u.ndim != dim + 1 + series:
        expected = ("(snapshots, " if series else "(") + ("nz, " if dim == 3 else "") + f"ny, nx, {dim})"
        raise ValueError(f"velocity: shape {u.shape}: expected {expected} for {dim}D velocity "
                         + ("with times" if series else "without times (a steady field)"))
    if not series:
        u = u[np.newaxis]
    if dim == 2:
        u = u[:, np.newaxis]
    t = [0.0] if times is None else [float(x) for x in np.atleast_1d(times)]
    if len(t) != u.shape[0]:
        raise ValueError(f"times has {len(t)} entries for {u.shape[0]} velocity snapshots: expected one per snapshot")
    grid = {}
    for name, value in (("grid_origin", grid_origin), ("spacing", spacing)):
        if value is None:
            raise ValueError(f"{name}: required with velocity (the grid's first node, and its node spacing per axis)")
        values = [float(x) for x in np.broadcast_to(np.asarray(value, dtype=float), (dim,))]
        grid[name] = values
    return np.ascontiguousarray(u), grid["grid_origin"], grid["spacing"], t


def ftle(origin: Sequence[float], extent: Sequence[float], counts: Sequence[int], *, flow: Optional[str] = None,
         parameters: Optional[dict] = None, velocity: Optional[np.ndarray] = None,
         grid_origin: Optional[Sequence[float]] = None, spacing=None, times: Optional[Sequence[float]] = None,
         free_stream: Optional[Sequence[float]] = None, device: str = "auto", flow_map: bool = False,
         progress=True, **ftle_keys) -> FtleResult:
    """The FTLE field of an analytic flow, or of gridded velocity given as an array, on a seed grid.

    origin, extent, counts: the seed grid, 2 entries each (2D) or 3 (3D), as the case file's `seeds:`.
    flow: "double_gyre" (the default), "bickley_jet", "abc", "cellular" or "linear"; parameters: that
    flow's keys (e.g. {"epsilon": 0.1} for the double gyre; docs/ftle.md lists them), defaults otherwise.
    velocity: instead of a flow, float64 velocity on a uniform grid, shape (ny, nx, 2) or (nz, ny, nx, 3)
    (the components last, x fastest: the order of the case file's raw files), with a leading axis of
    snapshots when `times` (one per snapshot, increasing) is given; linear in time between snapshots.
    grid_origin: the node (0, 0[, 0])'s position; spacing: the node spacing, one number or one per axis.
    free_stream: a uniform velocity added to it. The solver reads the array where it lies (C order; another
    order is copied into it first) and uploads it in the device's precision; ftle_keys interpolation and
    boundary choose how it is sampled (docs/ftle.md).
    ftle_keys: the case file's `ftle:` keys (t0, duration, steps, dt, integrator:
    euler, heun, rk4, dopri5, dop853; rtol, atol, precision: fp64 or fp32, ...), with the same defaults and
    checks.
    flow_map: also return the final tracer positions.
    progress: True shows the CLI's progress display on sys.stderr once the call has taken a second, False
    nothing; a callable is called as progress(steps done, steps) after each 32nd of the steps, and an
    exception it raises stops the integration.
    A Ctrl-C stops the integration within a 32nd of its steps and raises KeyboardInterrupt; its .result
    holds the field over the steps taken (result.steps of them).
    The field equals `hetflow run`'s ftle.npy (output.npy: true) bit for bit, also for velocity arrays
    against the same values in raw files."""
    arrays = {}
    if velocity is not None:
        if flow is not None or parameters:
            raise ValueError("flow/parameters and velocity: give an analytic flow or velocity arrays, not both")
        u, grid_origin, spacing, t = _velocity(velocity, grid_origin, spacing, times)
        arrays = dict(velocity=u, grid_origin=grid_origin, spacing=spacing, times=t)
        flow = "file"
    elif any(x is not None for x in (grid_origin, spacing, times, free_stream)):
        raise ValueError("grid_origin, spacing, times and free_stream describe velocity arrays: give velocity too")
    flow = flow or "double_gyre"
    section = {"flow": flow, **ftle_keys}
    if parameters:
        section[flow] = parameters
    if free_stream is not None:
        section["velocity"] = {"free_stream": [float(x) for x in free_stream]}
    case = {"type": "ftle", "ftle": section,
            "seeds": {"origin": list(map(float, origin)), "extent": list(map(float, extent)),
                      "counts": [int(c) for c in counts]}}
    out = _hetflow._ftle(json.dumps(case, indent=1), device, flow_map, progress_argument(progress), **arrays)
    result = FtleResult(out["ftle"], list(out["axes"]), out["dt"], out["steps"], json.loads(out["info"]),
                        out.get("flow_map"))
    if out["interrupted"]:
        raise stopped(f"hetflow.ftle: interrupted after {result.steps} steps; the field over them is in this "
                      "exception's .result", result=result)
    return result
