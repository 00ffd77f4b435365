#!/usr/bin/env python3
"""Reference solutions for the host NNLS baselines (tests/nnls/test_baselines.cpp).

Builds small NNLS problems with known conditioning and a known active set, solves each with
scipy.optimize.nnls (Lawson-Hanson), and writes tests/nnls/data/scipy_nnls_reference.json:
for every problem m, n, kappa, active_fraction, seed, strict, A (column-major, flat), b, x_star
(the solution the problem was built around), x_scipy and rnorm (= ||A x_scipy - b||_2), every float
written by repr so that it reads back bit for bit.

The construction is the one of src/hetflow/nnls/test_problems.hpp, but drawn with numpy's own
generator (numpy.random.default_rng(seed)), so the matrices are not those of the C++ generator:
  A = U diag(s) V^T, U, V Haar-distributed (QR of Gaussian matrices, diag(R) > 0),
      s geometric from 1 to 1/kappa;
  x_star: a random fraction of the entries 0 (Z), the others uniform in [0.5, 1.5) (F);
  r: least-norm solution of C^T r = -mu, C = (I - Q Q^T) A_Z, Q a basis of range(A_F), mu uniform
     in [0.5, 1.5), scaled to ||r|| = ||A x_star|| / 2; b = A x_star + r.
  strict = A_Z^T r < 0 held, so x_star is the unique solution; otherwise (|F| >= m, or no such r)
  r = 0, b = A x_star is consistent and the solution need not be unique.

Rerun (numpy and scipy installed; the output depends on their versions only through rounding):
    python3 scripts/nnls_reference.py
"""
import json
import pathlib

import numpy as np
import scipy
from scipy.optimize import nnls

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "nnls" / "data" / "scipy_nnls_reference.json"

# (m, n, kappa, active fraction): over-, well- and under-determined, each kappa and fraction.
CASES = [
    (40, 30, 1e1, 0.20),
    (40, 30, 1e4, 0.50),
    (40, 30, 1e8, 0.05),
    (50, 50, 1e1, 0.50),
    (50, 50, 1e4, 0.05),
    (50, 50, 1e8, 0.20),
    (60, 20, 1e8, 0.50),
    (30, 40, 1e1, 0.50),
    (30, 40, 1e4, 0.20),
]


def orthonormal_columns(g):
    q, r = np.linalg.qr(g)
    return q * np.where(np.diag(r) < 0, -1.0, 1.0)


def random_matrix(m, n, kappa, rng):
    p = min(m, n)
    u = orthonormal_columns(rng.standard_normal((m, p)))
    v = orthonormal_columns(rng.standard_normal((n, p)))
    s = kappa ** (-np.arange(p) / (p - 1))
    return (u * s) @ v.T


def with_active_set(a, fraction, rng):
    m, n = a.shape
    order = rng.permutation(n)
    bound = int(round(fraction * n))
    z, f = np.sort(order[:bound]), np.sort(order[bound:])
    x = np.zeros(n)
    x[f] = 0.5 + rng.random(f.size)
    b = a @ x
    strict = z.size == 0 and f.size <= m
    if f.size < m and z.size > 0:
        mu = 0.5 + rng.random(z.size)
        q = orthonormal_columns(a[:, f]) if f.size else np.zeros((m, 0))
        c = a[:, z] - q @ (q.T @ a[:, z])
        r = np.linalg.lstsq(c.T, -mu, rcond=100 * np.finfo(float).eps * max(m, z.size))[0]
        r -= q @ (q.T @ r)
        if np.linalg.norm(r) > 0 and np.max(a[:, z].T @ r) < 0:
            strict = True
            b = b + np.linalg.norm(b) / 2 / np.linalg.norm(r) * r
    return b, x, bool(strict)


def main():
    problems = []
    for seed, (m, n, kappa, fraction) in enumerate(CASES, start=1):
        rng = np.random.default_rng(seed)
        a = random_matrix(m, n, kappa, rng)
        b, x_star, strict = with_active_set(a, fraction, rng)
        x, rnorm = nnls(a, b)
        problems.append({
            "name": f"{m}x{n}_kappa{kappa:.0e}_active{round(100 * fraction)}",
            "m": m, "n": n, "kappa": kappa, "active_fraction": fraction, "seed": seed, "strict": strict,
            "A": a.flatten(order="F").tolist(), "b": b.tolist(), "x_star": x_star.tolist(),
            "x_scipy": x.tolist(), "rnorm": float(rnorm),
        })
        print(f"{problems[-1]['name']}: strict={strict} rnorm={rnorm:.3e} "
              f"|x-x*|/|x*|={np.linalg.norm(x - x_star) / np.linalg.norm(x_star):.1e}")
    # One problem per line: readable headers without a line per matrix entry.
    header = json.dumps({"generator": "scripts/nnls_reference.py", "numpy_version": np.__version__,
                         "scipy_version": scipy.__version__})
    lines = ",\n".join(json.dumps(p) for p in problems)
    OUT.write_text(header[:-1] + ', "problems": [\n' + lines + "\n]}\n")


if __name__ == "__main__":
    main()
