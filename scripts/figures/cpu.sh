#!/usr/bin/env bash
# Figures for exact CPU cost: instructions/op counted under
# Valgrind's callgrind. Run on an otherwise idle machine (counts do not care,
# the wall times and ns/op do). Results go to docs/results/cpu-*.
#   telemetry: instr/op (and estimated cycles) next to ns/op for
#              telemetry.v1.TelemetryEvent in json, protobuf, avro, msgpack, cbor
#   aa:        10 counts of this repo's 3 messages × json, protobuf, avro:
#              spread of every metric (A/A), and 5 with --cycles
#   change:    one int32 field added to TelemetryEvent, counted 10 times
#              against the A/A counts: the delta of every metric
#   wall:      the counting stage's wall time, base and head (warm)
#   aa-extra:  6 counts of the opt-in formats (protojson, vtprotobuf, msgpack,
#              cbor): their A/A spread (the noise floor's keyed formats)
#   gate-aa:   10 A/A gates (count 2, no pipeline): every instr/op of both
#              sides of every gate, spread, and the cpu violations (none)
#   gate-change: 10 gates with the int32 field in head: cpu violations a gate
#   cycles:    one side's count with and without --cycles (cache simulation),
#              alternating, 3 each: what estimated cycles would cost the gate
#   gate-wall: the warm gate with the defaults (no pipeline) with cpu-cost off
#              and auto, alternating, 3 each: the cpu stage and the whole gate
# Usage: scripts/figures/cpu.sh [telemetry|aa|change|wall|aa-extra|gate-aa|gate-change|gate-wall|cycles]...
#        (default: the first three; change needs aa)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
res=$root/docs/results
mkdir -p "$res/cpu-aa" "$res/cpu-change"
export PATH="$root/node_modules/.bin:$PATH"
go build -o /tmp/wiregate-cpu-figures ./harness/cmd/wiregate
wg() { /tmp/wiregate-cpu-figures "$@"; }
which=("$@"); [ ${#which[@]} -eq 0 ] && which=(telemetry aa change)
# A base checkout identical to this repo's schemas, for the gate figures.
aabase=$(mktemp -d); aahead=$(mktemp -d); trap 'rm -rf "$work" "$aabase" "$aahead"' EXIT
cp -r schemas buf.yaml "$aabase/"; cp -r schemas buf.yaml "$aahead/"
# spreads DIR 'title|glob|key'...: for each section, the counts (wiregate
# instructions --json files matching glob in DIR) of every benchmark: the
# lowest, and the largest difference between two, absolute and in % of it.
spreads() {
  python3 - "$@" <<'PY'
import glob, json, sys
d = sys.argv[1]
for section in sys.argv[2:]:
    title, pattern, key = section.split('|')
    vals = {}
    for p in sorted(glob.glob(f'{d}/{pattern}')):
        for r in json.load(open(p))['results']:
            if key in r:
                vals.setdefault(r['name'], []).append(r[key] / r['ops'])
    print(f'\n{title}: min, max |Δ| between any two counts (absolute and % of min)')
    worst = {}
    for name, v in vals.items():
        lo, hi = min(v), max(v)
        pct = 100 * (hi - lo) / lo
        fmt = name.rsplit('/', 1)[1]
        worst[fmt] = max(worst.get(fmt, (0, 0)), (pct, hi - lo))
        print(f'  {name:55s} {lo:10.1f} {hi - lo:8.1f} {pct:7.3f}%')
    print('  worst: ' + ', '.join(f'{k} {p:.3f}% ({a:.1f})' for k, (p, a) in sorted(worst.items())))
PY
}
# gates N OUT HEAD [flags...]: N gates of HEAD against the identical base, reports in OUT/gate-i.
gates() {
  local n=$1 out=$2 head=$3; shift 3
  rm -rf "$out"; mkdir -p "$out"
  for i in $(seq -w 1 "$n"); do
    (cd "$head" && GITHUB_ACTIONS= wg gate --harness-dir "$root/harness" --base-dir "$aabase" --out "$out/gate-$i" --quiet \
       --history false --pipeline false --measure all "$@") || true
    slim "$out/gate-$i"
  done
}
# slim keeps a gate's report.json without benchstat's table (it is in the
# report's metrics) and drops the benchfmt files: the figures read report.json.
slim() {
  rm -f "$1/base.txt" "$1/head.txt" "$1/benchstat.txt"
  python3 -c "import json,sys; p=sys.argv[1]; r=json.load(open(p)); r.pop('benchstat', None); json.dump(r, open(p, 'w'), indent=1)" "$1/report.json"
}
work=$(mktemp -d)

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
  spreads "$res/cpu-aa" 'instr/op, 10 counts|run-*.json|instructions' \
    'instr/op, 5 counts with --cycles|cycles-*.json|instructions' \
    'est-cycles/op, 5 counts with --cycles|cycles-*.json|estimated_cycles' > "$res/cpu-aa.txt"
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
aa-extra)
  mkdir -p "$res/cpu-aa-extra"; rm -f "$res"/cpu-aa-extra/*.json
  for i in $(seq -w 1 6); do
    wg instructions --buf-input . --harness-dir harness --formats protojson,vtprotobuf,msgpack,cbor --json > "$res/cpu-aa-extra/run-$i.json"
  done
  spreads "$res/cpu-aa-extra" 'instr/op, 6 counts of the opt-in formats|run-*.json|instructions' > "$res/cpu-aa-extra.txt"
  ;;
gate-aa|gate-change)
  head=$aahead; [ $w = gate-change ] && head=$work
  # SUMMARY_ONLY=1 rereads the stored reports instead of running the gates.
  [ -n "${SUMMARY_ONLY:-}" ] || gates 10 "$res/cpu-$w" "$head" --count 2 --benchtime 5ms
  python3 - "$res/cpu-$w" > "$res/cpu-$w.txt" <<'PY'
import glob, json, sys
reports = [json.load(open(p)) for p in sorted(glob.glob(f'{sys.argv[1]}/gate-*/report.json'))]
counts, deltas, floors = {}, {}, {}
for r in reports:
    for m in r['messages']:
        for f in m['formats']:
            for x in f['metrics']:
                if x['unit'] != 'instr/op':
                    continue
                k = f"{m['name']}/{f['format']}/{x['name']}"
                counts.setdefault(k, []).extend([x['base']['center'], x['head']['center']])
                deltas.setdefault(k, []).append(x['delta_pct'])
                floors[k] = x['noise_floor_pct']
print(f'{len(reports)} gates: result and cpu violations of each')
for i, r in enumerate(reports, 1):
    cpu = sorted(v['subject'] for v in r['violations'] if v['kind'] == 'cpu')
    other = sorted(f"{v['kind']} {v['subject']}" for v in r['violations'] if v['kind'] != 'cpu')
    stage = next((s for s in r['stages'] if s['name'] == 'cpu'), {})
    print(f"  gate {i:2d}: {r['result']}, {len(cpu)} cpu violations, cpu stage {stage.get('seconds', 0):.1f} s; others: {', '.join(other) or 'none'}")
print('\ninstr/op: base vs head in each gate (min, max Δ); all counts of both sides of all gates (lowest, and the spread');
print('between any two, in instr/op and % of the lowest); the noise floor the gate applied; gates with a cpu violation')
print(f'  {"metric":55s} {"min Δ":>8s} {"max Δ":>8s} {"lowest":>9s} {"spread":>7s} {"spread":>8s} {"floor":>7s} {"caught":>6s}')
for k in sorted(counts):
    v = counts[k]
    spread = 100 * (max(v) - min(v)) / min(v)
    caught = sum(1 for r in reports for x in r['violations'] if x['kind'] == 'cpu' and x['subject'] == k + '/instr')
    print(f'  {k:55s} {min(deltas[k]):+7.3f}% {max(deltas[k]):+7.3f}% {min(v):9.1f} {max(v) - min(v):7.1f} {spread:7.3f}% {floors[k]:6.2f}% {caught:3d}/{len(reports)}')
PY
  ;;
cycles)
  wg prepare --buf-input . --harness-dir harness > /dev/null
  { for i in 1 2 3; do for flag in "" --cycles; do
      wg instructions --buf-input . --harness-dir harness --json $flag > "$work/c.json"
      python3 -c "import json; c=json.load(open('$work/c.json')); print('${flag:-instructions only}'.ljust(18), '%.1f s' % c['seconds'])"
    done; done
    echo "machine: $(nproc) CPUs shared with other jobs, $(valgrind --version); 1-minute load average after: $(cut -d' ' -f1 /proc/loadavg)"
  } > "$res/cpu-cycles.txt"
  ;;
gate-wall)
  rm -rf "$res/cpu-gate-wall"; mkdir -p "$res/cpu-gate-wall"
  (cd "$aahead" && GITHUB_ACTIONS= wg gate --harness-dir "$root/harness" --base-dir "$aabase" --out "$work/warmup" --quiet --history false --pipeline false --measure all) || true
  for i in 1 2 3; do for mode in off auto; do
    s=$(date +%s.%N)
    (cd "$aahead" && GITHUB_ACTIONS= wg gate --harness-dir "$root/harness" --base-dir "$aabase" --out "$res/cpu-gate-wall/$mode-$i" --quiet \
       --history false --pipeline false --measure all --cpu-cost $mode) || true
    e=$(date +%s.%N)
    slim "$res/cpu-gate-wall/$mode-$i"
    echo "$mode $i $(python3 -c "print('%.1f' % ($e - $s))")"
  done; done > "$res/cpu-gate-wall/wall.txt"
  python3 - "$res/cpu-gate-wall" > "$res/cpu-gate-wall.txt" <<'PY'
import json, sys
d = sys.argv[1]
print('warm gate of this repo (3 messages × json, protobuf, avro), defaults, --pipeline false, base = head; cpu-cost off vs auto, alternating')
print(f'  {"run":10s} {"wall":>7s} {"cpu stage":>10s} {"bench":>7s}  cpu note')
for line in open(f'{d}/wall.txt'):
    mode, i, wall = line.split()
    r = json.load(open(f'{d}/{mode}-{i}/report.json'))
    st = {s['name']: s for s in r['stages']}
    print(f"  {mode + ' ' + i:10s} {float(wall):6.1f}s {st['cpu']['seconds']:9.1f}s {st['bench']['seconds']:6.1f}s  {st['cpu'].get('note', '')}")
print(f'machine: 2 CPUs shared with other jobs; 1-minute load average after the runs {open("/proc/loadavg").read().split()[0]}')
PY
  ;;
*) echo "unknown figure set $w" >&2; exit 2;;
esac
# The summary's first line names the set, the date and the revision, as a
# line its readers skip ('#': floor_test.go reads cpu-aa.txt and others).
f=$res/cpu-$w.txt
{ echo "# bash scripts/figures/cpu.sh $w, $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD)"; cat "$f"; } > "$f.stamped" && mv "$f.stamped" "$f"
echo "cpu figures: $w done"; done
