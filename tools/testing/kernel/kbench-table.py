#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kbench-table.py LOG OUTBASE

Reads the "ZBW-KBENCH:" lines of the console LOG (zbwbench.ko's figures,
see zbwbench/zbwbench.c and guest/demo.sh), appends a table to
OUTBASE.txt, prints it, and writes OUTBASE-kbench.csv. Per data set and
algorithm: the ratio (page bytes over the results' bytes), compression and
decompression speed in MiB/s of pages, and zbewalgo's times over zstd's;
then each page's latency (median and 99th percentile, one pass with
every page timed alone) and the sets where zbewalgo's 99th percentile is
furthest above zstd's, with their slowest page.  Exits 1 when the module
reported a failure (a "FAIL" line), did not finish, or printed nothing.
"""
import csv
import math
import re
import sys

PAGE = 4096
LINE = re.compile(r"^ZBW-KBENCH: (\S+) (\S+) pages=(\d+) bytes=(\d+) huge=(\d+) "
                  r"comp_ns=(\d+) decomp_ns=(\d+)$")
LAT = re.compile(r"^ZBW-KBENCH: (\S+) (\S+) latency comp=(\d+),(\d+),(\d+)@(\d+) "
                 r"decomp=(\d+),(\d+),(\d+)@(\d+)$")
LAT_KEYS = ("c50", "c99", "cmax", "cpage", "d50", "d99", "dmax", "dpage")
MEM = re.compile(r"^ZBW-KBENCH: memory (zbewalgo|zstd)=(\d+)$")
ALGS = ("zbewalgo", "lz4", "zstd")


def read(log):
    recs, done, failed, mem = {}, False, [], {}
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.startswith("ZBW-KBENCH: "):
                continue
            m = LINE.match(line)
            lat = LAT.match(line)
            if m:
                s, a = m.group(1), m.group(2)
                pages, size, huge, c, d = (int(x) for x in m.groups()[2:])
                recs.setdefault(s, {})[a] = {"pages": pages, "bytes": size,
                                             "huge": huge, "c": c, "d": d}
            elif lat and lat.group(2) in recs.get(lat.group(1), {}):
                recs[lat.group(1)][lat.group(2)]["lat"] = dict(
                    zip(LAT_KEYS, (int(x) for x in lat.groups()[2:])))
            elif MEM.match(line):
                mem[MEM.match(line).group(1)] = int(MEM.match(line).group(2))
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
    out = ["", "compressors alone in the kernel (zbwbench.ko: each set's pages that zram",
           "  compresses, same-filled ones left out, through lib/zbewalgo as zram's backend",
           "  calls it, lib/lz4 and lib/zstd level 3 as zram's backends do; fastest of the",
           "  rounds; every page decompressed byte-exact)"]
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
            csv_rows.append([s, a, r["pages"], r["bytes"], r["huge"], r["c"], r["d"]] +
                            [r.get("lat", {}).get(k, "") for k in LAT_KEYS])
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
                      recs[s][a]["c"], recs[s][a]["d"]] +
                     [recs[s][a].get("lat", {}).get(k, "") for k in LAT_KEYS] for a in ALGS]
    lat_sets = [s for s in sets if all("lat" in recs[s][a] for a in ALGS)]
    if lat_sets:
        out.append("")
        out.append("latency of a page in the kernel, us: median / 99th percentile (one more pass,")
        out.append("  each page timed alone); zbw/zstd: zbewalgo's 99th percentile over zstd's")
        out.append("%-24s%-39s%-39s%s" % ("", "  compression", "  decompression",
                                         "  zbw/zstd p99"))
        out.append(("%-24s" % "" + "".join("%13s" % a for a in ALGS * 2) +
                    "%9s%9s" % ("comp", "dec")).rstrip())
        rel = []
        for s in lat_sets:
            by = recs[s]
            line = "%-24s" % s
            for k in ("c", "d"):
                line += "".join("%13s" % ("%.1f/%.1f" % (by[a]["lat"][k + "50"] / 1e3,
                                                        by[a]["lat"][k + "99"] / 1e3))
                                for a in ALGS)
            rc = by["zbewalgo"]["lat"]["c99"] / max(by["zstd"]["lat"]["c99"], 1)
            rd = by["zbewalgo"]["lat"]["d99"] / max(by["zstd"]["lat"]["d99"], 1)
            rel.append((s, rc, rd))
            out.append(line + "%9.2f%9.2f" % (rc, rd))
        out.append("%-24s%78s%9.2f%9.2f" % ("geomean", "", geomean([r[1] for r in rel]),
                                            geomean([r[2] for r in rel])))
        for k, i, what in (("c", 1, "compression"), ("d", 2, "decompression")):
            worst3 = []
            for r in sorted(rel, key=lambda r: -r[i])[:3]:
                z = recs[r[0]]["zbewalgo"]["lat"]
                worst3.append("%s %.2f x (slowest: page %d, %.1f us)"
                              % (r[0], r[i], z[k + "page"], z[k + "max"] / 1e3))
            out.append("zbewalgo's 99th percentile furthest above zstd's, %s: %s"
                       % (what, "; ".join(worst3)))
    if len(mem) == 2:
        out.append("memory per stream: zbewalgo %d bytes (its context), zram's zstd backend %d "
                   "(level 3: compression and decompression workspaces): %.2f x"
                   % (mem["zbewalgo"], mem["zstd"], mem["zbewalgo"] / mem["zstd"]))
    problems = []
    if not done:
        problems.append("zbwbench.ko did not finish")
    problems += failed
    if not sets:
        problems.append("no zbwbench records")
    elif len(lat_sets) != len(sets):
        problems.append("no latency records for %s" % ", ".join(
            s for s in sets if s not in lat_sets))
    if problems:
        out.append("FAILED: " + "; ".join(problems))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    with open(outbase + ".txt", "a") as f:
        f.write(text)
    with open(outbase + "-kbench.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["set", "algorithm", "pages", "bytes", "huge_results",
                    "compress_ns", "decompress_ns", "compress_p50_ns",
                    "compress_p99_ns", "compress_max_ns", "compress_max_page",
                    "decompress_p50_ns", "decompress_p99_ns", "decompress_max_ns",
                    "decompress_max_page"])
        w.writerows(csv_rows)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
