"""Pressure-driven flow through a square duct with hetflow.Lbm: the lattice-Boltzmann velocity field and
permeability against the exact series solution of the duct (Poisson's equation on the square).

    python3 examples/python/lbm_duct.py [--device auto] [--figure lbm_duct.png]
"""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import hetflow

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--device", default="auto")
parser.add_argument("--figure", default="lbm_duct.png")
args = parser.parse_args()

# A duct of a x a fluid nodes along z, walled in x and y (half-way bounce-back puts the walls half a node
# outside the outermost fluid nodes), periodic along z, driven by a body force F.
a, force, tau = 16, 1e-6, 0.8
mask = np.ones((4, a + 2, a + 2), bool)
mask[:, 1:-1, 1:-1] = False
flow = hetflow.Lbm(mask, device=args.device, tau=tau, collision="trt", force=[0, 0, force], storage="fp64")
flow.step(12000)  # about five viscous times a^2 / nu

# The exact duct flow: nu lap u = -F on the square of side a, u = 0 on its sides (double sine series).
nu = flow.viscosity
x = np.arange(a) + 0.5  # fluid node centres, walls at 0 and a
odd = np.arange(1, 200, 2)
m, n = np.meshgrid(odd, odd, indexing="ij")
coef = 16 * force * a**2 / (nu * np.pi**4) / (m * n * (m**2 + n**2))
exact = np.einsum("mn,mx,ny->yx", coef, np.sin(np.pi * np.outer(odd, x) / a), np.sin(np.pi * np.outer(odd, x) / a))
k_exact = 64 / np.pi**6 * np.sum(1 / (m**2 * n**2 * (m**2 + n**2))) * a**2 * a**2 / (a + 2) ** 2

u = flow.velocity[0, 1:-1, 1:-1, 2]
error = np.abs(u - exact).max() / exact.max()
print(f"duct {a} x {a}, tau {tau}: permeability {flow.permeability:.6g} cells^2 (series {k_exact:.6g}, "
      f"{flow.permeability / k_exact - 1:+.2e}); largest velocity error {error:.2e} of the peak")
# Second order in the node spacing: at 16 nodes across the duct, within 1 %.
assert abs(flow.permeability / k_exact - 1) < 0.01 and error < 0.01

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
image = left.pcolormesh(x, x, u / exact.max(), cmap="viridis", shading="auto")
fig.colorbar(image, ax=left, label="u_z / u_max (series)")
left.set_aspect("equal")
left.set_title("velocity in the cross-section")
right.plot(x, u[a // 2], "o", label="hetflow.Lbm (TRT)")
right.plot(x, exact[a // 2], "-", label="series solution")
right.set_xlabel("x (nodes)")
right.set_ylabel("u_z on the centre line")
right.legend()
fig.tight_layout()
fig.savefig(args.figure, dpi=120)
print("wrote", args.figure)
