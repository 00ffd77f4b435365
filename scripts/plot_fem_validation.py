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

# The rows of fem_schaefer_turek_2d1.csv, by its `quantity` column.
DFG_QUANTITIES = ["$c_D$", "$c_L$", "$L_a$", "$\\Delta p$"]


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
    fig, axes = plt.subplots(1, len(t["value"]), figsize=(10, 3.5))
    for ax, q, value, low, high in zip(axes, t["quantity"], t["value"], t["low"], t["high"]):
        inside = low <= value <= high
        ax.axhspan(low, high, color="#5ec962", alpha=0.4, label="Schäfer & Turek (1996)")
        ax.plot([0], [value], "o" if inside else "x", color="#3b528b" if inside else "#b2182b", ms=8,
                label="hetflow fem")
        span = high - low
        ax.set_ylim(min(low, value) - span, max(high, value) + span)
        ax.set_xticks([])
        ax.set_title(f"{DFG_QUANTITIES[int(q)]} = {value:.4f}")
    axes[0].legend(fontsize=7, loc="upper left")
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
