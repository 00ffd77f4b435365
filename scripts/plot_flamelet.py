#!/usr/bin/env python3
"""Draws docs/images/flamelet_hydrogen.png from a `type: flamelet` run: T(z) of every stoichiometric
dissipation rate with the mixing line, and the S-curve (the largest T against chi_st, extinct rates open).

Usage: python3 scripts/plot_flamelet.py runs/flamelet_hydrogen docs/images/flamelet_hydrogen.png
Needs matplotlib and numpy (pip install matplotlib numpy); nothing in the build or the tests needs them.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main(run, image):
    profiles = rows(f"{run}/flamelet.csv")
    curve = rows(f"{run}/scurve.csv")
    status = {float(r["chi_st_per_s"]): r["status"] for r in curve}
    by_rate, mixing = {}, {}
    for r in profiles:
        by_rate.setdefault(float(r["chi_st_per_s"]), []).append((float(r["z"]), float(r["T_K"])))
        mixing[float(r["z"])] = float(r["T_mixing_K"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    for i, (chi, points) in enumerate(sorted(by_rate.items())):
        left.plot([p[0] for p in points], [p[1] for p in points], color=f"C{i}", marker=".", ms=4,
                  label=f"$\\chi_{{st}}$ = {chi:.4g} 1/s ({status[chi]})")
    z = sorted(mixing)
    left.plot(z, [mixing[v] for v in z], "k--", lw=1, label="mixing line")
    left.set_xlabel("mixture fraction z")
    left.set_ylabel("T (K)")
    left.legend(fontsize=7)
    left.grid(alpha=0.3)
    burning = [(float(r["chi_st_per_s"]), float(r["T_max_K"])) for r in curve if r["status"] == "steady"]
    out = [(float(r["chi_st_per_s"]), float(r["T_max_K"])) for r in curve if r["status"] == "extinct"]
    right.plot([p[0] for p in burning], [p[1] for p in burning], "o-", color="C3", label="burning (steady)")
    right.plot([p[0] for p in out], [p[1] for p in out], "o", mfc="none", color="C0", label="extinct")
    right.set_xscale("log")
    right.set_xlabel("$\\chi_{st}$ (1/s)")
    right.set_ylabel("largest T (K)")
    right.legend(fontsize=8)
    right.grid(alpha=0.3, which="both")
    fig.suptitle("H$_2$/N$_2$ against air, 1 atm, H2/O2 mechanism, 32 points, Strang, dt = 10 µs", fontsize=10)
    fig.tight_layout()
    fig.savefig(image, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
