#!/usr/bin/env python3
"""Draws the validation figures of docs/fem.md from the CSV the slow fem tests leave.

Usage: HETFLOW_VALIDATION_OUT=/tmp/val ctest --test-dir build/gpu -L long
       python3 scripts/plot_fem_validation.py /tmp/val docs/images
Needs numpy and matplotlib (pip install numpy matplotlib); nothing in the build or the tests needs them.
A figure whose data is missing is skipped with a note.
"""
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

# The columns of fem_schaefer_turek_2d1.csv with their labels and the published intervals.
DFG_INTERVALS = [
    ("c_D", "$c_D$", 5.57, 5.59),
    ("c_L", "$c_L$", 0.0104, 0.0110),
    ("L_a", "$L_a$", 0.0842, 0.0852),
    ("delta_p", "$\\Delta p$ (nodal)", 0.1172, 0.1176),
    ("delta_p_wall", "$\\Delta p$ (wall traction)", 0.1172, 0.1176),
]


def table(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def ghia(data, out):
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for ax, name, label, axis in ((axes[0], "u", "u on x = 0.5", "y"), (axes[1], "v", "v on y = 0.5", "x")):
        ref = table(data / f"fem_cavity_{name}_ghia.csv")
        profile = table(data / f"fem_cavity_{name}_profile.csv")
        ax.plot(profile["s"], profile["fem"], "-", color="#3b528b", lw=1.5, label="hetflow fem (P1, OSS)")
        ax.plot(ref["s"], ref["ghia"], "o", mfc="none", color="k", label="Ghia, Ghia & Shin (1982)")
        deviation = np.max(np.abs(ref["fem"] - ref["ghia"]))
        ax.set_title(f"{label}: max deviation {deviation:.4f}")
        ax.set_xlabel(axis)
        ax.set_ylabel(name)
        ax.legend(fontsize=8)
    fig.suptitle("Lid-driven cavity, Re = 100, quasi-2D slab")
    fig.tight_layout()
    fig.savefig(out / "fem_ghia_re100.png", dpi=120)


def schaefer_turek(data, out):
    t = table(data / "fem_schaefer_turek_2d1.csv")
    cells = t["cells_per_quarter"]
    fig, axes = plt.subplots(1, len(DFG_INTERVALS), figsize=(15, 3.6))
    for ax, (column, label, low, high) in zip(axes, DFG_INTERVALS):
        values = t[column]
        ax.axhspan(low, high, color="#5ec962", alpha=0.4, label="Schäfer & Turek (1996)")
        ax.plot(cells, values, "-", color="#3b528b", lw=1)
        for c, v in zip(cells, values):
            inside = low <= v <= high
            ax.plot([c], [v], "o" if inside else "x", color="#3b528b" if inside else "#b2182b", ms=7)
        ax.set_xticks(cells)
        ax.set_xlabel("cells per quarter of the cylinder")
        ax.set_title(f"{label}: {values[-1]:.5g} at {int(cells[-1])}")
    axes[0].legend(fontsize=7, loc="lower right")
    fig.suptitle("Schäfer–Turek 2D-1 (Re = 20) in a slab, against the published intervals")
    fig.tight_layout()
    fig.savefig(out / "fem_schaefer_turek_2d1.png", dpi=120)


def cube(data, out):
    t = table(data / "fem_cube_cavity.csv")
    levels = [k[2:] for k in t if k.startswith("u_")]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for level in levels:
        axes[0].plot(t["y"], t[f"u_{level}"], "-", lw=1.2, label=f"{level}³")
        axes[1].plot(t["x"], t[f"v_{level}"], "-", lw=1.2, label=f"{level}³")
    axes[0].axhline(-0.2109, color="k", ls="--", lw=0.8, label="2D min u (Ghia et al. 1982)")
    axes[0].set(xlabel="y", ylabel="u", title="u on x = 0.5, z = 0.5")
    axes[1].set(xlabel="x", ylabel="v", title="v on y = 0.5, z = 0.5")
    for ax in axes:
        ax.legend(fontsize=8)
    fig.suptitle("Lid-driven cube, Re = 100: mid-plane profiles over three levels")
    fig.tight_layout()
    fig.savefig(out / "fem_cube_cavity_re100.png", dpi=120)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for figure in (ghia, schaefer_turek, cube):
        try:
            figure(data, out)
        except FileNotFoundError as e:
            print(f"{figure.__name__}: skipped, no {Path(e.filename).name} in {data}")


if __name__ == "__main__":
    main()
