#!/usr/bin/env bash
# Counts beside the bench rounds: what instruction counts running beside the bench rounds do to
# the timings. One bench program (the release-like module's), two messages
# (small gen.v1.Message10, large gen.v1.Message38) in json and protobuf,
# pinned to the last CPU as the gate pins them; beside it, on CPU 0, a
# callgrind count of 8 messages in a loop. 16 pairs of bench processes,
# each pair one with the count running and one with it stopped (SIGSTOP),
# in alternating order: the paired ratio of ns/op and each condition's
# spread. Run on an otherwise idle machine with at least 2 CPUs.
#   scripts/figures/beside.sh [OUT]   (default docs/results/beside-interference.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:-$root/docs/results/beside-interference.txt}
export PATH="$root/node_modules/.bin:$PATH"
t=$(mktemp -d)
loop=
cleanup() {
  [ -n "$loop" ] && kill "$loop" 2>/dev/null || true
  pkill -CONT -f "valgrind.bin.*$t" 2>/dev/null || true
  pkill -f "valgrind.bin.*$t" 2>/dev/null || true
  rm -rf "$t"
}
trap cleanup EXIT
(cd harness && go build -o "$t/wg" ./cmd/wiregate)
python3 scripts/gen-messages.py 56 "$t/mod" --big-share 0.2 >/dev/null
"$t/wg" prepare --harness-dir harness --buf-input "$t/mod" --cache-dir "$t/cache" >/dev/null 2>&1
prog=$(find "$t/cache/bench" -name wiregate-bench -type f | head -1)
msgs=gen.v1.Message10,gen.v1.Message38
mkdir "$t/saved" && "$prog" sizes --messages "$msgs" --save "$t/saved" >/dev/null
last=$(( $(nproc) - 1 ))
counted=gen.v1.Message03,gen.v1.Message10,gen.v1.Message17,gen.v1.Message24,gen.v1.Message31,gen.v1.Message38,gen.v1.Message45,gen.v1.Message52
( while true; do
    TMPDIR=$t taskset -c 0 "$t/wg" instructions --harness-dir harness --buf-input "$t/mod" --cache-dir "$t/cache" \
      --messages "$counted" --batch 8 -o /dev/null >/dev/null 2>&1 || true
  done ) &
loop=$!
sleep 5
pgrep -f "valgrind.bin.*$t" >/dev/null || { echo "beside.sh: no count is running beside the bench" >&2; exit 1; }
signal() { pkill "-$1" -f "valgrind.bin.*$t" || true; }
for i in $(seq 1 16); do
  order="beside alone"; [ $((i % 2)) -eq 0 ] && order="alone beside"
  for cond in $order; do
    if [ "$cond" = beside ]; then signal CONT; else signal STOP; fi
    sleep 0.2
    taskset -c "$last" "$prog" bench --messages "$msgs" --formats json,protobuf --saved "$t/saved" --benchtime 30ms \
      --allocs=false --header=false >> "$t/$cond.txt"
  done
  signal CONT
done
{
echo "# bash scripts/figures/beside.sh, $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD): 16 pairs of bench processes at 30 ms on CPU $last, a callgrind count on CPU 0 running (beside) or stopped (alone)"
python3 - "$t/beside.txt" "$t/alone.txt" <<'PY'
import re, sys, statistics as st
def load(f):
    d = {}
    for l in open(f):
        m = re.match(r'Benchmark(\S+)\s+\d+\s+([\d.]+) ns/op', l)
        if m: d.setdefault(m.group(1), []).append(float(m.group(2)))
    return d
b, a = load(sys.argv[1]), load(sys.argv[2])
def mad(v):
    m = st.median(v); return 100 * st.median([abs(x - m) for x in v]) / m
for k in sorted(b):
    r = [x / y for x, y in zip(b[k], a[k])]
    print(f"{k}: beside/alone, median of paired ratios {st.median(r):.3f}; mad/median beside {mad(b[k]):.2f}%, alone {mad(a[k]):.2f}%")
PY
} | tee "$out"
