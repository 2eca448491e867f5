# SPDX-License-Identifier: GPL-2.0-only
# A numpy/scipy solver: implicit time steps of the heat equation on a 2D
# grid (sparse Laplacian, conjugate gradients from scipy), keeping every
# step's field as a simulation keeps its history, then a pass over the
# whole history (differences and norms), which brings it back in.
import sys

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla

m = int(sys.argv[1]) if len(sys.argv) > 1 else 300
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 120
n = m * m
h = 1.0 / (m + 1)
dt = 1e-4
one = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m))
lap = (sp.kron(sp.identity(m), one) + sp.kron(one, sp.identity(m))) / (h * h)
a = (sp.identity(n) + dt * lap).tocsr()
x, y = np.meshgrid(np.linspace(0, 1, m), np.linspace(0, 1, m))
u = (np.sin(3 * np.pi * x) * np.sin(2 * np.pi * y) + np.exp(-40 * ((x - .3) ** 2 + (y - .6) ** 2))).ravel()
src = 0.5 * np.cos(5 * x * y).ravel()
hist = []
for k in range(steps):
    u, info = sla.cg(a, u + dt * src, x0=u, atol=1e-10)
    if info:
        sys.exit("cg did not converge at step %d" % k)
    hist.append(u.copy())
    hist.append(a @ u - u)  # the residual field, kept as diagnostics
rates = [float(np.linalg.norm(hist[i + 2] - hist[i])) for i in range(0, len(hist) - 2, 2)]
print("numpy-solver: %d unknowns, %d steps, history %d MiB, last rate %.6g"
      % (n, steps, sum(h.nbytes for h in hist) >> 20, rates[-1]))
