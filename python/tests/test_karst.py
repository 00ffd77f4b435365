import numpy as np
import pytest

import hetflow
from conftest import DEVICE, cli

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
