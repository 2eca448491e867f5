# SPDX-License-Identifier: GPL-2.0-only
# A Python interpreter with a large heap of small objects: records with
# strings, ints, floats and lists, as a web service's cache or an ORM keeps
# them, then passes that touch all of them (sums, updates, a sort).
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 400000
rng = random.Random(34)
words = ["alpha", "beta", "gamma", "delta", "swap", "page", "zram", "numpy",
         "kernel", "memory", "cache", "python", "object", "record", "value"]
recs = []
for i in range(n):
    recs.append({
        "id": i,
        "name": "user-%07d-%s" % (i, rng.choice(words)),
        "score": rng.random() * 100.0,
        "visits": rng.randrange(1000),
        "tags": [rng.choice(words) for _ in range(rng.randrange(1, 5))],
    })
index = {r["name"]: r for r in recs}
total = 0.0
for rnd in range(2):
    for r in recs:
        r["score"] = r["score"] * 0.9 + r["visits"] * 0.1
        total += r["score"]
    recs.sort(key=lambda r: (r["tags"][0], -r["score"]))
hits = sum(1 for k in index if k.endswith("swap"))
print("python-heap: %d records, checksum %.3f, %d hits" % (n, total, hits))
