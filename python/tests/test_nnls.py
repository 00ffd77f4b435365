import numpy as np
import pytest

import hetflow
from conftest import DEVICE, cli


def problem(m=60, n=40, k=None, seed=3):
    """A random problem whose solution has about half its entries at zero."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((m, n))
    x = np.where(rng.random(n) < 0.5, 0.0, rng.random(n))
    noise = rng.standard_normal((m, k) if k else m) * 1e-3
    return A, (A @ x if not k else A @ np.outer(x, np.ones(k))) + noise


@pytest.mark.parametrize("method", ["tnt", "fnnls", "lawson-hanson"])
def test_x_equals_the_clis_bit_for_bit(tmp_path, method):
    A, b = problem()
    np.save(tmp_path / "A.npy", A)
    np.save(tmp_path / "b.npy", b)
    extra = ["--device", DEVICE] if method == "tnt" else []
    cli("nnls", tmp_path / "A.npy", tmp_path / "b.npy", "--method", method, "--output", tmp_path / "out", *extra)
    x, report = hetflow.nnls(A, b, method=method, device=DEVICE)
    assert x.shape == (40,)
    assert np.array_equal(x, np.load(tmp_path / "out" / "x.npy"))
    assert report.converged and (x >= 0).all()
    assert report.residual_norm[0] == pytest.approx(np.linalg.norm(A @ x - b), rel=1e-12)


def test_several_right_hand_sides_and_either_order_give_the_same_bits():
    A, B = problem(k=3)
    x, report = hetflow.nnls(A, B, device=DEVICE)
    assert x.shape == (40, 3) and len(report.rhs) == 3
    xf, _ = hetflow.nnls(np.asfortranarray(A), np.asfortranarray(B), device=DEVICE)
    assert np.array_equal(x, xf)
    x1, _ = hetflow.nnls(A, B[:, 1].copy(), device=DEVICE)
    assert np.array_equal(x[:, 1], x1)


def test_arrays_cross_without_copies():
    A, b = problem()
    F = np.asfortranarray(A)
    x, _ = hetflow.nnls(F, b, device=DEVICE)
    # x is the solver's own vector, which numpy took over (a copy would own its data)
    assert not x.flags.owndata and type(x.base).__name__ == "PyCapsule"
    # The binding reads A in place: given A in C order it refuses rather than copy (hetflow.nnls makes
    # the one layout copy such an A needs, visibly, in Python).
    request = hetflow._hetflow._NnlsRequest()
    request.method, request.device = "fnnls", DEVICE
    B = np.asfortranarray(b.reshape(-1, 1))
    with pytest.raises(TypeError):
        hetflow._hetflow._nnls(np.ascontiguousarray(A), B, True, request, False)
    y, _, _ = hetflow._hetflow._nnls(F, B, True, request, False)
    assert np.array_equal(y, hetflow.nnls(A, b, method="fnnls")[0])


def test_bad_arrays_are_refused_with_their_name():
    A, b = problem()
    with pytest.raises(TypeError, match="A: expected a float64 array, got dtype int64"):
        hetflow.nnls(A.astype(np.int64), b)
    with pytest.raises(TypeError, match="b: expected a float64 array, got dtype float32"):
        hetflow.nnls(A, b.astype(np.float32))
    with pytest.raises(ValueError, match="b has 59 rows but A has 60"):
        hetflow.nnls(A, b[:59])
    with pytest.raises(ValueError, match="A: expected 2-D"):
        hetflow.nnls(A[0], b)
    bad = A.copy()
    bad[4, 7] = np.nan
    with pytest.raises(ValueError, match=r"A\[4, 7\] = nan"):
        hetflow.nnls(bad, b)
    with pytest.raises(ValueError, match="method = 'qr'"):
        hetflow.nnls(A, b, method="qr")


def test_progress_counts_tnts_outer_iterations_over_the_right_hand_sides():
    A, B = problem(k=3)
    seen = []
    x, report = hetflow.nnls(A, B, device=DEVICE, progress=lambda done, total: seen.append(done))
    assert report.converged and seen == sorted(seen)
    assert seen[-1] == sum(r["iterations"] for r in report.rhs)

    def fail(done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        hetflow.nnls(A, B[:, 0], device=DEVICE, progress=fail)
    with pytest.raises(TypeError, match="progress: expected"):
        hetflow.nnls(A, B[:, 0], device=DEVICE, progress=1)


def test_early_reach_is_the_clis_reach(tmp_path):
    A, b = problem(seed=5)
    np.save(tmp_path / "A.npy", A)
    np.save(tmp_path / "b.npy", b)
    cli("nnls", tmp_path / "A.npy", tmp_path / "b.npy", "--reach", "1", "--device", DEVICE,
        "--output", tmp_path / "out")
    x, report = hetflow.nnls(A, b, device=DEVICE, early_reach=1)
    assert np.array_equal(x, np.load(tmp_path / "out" / "x.npy"))
    assert report.raw["options"]["early_reach"] == 1
    with pytest.raises(hetflow.HetflowError, match=r"TntOptions.early_reach = 0.500000: must be finite and >= 1"):
        hetflow.nnls(A, b, device=DEVICE, early_reach=0.5)
