#!/usr/bin/env python3
"""Draws docs/images/nnls_speedup_vs_n.png: TNT's speed-up over scipy.optimize.nnls against n, one line
per problem family, from pairs of a `hetflow bench nnls` JSON and the scipy.json that
scripts/nnls_scipy_bench.py wrote for its problems.

Usage: python3 scripts/plot_nnls_speedups.py IMAGE TNT.json SCIPY.json [TNT.json SCIPY.json ...]
A case counts where both files time it: "tnt FAMILY n=N active=A%" beside "scipy-nnls FAMILY n=N
active=A%" (the SVC series of the plain benchmark, "tnt n=N active=A%", is the family "svc series").
Where several pairs time the same case, the last pair given wins. Needs matplotlib; nothing in the
build or the tests needs it.
"""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

CASE = re.compile(r"(?:tnt|scipy-nnls) (?:([a-z0-9-]+) )?n=(\d+) active=(\d+)%")


def medians(path):
    """{(family, n, active %): median seconds} of the file's TNT or SciPy cases."""
    out = {}
    for c in json.load(open(path))["cases"]:
        m = CASE.fullmatch(c["name"])
        if m:
            out[(m[1] or "svc series", int(m[2]), int(m[3]))] = c["median"]
    return out


def speedups(pairs):
    """{(family, active %): {n: SciPy seconds / TNT seconds}} over the (TNT, SciPy) file pairs."""
    out = {}
    for tnt_path, scipy_path in pairs:
        tnt, scipy = medians(tnt_path), medians(scipy_path)
        for key in tnt.keys() & scipy.keys():
            family, n, active = key
            out.setdefault((family, active), {})[n] = scipy[key] / tnt[key]
    return out


def main(image, paths):
    if len(paths) % 2:
        sys.exit("expected pairs of files: TNT.json SCIPY.json ...")
    ratios = speedups(zip(paths[::2], paths[1::2]))
    actives = sorted({active for _, active in ratios})
    families = sorted({family for family, _ in ratios})
    fig, axes = plt.subplots(1, len(actives), figsize=(3.4 * len(actives) + 1.6, 4.0), sharex=True, sharey=True,
                             squeeze=False)
    for ax, active in zip(axes[0], actives):
        for i, family in enumerate(families):
            points = sorted(ratios.get((family, active), {}).items())
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", ms=4, color=f"C{i % 10}",
                        label=family)
        ax.axhline(100, color="k", lw=0.8, ls=":")
        ax.axhline(1, color="k", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{active} % active", fontsize=9)
        ax.set_xlabel("n")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("SciPy time / TNT time")
    lines = {line.get_label(): line for ax in axes[0] for line in ax.get_lines()}
    fig.legend([lines[f] for f in families], families, fontsize=7, loc="center right")
    fig.tight_layout(rect=(0, 0, 1 - 1.5 / fig.get_figwidth(), 1))
    fig.savefig(image, dpi=130)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
