import json

import numpy as np
import pytest

import hetflow
from conftest import DEVICE, cli, ctrl_c_at_the_first_report

INLET = np.array([[0.0, 1.0], [0.3, 0.6], [0.6, 0.6], [1.5, 0.9]])
VELOCITY = np.array([[0.0, 1.0], [0.8, 1.4], [1.5, 1.2]])


def test_outlets_equal_the_clis_outlet_csv_bit_for_bit(tmp_path):
    np.savetxt(tmp_path / "inlet.csv", INLET, delimiter=",", header="t,value", comments="", fmt="%.17g")
    np.savetxt(tmp_path / "velocity.csv", VELOCITY, delimiter=",", header="t,value", comments="", fmt="%.17g")
    (tmp_path / "k.yaml").write_text(
        "type: karst\nforcing:\n  inlet: inlet.csv\n  velocity: velocity.csv\n"
        "model:\n  pe: [1000, 2000, 3000]\n  st: [5]\n  theta: [2, 3, 4]\ngrid:\n  nodes: 60\n  rock_nodes: 12\n"
        "time:\n  dt: 0.05\n  end: 1.2\noutput:\n  dir: out\n  png: false\n")
    cli("run", "k.yaml", "--device", DEVICE, "-q", cwd=tmp_path)
    table = np.genfromtxt(tmp_path / "out" / "outlet.csv", delimiter=",", names=True)
    out = hetflow.karst_outlets(INLET, (VELOCITY[:, 0], VELOCITY[:, 1]), table["t"], Pe=[1000, 2000, 3000], St=5,
                                Theta=[2, 3, 4], nodes=60, rock_nodes=12, device=DEVICE)
    assert out.shape == (3, 24)
    for p in range(3):
        assert np.array_equal(out[p], table[f"outlet_{p}"])


def test_a_solute_pulse_leaves_through_the_outlet():
    # A unit inlet from t* = 0 on a uniform 0 state reaches the outlet after about one transit time (v* = 1).
    out = hetflow.karst_outlets([[0, 1], [3, 1]], [[0, 1], [3, 1]], np.linspace(0.1, 3, 30), model="solute",
                                Pe=[100, 1000], initial=0, nodes=200, device=DEVICE)
    assert (out[:, 0] < 1e-3).all() and (np.abs(out[:, -1] - 1) < 1e-3).all()
    assert out[1, 9] == pytest.approx(0.5, abs=0.05)  # at t* = 1 the front is at the outlet


def test_malformed_series_parameters_and_keys_are_named():
    times = [0.5, 1.0]
    with pytest.raises(hetflow.InputError, match="velocity series: value"):
        hetflow.karst_outlets(INLET, [[0, 1], [2, -1]], times, device=DEVICE)
    with pytest.raises(hetflow.InputError, match="Pe"):
        hetflow.karst_outlets(INLET, VELOCITY, times, Pe=[1000, -5], device=DEVICE)
    with pytest.raises(hetflow.InputError, match="grid.nodes"):
        hetflow.karst_outlets(INLET, VELOCITY, times, nodes=1, device=DEVICE)
    with pytest.raises(hetflow.InputError):
        hetflow.karst_outlets(INLET, VELOCITY, [0.5, 2.0], device=DEVICE)  # beyond the series' end 1.5
    with pytest.raises(ValueError, match="expected \\(n, 2\\) rows"):
        hetflow.karst_outlets(np.zeros((3, 3)), VELOCITY, times)
    with pytest.raises(ValueError, match="model = 'gas'"):
        hetflow.karst_outlets(INLET, VELOCITY, times, model="gas")


def storm(tmp_path):
    """A storm pulse (the C++ case tests' forcing) and the outlet of Pe 1960, St 12, Theta 3.2 as the observed
    series, by the CLI; the grid keys of both."""
    t = 0.05 * np.arange(61)
    inlet = np.column_stack([t, 10 + 3 * np.exp(-((t - 0.8) / 0.3) ** 2)])
    velocity = np.column_stack([t, 1 + np.exp(-((t - 0.6) / 0.4) ** 2)])
    grid = dict(nodes=30, rock_nodes=10, rock_extent=3, initial=10)
    times = 0.01 * np.arange(1, 301)
    observed = hetflow.karst_outlets(inlet, velocity, times, Pe=1960, St=12, Theta=3.2, device=DEVICE, **grid)[0]
    return inlet, velocity, np.column_stack([times, observed]), grid


def test_the_inversion_equals_the_cases_and_recovers_the_parameters(tmp_path):
    inlet, velocity, observed, grid = storm(tmp_path)
    for name, rows in (("inlet", inlet), ("velocity", velocity), ("observed", observed)):
        np.savetxt(tmp_path / f"{name}.csv", rows, delimiter=",", header="t,value", comments="", fmt="%.17g")
    (tmp_path / "i.yaml").write_text(
        "type: karst_inversion\nforcing:\n  inlet: inlet.csv\n  velocity: velocity.csv\nobserved:\n  file: observed.csv\n"
        "grid:\n  nodes: 30\n  rock_nodes: 10\n  rock_extent: 3\n  initial: 10\ninversion:\n  max_evaluations: 400\n"
        "output:\n  dir: out\n  png: false\n")
    cli("run", "i.yaml", "--device", DEVICE, "-q", cwd=tmp_path)
    case = json.loads((tmp_path / "out" / "inversion.json").read_text())
    fit = np.genfromtxt(tmp_path / "out" / "fit.csv", delimiter=",", names=True)
    r = hetflow.karst_inversion(inlet, velocity, observed, max_evaluations=400, device=DEVICE, **grid)
    for timing in ("seconds", "forward_runs_per_second"):
        del case[timing], r.summary[timing]
    assert r.summary == case
    assert np.array_equal(r.t, fit["t"]) and np.array_equal(r.fit, fit["fit"])
    # Noise-free data: St and Theta to 1e-5 (Pe barely shapes this outlet; docs/karst.md).
    assert r.parameters["St"] == pytest.approx(12, rel=1e-5) and r.parameters["Theta"] == pytest.approx(3.2, rel=1e-5)
    assert r.rms < 1e-5 and r.evaluations <= 400 and r.forward_runs >= r.evaluations


def test_a_stopped_inversion_keeps_its_best_point(tmp_path):
    inlet, velocity, observed, grid = storm(tmp_path)
    reports = []

    def enough(done, total):
        reports.append((done, total))
        if done >= 20:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        hetflow.karst_inversion(inlet, velocity, observed, max_evaluations=400, device=DEVICE, progress=enough, **grid)
    assert reports[0] == (0, 400) and reports[-1][0] >= 20
    with pytest.raises(KeyboardInterrupt, match="interrupted after") as stop:
        hetflow.karst_inversion(inlet, velocity, observed, max_evaluations=400, device=DEVICE,
                                progress=ctrl_c_at_the_first_report(), **grid)
    r = stop.value.result
    assert r.stop_reason == "interrupted by a signal" and not r.converged and np.isfinite(r.rms)
    assert r.parameters["St"] >= 0.75  # inside the bounds


def test_malformed_inversion_arguments_are_named(tmp_path):
    inlet, velocity, observed, grid = storm(tmp_path)
    with pytest.raises(hetflow.InputError, match="start Theta = 7 is outside its bounds"):
        hetflow.karst_inversion(inlet, velocity, observed, start=(2000, 10, 7), device=DEVICE, **grid)
    with pytest.raises(hetflow.InputError, match="inversion.method"):
        hetflow.karst_inversion(inlet, velocity, observed, method="bfgs", device=DEVICE, **grid)
    with pytest.raises(hetflow.InputError, match="observed"):
        hetflow.karst_inversion(inlet, velocity, observed[::-1], device=DEVICE, **grid)
    with pytest.raises(ValueError, match="substeps = 0"):
        hetflow.karst_inversion(inlet, velocity, observed, substeps=0, device=DEVICE, **grid)
