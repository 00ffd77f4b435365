"""hetflow.Lbm: a D3Q19 lattice-Boltzmann flow through a voxel mask, stepped from Python (docs/lbm.md)."""
import json
from typing import Optional

import numpy as np

from . import _hetflow
from ._arrays import real_array
from ._interrupt import stopped
from ._progress import progress_argument

# The case file's `lbm:` keys that shape the solver (steps and the initial velocity are the object's calls).
KEYS = {"tau", "collision", "magic", "force", "pressure_drop", "pattern", "storage", "work_group", "work_group_y",
        "max_registers", "device_grid", "boxes_per_device", "exact_arithmetic"}


class Lbm:
    """A lattice-Boltzmann flow (BGK, TRT or MRT) in lattice units through `mask`, on a device: one phase,
    liquid and vapour of one component (Shan-Chen), or two immiscible components.

    mask: (nz, ny, nx), x fastest, True (or 1) at walls (half-way bounce-back), False (0) at fluid nodes;
    directions without walls are periodic. lbm_keys: the case file's `lbm:` keys (tau, collision, magic,
    force, pressure_drop, pattern, storage: fp32 by default, fp16 or fp64, ...; docs/lbm.md), with the
    same defaults and checks. model: "single", "shan_chen" or "two_component"; shan_chen, two_component
    and initial: the case's sections of those names as dicts (e.g. two_component={"g": 1.0},
    initial={"kind": "mixture", "density": [1, 1], "seed": 3}). The flow starts at rest with the initial
    section's densities (density 1 by default); initialise() sets another state.

        flow = hetflow.Lbm(mask, tau=0.8, force=[0, 0, 1e-6], storage="fp64")
        flow.step(2000)
        flow.permeability, flow.velocity[..., 2].mean()
    """

    def __init__(self, mask: np.ndarray, device: str = "auto", *, model: str = "single",
                 shan_chen: Optional[dict] = None, two_component: Optional[dict] = None,
                 initial: Optional[dict] = None, **lbm_keys):
        codes = np.asarray(mask)
        if codes.ndim != 3:
            raise ValueError(f"mask: expected a 3-D array (nz, ny, nx), got shape {codes.shape} "
                             "(a 2-D flow is a lattice one node thick along z)")
        if codes.dtype != np.bool_ and not np.isin(codes, (0, 1)).all():
            raise ValueError("mask: expected True/1 at walls and False/0 at fluid nodes")
        unknown = sorted(set(lbm_keys) - KEYS)
        if unknown:
            raise TypeError(f"hetflow.Lbm: {', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not among its "
                            f"keys ({', '.join(sorted(KEYS))}); step() takes the step count")
        nz, ny, nx = codes.shape
        case = {"type": "lbm", "lbm": {**lbm_keys, "model": model}, "geometry": {"kind": "box", "size": [nx, ny, nz]}}
        for name, section in (("shan_chen", shan_chen), ("two_component", two_component), ("initial", initial)):
            if section is not None:
                if not isinstance(section, dict):
                    raise TypeError(f"{name}: expected a dict of the case's `{name}:` keys, got {type(section).__name__}")
                case[name] = section
        self._flow = _hetflow._Lbm(np.ascontiguousarray(codes, dtype=np.uint8), json.dumps(case, indent=1), device)
        self.shape = codes.shape

    def initialise(self, rho=1.0, u=(0.0, 0.0, 0.0)):
        """Sets every node to equilibrium with density rho (a number or (nz, ny, nx)) and velocity u (three
        numbers or (nz, ny, nx, 3)); the step count restarts at 0. Two components: rho = (rho_a, rho_b),
        each a number or (nz, ny, nx), and u three numbers, the velocity of both."""
        if self.components == 2:
            if not isinstance(rho, (tuple, list)) or len(rho) != 2:
                raise ValueError("rho: a two-component flow takes (rho_a, rho_b)")
            a, b = (real_array(f"rho[{k}]", np.broadcast_to(np.asarray(rho[k], dtype=float), self.shape), (3,),
                               order="C") for k in (0, 1))
            velocity = np.asarray(u, dtype=float)
            if velocity.shape != (3,):
                raise ValueError(f"u: shape {velocity.shape}: a two-component flow takes one velocity (3 numbers)")
            self._flow.initialise_components(a, b, velocity.tolist())
            return self
        density = real_array("rho", np.broadcast_to(np.asarray(rho, dtype=float), self.shape), (3,), order="C")
        velocity = real_array("u", np.broadcast_to(np.asarray(u, dtype=float), self.shape + (3,)), (4,), order="C")
        self._flow.initialise(density, velocity)
        return self

    def step(self, n: int = 1, progress=True):
        """Advances n time steps. progress: True shows the CLI's display once the call has taken a second,
        False nothing, a callable gets (steps done, n) after each 32nd. A Ctrl-C stops within a 32nd of
        the steps and raises KeyboardInterrupt; the flow keeps the steps taken (.result is this flow)."""
        if int(n) < 1:
            raise ValueError(f"n = {n!r}: expected at least one step")
        done, interrupted = self._flow.advance(int(n), progress_argument(progress))
        if interrupted:
            raise stopped(f"hetflow.Lbm.step: interrupted after {done} of {n} steps (the flow is at step "
                          f"{self.steps})", result=self)
        return self

    @property
    def steps(self) -> int:
        """Time steps since the last initialisation."""
        return self._flow.step

    @property
    def density(self) -> np.ndarray:
        """rho at every node (two components: their sum), (nz, ny, nx); walls 0. A non-finite value raises hetflow.HetflowError naming
        the step and the cell."""
        return self._flow.fields()[0]

    @property
    def densities(self) -> Optional[tuple]:
        """Two components: (rho_a, rho_b), each (nz, ny, nx), walls 0; else None."""
        _, _, a, b = self._flow.fields()
        return None if a is None else (a, b)

    @property
    def components(self) -> int:
        """1, or 2 for model="two_component"."""
        return self._flow.components

    @property
    def velocity(self) -> np.ndarray:
        """u at every node, (nz, ny, nx, 3) (x, y, z components), including half the force (two components:
        the mixture's, total momentum / rho); walls 0."""
        return self._flow.fields()[1]

    def diagnostics(self) -> dict:
        """The case's measures of the current fields: mass (sum of rho), max_u and max_cell (x, y, z),
        mean_u (superficial, over all nodes), permeability (Darcy's k = nu <u> / F in cells², when a
        force or pressure drop drives the flow along one axis; else None), density_range (the fluid's
        smallest and largest density: vapour and liquid with Shan-Chen) and component_a_range (two
        components; else None)."""
        return self._flow.diagnostics()

    @property
    def permeability(self) -> Optional[float]:
        """Darcy's k = nu <u> / F along the driven axis (cells²), as the lbm case reports it; None when
        no single axis is driven."""
        return self._flow.diagnostics()["permeability"]

    @property
    def viscosity(self) -> float:
        """nu = (tau - 1/2) / 3."""
        return self._flow.viscosity

    @property
    def porosity(self) -> float:
        """The fraction of fluid nodes."""
        return self._flow.porosity

    def __repr__(self):
        nz, ny, nx = self.shape
        return f"<hetflow.Lbm: {nx} x {ny} x {nz} nodes, step {self.steps}>"
