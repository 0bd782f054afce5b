#!/usr/bin/env bash
# Batches: a message counted in a batch reads what it reads alone, within
# its floor. Counts RUNS processes of each message alone (--batch 1) and
# RUNS of all of them in one process (--batch 0 with one CPU's worth: every
# message of the module in one batch), on this repo's schemas and on a
# generated module of small messages (maps and nested records among them),
# and prints per metric the format's floor, both medians, their difference
# and each mode's own spread. Instruction counts are exact: the machine's
# load does not move them.
#   scripts/figures/batch-aa.sh [RUNS] [OUT]   (default 3, docs/results/batch-aa.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${1:-3}
out=${2:-$root/docs/results/batch-aa.txt}
export PATH="$root/node_modules/.bin:$PATH"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd harness && go build -o "$work/wg" ./cmd/wiregate)
python3 scripts/gen-messages.py 12 "$work/small" >/dev/null
{
  echo "# bash scripts/figures/batch-aa.sh $runs: batch vs alone, $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD), $runs processes a mode"
  for dir in "$root" "$work/small"; do
    for i in $(seq "$runs"); do
      "$work/wg" instructions --buf-input "$dir" --harness-dir harness --cache-dir "$work/cache" --json --batch 1 > "$work/$(basename "$dir")-alone-$i.json" 2>/dev/null
      "$work/wg" instructions --buf-input "$dir" --harness-dir harness --cache-dir "$work/cache" --json --batch 1000 > "$work/$(basename "$dir")-batch-$i.json" 2>/dev/null
    done
    python3 - "$work" "$(basename "$dir")" "$runs" <<'PY'
import json, statistics, sys
work, name, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
floors = {"protobuf": (0.5, 16), "avro": (0.5, 16), "json": (1, 256)}
def load(mode):
    out = {}
    for i in range(1, runs + 1):
        for r in json.load(open(f"{work}/{name}-{mode}-{i}.json"))["results"]:
            out.setdefault(r["name"], []).append(r["instructions"] / r["ops"])
    return out
alone, batch = load("alone"), load("batch")
print(f"## {'this repo' if name != 'small' else 'generated module, 12 small messages'}")
print(f"{'metric':<58} {'floor%':>6} {'alone':>11} {'batched':>11} {'diff%':>7} {'spread alone%':>13} {'spread batched%':>15}")
worst = 0
for k in sorted(alone):
    fmt = k.rsplit("/", 1)[1]
    a, b = statistics.median(alone[k]), statistics.median(batch[k])
    pct, instr = floors[fmt]
    floor = max(pct, 100 * instr / a)
    d = 100 * (b - a) / a
    sa = 100 * (max(alone[k]) - min(alone[k])) / min(alone[k])
    sb = 100 * (max(batch[k]) - min(batch[k])) / min(batch[k])
    worst = max(worst, abs(d) / floor)
    print(f"{k:<58} {floor:6.2f} {a:11.1f} {b:11.1f} {d:+7.3f} {sa:13.3f} {sb:15.3f}")
print(f"largest |diff| as a share of its floor: {worst:.2f}")
PY
  done
} | tee "$out"
