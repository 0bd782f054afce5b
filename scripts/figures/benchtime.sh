#!/usr/bin/env bash
# Benchtime: what a timing's benchtime buys. One bench program (the
# release-like module's), two messages (small gen.v1.Message10, large
# gen.v1.Message38) in json and protobuf, 12 processes at each benchtime,
# the benchtimes interleaved (one process of each in turn, so drift hits
# them alike), allocations not counted (as the gate's rounds): the spread
# of ns/op between processes. Run on an otherwise idle machine.
#   scripts/figures/benchtime.sh [OUT]   (default docs/results/benchtime.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:-$root/docs/results/benchtime.txt}
export PATH="$root/node_modules/.bin:$PATH"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
(cd harness && go build -o "$t/wg" ./cmd/wiregate)
python3 scripts/gen-messages.py 56 "$t/mod" --big-share 0.2 >/dev/null
"$t/wg" prepare --harness-dir harness --buf-input "$t/mod" --cache-dir "$t/cache" >/dev/null 2>&1
prog=$(find "$t/cache/bench" -name wiregate-bench -type f | head -1)
msgs=gen.v1.Message10,gen.v1.Message38
mkdir "$t/saved" && "$prog" sizes --messages "$msgs" --save "$t/saved" >/dev/null
{
echo "# bash scripts/figures/benchtime.sh, $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD): 12 processes a benchtime, one round each, benchtimes interleaved, --allocs=false"
bts="10ms 30ms 100ms"
for i in $(seq 1 12); do
  for bt in $bts; do
    "$prog" bench --messages "$msgs" --formats json,protobuf --saved "$t/saved" --benchtime "$bt" --allocs=false --header=false >> "$t/bt-$bt.txt"
  done
done
for bt in $bts; do
  python3 - "$t/bt-$bt.txt" "$bt" <<'PY'
import re, sys, statistics as st
d = {}
for l in open(sys.argv[1]):
    m = re.match(r'Benchmark(\S+)\s+\d+\s+([\d.]+) ns/op', l)
    if m: d.setdefault(m.group(1), []).append(float(m.group(2)))
mads = []
for k, v in sorted(d.items()):
    med = st.median(v); mad = 100 * st.median([abs(x - med) for x in v]) / med; mads.append(mad)
    print(f"{sys.argv[2]:>5} {k}: median {med:.0f} ns/op, cv {100*st.pstdev(v)/st.mean(v):.2f}%, mad/median {mad:.2f}%")
print(f"{sys.argv[2]:>5} median of the mad/median: {st.median(mads):.2f}%")
PY
done
} | tee "$out"
