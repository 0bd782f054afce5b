#!/usr/bin/env bash
# The pipeline beside the counts (tried, not built): what instruction counts running beside the pipeline do to its
# drains. Two rows of the release-like module (a 2 KB message in JSON, a
# small one in protobuf), backlogs sized for the gate's 250 ms drain, on
# the embedded broker, the consumer pinned to the last CPU as the gate pins
# it; beside it, on CPU 0, a callgrind count of every message in one
# process (a loop of them: the counts never pause for long).
# 8 pairs of `wiregate pipeline` runs of 4 decoded drains each, one with
# the count running and one with it stopped (SIGSTOP), in alternating
# order: each condition's median records/s and the spread of its drains.
# Run on an otherwise idle machine with at least 2 CPUs.
#   scripts/figures/pipe-beside.sh [OUT]   (default docs/results/pipe-beside-interference.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:-$root/docs/results/pipe-beside-interference.txt}
export PATH="$root/node_modules/.bin:$PATH"
t=$(mktemp -d)
loop=
cleanup() {
  [ -n "$loop" ] && kill "$loop" 2>/dev/null || true
  pkill -f "wg instructions.*$t" 2>/dev/null || true # the loop's count in flight, which would start the next process
  pkill -CONT -f "valgrind.bin.*$t" 2>/dev/null || true
  pkill -f "valgrind.bin.*$t" 2>/dev/null || true
  rm -rf "$t"
}
trap cleanup EXIT
(cd harness && go build -o "$t/wg" ./cmd/wiregate)
python3 scripts/gen-messages.py 56 "$t/mod" --big-share 0.2 >/dev/null
common=(--harness-dir harness --buf-input "$t/mod" --cache-dir "$t/cache" --broker embedded)
# records for a 250 ms drain: 250 ms / ns a record, from a short run.
backlog() {
  "$t/wg" pipeline "${common[@]}" --messages "$1" --formats "$2" --pipeline-messages 3000 --rounds 3 --json 2>/dev/null |
    python3 -c "import json,sys; print(250000000 // int(json.load(sys.stdin)[0]['ns_per_msg']))"
}
rows=("gen.v1.Message17 json" "gen.v1.Message10 protobuf")
declare -A n
for row in "${rows[@]}"; do set -- $row; n[$1]=$(backlog "$1" "$2"); done
( while true; do
    TMPDIR=$t taskset -c 0 "$t/wg" instructions --harness-dir harness --buf-input "$t/mod" --cache-dir "$t/cache" \
      --batch 56 -o /dev/null >/dev/null 2>&1 || true
  done ) &
loop=$!
for _ in $(seq 1 120); do pgrep -f "valgrind.bin.*$t" >/dev/null && break; sleep 1; done
pgrep -f "valgrind.bin.*$t" >/dev/null || { echo "pipe-beside.sh: no count is running beside the pipeline" >&2; exit 1; }
signal() { pkill "-$1" -f "valgrind.bin.*$t" || true; }
for i in $(seq 1 8); do
  order="beside alone"; [ $((i % 2)) -eq 0 ] && order="alone beside"
  for cond in $order; do
    if [ "$cond" = beside ]; then signal CONT; else signal STOP; fi
    sleep 0.2
    for row in "${rows[@]}"; do
      set -- $row
      "$t/wg" pipeline "${common[@]}" --messages "$1" --formats "$2" --pipeline-messages "${n[$1]}" --rounds 4 --json 2>/dev/null |
        python3 -c "import json,sys; r=json.load(sys.stdin)[0]; print('$1/$2', *r['rps_samples'])" >> "$t/$cond.txt"
    done
  done
  signal CONT
done
{
echo "# bash scripts/figures/pipe-beside.sh, $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD): 8 pairs of wiregate pipeline runs (4 decoded 250 ms drains each, embedded broker, consumer on the last CPU), a callgrind count on CPU 0 running (beside) or stopped (alone)"
python3 - "$t/beside.txt" "$t/alone.txt" <<'PY'
import sys, statistics as st
def load(f):
    d = {}
    for l in open(f):
        k, *xs = l.split()
        d.setdefault(k, []).append([float(x) for x in xs])
    return d
b, a = load(sys.argv[1]), load(sys.argv[2])
def mad(v):
    m = st.median(v); return 100 * st.median([abs(x - m) for x in v]) / m
for k in sorted(b):
    r = [st.median(x) / st.median(y) for x, y in zip(b[k], a[k])]
    within = lambda runs: st.median(mad(x) for x in runs)
    flat = lambda runs: [v for x in runs for v in x]
    print(f"{k}: beside/alone, median of paired run medians {st.median(r):.3f} (range {min(r):.3f}-{max(r):.3f}); "
          f"records/s median beside {st.median(flat(b[k])):.0f}, alone {st.median(flat(a[k])):.0f}; "
          f"mad/median within a run beside {within(b[k]):.2f}%, alone {within(a[k]):.2f}%; over all drains beside {mad(flat(b[k])):.2f}%, alone {mad(flat(a[k])):.2f}%")
PY
} | tee "$out"
