#!/usr/bin/env bash
# Why a pipeline drain lasts 250 ms. One side's decoded drains of
# one row, 12 rounds, with backlogs sized for 50, 100 and 250 ms drains:
# the spread of records/s between rounds at each length, on the embedded
# broker, for a slow row (a 2 KB message in JSON, ~20 µs a record) and a
# fast one (a small message in protobuf, ~0.7 µs a record). Run on an
# otherwise idle machine.
#   scripts/figures/drain.sh [OUT]   (default docs/results/drain-target.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:-$root/docs/results/drain-target.txt}
export PATH="$root/node_modules/.bin:$PATH"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
(cd harness && go build -o "$t/wg" ./cmd/wiregate)
python3 scripts/gen-messages.py 56 "$t/mod" --big-share 0.2 >/dev/null
common=(--harness-dir harness --buf-input "$t/mod" --cache-dir "$t/cache" --broker embedded)
# ns a record of each row, from a short run: the backlog for a drain of D ms is D / that.
per_record() {
  "$t/wg" pipeline "${common[@]}" --messages "$1" --formats "$2" --pipeline-messages 3000 --rounds 3 --json 2>/dev/null |
    python3 -c "import json,sys; print(int(json.load(sys.stdin)[0]['ns_per_msg']))"
}
{
echo "# bash scripts/figures/drain.sh, $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD): one side, 12 decoded drains a length, embedded broker"
for row in "gen.v1.Message17 json" "gen.v1.Message10 protobuf"; do
  set -- $row
  ns=$(per_record "$1" "$2")
  for ms in 50 100 250 500; do
    n=$(( ms * 1000000 / ns ))
    "$t/wg" pipeline "${common[@]}" --messages "$1" --formats "$2" --pipeline-messages "$n" --rounds 12 --json 2>/dev/null |
      python3 -c "
import json, sys, statistics as st
r = json.load(sys.stdin)[0]; xs = r['rps_samples']; m = st.median(xs)
print(f'$1 $2 (${ns} ns a record) drain ${ms} ms, n={r[\"n\"]}: median {m:.0f} records/s, cv {100*st.pstdev(xs)/st.mean(xs):.2f}%, '
      f'mad/median {100*st.median([abs(x-m) for x in xs])/m:.2f}%, range {100*(max(xs)-min(xs))/m:.1f}%')"
  done
done
} | tee "$out"
