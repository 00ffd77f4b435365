#!/usr/bin/env python3
"""Draws the figures of docs/lbm-validation.md.

Usage: HETFLOW_VALIDATION_OUT=/tmp/val ctest --preset release -R 'Lbm'   # the tests leave CSV data
       python3 scripts/plot_lbm_validation.py /tmp/val bench/results/nvidia-h200 docs/images
Needs numpy and matplotlib (pip install numpy matplotlib); nothing in the build or the tests needs them.
"""
import csv
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np


def table(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def duct(data, out):
    fig, ax = plt.subplots(figsize=(6, 4))
    exact = table(data / "duct_fp64.csv")
    ax.plot(exact["x"], exact["u_exact"], "k-", lw=1, label="series solution")
    for storage, marker in (("fp64", "o"), ("fp32", "x"), ("fp16", "+")):
        t = table(data / f"duct_{storage}.csv")
        ax.plot(t["x"], t["u_lbm"], marker, ms=5, mfc="none", label=f"D3Q19, {storage} storage")
    ax.set_xlabel("x (lattice units, walls at ±16)")
    ax.set_ylabel("$u_z$ on the centre line")
    ax.set_title("Duct Poiseuille, 32 × 32 cells, τ = 0.8")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "lbm_duct_poiseuille.png", dpi=120)


def laplace(data, out):
    t = table(data / "laplace.csv")
    inv_r = 1 / t["radius"]
    slope, intercept = np.polyfit(inv_r, t["pressure_jump"], 1)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(inv_r, t["pressure_jump"], "o", mfc="none", label="Shan–Chen drops")
    xs = np.linspace(0, inv_r.max() * 1.1, 50)
    ax.plot(xs, slope * xs + intercept, "k-", lw=1, label=f"fit: σ = {slope:.2f}")
    ax.set_xlabel("1 / R")
    ax.set_ylabel("Δp = p_in − p_out")
    ax.set_title("Laplace's law (2-D drops, G = −120, ψ0 = 4, ρ0 = 200)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "lbm_laplace.png", dpi=120)


def zou_he(data, out):
    t = table(data / "zou_he_channel.csv")
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(t["y"], t["u_z2"], "s", mfc="none", label="z = 2 (near the plug inlet)")
    ax.plot(t["y"], t["u_z60"], "o", mfc="none", label="z = 60 (developed)")
    ax.plot(t["y"], t["u_exact"], "k-", lw=1, label="parabola of the same mean")
    ax.set_xlabel("y (walls at ±10)")
    ax.set_ylabel("$u_z$")
    ax.set_title("Channel with Zou–He inlet (u = 0.02) and outlet (ρ = 1)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "lbm_zou_he.png", dpi=120)


def benchmark(results, out):
    bench = json.loads((results / "lbm.json").read_text())
    cases = [c for c in bench["cases"] if c["params"]["lattice"] == 384]
    names = [f'{c["params"]["storage"]}\n{c["params"]["pattern"]}' for c in cases]
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(range(len(cases)), [c["median"] for c in cases], color="#3b528b")
    for storage, color in (("fp32", "#21918c"), ("fp16", "#5ec962"), ("fp64", "#fde725")):
        bytes_per = next(c["bytes_per_unit"] for c in cases if c["params"]["storage"] == storage)
        roof = bench["reference_bandwidth_GBs"] * 1e3 / bytes_per
        ax.axhline(roof, color=color, ls="--", lw=1, label=f"copy-bandwidth limit, {storage} ({roof:,.0f})")
    ax.set_xticks(range(len(cases)), names, fontsize=8)
    ax.set_ylabel("MLUPs/s")
    ax.set_title(f'D3Q19 on {bench["device"]}, 384³ duct, median of {cases[0]["repeats"]} runs')
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(out / "lbm_benchmark.png", dpi=120)


def main():
    data, results, out = (Path(a) for a in sys.argv[1:4])
    out.mkdir(parents=True, exist_ok=True)
    duct(data, out)
    laplace(data, out)
    zou_he(data, out)
    benchmark(results, out)


if __name__ == "__main__":
    main()
