#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kbench-table.py LOG OUTBASE

Reads the "ZBW-KBENCH:" lines of the console LOG (zbwbench.ko's figures,
see zbwbench/zbwbench.c and guest/demo.sh), appends a table to
OUTBASE.txt, prints it, and writes OUTBASE-kbench.csv. Per data set and
algorithm: the ratio (page bytes over the results' bytes), compression and
decompression speed in MiB/s of pages, and zbewalgo's times over zstd's.
Exits 1 when the module reported a failure (a "FAIL" line), did not
finish, or printed nothing.
"""
import csv
import math
import re
import sys

PAGE = 4096
LINE = re.compile(r"^ZBW-KBENCH: (\S+) (\S+) pages=(\d+) bytes=(\d+) huge=(\d+) "
                  r"comp_ns=(\d+) decomp_ns=(\d+)$")
MEM = re.compile(r"^ZBW-KBENCH: memory zbewalgo=(\d+) zstd=(\d+)$")
ALGS = ("zbewalgo", "lz4", "zstd")


def read(log):
    recs, done, failed, mem = {}, False, [], None
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.startswith("ZBW-KBENCH: "):
                continue
            m = LINE.match(line)
            if m:
                s, a = m.group(1), m.group(2)
                pages, size, huge, c, d = (int(x) for x in m.groups()[2:])
                recs.setdefault(s, {})[a] = {"pages": pages, "bytes": size,
                                             "huge": huge, "c": c, "d": d}
            elif MEM.match(line):
                mem = {k: int(v) for k, v in zip(("zbewalgo", "zstd"),
                                                 MEM.match(line).groups())}
            elif line == "ZBW-KBENCH: done":
                done = True
            elif line.startswith("ZBW-KBENCH: FAIL"):
                failed.append(line[len("ZBW-KBENCH: "):])
    return recs, done, failed, mem


def geomean(v):
    v = [x for x in v if x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    log, outbase = sys.argv[1:]
    recs, done, failed, mem = read(log)
    sets = [s for s in recs if all(a in recs[s] for a in ALGS)]
    # Pages built to be slow under the costliest table: not a data set.
    worst = [s for s in sets if s.startswith("worst-")]
    sets = [s for s in sets if s not in worst]
    out = ["", "compressors alone in the kernel (zbwbench.ko: every page of each set through",
           "  lib/zbewalgo as zram's backend calls it, lib/lz4 and lib/zstd level 3 as zram's",
           "  backends do; fastest of the rounds; every page decompressed byte-exact)"]
    out.append("%-24s%-27s%-27s%-27s%s" % ("", "  ratio", "  compression, MiB/s",
                                          "  decompression, MiB/s", "  zbw/zstd time"))
    out.append(("%-24s" % "" + "".join("%9s" % a for a in ALGS * 3) +
                "%9s%9s" % ("comp", "dec")).rstrip())
    rows, csv_rows = [], []
    for s in sets:
        by = recs[s]
        line = "%-24s" % s
        ratios, cs, ds = [], [], []
        for a in ALGS:
            r = by[a]
            orig = r["pages"] * PAGE
            ratios.append(orig / r["bytes"] if r["bytes"] else float("nan"))
            cs.append(orig / r["c"] * 1e9 / 2**20 if r["c"] else float("nan"))
            ds.append(orig / r["d"] * 1e9 / 2**20 if r["d"] else float("nan"))
            csv_rows.append([s, a, r["pages"], r["bytes"], r["huge"], r["c"], r["d"]])
        rel_c = by["zbewalgo"]["c"] / by["zstd"]["c"] if by["zstd"]["c"] else float("nan")
        rel_d = by["zbewalgo"]["d"] / by["zstd"]["d"] if by["zstd"]["d"] else float("nan")
        rows.append((ratios, cs, ds, rel_c, rel_d))
        line += "".join("%9.3f" % x for x in ratios)
        line += "".join("%9.1f" % x for x in cs + ds)
        line += "%9.2f%9.2f" % (rel_c, rel_d)
        out.append(line)
    if rows:
        line = "%-24s" % "geomean"
        for k in range(3):
            line += "".join("%9.3f" % geomean([r[k][i] for r in rows]) if k == 0 else
                            "%9.1f" % geomean([r[k][i] for r in rows]) for i in range(3))
        line += "%9.2f%9.2f" % (geomean([r[3] for r in rows]), geomean([r[4] for r in rows]))
        out.append(line)
        out.append("ratio: page bytes over the sum of the results (huge ones included as")
        out.append("  they came out); zbw/zstd: zbewalgo's time over zstd's, below 1 is faster")
    for s in worst:
        z, zs = recs[s]["zbewalgo"], recs[s]["zstd"]
        out.append("slowest pages: %s under the costliest table sysfs accepts "
                   "(bwt-lz-lz-lz-lz bwt-mtf-huffman-rle): zbewalgo %.1f us a page, "
                   "zstd-3 %.1f: %.1f x" % (s, z["c"] / z["pages"] / 1e3,
                                           zs["c"] / zs["pages"] / 1e3, z["c"] / zs["c"]))
        csv_rows += [[s, a, recs[s][a]["pages"], recs[s][a]["bytes"], recs[s][a]["huge"],
                      recs[s][a]["c"], recs[s][a]["d"]] for a in ALGS]
    if mem:
        out.append("memory per stream: zbewalgo %d bytes (its context), zram's zstd backend %d "
                   "(level 3: compression and decompression workspaces): %.2f x"
                   % (mem["zbewalgo"], mem["zstd"], mem["zbewalgo"] / mem["zstd"]))
    problems = []
    if not done:
        problems.append("zbwbench.ko did not finish")
    problems += failed
    if not sets:
        problems.append("no zbwbench records")
    if problems:
        out.append("FAILED: " + "; ".join(problems))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    with open(outbase + ".txt", "a") as f:
        f.write(text)
    with open(outbase + "-kbench.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["set", "algorithm", "pages", "bytes", "huge_results",
                    "compress_ns", "decompress_ns"])
        w.writerows(csv_rows)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
