#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""demo-table.py: the side-by-side table of demo.sh from the guest's records.

usage: demo-table.py LOG OUTBASE VERSION ALGS SETS_FILE SWAP(0|1) [NOTE...]

Reads the "ZBW-REC:" lines of the console LOG (see guest/demo.sh), prints the
table on stdout and writes OUTBASE.txt and OUTBASE.csv.  Exits 1 when a record
is missing or failed its check (the table is written anyway, marked FAIL).
With ZBW_DEPLOY=1 in the environment (kernels with zram recompression) the
"ZBW-DEP:" records of the deployment part are required too: their table
follows, and OUTBASE-deploy.csv holds them.
"""
import csv
import os
import sys

FIELDS = ("kind", "set", "alg", "orig", "compr", "mem", "huge", "same",
          "write_ms", "read_ms", "check")
DEP_FIELDS = ("set", "conf", "orig", "compr", "mem", "huge", "same",
              "write_ms", "read_ms", "pass_ms", "check")
# guest/demo.sh's configurations: an algorithm alone, or a primary with
# zbewalgo recompressing at priority 1 after the writes.
DEPLOY = ("lz4", "zstd", "zbewalgo", "lz4+huge", "lz4+huge+idle", "zstd+huge")
DEPLOY_HEAD = {"lz4+huge": "lz4+zbw huge", "lz4+huge+idle": "lz4+zbw h+idle",
               "zstd+huge": "zstd+zbw huge"}
# The sets of the target: float fields and solver state.
FLOAT_SOLVER = ("float32-", "float64-", "csr-cg", "hpcg-heap")
KIB = 1024


def read_records(log, dep=None):
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
            if line.startswith("ZBW-DEP: ") and dep is not None:
                v = line.split()[1:]
                if len(v) == len(DEP_FIELDS):
                    r = dict(zip(DEP_FIELDS, v))
                    for k in ("orig", "compr", "mem", "huge", "same"):
                        r[k] = int(r[k])
                    for k in ("write_ms", "read_ms", "pass_ms"):
                        r[k] = float(r[k])
                    dep[(r["set"], r["conf"])] = r
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
    dep = {}
    kernel, recs, guest_notes = read_records(log, dep)
    notes += guest_notes
    want_dep = os.environ.get("ZBW_DEPLOY") == "1"

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

    if want_dep:
        for s in sets:
            for c in DEPLOY:
                r = dep.get((s, c))
                if r is None:
                    problems.append("deployment %s %s: no record" % (s, c))
                elif r["check"] != "ok":
                    problems.append("deployment %s %s: %s" % (s, c, r["check"]))
        out += deploy_tables(sets, dep)

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
    if want_dep:
        with open(outbase + "-deploy.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["version", "kernel", "set", "configuration", "orig_bytes",
                        "compr_bytes", "mem_used_bytes", "huge_pages", "same_pages",
                        "write_ms", "read_ms", "pass_ms", "check"])
            for s in sets:
                for c in DEPLOY:
                    r = dep.get((s, c))
                    if r:
                        w.writerow([version, kernel, s, c, r["orig"], r["compr"],
                                    r["mem"], r["huge"], r["same"],
                                    "%.1f" % r["write_ms"], "%.1f" % r["read_ms"],
                                    "%.1f" % r["pass_ms"], r["check"]])
    return 1 if problems else 0


def deploy_tables(sets, dep):
    """The deployment tables (rows: sets and sums; columns: DEPLOY) and the
    target: lz4 + zbewalgo (huge + idle) in at most 0.9 x zstd's memory on
    the float and solver sets, its writes within 1.1 x lz4's time."""
    fs = [s for s in sets if s.startswith(FLOAT_SOLVER)]
    groups = [(s, [s]) for s in sets] + [("TOTAL (sum of sets)", sets),
                                          ("float + solver sets", fs)]

    def agg(names, c, key):
        rs = [dep.get((s, c)) for s in names]
        if not rs or any(r is None for r in rs):
            return None
        return sum(r[key] for r in rs)

    w0 = max(len(g[0]) for g in groups) + 2
    cw = 16
    out = []

    def section(title, cell):
        out.append("")
        out.append(title)
        out.append("%-*s%10s" % (w0, "data set", "orig KiB") + "".join(
            "%*s" % (cw, DEPLOY_HEAD.get(c, c)) for c in DEPLOY))
        for name, names in groups:
            o = agg(names, "lz4", "orig")
            line = "%-*s%10s" % (w0, name, "%d" % (o // KIB) if o is not None else "-")
            for c in DEPLOY:
                line += "  " + cell(names, c).rjust(cw - 2)
            out.append(line.rstrip())

    def size_cell(key):
        def f(names, c):
            v, o = agg(names, c, key), agg(names, c, "orig")
            return "%d (%s)" % (v // KIB, ratio(o, v)) if v is not None else "missing"
        return f

    def time_cell(key):
        def f(names, c):
            v, o = agg(names, c, key), agg(names, c, "orig")
            if v is None:
                return "missing"
            if key == "pass_ms":
                return "%.0f" % v if "+" in c else "-"
            return "%.0f (%s)" % (v, mibps(o, v))
        return f

    out.append("")
    out.append("Deployment: each set on a fresh zram0, an algorithm alone or a primary with "
               "zbewalgo (sysfs table) at priority 1; 'huge': one 'recompress type=huge' pass "
               "after the writes, 'h+idle': that, then 'echo all > idle' and 'type=idle'; "
               "then 'echo 1 > compact' (every configuration) and one read.")
    section("deployment: memory used (mem_used_total) after the pass, KiB (orig/mem_used)",
            size_cell("mem"))
    section("deployment: compressed size (compr_data_size), KiB (orig/compr)",
            size_cell("compr"))
    section("deployment: foreground write time, ms (MiB/s), one write (the primary compresses)",
            time_cell("write_ms"))
    section("deployment: read time after the pass, ms (MiB/s), one read", time_cell("read_ms"))
    section("deployment: recompression pass time, ms (huge, or huge + idle)",
            time_cell("pass_ms"))
    m_hi, m_zstd = agg(fs, "lz4+huge+idle", "mem"), agg(fs, "zstd", "mem")
    w_hi, w_lz4 = agg(fs, "lz4+huge+idle", "write_ms"), agg(fs, "lz4", "write_ms")
    out.append("")
    if fs and None not in (m_hi, m_zstd, w_hi, w_lz4) and m_zstd and w_lz4:
        mq, wq = m_hi / m_zstd, w_hi / w_lz4
        out.append("target on the float and solver sets (%s): lz4 + zbewalgo (huge + idle) "
                   "memory %.2f x zstd's (<= 0.90: %s), foreground writes %.2f x lz4's "
                   "time (<= 1.10: %s)" % (" ".join(fs), mq, "met" if mq <= 0.9 else "NOT met",
                                           wq, "met" if wq <= 1.1 else "NOT met"))
    else:
        out.append("target: records missing")
    return out


if __name__ == "__main__":
    sys.exit(main())
