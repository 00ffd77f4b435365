"""Recovers sparse non-negative spikes from a blurred, noisy signal with hetflow.nnls (TNT on a device).

    python3 examples/python/nnls_deconvolution.py [--device auto] [--figure nnls_deconvolution.png]
"""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import hetflow

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--device", default="auto")
parser.add_argument("--figure", default="nnls_deconvolution.png")
args = parser.parse_args()

# A Gaussian blur of width 4 samples on 400 points, spikes at 12 places, 0.1 % noise.
n = 400
t = np.arange(n)
A = np.exp(-0.5 * ((t[:, None] - t[None, :]) / 4.0) ** 2)
rng = np.random.default_rng(7)
truth = np.zeros(n)
truth[rng.choice(np.arange(20, n - 20), 12, replace=False)] = rng.uniform(0.5, 2.0, 12)
b = A @ truth + 1e-3 * rng.standard_normal(n)

x, report = hetflow.nnls(np.asfortranarray(A), b, device=args.device)
print(f"residual {report.residual_norm[0]:.3e}, {np.count_nonzero(x > 1e-3)} entries above 1e-3")
# Every spike is found within a sample (blurred neighbours share its mass).
for i in np.flatnonzero(truth):
    assert x[max(i - 1, 0):i + 2].sum() > 0.5 * truth[i], f"spike at {i} not recovered"

fig, ax = plt.subplots(figsize=(8, 3))
ax.plot(t, b, color="0.6", label="blurred, noisy signal b")
ax.vlines(np.flatnonzero(truth), 0, truth[truth > 0], color="k", label="true spikes")
ax.plot(t, x, "r.", markersize=3, label="hetflow.nnls x")
ax.set_xlabel("sample")
ax.legend(loc="upper right")
fig.tight_layout()
fig.savefig(args.figure, dpi=120)
print("wrote", args.figure)
