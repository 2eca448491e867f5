#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""realprog-table.py RESULTS CSV: the table of realprog.sh.

RESULTS has one line per run, "prog=P conf=C rc=N wall=S orig=B ..." (the
guest's ZBW-RP records with the host's load appended), and one per
dictionary the host trained, "kind=dict prog=P bytes=N id=ID src=WORDS"
(src: what it was trained on, spaces as underscores).
Prints one table per program, a row per zram configuration, and writes
every run to CSV (the +dict rows with their dictionary's size, id and
training pages).  Exits 1 when a run failed.
"""
import csv
import os
import sys

# The order of the rows.
ORDER = ["lz4", "zstd", "zstd+dict", "zbewalgo", "zbewalgo-1", "zbewalgo+dict", "lz4+zbw",
         "capture"]
NOTE = {"capture": "capture (swap on dm-log-writes)"}
FIELDS = ["prog", "conf", "rc", "limit", "wall", "orig", "compr", "mem_used", "mem_used_max",
          "huge", "same", "pswpin", "pswpout", "peak", "load", "dict_bytes", "dict_id",
          "dict_src"]


RECOMP_SEC = os.environ.get("ZBW_RECOMP_SEC", "10")


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
            p, rows[0].get("limit", "?"), max(int(r.get("peak", 0)) for r in rows) / mib))
        print("  %-36s %8s %8s %8s %6s %6s %7s %8s %8s %8s %5s %s" % (
            "zram", "orig MiB", "compr", "mem_used", "o/c", "o/mem", "huge", "swapin", "swapout",
            "wall s", "load", "rc"))
        for r in rows:
            if r["rc"] != "0" and not int(r.get("orig", 0) or 0):
                print("  %-36s %s FAILED %s" % (r["conf"], "%8s %8s %8s %6s %6s %7s %8s %8s %8s %5s" % (
                    ("-",) * 9 + (r.get("load", "?"),)), r["rc"]))
                continue
            orig, compr, used = int(r["orig"]), int(r["compr"]), int(r["mem_used"])
            print("  %-36s %8.1f %8.1f %8.1f %6.2f %6.2f %7s %8s %8s %8s %5s %s" % (
                NOTE.get(r["conf"], r["conf"]), orig / mib, compr / mib, used / mib,
                orig / compr if compr else 0, orig / used if used else 0,
                r["huge"], r["pswpin"], r["pswpout"], r["wall"], r.get("load", "?"),
                "ok" if r["rc"] == "0" else "FAILED %s" % r["rc"]))
        d = dicts.get(p)
        if d:
            print("  dict= (both): %s bytes, id %s, trained on %s"
                  % (d.get("bytes", "?"), d.get("id", "?"), d.get("src", "?").replace("_", " ")))
        elif any(r["conf"].endswith("+dict") for r in rows):
            print("  dict=: no dictionary (the host trains it after a capture)")
    print()
    print("mm_stat at the sample (1 s apart) where zram held the most; o/c = orig/compr,")
    print("o/mem = orig/mem_used_total; huge = pages stored whole; swapin/swapout = pages")
    print("(/proc/vmstat pswpin/pswpout over the run); wall = the program's time under TCG;")
    print("load = the host's 1-minute load average at the run's end. zbewalgo-1: level=1;")
    print("lz4+zbw: lz4, and zbewalgo (priority 1) recompressing huge and idle pages every")
    print("%s s; +dict: algorithm_params dict=; rc=zram: zram0 refused the configuration." % RECOMP_SEC)
    if dicts:
        print("dict= (zram's algorithm_params, zstd and zbewalgo alike): the program's own")
        print("dictionary, trained on the host with zstd --train -B4096 on an earlier capture's")
        print("pages (an earlier run than the measured ones, as yesterday's swap would be).")
        print("capture: swap on a dm-log-writes target over a virtio disk, no zram (0 MiB).")
    if any(r["rc"] != "0" for r in recs):
        sys.exit(1)


if __name__ == "__main__":
    main()
