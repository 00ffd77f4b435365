"""hetflow.ftle: one finite-time Lyapunov exponent field, as `type: ftle` computes it (docs/ftle.md)."""
import json
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from . import _hetflow
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


def ftle(origin: Sequence[float], extent: Sequence[float], counts: Sequence[int], *, flow: str = "double_gyre",
         parameters: Optional[dict] = None, device: str = "auto", flow_map: bool = False, progress=True,
         **ftle_keys) -> FtleResult:
    """The FTLE field of an analytic flow on a seed grid.

    origin, extent, counts: the seed grid, 2 entries each (2D) or 3 (3D), as the case file's `seeds:`.
    flow: "double_gyre", "bickley_jet", "abc", "cellular" or "linear"; parameters: that flow's keys
    (e.g. {"epsilon": 0.1} for the double gyre; docs/ftle.md lists them), defaults otherwise.
    ftle_keys: the case file's `ftle:` keys (t0, duration, steps, dt, integrator:
    euler, heun, rk4, dopri5, dop853; rtol, atol, precision: fp64 or fp32), with the same defaults and checks.
    flow_map: also return the final tracer positions.
    progress: True shows the CLI's progress display on sys.stderr once the call has taken a second, False
    nothing; a callable is called as progress(steps done, steps) after each 32nd of the steps, and an
    exception it raises stops the integration.
    A Ctrl-C stops the integration within a 32nd of its steps and raises KeyboardInterrupt; its .result
    holds the field over the steps taken (result.steps of them).
    The field equals `hetflow run`'s ftle.npy (output.npy: true) bit for bit."""
    section = {"flow": flow, **ftle_keys}
    if parameters:
        section[flow] = parameters
    case = {"type": "ftle", "ftle": section,
            "seeds": {"origin": list(map(float, origin)), "extent": list(map(float, extent)),
                      "counts": [int(c) for c in counts]}}
    out = _hetflow._ftle(json.dumps(case, indent=1), device, flow_map, progress_argument(progress))
    result = FtleResult(out["ftle"], list(out["axes"]), out["dt"], out["steps"], json.loads(out["info"]),
                        out.get("flow_map"))
    if out["interrupted"]:
        raise stopped(f"hetflow.ftle: interrupted after {result.steps} steps; the field over them is in this "
                      "exception's .result", result=result)
    return result
