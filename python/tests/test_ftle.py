import numpy as np
import pytest

import hetflow
from conftest import DEVICE, cli

GYRE = dict(origin=[0, 0], extent=[2, 1], counts=[41, 21])


def test_the_field_equals_the_clis_ftle_npy_bit_for_bit(tmp_path):
    case = tmp_path / "gyre.yaml"
    case.write_text("type: ftle\nftle:\n  duration: 5\n  dt: 0.1\n  double_gyre:\n    epsilon: 0.1\n"
                    "seeds:\n  origin: [0, 0]\n  extent: [2, 1]\n  counts: [41, 21]\n"
                    "output:\n  dir: out\n  npy: true\n  flow_map: true\n")
    cli("run", case, "--device", DEVICE, "-q", cwd=tmp_path)
    r = hetflow.ftle(**GYRE, duration=5, dt=0.1, parameters={"epsilon": 0.1}, device=DEVICE, flow_map=True)
    assert r.ftle.shape == (21, 41) and r.steps == 50 and r.dt == pytest.approx(0.1)
    assert np.array_equal(r.ftle, np.load(tmp_path / "out" / "ftle.npy"))
    assert np.array_equal(r.flow_map, np.load(tmp_path / "out" / "flow_map.npy"))
    assert r.axes[0][-1] == 2.0 and r.axes[1][-1] == 1.0 and list(r.coords()) == ["y", "x"]


def test_a_linear_saddle_gives_its_exact_exponent_everywhere():
    # u = (x, -y): the flow map stretches x by e^T, so the FTLE is 1 at every seed (RK4 error ~1e-10).
    r = hetflow.ftle([-1, -1], [2, 2], [9, 9], flow="linear", parameters={"gradient": [1, 0, 0, -1]},
                     duration=2, dt=0.01, device=DEVICE)
    assert np.abs(r.ftle - 1).max() < 1e-9


def test_3d_fields_come_z_first():
    r = hetflow.ftle([0, 0, 0], [6.283185307179586] * 3, [8, 7, 6], flow="abc", duration=1, dt=0.1, device=DEVICE)
    assert r.ftle.shape == (6, 7, 8) and list(r.coords()) == ["z", "y", "x"]


def test_bad_keys_are_named_as_a_case_file_names_them():
    with pytest.raises(hetflow.InputError, match="ftle.integrator"):
        hetflow.ftle(**GYRE, integrator="rk45", device=DEVICE)
    with pytest.raises(hetflow.InputError, match="seeds.counts"):
        hetflow.ftle([0, 0], [2, 1], [1, 21], device=DEVICE)
    with pytest.raises(hetflow.InputError, match="ftle.double_gyre.amplitude"):
        hetflow.ftle(**GYRE, parameters={"amplitude": 1}, device=DEVICE)


def test_progress_reports_steps_before_each_32nd_and_at_the_end():
    seen = []
    hetflow.ftle(**GYRE, duration=6.4, dt=0.1, device=DEVICE, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(2 * k, 64) for k in range(1, 33)]
