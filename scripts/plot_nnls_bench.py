#!/usr/bin/env python3
"""Draws docs/images/nnls_benchmark.png: solve time against n from a `hetflow bench nnls` JSON.

Usage: python3 scripts/plot_nnls_bench.py bench/results/nvidia-h200/nnls.json docs/images/nnls_benchmark.png
Needs matplotlib (pip install matplotlib); nothing in the build or the tests needs it.
"""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def series(cases):
    """{(method, active): [(n, median seconds, min, max)]} from case names such as 'tnt n=500 active=5%'."""
    out = {}
    for c in cases:
        m = re.fullmatch(r"(tnt|fnnls|lawson-hanson) n=(\d+) active=(\d+)%", c["name"])
        if m:
            out.setdefault((m[1], int(m[3])), []).append((int(m[2]), c["median"], c["min"], c["max"]))
    return out


def main(path, image):
    report = json.load(open(path))
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    styles = {"tnt": ("C0", "TNT on " + report["device"]), "fnnls": ("C1", "FNNLS (host)"),
              "lawson-hanson": ("C2", "Lawson-Hanson (host)")}
    for (method, active), points in sorted(series(report["cases"]).items()):
        points.sort()
        colour, label = styles[method]
        n = [p[0] for p in points]
        ax.errorbar(n, [p[1] for p in points],
                    yerr=[[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]],
                    color=colour, ls="-" if active == 5 else "--", marker="o" if active == 5 else "s", ms=4,
                    label=f"{label}, {active} % active")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (square SVC matrix, kappa 1e2)")
    ax.set_ylabel("solve time [s], median (min-max)")
    ax.set_title(f"hetflow bench nnls, commit {report['commit']}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(image, dpi=130)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
