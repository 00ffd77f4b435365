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


def test_a_two_component_mixture_separates_as_the_clis_case_does(tmp_path):
    # Spinodal decomposition (examples/lbm_spinodal.yaml, smaller): the same max |u|, mean u and mass drift.
    (tmp_path / "s.yaml").write_text(
        "type: lbm\nlbm:\n  tau: 1.0\n  model: two_component\n  storage: fp64\n  steps: 300\ntwo_component:\n  g: 1.0\n"
        "geometry:\n  kind: box\n  size: [24, 24, 1]\ninitial:\n  kind: mixture\n  density: [1.0, 1.0]\n"
        "  perturbation: 0.01\n  seed: 3\noutput:\n  dir: out\n  every: 300\n  vti: false\n  png: false\n")
    cli("run", "s.yaml", "--device", DEVICE, "-q", cwd=tmp_path)
    expected = json.loads((tmp_path / "out" / "manifest.json").read_text())["result"]
    flow = hetflow.Lbm(np.zeros((1, 24, 24), bool), device=DEVICE, tau=1.0, storage="fp64", model="two_component",
                       two_component={"g": 1.0},
                       initial={"kind": "mixture", "density": [1.0, 1.0], "perturbation": 0.01, "seed": 3})
    assert flow.components == 2
    mass0 = flow.diagnostics()["mass"]
    flow.step(300)
    d = flow.diagnostics()
    assert d["max_u"] == expected["max_u"] and d["mean_u"] == expected["mean_u"]
    assert (d["mass"] - mass0) / mass0 == expected["mass_drift"]
    a, b = flow.densities
    assert np.array_equal(a + b, flow.density)
    low, high = d["component_a_range"]
    assert low < 0.5 and high > 1.5  # separated into a-rich and b-rich domains
    assert (low, high) == (a.min(), a.max())


def test_a_shan_chen_drop_keeps_liquid_and_vapour():
    # G = -120 (psi0 4, rho0 200): liquid about 524 and vapour about 85.7 coexist (docs/lbm.md).
    flow = hetflow.Lbm(np.zeros((1, 32, 32), bool), device=DEVICE, tau=1.0, storage="fp64", model="shan_chen",
                       shan_chen={"g": -120.0},
                       initial={"kind": "drop", "density": [85.7], "drop_density": [524.0], "radius": 8})
    assert flow.components == 1 and flow.densities is None
    flow.step(200)
    vapour, liquid = flow.diagnostics()["density_range"]
    assert vapour == pytest.approx(85.7, rel=0.1) and liquid == pytest.approx(524.0, rel=0.1)
    assert flow.density[0, 16, 16] == pytest.approx(524.0, rel=0.1)
    flow.initialise(rho=100.0)  # one phase again: a uniform state stays uniform
    assert flow.step(10).diagnostics()["density_range"] == pytest.approx([100.0, 100.0], rel=1e-12)


def test_two_components_take_two_initial_densities():
    flow = hetflow.Lbm(np.zeros((2, 4, 4), bool), device=DEVICE, storage="fp64", model="two_component",
                       initial={"density": [1.0, 0.5]})
    a, b = flow.densities  # sums of 19 populations: to rounding
    assert a == pytest.approx(np.ones_like(a), rel=1e-15) and b == pytest.approx(np.full_like(b, 0.5), rel=1e-15)
    flow.initialise(rho=(np.full((2, 4, 4), 0.2), 0.8), u=(0, 0, 1e-3))
    a, b = flow.densities
    assert a == pytest.approx(np.full_like(a, 0.2), rel=1e-15) and b == pytest.approx(np.full_like(b, 0.8), rel=1e-15)
    assert flow.steps == 0
    with pytest.raises(ValueError, match="takes \\(rho_a, rho_b\\)"):
        flow.initialise(rho=1.0)
    with pytest.raises(hetflow.InputError, match="initial.density has 1 entries"):
        hetflow.Lbm(np.zeros((2, 4, 4), bool), device=DEVICE, model="two_component", initial={"density": [1.0]})
    with pytest.raises(hetflow.InputError, match="shan_chen.g does not apply to lbm.model = single"):
        hetflow.Lbm(np.zeros((2, 4, 4), bool), device=DEVICE, shan_chen={"g": -100.0})
    with pytest.raises(TypeError, match="initial: expected a dict"):
        hetflow.Lbm(np.zeros((2, 4, 4), bool), device=DEVICE, initial=[1.0])
