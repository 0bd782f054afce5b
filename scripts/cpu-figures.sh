#!/usr/bin/env bash
# Figures for exact CPU cost (issue 8): instructions/op counted under
# Valgrind's callgrind. Run on an otherwise idle machine (counts do not care,
# the wall times and ns/op do). Results go to docs/results/cpu-*.
#   telemetry: instr/op (and estimated cycles) next to ns/op for
#              telemetry.v1.TelemetryEvent in json, protobuf, avro, msgpack, cbor
#   aa:        10 counts of this repo's 3 messages × json, protobuf, avro:
#              spread of every metric (A/A), and 5 with --cycles
#   change:    one int32 field added to TelemetryEvent, counted 10 times
#              against the A/A counts: the delta of every metric
#   wall:      the counting stage's wall time, base and head (warm)
# Usage: scripts/cpu-figures.sh [telemetry|aa|change|wall]...   (default: all; change needs aa)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
res=$root/docs/results
mkdir -p "$res/cpu-aa" "$res/cpu-change"
export PATH="$root/node_modules/.bin:$PATH"
go build -o /tmp/wiregate-cpu-figures ./harness/cmd/wiregate
wg() { /tmp/wiregate-cpu-figures "$@"; }
which=("$@"); [ ${#which[@]} -eq 0 ] && which=(telemetry aa change wall)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# The change head: one int32 field in TelemetryEvent (and its Avro twin).
cp -r schemas buf.yaml "$work/"
sed -i 's/  string region = 12;/  string region = 12;\n  int32 rssi = 13;/' "$work/schemas/telemetry/v1/telemetry_event.proto"
sed -i 's/    {"name": "region", "type": "string"}/    {"name": "region", "type": "string"},\n    {"name": "rssi", "type": "int"}/' "$work/schemas/telemetry/v1/telemetry_event.avsc"

for w in "${which[@]}"; do case $w in
telemetry)
  tel=(--buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent --formats json,protobuf,avro,msgpack,cbor)
  wg instructions "${tel[@]}" --cycles -o "$res/cpu-telemetry-instr.txt"
  wg bench "${tel[@]}" --count 10 --benchtime 1s -o "$res/cpu-telemetry-bench.txt"
  python3 - "$res/cpu-telemetry-instr.txt" "$res/cpu-telemetry-bench.txt" > "$res/cpu-telemetry.txt" <<'PY'
import re, statistics, sys
def read(path, unit):
    vals = {}
    for line in open(path):
        m = re.match(r'Benchmark(\w+)/[\w.]+/(\w+)(?:-\d+)?\s+\d+\s+(.*)', line)
        if m:
            f = m.group(3).split()
            for v, u in zip(f[0::2], f[1::2]):
                if u == unit:
                    vals.setdefault((m.group(1), m.group(2)), []).append(float(v))
    return {k: statistics.median(v) for k, v in vals.items()}
instr, cyc, ns = read(sys.argv[1], 'instr/op'), read(sys.argv[1], 'est-cycles/op'), read(sys.argv[2], 'ns/op')
print('telemetry.v1.TelemetryEvent: instr/op and est-cycles/op counted under callgrind (1024 ops), ns/op median of 10')
for op in ('Encode', 'Decode'):
    print(f'\n{op.lower():8s} {"format":9s} {"instr/op":>10s} {"est-cyc/op":>11s} {"ns/op":>8s} {"ns/kinstr":>9s}')
    for f in ('json', 'protobuf', 'avro', 'msgpack', 'cbor'):
        k = (op, f)
        print(f'{"":8s} {f:9s} {instr[k]:10.1f} {cyc[k]:11.1f} {ns[k]:8.1f} {1000*ns[k]/instr[k]:9.1f}')
    for other in ('protobuf', 'avro'):
        print(f'  json/{other}: instructions {instr[(op, "json")] / instr[(op, other)]:.2f}x, '
              f'time {ns[(op, "json")] / ns[(op, other)]:.2f}x')
PY
  ;;
aa)
  rm -f "$res"/cpu-aa/*.json
  for i in $(seq -w 1 10); do
    s=$(date +%s.%N); wg instructions --buf-input . --harness-dir harness --json > "$res/cpu-aa/run-$i.json"; e=$(date +%s.%N)
    echo "run $i $(python3 -c "print('%.1f' % ($e - $s))") s"
  done > "$res/cpu-aa/wall.txt"
  for i in 1 2 3 4 5; do wg instructions --buf-input . --harness-dir harness --json --cycles > "$res/cpu-aa/cycles-$i.json"; done
  python3 - "$res/cpu-aa" > "$res/cpu-aa.txt" <<'PY'
import glob, json, sys
def spread(pattern, key):
    vals = {}
    for p in sorted(glob.glob(pattern)):
        for r in json.load(open(p))['results']:
            if key in r:
                vals.setdefault(r['name'], []).append(r[key] / r['ops'])
    return vals
d = sys.argv[1]
for title, pattern, key in (('instr/op, 10 counts', 'run-*.json', 'instructions'),
                            ('instr/op, 5 counts with --cycles', 'cycles-*.json', 'instructions'),
                            ('est-cycles/op, 5 counts with --cycles', 'cycles-*.json', 'estimated_cycles')):
    vals = spread(f'{d}/{pattern}', key)
    print(f'\n{title}: min, max |Δ| between any two counts (absolute and % of min)')
    worst = {}
    for name, v in vals.items():
        lo, hi = min(v), max(v)
        pct = 100 * (hi - lo) / lo
        fmt = name.rsplit('/', 1)[1]
        kind = 'json' if fmt == 'json' else 'protobuf+avro'
        worst[kind] = max(worst.get(kind, 0), pct)
        print(f'  {name:55s} {lo:10.1f} {hi - lo:8.1f} {pct:7.3f}%')
    print('  worst: ' + ', '.join(f'{k} {v:.3f}%' for k, v in sorted(worst.items())))
PY
  ;;
change)
  rm -f "$res"/cpu-change/*.json
  for i in $(seq -w 1 10); do
    wg instructions --buf-input "$work" --harness-dir harness --messages telemetry.v1.TelemetryEvent --json > "$res/cpu-change/run-$i.json"
  done
  python3 - "$res/cpu-aa" "$res/cpu-change" > "$res/cpu-change.txt" <<'PY'
import glob, json, sys
def runs(d):
    out = []
    for p in sorted(glob.glob(f'{d}/run-*.json')):
        out.append({r['name']: r['instructions'] / r['ops'] for r in json.load(open(p))['results'] if 'TelemetryEvent' in r['name']})
    return out
base, head = runs(sys.argv[1]), runs(sys.argv[2])
print('one int32 field (rssi = 13) added to telemetry.v1.TelemetryEvent: head count i vs A/A count i, 10 pairs')
print(f'  {"metric":55s} {"base":>9s} {"head":>9s} {"min Δ":>8s} {"max Δ":>8s}  > 2% in')
for name in sorted(base[0]):
    d = [100 * (h[name] - b[name]) / b[name] for b, h in zip(base, head)]
    print(f'  {name:55s} {base[0][name]:9.1f} {head[0][name]:9.1f} {min(d):+7.2f}% {max(d):+7.2f}%  {sum(x > 2 for x in d)}/{len(d)}')
PY
  ;;
wall)
  wg prepare --buf-input . --harness-dir harness > /dev/null
  wg prepare --buf-input "$work" --harness-dir harness > /dev/null
  { for side in base head; do
      dir=.; [ $side = head ] && dir=$work
      s=$(date +%s.%N); wg instructions --buf-input "$dir" --harness-dir harness --json > "$work/$side.json"; e=$(date +%s.%N)
      python3 -c "import json; c=json.load(open('$work/$side.json')); print('$side: %.1f s wall (prepare reused), counting %.1f s, %d loops' % ($e - $s, c['seconds'], len(c['results'])))"
    done
    s=$(date +%s.%N)
    wg instructions --buf-input . --harness-dir harness > /dev/null & wg instructions --buf-input "$work" --harness-dir harness > /dev/null; wait
    e=$(date +%s.%N)
    python3 -c "print('base and head at once: %.1f s wall' % ($e - $s))"
    s=$(date +%s.%N); wg instructions --buf-input . --harness-dir harness --cycles > /dev/null; e=$(date +%s.%N)
    python3 -c "print('base with --cycles: %.1f s wall' % ($e - $s))"
    echo "machine: $(nproc) CPUs, $(valgrind --version)"
  } > "$res/cpu-wall.txt"
  ;;
*) echo "unknown figure set $w" >&2; exit 2;;
esac; echo "cpu figures: $w done"; done
