#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""realprog-table.py RESULTS CSV: the table of realprog.sh.

RESULTS has one line per run, "prog=P conf=C rc=N wall=S orig=B ..." (the
guest's ZBW-RP records with the host's load appended). Prints one table
per program, a row per zram configuration, and writes every record to CSV.
"""
import csv
import sys

# The order of the rows; dictionary rows come later (zstd dict=, zbewalgo dict=).
ORDER = ["lz4", "zstd", "zbewalgo", "zbewalgo-1", "lz4+zbw", "capture"]
NOTE = {"capture": "capture (lz4, zram read meanwhile)"}
FIELDS = ["prog", "conf", "rc", "limit", "wall", "orig", "compr", "mem_used", "mem_used_max",
          "huge", "same", "pswpin", "pswpout", "peak", "load"]


def main():
    recs = []
    with open(sys.argv[1]) as f:
        for line in f:
            r = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
            if "prog" in r and "conf" in r:
                recs.append(r)
    with open(sys.argv[2], "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(recs)
    mib = 1 << 20
    progs = list(dict.fromkeys(r["prog"] for r in recs))
    for p in progs:
        rows = sorted((r for r in recs if r["prog"] == p),
                      key=lambda r: ORDER.index(r["conf"]) if r["conf"] in ORDER else 99)
        print()
        print("%s: memory.max %s MiB, the cgroup's memory.peak %.0f MiB" % (
            p, rows[0].get("limit", "?"), int(rows[0].get("peak", 0)) / mib))
        print("  %-36s %8s %8s %8s %6s %6s %7s %8s %8s %8s %5s %s" % (
            "zram", "orig MiB", "compr", "mem_used", "o/c", "o/mem", "huge", "swapin", "swapout",
            "wall s", "load", "rc"))
        for r in rows:
            orig, compr, used = int(r["orig"]), int(r["compr"]), int(r["mem_used"])
            print("  %-36s %8.1f %8.1f %8.1f %6.2f %6.2f %7s %8s %8s %8s %5s %s" % (
                NOTE.get(r["conf"], r["conf"]), orig / mib, compr / mib, used / mib,
                orig / compr if compr else 0, orig / used if used else 0,
                r["huge"], r["pswpin"], r["pswpout"], r["wall"], r.get("load", "?"),
                "ok" if r["rc"] == "0" else "FAILED %s" % r["rc"]))
        print("  %-36s %s" % ("zstd dict=, zbewalgo dict=", "not yet (zbewalgo takes no dictionary)"))
    print()
    print("mm_stat at the sample (1 s apart) where zram held the most; o/c = orig/compr,")
    print("o/mem = orig/mem_used_total; huge = pages stored whole; swapin/swapout = pages")
    print("(/proc/vmstat pswpin/pswpout over the run); wall = the program's time under TCG;")
    print("load = the host's 1-minute load average at the run's end.")
    if any(r["rc"] != "0" for r in recs):
        sys.exit(1)


if __name__ == "__main__":
    main()
