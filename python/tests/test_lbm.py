import json

import numpy as np
import pytest

import hetflow
from conftest import DEVICE, cli, ctrl_c_at_the_first_report


def channel(nx, ny, nz):
    """Walls at y = 0 and y = ny - 1, as the lbm case's geometry kind channel has them."""
    mask = np.zeros((nz, ny, nx), bool)
    mask[:, 0, :] = mask[:, -1, :] = True
    return mask


def test_a_channel_gives_the_clis_measures_bit_for_bit(tmp_path):
    (tmp_path / "ch.yaml").write_text("type: lbm\nlbm:\n  tau: 0.8\n  force: [0, 0, 1.0e-5]\n  storage: fp64\n"
                                      "  steps: 200\ngeometry:\n  kind: channel\n  size: [8, 10, 12]\n"
                                      "output:\n  dir: out\n  every: 200\n  vti: false\n  png: false\n")
    cli("run", "ch.yaml", "--device", DEVICE, "-q", cwd=tmp_path)
    expected = json.loads((tmp_path / "out" / "manifest.json").read_text())["result"]
    flow = hetflow.Lbm(channel(8, 10, 12), device=DEVICE, tau=0.8, force=[0, 0, 1e-5], storage="fp64").step(200)
    d = flow.diagnostics()
    assert flow.steps == 200 and flow.porosity == expected["porosity"]
    assert d["mean_u"] == expected["mean_u"] and d["max_u"] == expected["max_u"]
    assert d["permeability"] == expected["permeability"]


def test_trt_poiseuille_is_exact_at_the_half_way_walls():
    # TRT with magic 3/16 puts bounce-back walls exactly half-way (docs/lbm.md): steady u_z(y) = F/(2 nu)
    # (y - 1/2)(ny - 3/2 - y) to rounding once the slowest mode (decay rate nu (pi/8)^2) has died out.
    force, ny = 1e-6, 10
    flow = hetflow.Lbm(channel(2, ny, 2), device=DEVICE, tau=0.8, collision="trt", force=[0, 0, force],
                       storage="fp64").step(3000)
    y = np.arange(1, ny - 1)
    exact = force / (2 * flow.viscosity) * (y - 0.5) * (ny - 1.5 - y)
    assert np.abs(flow.velocity[0, 1:-1, 0, 2] - exact).max() < 1e-9 * exact.max()
    assert flow.permeability == pytest.approx(flow.velocity[..., 2].mean() * flow.viscosity / force, rel=1e-12)


def test_an_initial_density_field_keeps_its_mass(tmp_path):
    mask = np.zeros((6, 6, 6), bool)
    mask[3, 3, 3] = True
    rho = np.ones((6, 6, 6))
    rho[1, 1, 1] = 1.01
    flow = hetflow.Lbm(mask, device=DEVICE, storage="fp64").initialise(rho=rho, u=(1e-3, 0, 0))
    assert flow.steps == 0 and flow.density[1, 1, 1] == pytest.approx(1.01, rel=1e-12)
    flow.step(50)
    assert flow.diagnostics()["mass"] == pytest.approx(rho[~mask].sum(), rel=1e-12)
    assert flow.permeability is None  # no force drives it


def test_progress_and_ctrl_c_keep_the_steps_taken():
    seen = []
    flow = hetflow.Lbm(channel(4, 6, 4), device=DEVICE, force=[0, 0, 1e-6])
    flow.step(64, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(2 * k, 64) for k in range(1, 33)]

    with pytest.raises(KeyboardInterrupt, match="interrupted after 2 of 64 steps") as caught:
        flow.step(64, progress=ctrl_c_at_the_first_report())
    assert caught.value.result is flow and flow.steps == 66


def test_malformed_masks_and_keys_are_named():
    with pytest.raises(ValueError, match="expected a 3-D array"):
        hetflow.Lbm(np.zeros((4, 4), bool))
    with pytest.raises(ValueError, match="True/1 at walls"):
        hetflow.Lbm(np.full((2, 2, 2), 2, np.uint8))
    with pytest.raises(TypeError, match="steps is not among its keys"):
        hetflow.Lbm(channel(4, 6, 4), steps=10)
    with pytest.raises(hetflow.InputError, match="lbm.tau"):
        hetflow.Lbm(channel(4, 6, 4), device=DEVICE, tau=0.4)
    with pytest.raises(hetflow.InputError, match="every node is a wall"):
        hetflow.Lbm(np.ones((2, 2, 2), bool), device=DEVICE)
