#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate deterministic analogues of the seed report's data sets.

usage: gen-data.py OUTDIR [SIZE_KIB]

Writes, each about SIZE_KIB (default 1024) KiB:
  float32-smooth   a smooth climate-like float32 field with measurement noise
  float32-ocean    sparse ocean-model float32 fields: land cells are 0
  float64-jacobi   a partially converged Jacobi (partdiff) float64 matrix
  csr-cg           HPCG-like memory: CSR matrix of a 27-point stencil plus
                   the CG vectors x, r, p
  random           incompressible bytes
Only the standard library is used, so it runs anywhere python3 does.
"""
import math
import os
import random
import struct
import sys


def float32_smooth(n, rnd):
    side = int(math.sqrt(n))
    out = []
    for y in range(side):
        for x in range(side):
            v = (280.0 + 15.0 * math.sin(x / 37.0) * math.cos(y / 53.0)
                 + 3.0 * math.sin((x + 2 * y) / 11.0) + rnd.gauss(0, 0.05))
            out.append(v)
    return struct.pack('<%df' % len(out), *out)


def float32_ocean(n, rnd):
    side = int(math.sqrt(n))
    out = []
    for y in range(side):
        for x in range(side):
            land = math.sin(x / 23.0) + math.cos(y / 31.0) > 0.6
            if land:
                out.append(0.0)
            else:
                out.append(0.002 * (1.0 + math.sin(x / 9.0) * math.cos(y / 7.0))
                           + rnd.gauss(0, 1e-5))
    return struct.pack('<%df' % len(out), *out)


def float64_jacobi(n, rnd):
    side = int(math.sqrt(n))
    out = []
    for y in range(side):
        for x in range(side):
            u = x / (side - 1)
            w = y / (side - 1)
            v = math.sin(math.pi * u) * math.sinh(math.pi * w) / math.sinh(math.pi)
            out.append(v * (1.0 - 1e-3 * math.cos(7 * u)) + rnd.gauss(0, 1e-9))
    return struct.pack('<%dd' % len(out), *out)


def csr_cg(size, rnd):
    # 27-point stencil on g^3 grid: 27 doubles + 27 ints per row, plus
    # row pointers and three vectors; pick g so the total is about size.
    g = max(4, int((size / (27 * 12 + 4 + 24)) ** (1 / 3)))
    rows = g * g * g
    row_ptr, cols, vals = [0], [], []
    for z in range(g):
        for y in range(g):
            for x in range(g):
                for dz in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        for dx in (-1, 0, 1):
                            xx, yy, zz = x + dx, y + dy, z + dz
                            if 0 <= xx < g and 0 <= yy < g and 0 <= zz < g:
                                cols.append((zz * g + yy) * g + xx)
                                vals.append(26.0 if dx == dy == dz == 0 else -1.0)
                row_ptr.append(len(cols))
    xs = [1.0 + 0.01 * math.sin(i / 50.0) for i in range(rows)]
    rs = [rnd.gauss(0, 1e-3) for i in range(rows)]
    ps = [0.5 * a + b for a, b in zip(xs, rs)]
    return (struct.pack('<%di' % len(row_ptr), *row_ptr)
            + struct.pack('<%di' % len(cols), *cols)
            + struct.pack('<%dd' % len(vals), *vals)
            + struct.pack('<%dd' % rows, *xs)
            + struct.pack('<%dd' % rows, *rs)
            + struct.pack('<%dd' % rows, *ps))


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = sys.argv[1]
    size = int(sys.argv[2]) * 1024 if len(sys.argv) > 2 else 1 << 20
    os.makedirs(outdir, exist_ok=True)
    sets = {
        'float32-smooth': lambda r: float32_smooth(size // 4, r),
        'float32-ocean': lambda r: float32_ocean(size // 4, r),
        'float64-jacobi': lambda r: float64_jacobi(size // 8, r),
        'csr-cg': lambda r: csr_cg(size, r),
        'random': lambda r: bytes(r.getrandbits(8) for _ in range(size)),
    }
    for name, make in sets.items():
        with open(os.path.join(outdir, name), 'wb') as f:
            f.write(make(random.Random(name)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
