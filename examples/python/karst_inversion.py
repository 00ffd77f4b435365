"""Recovering a karst conduit's heat-exchange parameters from a noisy outlet record with
hetflow.karst_inversion (Myre 2013, Ch. 7): a storm's warm pulse through a conduit of known Pe, St and
Theta is "observed" with logger noise, then the inversion finds them again from the record alone.

    python3 examples/python/karst_inversion.py [--device auto] [--figure karst_inversion.png]
"""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import hetflow

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--device", default="auto")
parser.add_argument("--figure", default="karst_inversion.png")
args = parser.parse_args()

# The storm in dimensionless time: flow speeds up to twice its mean, the inlet warms by 3 degrees.
t = np.linspace(0, 3, 61)
inlet = np.column_stack([t, 10 + 3 * np.exp(-((t - 0.8) / 0.3) ** 2)])
velocity = np.column_stack([t, 1 + np.exp(-((t - 0.6) / 0.4) ** 2)])
grid = dict(nodes=60, rock_nodes=20, rock_extent=3, initial=10)

# The record: the outlet of Pe 1960, St 12, Theta 3.2 every 0.01 t*, with 0.01 degree noise.
truth = dict(Pe=1960.0, St=12.0, Theta=3.2)
times = 0.01 * np.arange(1, 301)
outlet = hetflow.karst_outlets(inlet, velocity, times, device=args.device, **truth, **grid)[0]
noise = 0.01
observed = np.column_stack([times, outlet + np.random.default_rng(7).normal(0, noise, times.size)])

r = hetflow.karst_inversion(inlet, velocity, observed, noise=noise, device=args.device, **grid)
for name in ("Pe", "St", "Theta"):
    print(f"{name:5s} {r.parameters[name]:9.4f} +- {r.sigma[name]:.4f} (true {truth[name]:g})")
print(f"RMS misfit {r.rms:.4f} (noise {noise}); {r.evaluations} evaluations, {r.stop_reason}")
# The outlet pins down St and Theta (Pe barely shapes it): each within three standard deviations, and the
# misfit at the noise level.
for name in ("St", "Theta"):
    assert abs(r.parameters[name] - truth[name]) < 3 * r.sigma[name], name
assert 0.8 * noise < r.rms < 1.2 * noise

fig, ax = plt.subplots(figsize=(8, 4.2))
ax.plot(inlet[:, 0], inlet[:, 1], "--", color="grey", label="inlet")
ax.plot(observed[:, 0], observed[:, 1], ".", ms=3, label="observed outlet")
ax.plot(r.t, r.fit, "-", label=f"fit: St {r.parameters['St']:.2f}, Theta {r.parameters['Theta']:.2f}")
ax.set_xlabel("t*")
ax.set_ylabel("temperature (deg C)")
ax.legend()
fig.tight_layout()
fig.savefig(args.figure, dpi=120)
print("wrote", args.figure)
