import numpy as np
import pytest

import hetflow
from conftest import DEVICE


def test_the_singular_values_are_the_prescribed_ones():
    A = hetflow.svc(60, 40, kappa=1e6, seed=3)
    assert A.shape == (60, 40) and A.flags.f_contiguous
    s = np.linalg.svd(A, compute_uv=False)
    assert s == pytest.approx(np.geomspace(1, 1e-6, 40), rel=1e-10)
    assert sorted(hetflow.svc_singular_values(60, 40, kappa=1e6, seed=3), reverse=True) == \
        pytest.approx(np.geomspace(1, 1e-6, 40), rel=1e-14)


def test_the_same_seed_gives_the_same_bits_on_host_and_device():
    host = hetflow.svc(33, 33, kappa=1e3, mode="random", seed=11)
    assert np.array_equal(host, hetflow.svc(33, 33, kappa=1e3, mode="random", seed=11, device=DEVICE))
    assert not np.array_equal(host, hetflow.svc(33, 33, kappa=1e3, mode="random", seed=12))


def test_user_values_and_malformed_specs():
    A = hetflow.svc(5, 3, mode="user", singular_values=[3.0, 2.0, 0.5])
    assert np.linalg.svd(A, compute_uv=False) == pytest.approx([3.0, 2.0, 0.5], rel=1e-13)
    with pytest.raises(hetflow.InputError, match="kappa"):
        hetflow.svc(10, 10, kappa=0.5)
    with pytest.raises(hetflow.InputError, match="mode = 'log'"):
        hetflow.svc(10, 10, mode="log")
