"""Your own stiff ODE systems on a device with hetflow.radau5: the Van der Pol oscillator
eps y'' = (1 - y^2) y' - y over three decades of stiffness in one batch, each system with its own eps,
its right-hand side and Jacobian written in OpenCL C (Hairer & Wanner's RADAU5, docs/ode.md).

    python3 examples/python/ode_van_der_pol.py [--device auto] [--figure ode_van_der_pol.png]
"""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import hetflow

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--device", default="auto")
parser.add_argument("--figure", default="ode_van_der_pol.png")
args = parser.parse_args()

source = """
void rhs(double t, const double* y, double* f, __global const double* p) {
  f[0] = y[1];
  f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / p[0];
}
void jac(double t, const double* y, double* J, __global const double* p) {  // J[i + 2 j] = df_i/dy_j
  J[0] = 0.0;
  J[1] = (-2.0 * y[0] * y[1] - 1.0) / p[0];
  J[2] = 1.0;
  J[3] = (1.0 - y[0] * y[0]) / p[0];
}
"""
eps = np.geomspace(1e-1, 1e-4, 400)
times = np.linspace(0, 3, 301)
r = hetflow.radau5(source, np.tile([2.0, 0.0], (eps.size, 1)), 3.0, params=eps[:, None], rtol=1e-6, atol=1e-6,
                   samples=times, device=args.device)
steps = r.counters["nstep"]
print(f"{eps.size} systems, eps {eps[0]:g} to {eps[-1]:g}: all ok {r.ok}; steps per system {steps.min()} "
      f"to {steps.max()} (stiffer systems need more only at their jumps)")
# Every system reaches the limit cycle, whose amplitude is close to 2, and in this scaling the stiffest
# one's period is near the relaxation limit 3 - 2 ln 2 = 1.614 (half of it between sign changes).
assert r.ok
amplitude = np.abs(r.samples[:, :, 0]).max(axis=1)
assert (np.abs(amplitude - 2) < 0.05).all()
crossings = np.diff(np.signbit(r.samples[-1, :, 0]).astype(int)) != 0
half_period = np.diff(times[1:][crossings]).mean()
print(f"eps {eps[-1]:g}: half period {half_period:.3f} (relaxation limit {(3 - 2 * np.log(2)) / 2:.3f})")
assert abs(half_period - (3 - 2 * np.log(2)) / 2) < 0.05

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
for k in (0, 200, 399):
    left.plot(times, r.samples[k, :, 0], label=f"eps = {eps[k]:.0e}")
left.set_xlabel("t")
left.set_ylabel("y")
left.legend()
right.loglog(eps, steps, ".")
right.set_xlabel("eps (stiffness)")
right.set_ylabel("RADAU5 steps to t = 3")
fig.tight_layout()
fig.savefig(args.figure, dpi=120)
print("wrote", args.figure)
