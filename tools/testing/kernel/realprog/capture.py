# SPDX-License-Identifier: GPL-2.0-only
# capture.py PROGRAM STOPFILE SECONDS MAXMIB: while PROGRAM runs with swap on
# zram0, reads the whole device every SECONDS (zram decompresses each slot;
# free slots read as zeros) and appends each non-zero page that its slot did
# not hold at the last look to /dev/vdb, up to MAXMIB. Zero pages are
# counted, not kept: zram stores them without compressing. Ends when
# STOPFILE appears and prints "ZBW-PAGES: prog=P first=PAGE count=N zero=N"
# (first: the page of /dev/vdb where this program's pages start).
import mmap
import os
import sys
import time

prog, stop, sec, maxmib = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
PG = 4096
CHUNK = 1 << 20
ZPAGE = bytes(PG)
ZCHUNK = bytes(CHUNK)
offfile = "/tmp/capture.off"
first = int(open(offfile).read()) if os.path.exists(offfile) else 0
src = os.open("/dev/zram0", os.O_RDONLY | os.O_DIRECT)
out = os.open("/dev/vdb", os.O_WRONLY)
size = os.lseek(src, 0, os.SEEK_END)
buf = mmap.mmap(-1, CHUNK)
seen = {}
n = zero = looks = 0
maxpages = maxmib * (1 << 20) // PG


def wait():
    end = time.monotonic() + sec
    while time.monotonic() < end:
        if os.path.exists(stop):
            return False
        time.sleep(0.5)
    return True


while n < maxpages and wait():
    looks += 1
    zero = 0
    for off in range(0, size, CHUNK):
        got = os.preadv(src, [buf], off)
        chunk = buf[:got]
        if chunk == ZCHUNK[:got]:
            continue
        for i in range(0, got, PG):
            page = chunk[i:i + PG]
            if page == ZPAGE:
                zero += 1
                continue
            slot = (off + i) // PG
            h = hash(page)
            if seen.get(slot) == h:
                continue
            seen[slot] = h
            if n < maxpages:
                os.pwrite(out, page, (first + n) * PG)
                n += 1
os.fsync(out)
with open(offfile, "w") as f:
    f.write(str(first + n))
print("ZBW-PAGES: prog=%s first=%d count=%d zero=%d looks=%d" % (prog, first, n, zero, looks), flush=True)
