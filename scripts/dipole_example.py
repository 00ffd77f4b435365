#!/usr/bin/env python3
"""Synthetic magnetic-dipole inversion with `hetflow nnls` (thesis Ch. 7, after Weiss et al. 2007).

A scanning magnetometer measures the vertical field Bz on an N x N grid of points (spacing d) in a
plane at height h above a sample. The sample is modelled as N x N vertical dipoles, one below each
observation point, with unknown non-negative moments m_j. The field of a vertical dipole m z^ at the
origin, at the point (x, y, h), is (SI units)

    Bz = mu0 / (4 pi) * m * (2 h^2 - x^2 - y^2) / (x^2 + y^2 + h^2)^(5/2)

with mu0 / (4 pi) = 1e-7 T m / A, m in A m^2, distances in m and Bz in T. So A[i, j] is that
kernel (in T per A m^2) for observation point i and dipole j, A is N^2 x N^2 (2500 x 2500 for
the thesis's 50 x 50 grid), and b = A m_true (+ noise). With h = 2.13 d the matrix has condition
number of about 128, the thesis's kappa (h = 2 d gives 74, h = 2.5 d 543: the field of a dipole
spreads over about h, so a higher plane blurs neighbouring sources into each other).

The script writes A.npy, b.npy and m_true.npy into a folder, runs `hetflow nnls` there and plots
true and recovered moments, observed and predicted Bz into a PNG.

    scripts/dipole_example.py build/release/hetflow --grid 50 --out runs/dipole \
        --image docs/images/nnls_dipole.png
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

import numpy as np

MU0_OVER_4PI = 1e-7  # T m / A


def forward_matrix(n, spacing, height):
    """Bz at each of the n x n observation points per unit moment of each of the n x n dipoles.

    Points and dipoles are numbered row by row (index = iy * n + ix), dipoles at depth `height`
    below their observation point. Units: T / (A m^2)."""
    c = np.arange(n) * spacing
    x, y = (g.ravel() for g in np.meshgrid(c, c, indexing="xy"))
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    r2 = dx * dx + dy * dy + height * height
    return MU0_OVER_4PI * (2 * height * height - dx * dx - dy * dy) / r2**2.5


def sources(n, peak_moment):
    """A few smooth, compact, non-negative blobs (A m^2 per cell); most cells are exactly 0."""
    c = (np.arange(n) + 0.5) / n
    x, y = np.meshgrid(c, c, indexing="xy")
    m = np.zeros((n, n))
    # centre x, centre y, radius, relative strength
    for cx, cy, radius, strength in [(0.3, 0.35, 0.12, 1.0), (0.7, 0.3, 0.08, 0.6), (0.55, 0.72, 0.15, 0.8)]:
        r = np.hypot(x - cx, y - cy) / radius
        m += strength * np.where(r < 1, np.cos(0.5 * np.pi * r) ** 2, 0.0)
    return peak_moment * m.ravel()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hetflow", help="path to the hetflow executable")
    p.add_argument("--grid", type=int, default=50, help="observation points per side (default 50: 2500 x 2500)")
    p.add_argument("--spacing", type=float, default=100e-6, help="grid spacing d in m (default 100 um)")
    p.add_argument("--height", type=float, default=2.13, help="observation height in grid spacings (default 2.13)")
    p.add_argument("--peak-moment", type=float, default=1e-12, help="largest moment per cell in A m^2")
    p.add_argument("--noise", type=float, default=0.005, help="Gaussian noise, as a fraction of max |Bz| (0.5 %%)")
    p.add_argument("--seed", type=int, default=1, help="noise seed")
    p.add_argument("--out", default="runs/dipole", help="folder for A.npy, b.npy and hetflow's results")
    p.add_argument("--image", default="docs/images/nnls_dipole.png", help="PNG to write")
    p.add_argument("--device", default="auto", help="hetflow --device")
    p.add_argument("--rc", type=float, default=0.2, help="TNT reduction constant")
    p.add_argument("--ec", type=float, default=1.2, help="TNT expansion constant")
    p.add_argument("--condition", action="store_true", help="also print cond(A) (an SVD: seconds at 2500^2)")
    args = p.parse_args()

    n = args.grid
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    A = forward_matrix(n, args.spacing, args.height * args.spacing)
    m_true = sources(n, args.peak_moment)
    bz = A @ m_true
    if args.noise > 0:
        bz = bz + args.noise * np.abs(bz).max() * np.random.default_rng(args.seed).standard_normal(bz.size)
    np.save(out / "A.npy", A)
    np.save(out / "b.npy", bz)
    np.save(out / "m_true.npy", m_true)
    print(f"{n * n} x {n * n} system, {np.count_nonzero(m_true)} of {n * n} moments non-zero")
    if args.condition:
        s = np.linalg.svd(A, compute_uv=False)
        print(f"cond(A) = {s[0] / s[-1]:.1f}")

    command = [str(pathlib.Path(args.hetflow).resolve()), "nnls", "A.npy", "b.npy", "-o", "result", "--device", args.device,
               "--rc", str(args.rc), "--ec", str(args.ec)]
    start = time.perf_counter()
    run = subprocess.run(command, cwd=out)
    print(f"hetflow nnls: exit status {run.returncode} after {time.perf_counter() - start:.1f} s")
    # Status 1 with a report means "did not converge": x is still worth plotting.
    if not (out / "result" / "report.json").exists():
        sys.exit(run.returncode or 1)
    m = np.load(out / "result" / "x.npy")
    report = json.loads((out / "result" / "report.json").read_text())
    rhs = report["rhs"][0]
    predicted = A @ m
    x_error = np.linalg.norm(m - m_true) / np.linalg.norm(m_true)
    print(f"relative error of the moments {x_error:.2e}, residual {rhs['relative_residual']:.2e} ||b||, "
          f"{rhs['iterations']} outer iterations, {rhs['seconds']:.2f} s in TNT")
    plot(n, args, m_true, m, bz, predicted, rhs, x_error, report)
    sys.exit(run.returncode)


def plot(n, args, m_true, m, bz, predicted, rhs, x_error, report):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    extent_mm = [0, n * args.spacing * 1e3, 0, n * args.spacing * 1e3]
    fig, axes = plt.subplots(2, 2, figsize=(10, 8.6), constrained_layout=True)
    scale_m = 1e12  # A m^2 -> pA m^2
    top = m_true.max() * scale_m
    field = max(np.abs(bz).max(), np.abs(predicted).max()) * 1e9  # T -> nT
    panels = [
        (m_true * scale_m, "true moments", "viridis", 0, top, "moment [pA m²]"),
        (m * scale_m, "recovered moments (hetflow nnls, TNT)", "viridis", 0, top, "moment [pA m²]"),
        (bz * 1e9, "observed Bz" + (f" ({args.noise:.1%} noise)" if args.noise else ""), "RdBu_r", -field, field,
         "Bz [nT]"),
        (predicted * 1e9, "Bz predicted by the recovered moments", "RdBu_r", -field, field, "Bz [nT]"),
    ]
    for ax, (values, title, cmap, lo, hi, label) in zip(axes.ravel(), panels):
        im = ax.imshow(values.reshape(n, n), origin="lower", extent=extent_mm, cmap=cmap, vmin=lo, vmax=hi)
        ax.set_title(title)
        ax.set_xlabel("x [mm]")
        ax.set_ylabel("y [mm]")
        fig.colorbar(im, ax=ax, label=label)
    fig.suptitle(f"{n * n} x {n * n} dipole inversion, h = {args.height:g} d: moment error {x_error:.1e}, "
                 f"residual {rhs['relative_residual']:.1e} ||b||\n"
                 f"{rhs['iterations']} outer iterations, {rhs['seconds']:.1f} s on {report['device']['name']}",
                 fontsize=10)
    image = pathlib.Path(args.image)
    image.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(image, dpi=90)
    print(f"wrote {image}")


if __name__ == "__main__":
    main()
