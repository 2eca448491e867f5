# SPDX-License-Identifier: GPL-2.0-only
# A Redis server (Debian's redis-server, its own process in the memory
# limit) filled with a real-shaped data set over its protocol, pipelined as
# a loader would: hourly readings of weather stations as hashes (integers,
# decimals and a status word, as Redis keeps small hashes: listpacks), a
# sorted set per measure ranking every reading, a list of recent events per
# station; then read back: every reading of a sample of stations (HGETALL),
# ranges of the sorted sets, the lists.
import random
import socket
import sys

n = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rb")


def cmd(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


def reply():
    line = f.readline()
    t, rest = line[:1], line[1:-2]
    if t == b"-":
        sys.exit("redis-store: %s" % rest.decode())
    if t == b"$":
        k = int(rest)
        return None if k < 0 else f.read(k + 2)[:-2]
    if t == b"*":
        return [reply() for _ in range(int(rest))]
    return rest


def batch(cmds):
    s.sendall(b"".join(cmds))
    return [reply() for _ in cmds]


rng = random.Random(45)
stations = max(1, n // 500)
status = [b"ok", b"ok", b"ok", b"ok", b"calibrating", b"gust", b"maintenance", b"estimated"]
cmds = []
for i in range(n):
    st, hour = i % stations, i // stations
    base = 8 + 12 * (st % 7) / 7.0
    key = "reading:%04d:%06d" % (st, hour)
    temp = round(base + 6 * rng.gauss(0, 1), 2)
    cmds.append(cmd("HSET", key, "station", st, "ts", 1700000000 + 3600 * hour,
                    "temp_c", temp, "rh_pct", rng.randrange(20, 100),
                    "hpa", round(1013 + rng.gauss(0, 8), 1),
                    "wind_ms", round(abs(rng.gauss(3, 2)), 1),
                    "rain_mm", round(max(0.0, rng.gauss(-1, 2)), 1),
                    "status", rng.choice(status)))
    cmds.append(cmd("ZADD", "by:temp", temp, key))
    if rng.random() < 0.2:
        cmds.append(cmd("RPUSH", "events:%04d" % st,
                        "%d %s %.2f" % (hour, rng.choice(status).decode(), temp)))
    if len(cmds) >= 3000:
        batch(cmds)
        cmds = []
if cmds:
    batch(cmds)
info = dict(l.split(b":", 1) for l in batch([cmd("INFO", "memory")])[0].split(b"\r\n")
            if b":" in l)
got = fields = 0
for st in rng.sample(range(stations), min(stations, 100)):
    keys = ["reading:%04d:%06d" % (st, h) for h in range(n // stations)]
    for r in batch([cmd("HGETALL", k) for k in keys]):
        fields += len(r) // 2
    got += len(keys)
top = batch([cmd("ZRANGE", "by:temp", 0, 999), cmd("ZRANGE", "by:temp", -1000, -1)])
ev = sum(len(x) for x in batch([cmd("LRANGE", "events:%04d" % st, 0, -1)
                                for st in range(stations)]))
print("redis-store: %d readings of %d stations, used_memory %s MiB; read back %d (%d fields),"
      " %d ranked, %d events" % (n, stations, int(info[b"used_memory"]) >> 20, got, fields,
                                 len(top[0]) + len(top[1]), ev))
