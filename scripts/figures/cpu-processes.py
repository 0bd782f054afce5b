#!/usr/bin/env python3
"""Count processes a side: how far A/A instruction counts move with one, two and
three processes per side, from one A/A gate run with --cpu-processes 3
(base.txt and head.txt hold one instr/op line per process, in the order
the processes ran). For each process count P it takes each side's first P
counts, as a gate with cpu-processes P would have, and reports per format:
the largest spread between one side's counts, the largest A/A delta
between the sides' medians, how many of them pass the format's global
floor (what a gate with one process per side gates on), and how many pass
the floor a gate with P processes uses (the larger of the format's and
twice the counts' own spread), which would be false alarms at
cpu-threshold 0.5%.

  scripts/figures/cpu-processes.py OUT_DIR_OF_THE_GATE   (reads base.txt, head.txt, report.json)"""
import json
import statistics
import sys
from collections import defaultdict

out = sys.argv[1]
# The format floors of harness/parent/cpucost/floor.go: (percent, instructions).
FLOORS = {"protobuf": (0.5, 16), "vtprotobuf": (0.5, 16), "avro": (0.5, 16), "json": (1, 256), "cbor": (1.5, 256),
          "protojson": (3, 500), "msgpack": (4, 500)}


def counts(path):
    c = defaultdict(list)
    for line in open(path):
        if line.startswith("Benchmark") and "instr/op" in line:
            name, _, value = line.split()[:3]
            c[name].append(float(value))
    return c


def floor(fmt, base):
    pct, instr = FLOORS.get(fmt, (4, 500))
    return max(pct, 100 * instr / base)


def spread(xs):
    return 100 * (max(xs) - min(xs)) / min(xs) if len(xs) > 1 else 0.0


base, head = counts(f"{out}/base.txt"), counts(f"{out}/head.txt")
report = json.load(open(f"{out}/report.json"))
cpu = next(s for s in report["stages"] if s["name"] == "cpu")
print(f"{len(base)} counted metrics (message × format × op), 3 processes a side; cpu stage {cpu['seconds']:.0f} s on "
      f"{report['env'].get('workers')} workers: {cpu.get('note', '')}")
print()
print("| format | processes a side | largest spread within a side | largest A/A delta | past the global floor | past its own floor (cpu-threshold 0.5%) | floors its counts raised |")
print("|---|---|---|---|---|---|---|")
for fmt in sorted({n.rsplit("/", 1)[1] for n in base}):
    names = [n for n in base if n.endswith("/" + fmt)]
    for p in (1, 2, 3):
        spreads, deltas, past_global, past_own, raised = [], [], 0, 0, 0
        for n in names:
            b, h = base[n][:p], head[n][:p]
            bc, hc = statistics.median(b), statistics.median(h)
            d = 100 * abs(hc - bc) / bc
            g = floor(fmt, bc)
            own = max(g, 2 * max(spread(b), spread(h)))
            spreads.append(max(spread(b), spread(h)))
            deltas.append(d)
            past_global += d > g
            past_own += d > own and d > 0.5
            raised += own > g
        print(f"| {fmt} | {p} | {max(spreads):.3f}% | {max(deltas):.3f}% | {past_global} of {len(names)} | "
              f"{past_own if p > 1 else past_global} of {len(names)} | {raised if p > 1 else 0} |")
