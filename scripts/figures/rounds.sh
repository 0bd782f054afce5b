#!/usr/bin/env bash
# Rounds without calibration: what a bench round costs with testing's calibration and with
# the warm-up's speeds (--iterations-file, as the gate's timed rounds run). One
# bench program of the release-like module (its first 8 messages, every
# format), pinned to the last CPU as the gate pins it; a warm-up at 10 ms
# gives each benchmark's ns/op; then 6 pairs of rounds at 36 ms (the
# benchtime the release-like PR is cut to), calibrating and not, in
# alternating order: each round's wall and timed time, and each
# benchmark's median ns/op and spread under both. Run on an otherwise idle
# machine.
#   scripts/figures/rounds.sh [OUT]   (default docs/results/round-calibration.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:-$root/docs/results/round-calibration.txt}
export PATH="$root/node_modules/.bin:$PATH"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
(cd harness && go build -o "$t/wg" ./cmd/wiregate)
python3 scripts/gen-messages.py 56 "$t/mod" --big-share 0.2 >/dev/null
"$t/wg" prepare --harness-dir harness --buf-input "$t/mod" --cache-dir "$t/cache" >/dev/null 2>&1
prog=$(find "$t/cache/bench" -name wiregate-bench -type f | head -1)
msgs=$(python3 -c "print(','.join(f'gen.v1.Message{i:02d}' for i in range(1, 9)))")
last=$(( $(nproc) - 1 ))
mkdir "$t/saved" && "$prog" sizes --messages "$msgs" --save "$t/saved" >/dev/null
round() { taskset -c "$last" "$prog" bench --messages "$msgs" --saved "$t/saved" --allocs=false --header=false "$@"; }
round --benchtime 10ms > "$t/warm.txt"
# bench.Iterations: the operations that last 36 ms at the warm-up's speed, rounded up
awk '{n = 36e6 / $3; printf "%s=%d\n", $1, (n == int(n) ? n : int(n) + 1)}' "$t/warm.txt" > "$t/runs.txt"
for i in $(seq 1 6); do
  order="calibrated iterations"; [ $((i % 2)) -eq 0 ] && order="iterations calibrated"
  for mode in $order; do
    extra=(); [ "$mode" = iterations ] && extra=(--iterations-file "$t/runs.txt")
    start=$(date +%s%N)
    round --benchtime 36ms "${extra[@]}" > "$t/round.txt"
    end=$(date +%s%N)
    echo "$mode $(( (end - start) / 1000000 ))" >> "$t/walls.txt"
    cat "$t/round.txt" >> "$t/$mode.txt"
  done
done
{
echo "# bash scripts/figures/rounds.sh, $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD): 6 pairs of bench rounds at 36 ms, 8 messages x 3 formats x 2 ops on CPU $last, calibrating (testing's own N) or at the warm-up's speed (--iterations-file)"
python3 - "$t/walls.txt" "$t/calibrated.txt" "$t/iterations.txt" <<'PY'
import sys, statistics as st
walls = {}
for l in open(sys.argv[1]):
    m, ms = l.split(); walls.setdefault(m, []).append(int(ms))
def load(f):
    d, timed = {}, []
    rows = [l.split() for l in open(f) if l.startswith('Benchmark')]
    per = len({r[0] for r in rows})
    for i, r in enumerate(rows):
        d.setdefault(r[0], []).append(float(r[2]))
        if i % per == 0: timed.append(0.0)
        timed[-1] += int(r[1]) * float(r[2]) / 1e6
    return d, timed
cal, cal_t = load(sys.argv[2]); it, it_t = load(sys.argv[3])
for m, t in (("calibrated", cal_t), ("iterations", it_t)):
    print(f"{m}: round wall median {st.median(walls[m])} ms (range {min(walls[m])}-{max(walls[m])}), timed median {st.median(t):.0f} ms")
def mad(v):
    m = st.median(v); return 100 * st.median([abs(x - m) for x in v]) / m
ratios = []
for k in sorted(cal):
    r = st.median(it[k]) / st.median(cal[k]); ratios.append(r)
    print(f"{k}: ns/op median calibrated {st.median(cal[k]):.0f}, iterations {st.median(it[k]):.0f} ({r:.3f}); mad/median {mad(cal[k]):.2f}% / {mad(it[k]):.2f}%")
print(f"median ratio iterations/calibrated {st.median(ratios):.3f} over {len(ratios)} benchmarks; median spread {st.median(mad(v) for v in cal.values()):.2f}% / {st.median(mad(v) for v in it.values()):.2f}%")
PY
} | tee "$out"
