#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""realprog-table.py RESULTS CSV: the table of realprog.sh's live runs.

RESULTS has one line per run, "prog=P conf=C run=N rc=N wall=S orig=B ..."
(the guest's ZBW-RP records with the host's load appended; run: the round
of ZBW_LIVE_REPEAT, 1 when absent), and one per dictionary the host
trained, "kind=dict prog=P bytes=N id=ID src=WORDS" (src: what it was
trained on, spaces as underscores).
Prints one table per program, a row per zram configuration: the number of
runs and, per figure, the median over them, with the spread (min-max) of
orig/mem_used and of the wall time; writes every run to CSV, one row each
(the +dict rows with their dictionary's size, id and training pages), with
the derived ratios, so that the table can be recomputed from it.  Exits 1
when a run failed.
"""
import csv
import os
import statistics
import sys

# The order of the rows.
ORDER = ["lz4", "zstd", "zstd+dict", "zbewalgo", "zbewalgo-1", "zbewalgo+dict", "lz4+zbw",
         "capture"]
NOTE = {"capture": "capture (dm-log-writes)"}
FIELDS = ["prog", "conf", "run", "rc", "limit", "wall", "orig", "compr", "mem_used",
          "mem_used_max", "huge", "same", "pswpin", "pswpout", "peak", "load", "o_c", "o_mem",
          "dict_bytes", "dict_id", "dict_src"]


RECOMP_SEC = os.environ.get("ZBW_RECOMP_SEC", "10")
MIB = 1 << 20


def ratios(r):
    """orig/compr and orig/mem_used of run R (0 without zram data)."""
    orig, compr, used = (int(r.get(k, 0) or 0) for k in ("orig", "compr", "mem_used"))
    return (orig / compr if compr else 0.0, orig / used if used else 0.0)


def median(xs):
    return statistics.median(xs) if xs else 0


def spread(xs, fmt):
    """"min-max" of XS, or "" for one run."""
    return "" if len(xs) < 2 else (fmt + "-" + fmt) % (min(xs), max(xs))


def main():
    recs = []
    dicts = {}
    with open(sys.argv[1]) as f:
        for line in f:
            r = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
            if r.get("kind") == "dict" and "prog" in r:
                dicts[r["prog"]] = r
            elif "prog" in r and "conf" in r:
                recs.append(r)
    for r in recs:
        d = dicts.get(r["prog"])
        if r["conf"].endswith("+dict") and d:
            r.update(dict_bytes=d.get("bytes", ""), dict_id=d.get("id", ""),
                     dict_src=d.get("src", "").replace("_", " "))
    for r in recs:
        r.setdefault("run", "1")
        if r["rc"] == "0":
            oc, om = ratios(r)
            r.update(o_c="%.4f" % oc, o_mem="%.4f" % om)
    with open(sys.argv[2], "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(recs)
    progs = list(dict.fromkeys(r["prog"] for r in recs))
    for p in progs:
        mine = [r for r in recs if r["prog"] == p]
        confs = sorted(dict.fromkeys(r["conf"] for r in mine),
                       key=lambda c: ORDER.index(c) if c in ORDER else 99)
        print()
        print("%s: memory.max %s MiB, the cgroup's memory.peak %.0f MiB" % (
            p, mine[0].get("limit", "?"), max(int(r.get("peak", 0) or 0) for r in mine) / MIB))
        print("  %-23s %2s %6s %-11s %6s %7s %7s %6s %7s %8s %6s %-11s %s" % (
            "zram (median of n runs)", "n", "o/mem", "(min-max)", "o/c", "orig", "mem_used",
            "huge", "swapin", "swapout", "wall s", "(min-max)", "rc"))
        for c in confs:
            runs = [r for r in mine if r["conf"] == c]
            ok = [r for r in runs if r["rc"] == "0"]
            bad = ["run %s: %s" % (r["run"], r["rc"]) for r in runs if r["rc"] != "0"]
            if not ok:
                print("  %-23s %2d FAILED (%s)" % (NOTE.get(c, c), len(runs), ", ".join(bad)))
                continue
            om = [ratios(r)[1] for r in ok]
            wall = [float(r["wall"]) for r in ok]

            def med(k):
                return median([int(r.get(k, 0) or 0) for r in ok])
            print("  %-23s %2d %6.2f %-11s %6.2f %7.1f %7.1f %6.0f %7.0f %8.0f %6.1f %-11s %s" % (
                NOTE.get(c, c), len(ok), median(om), spread(om, "%.2f"),
                median([ratios(r)[0] for r in ok]), med("orig") / MIB, med("mem_used") / MIB,
                med("huge"), med("pswpin"), med("pswpout"), median(wall), spread(wall, "%.1f"),
                "ok" if not bad else "FAILED " + ", ".join(bad)))
        d = dicts.get(p)
        if d and any(r["conf"].endswith("+dict") for r in mine):
            print("  dict= (both): %s bytes, id %s, trained on %s"
                  % (d.get("bytes", "?"), d.get("id", "?"), d.get("src", "?").replace("_", " ")))
        elif any(r["conf"].endswith("+dict") for r in mine):
            print("  dict=: no dictionary (the host trains it after a capture)")
    print()
    print("Per run, mm_stat at the sample (1 s apart) where zram held the most; per row, the")
    print("median over the runs (n) of each figure, and the spread (min-max) of o/mem and wall;")
    print("orig and mem_used in MiB. o/c = orig/compr,")
    print("o/mem = orig/mem_used_total; huge = pages stored whole; swapin/swapout = pages")
    print("(/proc/vmstat pswpin/pswpout over the run); wall = the program's time under TCG")
    print("(the host's load at each run's end: the CSV's load). zbewalgo-1: level=1;")
    print("lz4+zbw: lz4, and zbewalgo (priority 1) recompressing huge and idle pages every")
    print("%s s; +dict: algorithm_params dict=; rc=zram: zram0 refused the configuration." % RECOMP_SEC)
    if dicts and any(r["conf"].endswith("+dict") for r in recs):
        print("dict= (zram's algorithm_params, zstd and zbewalgo alike): the program's own")
        print("dictionary, trained on the host with zstd --train -B4096 on a capture's pages")
        print("(an earlier run than the measured ones, as yesterday's swap would be).")
    if any(r["conf"] == "capture" for r in recs):
        print("capture: swap on a dm-log-writes target over a virtio disk, no zram (0 MiB).")
    if any(r["rc"] != "0" for r in recs):
        sys.exit(1)


if __name__ == "__main__":
    main()
