# Types of the extension module (python/src); the package's Python modules are typed by their signatures.
from typing import Any, Callable, Optional, Union

import numpy as np

__version__: str
__commit__: str

# A long call's `progress` argument: show the CLI's display (True), nothing (False), or call progress(done, total).
Progress = Union[bool, Callable[[int, int], None]]

class HetflowError(RuntimeError): ...
class InputError(HetflowError, ValueError): ...
class FileError(HetflowError, OSError): ...
class NoDeviceError(HetflowError): ...
class KernelBuildError(HetflowError): ...

def devices(select: str = "all", bandwidth: bool = False) -> list[dict[str, Any]]: ...

class Mechanism:
    def __init__(self, file: str, thermo: str = "", phase: str = "") -> None: ...
    @property
    def species(self) -> list[str]: ...
    @property
    def molecular_weights(self) -> np.ndarray: ...
    @property
    def reactions(self) -> int: ...
    def species_index(self, name: str) -> int: ...

class _NnlsRequest:
    method: str
    device: str
    fp32: bool
    reduction: Optional[float]
    expansion: Optional[float]
    early_reach: Optional[float]
    problem_class: str
    tolerance: float
    max_iterations: int
    no_tune: bool

def _run(case_file: str, case_yaml: Optional[str] = None, device: Optional[str] = None, output: Optional[str] = None,
         overrides: list[str] = ..., quiet: bool = True) -> tuple[int, str]: ...
def _nnls(A: np.ndarray, B: np.ndarray, vector: bool, request: _NnlsRequest,
          progress: Progress) -> tuple[np.ndarray, str, bool]: ...
def _reactor_batch(mechanism: Mechanism, Y: np.ndarray, T: np.ndarray, pressures: np.ndarray, dt: float,
                   case_text: str, device: str,
                   progress: Progress) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, str], float, float,
                                                float, bool]: ...
def _ignition_delays(mechanism: Mechanism, Y: np.ndarray, T: np.ndarray, pressures: np.ndarray, case_text: str,
                     device: str,
                     progress: Progress) -> tuple[np.ndarray, list[str], np.ndarray, list[str], np.ndarray, np.ndarray,
                                                  int, bool]: ...
def _ftle(case_text: str, device: str, flow_map: bool, progress: Progress, velocity: Optional[np.ndarray] = None,
          grid_origin: list[float] = ..., spacing: list[float] = ..., times: list[float] = ...) -> dict[str, Any]: ...
def _radau5(source: str, n: int, parameters: int, has_jac: bool, y0: np.ndarray, params: np.ndarray, t0: np.ndarray,
            t_end: np.ndarray, samples: np.ndarray, rtol: np.ndarray, atol: np.ndarray, settings: dict[str, Any],
            device: str, progress: Progress) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], list[str], bool]: ...
class _Lbm:
    step: int
    viscosity: float
    porosity: float
    components: int
    def __init__(self, mask: np.ndarray, case_text: str, device: str) -> None: ...
    def initialise(self, rho: np.ndarray, u: np.ndarray) -> None: ...
    def initialise_components(self, rho_a: np.ndarray, rho_b: np.ndarray, u: list[float]) -> None: ...
    def advance(self, steps: int, progress: Progress) -> tuple[int, bool]: ...
    def fields(self) -> tuple[np.ndarray, np.ndarray, Optional[np.ndarray], Optional[np.ndarray]]: ...
    def diagnostics(self) -> dict[str, Any]: ...

def _karst_outlets(inlet_t: list[float], inlet_value: list[float], velocity_t: list[float],
                   velocity_value: list[float], times: list[float], groups: list[list[float]], model: str,
                   case_text: str, device: str, progress: Progress) -> tuple[np.ndarray, bool]: ...
def svc(rows: int, cols: int, *, kappa: float = 1e4, mode: str = "geometric", seed: int = 0,
        singular_values: list[float] = ..., device: Optional[str] = None) -> np.ndarray: ...
def svc_singular_values(rows: int, cols: int, *, kappa: float = 1e4, mode: str = "geometric", seed: int = 0,
                        singular_values: list[float] = ...) -> list[float]: ...

class _TuneRequest:
    name: str
    device: str
    search: str
    budget: int
    db: str
    size: int
    storage: str
    case_file: str
    repeats: int
    seed: int
    problem_class: str
    kappas: list[float]
    active: list[float]
    problems: list[str]
    objective: str

def _tunables() -> list[dict[str, Any]]: ...
def _tune(request: _TuneRequest, progress: Progress) -> tuple[Optional[dict[str, Any]], list[dict[str, Any]], bool]: ...
def _karst_inversion(inlet_t: list[float], inlet_value: list[float], velocity_t: list[float],
                     velocity_value: list[float], observed_t: list[float], observed_value: list[float], substeps: int,
                     case_text: str, device: str, progress: Progress) -> tuple[str, list[float], list[float], bool]: ...
