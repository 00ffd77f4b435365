"""Shared by the package's tests: the device the C++ tests use (HETFLOW_TEST_DEVICE), the CLI and the
source tree (set by CTest), and a helper that runs the CLI."""
import os
import signal
import subprocess
from pathlib import Path

import pytest

DEVICE = os.environ.get("HETFLOW_TEST_DEVICE", "cpu:0")
SOURCE = Path(os.environ.get("HETFLOW_SOURCE", Path(__file__).resolve().parents[2]))
MECHANISMS = SOURCE / "data" / "mechanisms"


def cli(*args, cwd=None):
    """Runs the hetflow executable; its stdout, or an assertion error with its output."""
    done = subprocess.run([os.environ.get("HETFLOW_CLI", "hetflow"), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def ctrl_c_at_the_first_report():
    """A progress callable that raises SIGINT at its first call only: a Ctrl-C while the work runs."""
    reports = []

    def report(done, total):
        reports.append(done)
        if len(reports) == 1:
            signal.raise_signal(signal.SIGINT)

    return report


@pytest.fixture
def device():
    return DEVICE
