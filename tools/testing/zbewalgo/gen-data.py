#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate deterministic analogues of the seed report's data sets.

usage: gen-data.py [--list] OUTDIR [SIZE_KIB [SET...]]

Writes the named SETs (default: all), each about SIZE_KIB (default 1024)
KiB:
  float32-smooth   a smooth climate-like float32 field with measurement noise
  float32-ocean    sparse ocean-model float32 fields: land cells are 0
  float64-jacobi   a partially converged Jacobi (partdiff) float64 matrix
  csr-cg           HPCG-like memory: CSR matrix of a 27-point stencil plus
                   the CG vectors x, r, p
  random           incompressible bytes
  float32-pressure hurricane pressure perturbation in Pa, wide range, noisy
                   low bits (the seed's Isabel P)
  float32-temperature
                   hurricane temperature in degrees C, strongly layered
                   (Isabel TC)
  float32-cloud    cloud water, mostly exact zeros and tiny values
                   (Isabel CLOUD)
  float32-ecoham   3-D ocean-model state on a z-level grid: below the sea
                   floor cells are 0, so deep levels give nearly empty
                   pages (the seed's ECOHAM)
  hpcg-heap        HPCG's matrix as it sits in the heap: per-row arrays of
                   27 values, local and global column indices with malloc
                   chunk headers, the row pointer arrays and CG vectors
  csv-fpga         CSV of oscillator frequency measurements, 3+3 digits
                   (the seed's FPGA set)
  text-linux       Linux source text: the kernel headers under
                   /usr/include/linux (linux-libc-dev), concatenated
  elf-binaries     ELF executables and libc as mapped: bash, coreutils,
                   ... each padded to whole pages
  process-python   memory of a running program, as gcore would dump it: a
                   python3 process holding dicts, strings, lists, floats
                   and bytes, read through /proc/PID/maps and /proc/PID/mem

The first five only use the standard library and are byte-identical
everywhere.  text-linux and elf-binaries copy files of this machine (same
for the same Debian release).  process-python is as reproducible as a
live process gets: ASLR off, hash seed fixed, but addresses and the
interpreter's own state still depend on the machine.
"""
import glob
import math
import os
import random
import struct
import subprocess
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


def fields32(vals):
    return struct.pack('<%df' % len(vals), *vals)


def hurricane(n, rnd, level_fn):
    """A 3-D hurricane-like field, nx*ny per level, level_fn(r, z) gives
    the value at distance r from the eye on level z (0..1)."""
    nx = ny = max(16, int(math.sqrt(n / 8)))
    nz = max(1, n // (nx * ny))
    out = []
    for k in range(nz):
        z = k / max(1, nz - 1)
        for y in range(ny):
            for x in range(nx):
                dx, dy = x - 0.45 * nx, y - 0.55 * ny
                r = math.sqrt(dx * dx + dy * dy) / nx
                a = math.atan2(dy, dx)
                out.append(level_fn(r, a, z, x / nx, y / ny, rnd))
    return out


def float32_pressure(n, rnd):
    # Pa, -5000 .. 3000: deep low at the eye, waves outside, sensor noise.
    def p(r, a, z, u, v, rnd):
        return (-5000.0 * math.exp(-(r / 0.08) ** 2) * (1.0 - 0.6 * z)
                + 800.0 * math.sin(9.0 * u + 3.0 * a) * math.cos(7.0 * v)
                + 1500.0 * (1.0 - z) + rnd.gauss(0, 4.0))
    return fields32(hurricane(n, rnd, p))


def float32_temperature(n, rnd):
    # degrees C: 30 at the surface to -80 aloft, warm core, small noise.
    def t(r, a, z, u, v, rnd):
        return (30.0 - 110.0 * z + 6.0 * math.exp(-(r / 0.1) ** 2) * z
                + 1.5 * math.sin(5.0 * u + a) + rnd.gauss(0, 0.02))
    return fields32(hurricane(n, rnd, t))


def float32_cloud(n, rnd):
    # kg/kg, 0 .. 0.002: cloud in the eyewall and spiral bands only.
    def c(r, a, z, u, v, rnd):
        band = math.sin(12.0 * r - 2.0 * a)
        w = math.exp(-((r - 0.12) / 0.05) ** 2) + 0.5 * max(0.0, band) * (r < 0.4)
        w *= math.exp(-((z - 0.35) / 0.25) ** 2)
        if w < 0.15:
            return 0.0
        return round(0.002 * w * (1.0 + rnd.gauss(0, 0.05)), 9)
    return fields32(hurricane(n, rnd, c))


def float32_ecoham(n, rnd):
    # z-level ocean model: nz levels of nx*ny cells, depth from a smooth
    # bathymetry; cells below the sea floor (and land) are 0.
    nz = 24
    side = max(16, int(math.sqrt(n / nz)))
    out = []
    for k in range(nz):
        depth = 5.0 * 1.25 ** k
        for y in range(side):
            for x in range(side):
                u, v = x / side, y / side
                floor = 60.0 + 900.0 * max(0.0, u - 0.35) ** 2 * 4 \
                    + 40.0 * math.sin(11.0 * v)
                if v > 0.85 - 0.2 * u or depth > floor:
                    out.append(0.0)
                else:
                    out.append(12.0 - 6.0 * depth / (depth + 80.0)
                               + 0.8 * math.sin(6.0 * u) * math.cos(4.0 * v)
                               + rnd.gauss(0, 0.01))
    return fields32(out)


class Heap:
    """A bump allocator laid out like glibc's: a chunk is a size word
    (with PREV_INUSE) before 16-byte aligned user data; the user data may
    run into the next chunk's prev_size word, as in glibc."""

    def __init__(self, base=0x555555559000):
        self.base = base
        self.mem = bytearray(8)

    def alloc(self, size):
        chunk = max(32, (size + 8 + 15) & ~15)
        c = len(self.mem) - 8  # chunk start: prev_size is the last word
        self.mem += bytes(chunk)
        struct.pack_into('<Q', self.mem, c + 8, chunk | 1)
        return c + 16

    def addr(self, off):
        return self.base + off

    def put(self, off, fmt, vals):
        struct.pack_into('<%d%s' % (len(vals), fmt), self.mem, off, *vals)


def hpcg_heap(size, rnd):
    # Per row HPCG allocates 27 local indices (int32), 27 values (double)
    # and 27 global indices (int64), about 600 bytes with the headers.
    g = max(4, int((size / 640) ** (1 / 3)))
    rows = g * g * g
    h = Heap()
    nnz_row = h.alloc(rows)
    ptr_g = h.alloc(8 * rows)
    ptr_l = h.alloc(8 * rows)
    ptr_v = h.alloc(8 * rows)
    ptr_d = h.alloc(8 * rows)
    vecs = []
    for z in range(g):
        for y in range(g):
            for x in range(g):
                i = (z * g + y) * g + x
                cols, vals, diag = [], [], 0
                for dz in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        for dx in (-1, 0, 1):
                            xx, yy, zz = x + dx, y + dy, z + dz
                            if 0 <= xx < g and 0 <= yy < g and 0 <= zz < g:
                                if dx == dy == dz == 0:
                                    diag = len(cols)
                                cols.append((zz * g + yy) * g + xx)
                                vals.append(26.0 if dx == dy == dz == 0
                                            else -1.0)
                il = h.alloc(27 * 4)
                iv = h.alloc(27 * 8)
                ig = h.alloc(27 * 8)
                h.put(il, 'i', cols)
                h.put(iv, 'd', vals)
                h.put(ig, 'q', cols)
                h.mem[nnz_row + i] = len(cols)
                h.put(ptr_l + 8 * i, 'Q', [h.addr(il)])
                h.put(ptr_v + 8 * i, 'Q', [h.addr(iv)])
                h.put(ptr_g + 8 * i, 'Q', [h.addr(ig)])
                h.put(ptr_d + 8 * i, 'Q', [h.addr(iv + 8 * diag)])
                vecs.append(len(cols))
    # b, x, xexact and the CG vectors r, z, p, Ap after some iterations
    b = [26.0 - (k - 1) for k in vecs]
    xs = [1.0 - 0.01 * math.exp(-i / rows) * math.sin(i / 37.0)
          for i in range(rows)]
    rs = [rnd.gauss(0, 1e-4) for _ in range(rows)]
    ps = [r + 0.3 * rnd.gauss(0, 1e-4) for r in rs]
    aps = [26.0 * p for p in ps]
    for vec in (b, xs, [1.0] * rows, rs, list(rs), ps, aps):
        off = h.alloc(8 * rows)
        h.put(off, 'd', vec)
    return bytes(h.mem)


def csv_fpga(size, rnd):
    # One row per measurement round, 8 oscillators; "ddd.ddd" values.
    base = [150.0 + 100.0 * rnd.random() for _ in range(8)]
    lines, total = [], 0
    t = 0
    while total < size:
        row = ','.join('%.3f' % (f + rnd.gauss(0, 0.4) + 0.2 * math.sin(t / 50.0))
                       for f in base)
        lines.append(row + '\n')
        total += len(row) + 1
        t += 1
    return ''.join(lines).encode()[:size]


def files_concat(paths, size, pad):
    out = bytearray()
    for p in paths:
        if len(out) >= size:
            break
        try:
            with open(p, 'rb') as f:
                data = f.read()
        except OSError:
            continue
        out += data
        if pad and len(out) % pad:
            out += bytes(pad - len(out) % pad)
    return bytes(out[:size])


def text_linux(size, rnd):
    root = '/usr/include/linux'
    paths = sorted(glob.glob(root + '/**/*.h', recursive=True))
    if not paths:  # no linux-libc-dev: this project's own sources
        top = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           '..', '..', '..')
        paths = sorted(glob.glob(top + '/**/*.[ch]', recursive=True))
    return files_concat(paths, size, 0)


ELF_FILES = ['bash', 'ls', 'cp', 'tar', 'grep', 'sed', 'gzip', 'find',
             'sort', 'dpkg', 'make', 'perl', 'python3']


def elf_binaries(size, rnd):
    paths = []
    for d in ('/usr/lib/*-linux-gnu', '/lib/*-linux-gnu'):
        paths += sorted(glob.glob(d + '/libc.so.6'))[:1]
    paths = paths[:1]
    for name in ELF_FILES:
        for d in ('/usr/bin', '/bin'):
            p = os.path.join(d, name)
            if os.path.isfile(p):
                paths.append(os.path.realpath(p))
                break
    # libc first is 2 MiB; alternate so a small SIZE still sees programs
    paths = paths[1:] + paths[:1] if size < (4 << 20) else paths
    return files_concat(list(dict.fromkeys(paths)), size, 4096)


PROCESS_CHILD = r"""
import array, math, random, sys
n = int(sys.argv[1])
rnd = random.Random(7)
words = ('the of and to in is for on that with as page memory swap zram '
         'compress kernel data value node list entry count buffer').split()
names = ['object_%06d' % i for i in range(n // 64)]
table = {k: (i, rnd.random(), k.upper()) for i, k in enumerate(names)}
floats = array.array('d', (math.sin(i / 300.0) * 100.0 for i in range(n // 32)))
ints = list(range(0, n // 16, 3))
text = ' '.join(rnd.choice(words) for _ in range(n // 40))
records = [{'id': i, 'name': names[i % len(names)], 'score': i * 0.5,
            'tags': [words[i % len(words)], words[(i * 7) % len(words)]]}
           for i in range(n // 256)]
blob = bytes(rnd.getrandbits(8) for _ in range(n // 64))
zeros = bytearray(n // 16)
sys.stdout.write('ready\n')
sys.stdout.flush()
sys.stdin.read()
"""


def _no_aslr():
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.personality(0x0040000)  # ADDR_NO_RANDOMIZE
    except Exception:
        pass


def dump_process(pid):
    """The regions gcore would dump: anonymous and written-to mappings."""
    out = bytearray()
    with open('/proc/%d/maps' % pid) as maps, \
            open('/proc/%d/mem' % pid, 'rb', 0) as mem:
        for line in maps:
            f = line.split()
            lo, hi = (int(x, 16) for x in f[0].split('-'))
            perms = f[1]
            path = f[5] if len(f) > 5 else ''
            if perms[0] != 'r' or path in ('[vvar]', '[vdso]', '[vsyscall]'):
                continue
            if 'w' not in perms and path and not path.startswith('['):
                continue  # read-only file mapping: code, not dumped
            try:
                mem.seek(lo)
                out += mem.read(hi - lo)
            except OSError:
                continue
    return bytes(out)


def process_python(size, rnd):
    env = {'PATH': '/usr/bin:/bin', 'PYTHONHASHSEED': '0', 'LC_ALL': 'C'}
    py = '/usr/bin/python3' if os.path.exists('/usr/bin/python3') \
        else sys.executable
    child = subprocess.Popen([py, '-I', '-S', '-c', PROCESS_CHILD,
                              str(size // 4)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, env=env,
                             preexec_fn=_no_aslr)
    try:
        if child.stdout.readline().strip() != b'ready':
            raise RuntimeError('process-python: child did not start')
        try:
            data = dump_process(child.pid)
        except OSError as e:  # no ptrace access to the child: ourselves
            print('gen-data.py: process-python: %s; dumping this process '
                  'instead' % e, file=sys.stderr)
            data = dump_process(os.getpid())
    finally:
        child.stdin.close()
        child.wait()
    # Evenly spread 64 KiB pieces when the dump is larger than asked.
    piece = 64 << 10
    if len(data) > size:
        n = len(data) // piece
        want = max(1, size // piece)
        data = b''.join(data[(i * n // want) * piece:(i * n // want + 1) * piece]
                        for i in range(want))
    return data[:size]


def main():
    args = sys.argv[1:]
    sets = {
        'float32-smooth': lambda r, size: float32_smooth(size // 4, r),
        'float32-ocean': lambda r, size: float32_ocean(size // 4, r),
        'float64-jacobi': lambda r, size: float64_jacobi(size // 8, r),
        'csr-cg': lambda r, size: csr_cg(size, r),
        'random': lambda r, size: bytes(r.getrandbits(8) for _ in range(size)),
        'float32-pressure': lambda r, size: float32_pressure(size // 4, r),
        'float32-temperature':
            lambda r, size: float32_temperature(size // 4, r),
        'float32-cloud': lambda r, size: float32_cloud(size // 4, r),
        'float32-ecoham': lambda r, size: float32_ecoham(size // 4, r),
        'hpcg-heap': lambda r, size: hpcg_heap(size, r),
        'csv-fpga': lambda r, size: csv_fpga(size, r),
        'text-linux': lambda r, size: text_linux(size, r),
        'elf-binaries': lambda r, size: elf_binaries(size, r),
        'process-python': lambda r, size: process_python(size, r),
    }
    if args and args[0] == '--list':
        print('\n'.join(sets))
        return 0
    if not args or args[0].startswith('-'):
        print(__doc__, file=sys.stderr)
        return 2
    outdir = args[0]
    size = int(args[1]) * 1024 if len(args) > 1 else 1 << 20
    names = args[2:] or list(sets)
    for name in names:
        if name not in sets:
            print('gen-data.py: unknown set %s' % name, file=sys.stderr)
            return 2
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        with open(os.path.join(outdir, name), 'wb') as f:
            f.write(sets[name](random.Random(name), size))
    return 0

if __name__ == '__main__':
    sys.exit(main())
