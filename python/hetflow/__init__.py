"""hetflow: scientific solvers on CPUs and GPUs through OpenCL, with numpy arrays in and out.

    import hetflow
    hetflow.devices()                       # the OpenCL devices, as `hetflow devices` lists them
    result = hetflow.run("case.yaml")       # any case, as `hetflow run` runs it
    x, report = hetflow.nnls(A, b)          # min ||Ax - b|| with x >= 0 (TNT on a device)
    gas = hetflow.Mechanism("gri30.yaml")
    out = hetflow.reactor_batch(gas, T, p, Y, dt=1e-4)
    tau = hetflow.ignition_delays(gas, T, p, Y).delay   # ignition delays [s]
    field = hetflow.ftle([0, 0], [2, 1], [401, 201], duration=15)   # the double gyre's FTLE
    flow = hetflow.Lbm(mask, force=[0, 0, 1e-6]).step(1000)   # lattice Boltzmann; flow.permeability
    out = hetflow.karst_outlets(inlet, velocity, times, Pe=pe_array)   # karst-conduit outlet series
    fit = hetflow.karst_inversion(inlet, velocity, observed).parameters   # Pe, St, Theta from an outlet
    r = hetflow.radau5(source, y0, t_end=2.0, params=eps)   # your own ODE systems, in OpenCL C
    A = hetflow.svc(2000, 2000, kappa=1e6)   # a matrix with prescribed singular values
    hetflow.tune("lbm", device="gpu:0")      # tune a kernel; later runs on that device use the best

docs/python.md in the repository walks through every solver.
"""
from ._hetflow import (
    FileError,
    HetflowError,
    InputError,
    KernelBuildError,
    Mechanism,
    NoDeviceError,
    __commit__,
    __version__,
    devices,
    svc,
    svc_singular_values,
)
from .chem import IgnitionResult, ReactorBatchResult, ignition_delays, reactor_batch
from .ftle import FtleResult, ftle
from .karst import KarstInversionResult, karst_inversion, karst_outlets
from .lbm import Lbm
from .nnls import NnlsReport, nnls
from .ode import Radau5Result, radau5
from .run import Result, run
from .tune import TuneResult, tunables, tune

__all__ = [
    "FileError",
    "FtleResult",
    "HetflowError",
    "IgnitionResult",
    "InputError",
    "KarstInversionResult",
    "KernelBuildError",
    "Lbm",
    "Mechanism",
    "NnlsReport",
    "NoDeviceError",
    "Radau5Result",
    "ReactorBatchResult",
    "Result",
    "TuneResult",
    "__commit__",
    "__version__",
    "devices",
    "ftle",
    "ignition_delays",
    "karst_inversion",
    "karst_outlets",
    "nnls",
    "radau5",
    "reactor_batch",
    "run",
    "svc",
    "svc_singular_values",
    "tunables",
    "tune",
]
