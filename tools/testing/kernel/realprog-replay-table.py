#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""realprog-replay-table.py: the tables of realprog.sh's replays.

  realprog-replay-table.py RECORDS CSV [LOGDIR]
      RECORDS has one line per replay, the guest's ZBW-REPLAY record
      ("prog=P conf=C run=N rc=N ..." with zbwlog replay's KEY=VALUE words,
      mm_stat lines as nine comma-joined fields) and the host's load. Prints
      one table per program (a row per configuration, first runs), the
      determinism check (every configuration replayed twice: the two runs'
      mm_stat at the peak sample, after the last write and at the end, and
      the largest orig_data_size, must be equal) and the geometric means
      against zstd-3; writes every run to CSV. LOGDIR/PROG.prov, when there,
      names the log under the program. Exits 1 when a replay failed, read
      back other data than the log holds, or two runs differ.
  realprog-replay-table.py --keep OLD.csv TREE RECORDS CSV [LOGDIR]
      The same, with the rows of OLD.csv (an earlier replay of the same logs,
      measured on TREE) for the configurations without zbewalgo that
      RECORDS lacks: their code is the kernel's, unchanged, and need not be
      replayed again.  Every configuration without zbewalgo that both have
      (at least one) must match exactly (mm_stat and the log's counts),
      which shows the logs and zram to be the same; old rows of zbewalgo are
      never kept.  The kept rows carry tree=TREE in CSV.
  realprog-replay-table.py --optional RECORDS CSV [REFCSV] [--tables LOGDIR]
                           [--classic FILE]
      The optional parts against the plain backend: per program the peak
      mem_used of every configuration named zbewalgo+X (zbewalgo+tune,
      zbewalgo+classic) over plain zbewalgo's in the same RECORDS and over
      zstd-3's in REFCSV (an earlier run's records of the same logs, as this
      script writes them), their write time per page over zbewalgo's, and
      the geometric means; zbewalgo's peak here against REFCSV's. Then the
      tables: FILE (+classic's keys) and LOGDIR/PROG.tune (+tune's, with
      how they were made, and whether the pages tuned on are the replayed
      log's: LOGDIR/PROG.prov has the log's count). Writes the ratios to
      CSV. Exits 1 when a replay failed or read back other data than the
      log holds, or zbewalgo's or zstd-3's peak is missing.
  realprog-replay-table.py --classes CLASSES
      CLASSES has the lines "prog=P conf=C | LINE" of zsmalloc's debugfs
      classes table, taken right after each replay's last write. Prints per
      program and configuration where mem_used_total goes: the compressed
      bytes, what rounding each object up to its size class adds, the
      unused objects of allocated zspages, and the classes holding most.
"""
import csv
import math
import os
import re
import sys

MM = ["orig", "compr", "mem_used", "mem_limit", "mem_used_max", "same", "compacted", "huge",
      "huge_since"]
MIB = 1 << 20


def mm(s):
    v = [int(x) for x in s.split(",")] if s else []
    return dict(zip(MM, v + [0] * (9 - len(v))))


def records(path):
    recs = []
    with open(path) as f:
        for line in f:
            r = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
            if "prog" in r and "conf" in r:
                recs.append(r)
    return recs


def order(conf):
    base = conf.split(">")[0]
    for opt in ("+dict", "+tune", "+classic"):
        base = base.replace(opt, "")
    algs = ["lz4", "lzo-rle", "deflate", "zstd", "zbewalgo"]
    a = base.split("-")[0] if base != "lzo-rle" else base
    lvl = base[len(a) + 1:] if base != a else ""
    return (">" in conf, algs.index(a) if a in algs else 9,
            "+tune" in conf or "+classic" in conf, "+dict" in conf,
            int(lvl) if lvl.isdigit() else 0, conf)


def table(recs, logdir):
    bad = 0
    progs = list(dict.fromkeys(r["prog"] for r in recs))
    first = {(r["prog"], r["conf"]): r for r in recs if r.get("run") == "1"}
    peaks = {}
    for p in progs:
        print()
        prov = os.path.join(logdir or "", p + ".prov")
        info = {}
        if logdir and os.path.exists(prov):
            with open(prov) as f:
                info = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        log = dict(kv.split("=", 1) for kv in info.get("log", "").split() if "=" in kv)
        print("%s: the log of %s (memory.max %s): %s pages written, %s discards; captured %s" % (
            p, p, info.get("memory.max", "?"), log.get("wpages", "?"), log.get("discards", "?"),
            info.get("date", "?")))
        print("  %-18s %9s %9s %9s %6s | %9s %9s %7s | %6s %7s %7s %6s %s" % (
            "zram", "peak MiB", "orig", "compr", "o/mem", "last MiB", "compr", "huge",
            "w us/p", "r p50", "r p99", "rounds", "rc"))
        rows = sorted((r for r in first.values() if r["prog"] == p), key=lambda r: order(r["conf"]))
        for r in rows:
            if r["rc"] != "0" or "end" not in r:
                print("  %-18s FAILED rc=%s" % (r["conf"], r["rc"]))
                bad = 1
                continue
            if r.get("mismatch") not in ("0", "-"):
                bad = 1
            pk, last, end = mm(r["peak"]), mm(r["last"]), mm(r["end"])
            peaks[(p, r["conf"])] = end["mem_used_max"]
            wp = int(r.get("wpages", 0)) or 1
            print("  %-18s %9.2f %9.2f %9.2f %6.2f | %9.2f %9.2f %7d | %6.1f %7s %7s %6s %s" % (
                r["conf"], end["mem_used_max"] / MIB, pk["orig"] / MIB, pk["compr"] / MIB,
                pk["orig"] / pk["mem_used"] if pk["mem_used"] else 0,
                last["mem_used"] / MIB, last["compr"] / MIB, last["huge"],
                float(r.get("write_us", 0)) / wp, r.get("p50_us", "-"), r.get("p99_us", "-"),
                r.get("rounds", "0"), "ok" if r.get("mismatch") in ("0", "-") else
                "READ-BACK DIFFERS"))
    print()
    print("peak MiB: mem_used_max (zram's own high-water mark of mem_used_total over the replay);")
    print("orig, compr, o/mem: mm_stat at the sample (every 64 pages written) where mem_used_total")
    print("was largest; last: right after the log's last write (before the frees of the")
    print("program's exit), huge = pages stored whole then; w us/p: time in pwrite() per page")
    print("(compression and zsmalloc, under TCG); r p50/p99: O_DIRECT reads of every page")
    print("stored after the last write, each compared with the log's data (us, under TCG);")
    print("rounds: recompression rounds (type=huge, type=idle, all > idle) on the log-time")
    print("schedule.")

    # Determinism: run 2 against run 1.
    print()
    print("determinism (two replays of one log):")
    twice = [(r["prog"], r["conf"]) for r in recs if r.get("run") == "2"]
    if not twice:
        print("  no configuration was replayed twice")
    for key in twice:
        a = first.get(key)
        b = next(r for r in recs if (r["prog"], r["conf"]) == key and r.get("run") == "2")
        if not a or a["rc"] != "0" or b["rc"] != "0":
            print("  %s %s: FAILED (a run failed)" % key)
            bad = 1
            continue
        diff = [f for f in ("peak", "last", "end", "max_orig", "wpages", "discards")
                if a.get(f) != b.get(f)]
        if diff:
            bad = 1
            print("  %s %s: DIFFERENT %s" % (key[0], key[1], "; ".join(
                "%s %s vs %s" % (f, a.get(f), b.get(f)) for f in diff)))
        else:
            print("  %s %s: identical (mm_stat at the peak sample, after the last write, at the"
                  " end: %s)" % (key[0], key[1], a["end"]))

    # Geometric means of peak memory against zstd-3.
    confs = sorted({c for _, c in peaks}, key=order)
    ref = "zstd-3"
    if any(c == ref for _, c in peaks):
        print()
        print("peak mem_used against %s (geometric mean over the programs with both; < 1: less"
              " memory):" % ref)
        for c in confs:
            xs = [peaks[(p, c)] / peaks[(p, ref)] for p in progs
                  if (p, c) in peaks and (p, ref) in peaks and peaks[(p, ref)]]
            if xs:
                print("  %-18s %.3f  (%s)" % (c, math.exp(sum(map(math.log, xs)) / len(xs)),
                                             " ".join("%.3f" % x for x in xs)))
    return bad


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def tables(progs, logdir, classic):
    print()
    print("The tables (algorithm_params keys after algo=zbewalgo):")
    if classic:
        with open(classic) as f:
            print("  zbewalgo+classic: %s" % f.read().strip())
    for p in progs if logdir else []:
        path = os.path.join(logdir, p + ".tune")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            lines = [line.rstrip("\n") for line in f]
        keys = [line for line in lines if line and not line.startswith("#")]
        how = [line[2:] for line in lines if line.startswith("# ")]
        print("  %s zbewalgo+tune: %s" % (p, " ".join(keys)))
        for h in how:
            print("    %s" % h)
        # "on pages 1-H of N of P.bin": N against the pages the log wrote.
        cut = {}
        prov = os.path.join(logdir, p + ".prov")
        if os.path.exists(prov):
            with open(prov) as f:
                info = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
            cut = dict(kv.split("=", 1) for kv in info.get("cut", "").split() if "=" in kv)
        # "on pages 1-H of N of P.log's" (or P.bin's): N against the pages
        # the replayed log wrote.
        m = re.search(r" of (\d+) of (\S+?)(\.log|\.bin)", " ".join(how))
        if m and cut.get("pages"):
            if m.group(1) == cut["pages"]:
                print("    (the replayed log wrote %s pages: the tuner saw the first half of"
                      " the replay)" % cut["pages"])
            else:
                print("    (the replayed log wrote %s pages: %s%s is another capture's)" % (
                    cut["pages"], m.group(2), m.group(3)))


def optional(recs, csvpath, refpath):
    base, ref = "zbewalgo", "zstd-3"
    first = {(r["prog"], r["conf"]): r for r in recs if r.get("run") == "1"}
    refs = {}
    if refpath:
        with open(refpath) as f:
            refs = {(r["prog"], r["conf"]): r for r in csv.DictReader(f)
                    if r.get("run") == "1" and r.get("rc") == "0"}
    progs = list(dict.fromkeys(r["prog"] for r in recs))
    confs = list(dict.fromkeys(c for _, c in first if c.startswith(base + "+")))
    bad = 0

    def ok(r):
        return r and r["rc"] == "0" and "end" in r and r.get("mismatch") in ("0", "-")

    def peak(r):
        return mm(r["end"])["mem_used_max"]

    def wus(r):
        return float(r.get("write_us", 0)) / (int(r.get("wpages", 0)) or 1)

    rows, ratios = [], {c: ([], [], []) for c in confs}
    print("peak mem_used_total (zram's mem_used_max over the replay, MiB) of each optional")
    print("configuration, over plain %s's of this run (/zbw) and over %s's (/%s) of" % (
        base, ref, ref))
    stamp = ""
    if refpath and os.path.exists(os.path.splitext(refpath)[0] + ".txt"):
        with open(os.path.splitext(refpath)[0] + ".txt") as f:
            stamp = " (" + f.readline().strip() + ")"
    print("%s%s:" % (os.path.basename(refpath) if refpath else "no earlier records", stamp))
    print("  %-18s %9s %9s" % ("program", base, ref) +
          "".join(" | %-16s %6s %7s %6s" % (c, "/zbw", "/" + ref, "w/zbw") for c in confs))
    for p in progs:
        b, z = first.get((p, base)), refs.get((p, ref))
        if not ok(b):
            print("  %-18s %s: FAILED or missing" % (p, base))
            bad = 1
            continue
        if refpath and not z:
            print("  %-18s no %s in %s" % (p, ref, refpath))
            bad = 1
        line = "  %-18s %9.2f %9s" % (p, peak(b) / MIB, "%.2f" % (peak(z) / MIB) if z else "-")
        for c in confs:
            r = first.get((p, c))
            if not ok(r):
                line += " | %-16s %6s %7s %6s" % ("FAILED", "", "", "")
                bad = 1
                continue
            xb, xz, xw = peak(r) / peak(b), peak(r) / peak(z) if z else None, wus(r) / wus(b)
            ratios[c][0].append(xb)
            ratios[c][2].append(xw)
            if xz is not None:
                ratios[c][1].append(xz)
            line += " | %16.2f %6.3f %7s %6.2f" % (peak(r) / MIB, xb,
                                                  "%.3f" % xz if xz is not None else "-", xw)
            rows.append({"prog": p, "conf": c, "peak": peak(r), base: peak(b),
                         "over_" + base: "%.4f" % xb, ref: peak(z) if z else "",
                         "over_" + ref: "%.4f" % xz if xz is not None else "",
                         "write_us_page": "%.1f" % wus(r),
                         "write_over_" + base: "%.3f" % xw})
        print(line)
    line = "  %-18s %9s %9s" % ("geometric mean", "", "")
    for c in confs:
        xb, xz, xw = ratios[c]
        line += " | %16s %6s %7s %6s" % (
            "(%d programs)" % len(xb), "%.3f" % geomean(xb) if xb else "-",
            "%.3f" % geomean(xz) if xz else "-", "%.2f" % geomean(xw) if xw else "-")
    print(line)
    print()
    print("< 1: less memory than %s (%s); w/zbw: time in pwrite() per page written over" % (
        base, ref))
    print("%s's (compression and zsmalloc under TCG, beside the host's other load: rough)." % base)
    same = [p for p in progs if ok(first.get((p, base))) and (p, base) in refs
            and peak(refs[(p, base)]) == peak(first[(p, base)])]
    there = [p for p in progs if ok(first.get((p, base))) and (p, base) in refs]
    if there:
        print("%s's peak here equals the earlier records' for %d of %d programs%s." % (
            base, len(same), len(there), "" if len(same) == len(there) else " (" + ", ".join(
                "%s %+.2f%%" % (p, 100.0 * (peak(first[(p, base)]) / peak(refs[(p, base)]) - 1))
                for p in there if p not in same) + ")"))
    with open(csvpath, "w", newline="") as f:
        w = csv.DictWriter(f, ["prog", "conf", "peak", base, "over_" + base, ref, "over_" + ref,
                               "write_us_page", "write_over_" + base])
        w.writeheader()
        w.writerows(rows)
    return bad


def classes(path):
    tabs = {}
    with open(path) as f:
        for line in f:
            head, _, rest = line.rstrip("\n").partition(" | ")
            r = dict(kv.split("=", 1) for kv in head.split() if "=" in kv)
            tabs.setdefault((r.get("prog"), r.get("conf")), []).append(rest)
    prog = None
    for (p, c), lines in tabs.items():
        rows = []
        for line in lines:
            w = line.split()
            if len(w) == 18 and w[0].isdigit():
                rows.append(dict(cls=int(w[0]), size=int(w[1]), alloc=int(w[13]), used=int(w[14]),
                                 pages=int(w[15]), ppz=int(w[16])))
        if not rows:
            continue
        if p != prog:
            prog = p
            print()
            print("%s: zsmalloc after the last write (size classes, debugfs)" % p)
            print("  %-18s %8s %9s %9s %9s %9s  %s" % (
                "zram", "objects", "in class", "unused", "pages MiB", "slack %",
                "classes with most pages (size:MiB)"))
        used = sum(r["used"] * r["size"] for r in rows)
        unused = sum((r["alloc"] - r["used"]) * r["size"] for r in rows)
        pages = sum(r["pages"] for r in rows) * 4096
        top = sorted(rows, key=lambda r: -r["pages"])[:4]
        print("  %-18s %8d %9.2f %9.2f %9.2f %9.1f  %s" % (
            c, sum(r["used"] for r in rows), used / MIB, unused / MIB, pages / MIB,
            100.0 * (pages - used) / pages if pages else 0,
            " ".join("%d:%.1f" % (r["size"], r["pages"] * 4096 / MIB) for r in top if r["pages"])))
    print()
    print("objects: stored objects; in class: their bytes rounded up to their class's size;")
    print("unused: allocated but free objects in the zspages; pages: zsmalloc's pages (its part")
    print("of mem_used_total); slack: the part of pages not holding a stored object's class")
    print("size. The compressed bytes themselves are the replay table's compr (last).")
    return 0


SAME = ("peak", "last", "end", "max_orig", "wpages", "discards")


def keep(recs, path, tree):
    """RECS with OLD's rows of the configurations they lack; exits 1 when a
    configuration both have differs."""
    with open(path, newline="") as f:
        old = list(csv.DictReader(f))
    progs = {r["prog"] for r in recs}
    new = {(r["prog"], r["conf"], r.get("run")): r for r in recs}
    have = {(r["prog"], r["conf"]) for r in recs}
    kept, checked = [], set()
    for r in old:
        if r["prog"] not in progs or "zbewalgo" in r["conf"]:
            continue
        if (r["prog"], r["conf"]) not in have:
            kept.append(dict(r, tree=tree))
            continue
        n = new.get((r["prog"], r["conf"], r.get("run")))
        if n is None:
            continue
        diff = [k for k in SAME if n.get(k) != r.get(k)]
        if diff:
            sys.exit("%s %s: differs from the replay of %s (%s): the rows of %s cannot be kept"
                     % (r["prog"], r["conf"], tree, ", ".join(diff), path))
        checked.add(r["conf"])
    if not checked:
        sys.exit("no configuration without zbewalgo replayed again: the rows of %s cannot be"
                 " kept" % path)
    confs = sorted({r["conf"] for r in kept}, key=order)
    print("kept from the replay of tree %s (the same logs): %s; replayed again here and identical"
          " to it: %s" % (tree, ", ".join(confs) or "none", ", ".join(sorted(checked)) or "none"))
    return recs + kept


def main():
    if sys.argv[1] == "--classes":
        sys.exit(classes(sys.argv[2]))
    if sys.argv[1] == "--optional":
        args, opts = [], {}
        it = iter(sys.argv[2:])
        for a in it:
            if a in ("--tables", "--classic"):
                opts[a] = next(it)
            else:
                args.append(a)
        recs = records(args[0])
        bad = optional(recs, args[1], args[2] if len(args) > 2 else None)
        if "--tables" in opts or "--classic" in opts:
            tables(list(dict.fromkeys(r["prog"] for r in recs)), opts.get("--tables"),
                   opts.get("--classic"))
        sys.exit(bad)
    args = sys.argv[1:]
    kept = None
    if args[0] == "--keep":
        kept, args = args[1:3], args[3:]
    recs = records(args[0])
    if kept:
        if not any(r.get("run") == "1" for r in recs):
            sys.exit("no replay in %s to keep rows beside" % args[0])
        recs = keep(recs, *kept)
    fields = list(dict.fromkeys(k for r in recs for k in r))
    with open(args[1], "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(recs)
    sys.exit(table(recs, args[2] if len(args) > 2 else None))


if __name__ == "__main__":
    main()
