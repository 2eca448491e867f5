#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""demo-table.py: the side-by-side table of demo.sh from the guest's records.

usage: demo-table.py LOG OUTBASE VERSION ALGS SETS_FILE SWAP(0|1) [NOTE...]

Reads the "ZBW-REC:" lines of the console LOG (see guest/demo.sh), prints the
table on stdout and writes OUTBASE.txt and OUTBASE.csv.  Exits 1 when a record
is missing or failed its check (the table is written anyway, marked FAIL).
"""
import csv
import sys

FIELDS = ("kind", "set", "alg", "orig", "compr", "mem", "huge", "same",
          "write_ms", "read_ms", "check")
KIB = 1024


def read_records(log):
    recs = {}
    notes = []
    kernel = "?"
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("ZBW-GUEST-START: "):
                kernel = line.split(": ", 1)[1]
            if line.startswith("ZBW-NOTE: "):
                notes.append(line.split(": ", 1)[1])
            if not line.startswith("ZBW-REC: "):
                continue
            v = line.split()[1:]
            if len(v) != len(FIELDS):
                continue
            r = dict(zip(FIELDS, v))
            for k in ("orig", "compr", "mem", "huge", "same"):
                r[k] = int(r[k])
            for k in ("write_ms", "read_ms"):
                r[k] = float(r[k])
            recs[(r["kind"], r["set"], r["alg"])] = r
    return kernel, recs, notes


def ratio(a, b):
    return "%.2f" % (a / b) if b else "-"


def mibps(size, ms):
    return "%.1f" % (size / (1 << 20) / (ms / 1000)) if ms > 0 else "-"


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    log, outbase, version, algs, sets_file, swap = sys.argv[1:7]
    notes = sys.argv[7:]
    algs = algs.split()
    with open(sets_file) as f:
        sets = [s.strip() for s in f if s.strip()]
    kernel, recs, guest_notes = read_records(log)
    notes += guest_notes

    rows = [("blk", s) for s in sets + ["all-sets"]]
    swap_sets = sorted({k[1] for k in recs if k[0] == "swap"})
    if swap == "1" and not swap_sets:
        swap_sets = ["zbwmem"]
    problems = []
    for kind, s in rows + [("swap", s) for s in swap_sets]:
        for a in algs:
            r = recs.get((kind, s, a))
            if r is None:
                problems.append("%s %s %s: no record" % (kind, s, a))
            elif r["check"] != "ok":
                problems.append("%s %s %s: %s" % (kind, s, a, r["check"]))

    # Block total: sums over the sets (each set had its own fresh device).
    total = {}
    for a in algs:
        got = [recs[("blk", s, a)] for s in sets if ("blk", s, a) in recs]
        if got:
            t = {k: sum(r[k] for r in got) for k in
                 ("orig", "compr", "mem", "huge", "same", "write_ms", "read_ms")}
            t["check"] = "ok" if len(got) == len(sets) and all(
                r["check"] == "ok" for r in got) else "FAIL"
            total[a] = t
    table = [(s, {a: recs.get(("blk", s, a)) for a in algs}) for s in sets]
    table.append(("TOTAL (sum of sets)", total))
    table.append(("all sets, one zram", {a: recs.get(("blk", "all-sets", a)) for a in algs}))
    for s in swap_sets:
        table.append(("swap " + s, {a: recs.get(("swap", s, a)) for a in algs}))

    w0 = max(len(r[0]) for r in table) + 2
    cw = 17
    out = []

    def section(title, cell, extra=None, orig_row=False):
        out.append("")
        out.append(title)
        head = "%-*s%10s" % (w0, "data set", "orig KiB") + "".join(
            "%*s" % (cw, a) for a in algs)
        if extra:
            head += "%*s" % (cw, extra[0])
        out.append(head)
        for name, by in table:
            origs = {r["orig"] for r in by.values() if r}
            o = "%d" % (origs.pop() // KIB) if len(origs) == 1 else "varies"
            line = "%-*s%10s" % (w0, name, o)
            for a in algs:
                r = by.get(a)
                c = cell(r, name) if r else "missing"
                if r and r["check"] != "ok":
                    c += " FAIL"
                line += "  " + c.rjust(cw - 2)
            if extra:
                line += "%*s" % (cw, extra[1](by))
            out.append(line.rstrip())
            if o == "varies" and orig_row:
                out.append("%-*s%10s" % (w0, "  (orig KiB held)", "") + "".join(
                    "  " + ("%d" % (by[a]["orig"] // KIB) if by.get(a) else "-").rjust(cw - 2)
                    for a in algs))

    def vs_best(key):
        # zbewalgo's size per byte stored over the best other algorithm's
        # (per byte: the swap part stores different amounts): below 1 it wins.
        def f(by):
            z = by.get("zbewalgo")
            others = [r[key] / r["orig"] for a, r in by.items()
                      if a != "zbewalgo" and r and r["orig"]]
            if not z or not z["orig"] or not others or min(others) <= 0:
                return "-"
            return "%.2f" % (z[key] / z["orig"] / min(others))
        return f

    zbw = "zbewalgo" in algs and len(algs) > 1
    section("compressed size (compr_data_size), KiB (orig/compr)",
            lambda r, n: "%d (%s)" % (r["compr"] // KIB, ratio(r["orig"], r["compr"])),
            ("zbw/best other", vs_best("compr")) if zbw else None, True)
    section("memory used (mem_used_total), KiB (orig/mem_used)",
            lambda r, n: "%d (%s)" % (r["mem"] // KIB, ratio(r["orig"], r["mem"])),
            ("zbw/best other", vs_best("mem")) if zbw else None)
    section("pages stored huge (uncompressed) / same-filled pages",
            lambda r, n: "%d / %d" % (r["huge"], r["same"]))
    section("write time, ms (MiB/s); swap: fill + page-out, incl. generating the data",
            lambda r, n: "%.0f (%s)" % (r["write_ms"], mibps(r["orig"], r["write_ms"]))
            if not n.startswith("swap") else "%.0f" % r["write_ms"])
    section("read time, ms (MiB/s), median; swap: swap-in + verify of every page",
            lambda r, n: "%.0f (%s)" % (r["read_ms"], mibps(r["orig"], r["read_ms"]))
            if not n.startswith("swap") else "%.0f" % r["read_ms"])

    head = ["In-kernel zram benchmark: Linux %s (demo %s), zram with %s" % (
        kernel, version, ", ".join(algs))] + notes
    if problems:
        out.append("")
        out.append("FAILED: " + "; ".join(problems))
    text = "\n".join(head + out) + "\n"
    sys.stdout.write(text)
    with open(outbase + ".txt", "w") as f:
        f.write(text)
    with open(outbase + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["version", "kernel", "workload", "set", "algorithm", "orig_bytes",
                    "compr_bytes", "mem_used_bytes", "huge_pages", "same_pages",
                    "write_ms", "read_ms", "ratio_orig_compr", "ratio_orig_mem_used",
                    "check"])
        for name, by in table:
            kind, s = ("swap", name[5:]) if name.startswith("swap ") else (
                "blk", {"TOTAL (sum of sets)": "TOTAL",
                        "all sets, one zram": "all-sets"}.get(name, name))
            for a in algs:
                r = by.get(a)
                if r:
                    w.writerow([version, kernel, kind, s, a, r["orig"], r["compr"],
                                r["mem"], r["huge"], r["same"], "%.1f" % r["write_ms"],
                                "%.1f" % r["read_ms"], ratio(r["orig"], r["compr"]),
                                ratio(r["orig"], r["mem"]), r["check"]])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
