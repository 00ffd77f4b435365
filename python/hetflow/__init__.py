"""hetflow: scientific solvers on CPUs and GPUs through OpenCL, with numpy arrays in and out.

    import hetflow
    hetflow.devices()                       # the OpenCL devices, as `hetflow devices` lists them
    result = hetflow.run("case.yaml")       # any case, as `hetflow run` runs it
    x, report = hetflow.nnls(A, b)          # min ||Ax - b|| with x >= 0 (TNT on a device)
    gas = hetflow.Mechanism("gri30.yaml")
    out = hetflow.reactor_batch(gas, T, p, Y, dt=1e-4)
    field = hetflow.ftle([0, 0], [2, 1], [401, 201], duration=15)   # the double gyre's FTLE

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
)
from .chem import ReactorBatchResult, reactor_batch
from .ftle import FtleResult, ftle
from .nnls import NnlsReport, nnls
from .run import Result, run

__all__ = [
    "FileError",
    "FtleResult",
    "HetflowError",
    "InputError",
    "KernelBuildError",
    "Mechanism",
    "NnlsReport",
    "NoDeviceError",
    "ReactorBatchResult",
    "Result",
    "__commit__",
    "__version__",
    "devices",
    "ftle",
    "nnls",
    "reactor_batch",
    "run",
]
