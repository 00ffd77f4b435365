"""hetflow.run: any case, from a YAML file or a dict, run as `hetflow run` runs it (docs/case-files.md)."""
import csv
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

import numpy as np

from . import _hetflow


@dataclass
class Result:
    """A finished run: its directory, its manifest (manifest.json) and its status ("complete")."""

    directory: Path
    manifest: dict

    @property
    def status(self):
        return self.manifest.get("status")

    @property
    def outputs(self):
        """The run's files, relative to its directory."""
        return sorted(str(p.relative_to(self.directory)) for p in self.directory.rglob("*") if p.is_file())

    def table(self, name: str) -> dict:
        """A CSV output (e.g. "final_states.csv") as a dict of column name -> array (float where the
        column is numeric, else str)."""
        with open(self.directory / name, newline="") as f:
            rows = list(csv.reader(f))
        columns = {}
        for j, head in enumerate(rows[0]):
            values = [r[j] if j < len(r) else "" for r in rows[1:]]
            try:
                columns[head] = np.array([float(v) if v != "" else np.nan for v in values])
            except ValueError:
                columns[head] = np.array(values)
        return columns

    def array(self, name: str) -> np.ndarray:
        """A .npy output (e.g. "x.npy") as an array."""
        return np.load(self.directory / name)


def run(case: Union[str, Path, dict], *, device: Optional[str] = None, output: Optional[str] = None,
        set: Sequence[str] = (), quiet: bool = False) -> Result:
    """Runs a case: a path to a case file, or a dict of the same keys (relative paths in it are relative
    to the working directory). device and output override device.select and output.dir, `set` takes
    "key=value" overrides as `hetflow run --set` does; the run shows the CLI's progress lines on
    stderr unless quiet. A Ctrl-C stops the run after its current step,
    writes its final outputs, then raises KeyboardInterrupt. Malformed cases raise hetflow.InputError with
    every problem, each naming its line and key. Returns a Result."""
    if isinstance(case, dict):
        status, directory = _hetflow._run("", json.dumps(case, indent=1), device, output, list(set), quiet)
    elif isinstance(case, (str, Path)):
        status, directory = _hetflow._run(str(case), None, device, output, list(set), quiet)
    else:
        raise TypeError(f"case: expected a path or a dict, got {type(case).__name__}")
    result = Result(Path(directory), json.loads((Path(directory) / "manifest.json").read_text()))
    if status == 130:
        raise KeyboardInterrupt(f"hetflow.run: interrupted; final outputs written to {directory}")
    return result
