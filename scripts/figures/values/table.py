#!/usr/bin/env python3
"""Formats valuefigures' lines (scripts/figures/values.sh) as the markdown
table of docs/figures.md: per message and format, raw and each codec's
bytes per record before → after the value rules, and the real-shaped
corpus where there is one; the generated module's messages summed (one
record of each).

  table.py LINES.tsv BEFORE N
"""
import sys
from collections import OrderedDict

CODECS = ["gzip", "snappy", "lz4", "zstd"]


def main(path, before, n):
    rows = OrderedDict()  # (message, format) -> {label: [raw, gzip, snappy, lz4, zstd]}
    for line in open(path):
        label, message, fmt, *nums = line.rstrip("\n").split("\t")
        if message.startswith("gen."):
            message = f"generated module ({n} messages, one record of each, summed)"
        side = rows.setdefault((message, fmt), {})
        vals = [float(x) for x in nums]
        if label == "real-shaped" or message.startswith("generated module"):
            if label == "real-shaped" and label in side:
                continue  # printed by both sides, the same corpus
            if label in side:
                side[label] = [a + b for a, b in zip(side[label], vals)]
                continue
        side[label] = vals
    print(f"| message | format | records | raw B/record | " + " | ".join(CODECS) + " |")
    print("|---|---|---|---:|" + "---:|" * len(CODECS))
    for (message, fmt), side in rows.items():
        b, a = side["before"], side["after"]
        cells = [f"{x:.1f} → {y:.1f}" for x, y in zip(b, a)]
        print(f"| `{message}` | {fmt} | generated, before → after | " + " | ".join(cells) + " |")
        if "real-shaped" in side:
            print(f"| `{message}` | {fmt} | real-shaped corpus | " + " | ".join(f"{x:.1f}" for x in side["real-shaped"]) + " |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
