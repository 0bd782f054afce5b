#!/usr/bin/env bash
# Counting at the floor: what one count process costs, before and after counting at the
# floor, for a small (~3 K), a mid and a large (records near the 8 KiB cap)
# message, each format. Counting is exact; the seconds are this machine's.
# Run on an otherwise idle machine.
#   scripts/figures/count-cost.sh BEFORE_REV [OUT]
# BEFORE_REV is the commit to compare with (its harness is checked out in a
# worktree and its wiregate built); OUT defaults to
# docs/results/count-cost.txt. Each cell: the Valgrind process's seconds
# (cpucost's Counts.seconds, the median of 3) and the instr/op it counted.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
before=${1:?usage: count-cost.sh BEFORE_REV [OUT]}
out=${2:-$root/docs/results/count-cost.txt}
export PATH="$root/node_modules/.bin:$PATH"
# shellcheck source=scripts/figures/lib.sh
. scripts/figures/lib.sh
before_after "$before"
python3 scripts/gen-messages.py 40 "$work/gm" --big-share 0.25 >/dev/null
cases=(
  "small . telemetry.v1.TelemetryEvent"
  "mid $work/gm gen.v1.Message33"
  "large $work/gm gen.v1.Message38"
)
{
  echo "# bash scripts/figures/count-cost.sh $before: one count process (one message × one format, encode and decode), $(date -u +%F), $(nproc) CPUs"
  echo "# before: $before   after: $(git rev-parse --short HEAD)"
  printf '%-6s %-30s %-9s %12s %10s %12s %12s %10s %12s\n' size message format before_s ops_before encode_before after_s ops_after encode_after
  for c in "${cases[@]}"; do
    read -r size dir msg <<<"$c"
    for f in protobuf json avro; do
      row=()
      for side in before after; do
        harness=$root/harness; [ $side = before ] && harness=$work/before/harness
        args=(instructions --buf-input "$dir" --harness-dir "$harness" --cache-dir "$work/cache-$side" --messages "$msg" --formats "$f" --json)
        "$work/wg-$side" "${args[@]}" >/dev/null 2>&1 # prepare once, uncounted
        for i in 1 2 3; do "$work/wg-$side" "${args[@]}" 2>/dev/null > "$work/$side-$i.json"; done
        row+=("$(python3 - "$work"/$side-[123].json <<'PY'
import json, sys, statistics
runs = [json.load(open(p)) for p in sys.argv[1:]]
secs = statistics.median(r["seconds"] for r in runs)
enc = [x for x in runs[0]["results"] if x["name"].startswith("BenchmarkEncode")][0]
print(f'{secs:12.2f} {enc["ops"]:10d} {enc["instructions"] / enc["ops"]:12.1f}')
PY
)")
      done
      printf '%-6s %-30s %-9s %s %s\n' "$size" "$msg" "$f" "${row[0]}" "${row[1]}"
    done
  done
} | tee "$out"
