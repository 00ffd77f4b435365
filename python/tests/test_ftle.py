import json

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


def gyre_velocity(t, x, y, a=0.1, eps=0.1, omega=2 * np.pi / 10):
    """The double gyre (docs/ftle.md) at time t on the nodes x (nx,) by y (ny,): (ny, nx, 2)."""
    X, Y = np.meshgrid(x, y)
    f = eps * np.sin(omega * t) * X ** 2 + (1 - 2 * eps * np.sin(omega * t)) * X
    dfdx = 2 * eps * np.sin(omega * t) * X + 1 - 2 * eps * np.sin(omega * t)
    u = -np.pi * a * np.sin(np.pi * f) * np.cos(np.pi * Y)
    v = np.pi * a * np.cos(np.pi * f) * np.sin(np.pi * Y) * dfdx
    return np.stack([u, v], axis=-1)


def test_velocity_arrays_equal_the_clis_raw_files_bit_for_bit(tmp_path):
    x, y, times = np.linspace(0, 2, 65), np.linspace(0, 1, 33), [0.0, 1.0, 2.0]
    u = np.stack([gyre_velocity(t, x, y) for t in times])
    for k in range(3):
        u[k].tofile(tmp_path / f"u{k}.raw")
    (tmp_path / "u.yaml").write_text("dims: [65, 33]\nspacing: 0.03125\nfiles: [u0.raw, u1.raw, u2.raw]\n"
                                     "times: [0, 1, 2]\n")
    (tmp_path / "case.yaml").write_text(
        "type: ftle\nftle:\n  flow: file\n  velocity:\n    files: [u.yaml]\n  duration: 2\n  dt: 0.05\n"
        "seeds:\n  origin: [0.1, 0.1]\n  extent: [1.8, 0.8]\n  counts: [37, 17]\noutput:\n  dir: out\n  npy: true\n")
    cli("run", "case.yaml", "--device", DEVICE, "-q", cwd=tmp_path)
    r = hetflow.ftle([0.1, 0.1], [1.8, 0.8], [37, 17], velocity=u, grid_origin=[0, 0], spacing=0.03125,
                     times=times, duration=2, dt=0.05, device=DEVICE)
    assert r.flow["kind"] == "file" and r.flow["snapshots"] == 3
    assert np.array_equal(r.ftle, np.load(tmp_path / "out" / "ftle.npy"))


def test_a_gridded_linear_saddle_gives_the_analytic_flows_field():
    # u = (x, -y) sampled on nodes is interpolated exactly (linear and M4' reproduce linear fields), so the
    # field equals the analytic flow's up to rounding where the tracers stay two nodes from the faces.
    x = np.linspace(-2, 2, 21)
    X, Y = np.meshgrid(x, x)
    steady = np.stack([X, -Y], axis=-1)
    r = hetflow.ftle([-0.5, -0.5], [1, 1], [9, 9], velocity=steady, grid_origin=-2, spacing=0.2, duration=1,
                     dt=0.01, device=DEVICE)
    exact = hetflow.ftle([-0.5, -0.5], [1, 1], [9, 9], flow="linear", parameters={"gradient": [1, 0, 0, -1]},
                         duration=1, dt=0.01, device=DEVICE)
    assert np.abs(r.ftle - exact.ftle).max() < 1e-10 and np.abs(r.ftle - 1).max() < 1e-9
    # In 3D, (nz, ny, nx, 3): u = (x, -y/2, -z/2) stretches x by e^T.
    z = np.linspace(-2, 2, 21)
    Z, Y, X = np.meshgrid(z, z, z, indexing="ij")
    r = hetflow.ftle([-0.3] * 3, [0.6] * 3, [4, 5, 6], velocity=np.stack([X, -Y / 2, -Z / 2], axis=-1),
                     grid_origin=-2, spacing=0.2, duration=1, dt=0.01, device=DEVICE)
    assert r.ftle.shape == (6, 5, 4) and np.abs(r.ftle - 1).max() < 1e-9


def test_the_binding_reads_velocity_arrays_in_place():
    # hetflow.ftle hands the binding a C-ordered array (another layout is copied first, visibly, in
    # Python); the binding views its snapshots and refuses any other layout rather than copy.
    x = np.linspace(-2, 2, 21)
    X, Y = np.meshgrid(x, x)
    steady = np.stack([X, -Y], axis=-1)
    case = json.dumps({"type": "ftle", "ftle": {"flow": "file", "duration": 1, "dt": 0.01},
                       "seeds": {"origin": [-0.5, -0.5], "extent": [1, 1], "counts": [9, 9]}})
    grid = dict(grid_origin=[-2.0, -2.0], spacing=[0.2, 0.2], times=[0.0])
    with pytest.raises(TypeError):
        hetflow._hetflow._ftle(case, DEVICE, False, False, velocity=np.asfortranarray(steady[None, None]), **grid)
    out = hetflow._hetflow._ftle(case, DEVICE, False, False, velocity=steady[None, None], **grid)
    r = hetflow.ftle([-0.5, -0.5], [1, 1], [9, 9], velocity=steady, grid_origin=-2, spacing=0.2, duration=1,
                     dt=0.01, device=DEVICE)
    assert np.array_equal(out["ftle"], r.ftle) and np.abs(r.ftle - 1).max() < 1e-9


def test_malformed_velocity_arrays_are_named():
    u = np.zeros((9, 9, 2))
    seeds = ([0.2, 0.2], [0.4, 0.4], [3, 3])
    with pytest.raises(ValueError, match="the last axis holds the components"):
        hetflow.ftle(*seeds, velocity=np.zeros((9, 9, 4)), grid_origin=0, spacing=0.1)
    with pytest.raises(ValueError, match="times has 1 entries for 2 velocity snapshots"):
        hetflow.ftle(*seeds, velocity=np.stack([u, u]), times=[0], grid_origin=0, spacing=0.1)
    with pytest.raises(ValueError, match="spacing: required with velocity"):
        hetflow.ftle(*seeds, velocity=u, grid_origin=0)
    with pytest.raises(hetflow.InputError, match="spacing"):
        hetflow.ftle(*seeds, velocity=u, grid_origin=0, spacing=-0.1)
    with pytest.raises(hetflow.InputError, match="outside the velocity data"):
        hetflow.ftle([0.5, 0.5], [2, 2], [3, 3], velocity=u, grid_origin=0, spacing=0.1)
    with pytest.raises(ValueError, match="not both"):
        hetflow.ftle(*seeds, flow="abc", velocity=u, grid_origin=0, spacing=0.1)
    with pytest.raises(TypeError, match="float64"):
        hetflow.ftle(*seeds, velocity=u.astype(np.float32), grid_origin=0, spacing=0.1)
