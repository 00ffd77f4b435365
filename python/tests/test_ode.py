import numpy as np
import pytest

import hetflow
from conftest import DEVICE

VDP = """
void rhs(double t, const double* y, double* f, __global const double* p) {
  f[0] = y[1];
  f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / p[0];
}
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  dfdy[0] = 0.0;
  dfdy[2] = 1.0;
  dfdy[1] = (-2.0 * y[0] * y[1] - 1.0) / p[0];
  dfdy[3] = (1.0 - y[0] * y[0]) / p[0];
}
"""


def test_van_der_pol_gives_the_fortran_radau5s_counters_and_state():
    # Hairer & Wanner's RADAU5 on VdP, eps = 1e-6, (2, -0.66) to t = 2, rtol = atol = 1e-4 (docs/ode.md).
    r = hetflow.radau5(VDP, np.array([[2.0, -0.66]] * 3), 2.0, params=np.full((3, 1), 1e-6), rtol=1e-4,
                       atol=1e-4, h0=1e-6, device=DEVICE)
    assert r.ok
    expected = dict(nfcn=2218, njac=161, nstep=275, naccpt=238, nrejct=8, ndec=248, nsol=660)
    for name, value in expected.items():
        assert r.counters[name].tolist() == [value] * 3, name
    assert r.y[0] == pytest.approx([1.7061611005587547, -0.89280747768156532], rel=1e-11)
    assert np.array_equal(r.y[0], r.y[2])


def test_dense_output_and_per_system_ends():
    decay = "void rhs(double t, const double* y, double* f, __global const double* p) { f[0] = -p[0] * y[0]; }"
    k = np.array([[1.0], [2.0]])
    r = hetflow.radau5(decay, np.ones((2, 1)), [1.0, 0.5], params=k, samples=[0.0, 0.25, 0.5], rtol=1e-10,
                       atol=1e-12, device=DEVICE)
    assert r.samples.shape == (2, 3, 1)
    assert r.samples[:, :, 0] == pytest.approx(np.exp(-k * np.array([0.0, 0.25, 0.5])), rel=1e-8)
    assert r.y[:, 0] == pytest.approx([np.exp(-1.0), np.exp(-1.0)], rel=1e-8)
    assert r.counters["njac"].min() > 0  # finite differences: the source has no jac


def test_a_system_out_of_steps_is_named_and_its_neighbour_is_not():
    # VdP at eps = 1e-6 takes 275 steps to t = 2 (above) but few to t = 0.01; both may take 50.
    r = hetflow.radau5(VDP, np.array([[2.0, -0.66]] * 2), [0.01, 2.0], params=np.full((2, 1), 1e-6), rtol=1e-4,
                       atol=1e-4, h0=1e-6, max_steps=50, device=DEVICE)
    assert r.status.tolist() == ["ok", "too_many_steps"]
    assert "50" in r.reasons[1] and r.reasons[0] == ""


def test_status_codes_map_to_their_names():
    codes = np.array([1, 0, -2, -3, -4])
    assert hetflow.ode.status_names(codes).tolist() == ["ok", "not_run", "too_many_steps", "step_too_small",
                                                        "singular_matrix"]


def test_bad_options_and_arrays_are_refused_with_their_names():
    with pytest.raises(hetflow.InputError, match="thet"):
        hetflow.radau5(VDP, np.array([[2.0, -0.66]]), 2.0, params=[[1e-6]], thet=1.5, device=DEVICE)
    with pytest.raises(hetflow.InputError, match="jacobian = 'exact'"):
        hetflow.radau5(VDP, np.array([[2.0, -0.66]]), 2.0, params=[[1e-6]], jacobian="exact", device=DEVICE)
    with pytest.raises(ValueError, match="params has 2 rows but y0 has 1"):
        hetflow.radau5(VDP, np.array([[2.0, -0.66]]), 2.0, params=np.ones((2, 1)), device=DEVICE)
    with pytest.raises(ValueError, match="t_end: expected one value or one per system"):
        hetflow.radau5(VDP, np.array([[2.0, -0.66]]), [1.0, 2.0], params=[[1e-6]], device=DEVICE)
    with pytest.raises(hetflow.KernelBuildError):
        hetflow.radau5("void rhs(double t, const double* y, double* f, __global const double* p) { f[0] = oops; }",
                       np.ones((1, 1)), 1.0, device=DEVICE)


def test_progress_reports_systems_in_chunks_of_a_32nd_up_to_the_batch():
    decay = "void rhs(double t, const double* y, double* f, __global const double* p) { f[0] = -y[0]; }"
    seen = []
    r = hetflow.radau5(decay, np.ones((64, 1)), 1.0, device=DEVICE, progress=lambda d, t: seen.append((d, t)))
    assert r.ok and seen[-1] == (64, 64)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) > 2
