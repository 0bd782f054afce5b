#!/usr/bin/env bash
# Scale figures: `wiregate gate` with the defaults on generated
# modules (scripts/gen-messages.py), wall time and the peak RSS of every
# process (scripts/figures/peakrss.py; the largest single process is what a runner
# must hold).
#   scripts/figures/scale.sh OUT [thousand|fiftyseven|thirteenhundred]...
# thousand:        1,000 messages in 40 files of 10 packages, 5% big (records
#                  near the 8 KiB cap), one leaf message changed
# fiftyseven:      57 messages, 10% big, every message changed (the enum all
#                  of them use gains a value), default 10-minute budget
# thirteenhundred: 1,300 messages in 52 files of 13 packages, 5% big, nothing
#                  changed, measure: all
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:?usage: scale.sh OUT [SET]...}
shift
which=("$@"); [ ${#which[@]} -eq 0 ] && which=(thousand fiftyseven thirteenhundred)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
go build -o "$t/wiregate" ./harness/cmd/wiregate
now() { date +%s.%N; }
gate() { # gate LABEL BASE HEAD [FLAG...]
  local label=$1 base=$2 head=$3; shift 3
  rm -rf "$t/out"
  local s e
  s=$(now)
  python3 scripts/figures/peakrss.py "$t/wiregate" gate --harness-dir harness --base-dir "$base" --working-directory "$head" --out "$t/out" --quiet "$@" \
    > "$t/log" 2>&1 || true
  e=$(now)
  python3 - "$t/out/report.json" "$label" "$(echo "$e - $s" | bc)" "$t/log" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
peaks = [(m.group(1), int(m.group(2))) for m in re.finditer(r"PEAK_RSS role=(\S+(?: \S+)?) MiB=(\d+)", open(sys.argv[4]).read())]
print(f"## {sys.argv[2]}: wall {float(sys.argv[3]):.1f} s (budget {r['plan']['budget_seconds']:.0f} s), result {r['result']}, peak RSS of one process {max([p for _, p in peaks] or [0])} MiB ({', '.join(f'{k} {v}' for k, v in peaks)})")
c = r.get("change") or {}
print(f"  change: {len(c.get('changed', []))} changed, {len(c.get('new', []))} new, {len(c.get('unchanged', []))} unchanged; measured {len(r['messages'])} messages")
for k, p in (r.get("plan") or {}).items():
    if isinstance(p, dict) and p.get("note"):
        print(f"  plan.{k}: {p['note']}")
for s in r["stages"]:
    print(f"  {s['name']:<26} {s['seconds']:7.1f} s  {s.get('note', '')[:160]}")
for e in r.get("errors") or []:
    print(f"  error: {e}")
PY
}
{
echo "# bash scripts/figures/scale.sh OUT ${which[*]}, $(date -u +%F), $(nproc) CPUs, $(go version | cut -d' ' -f3); wiregate gate with the defaults (pipeline on, embedded broker, cpu-cost auto)"
for w in "${which[@]}"; do case $w in
thousand)
  python3 scripts/gen-messages.py 1000 "$t/m1000" --files 40 --packages 10 --big-share 0.05 --head "$t/m1000-head" > "$t/changed"
  gate "1,000 messages, one leaf changed ($(cat "$t/changed"))" "$t/m1000" "$t/m1000-head" ;;
fiftyseven)
  python3 scripts/gen-messages.py 57 "$t/m57" --big-share 0.1 >/dev/null
  cp -r "$t/m57" "$t/m57-head"; sed -i 's/  KIND_C = 3;/  KIND_C = 3;\n  KIND_D = 4;/' "$t/m57-head/gen/v1/gen.proto"
  gate "57 messages, every one changed (KIND_D added to the enum all use)" "$t/m57" "$t/m57-head" ;;
thirteenhundred)
  python3 scripts/gen-messages.py 1300 "$t/m1300" --files 52 --packages 13 --big-share 0.05 >/dev/null
  gate "1,300 messages, nothing changed, measure: all" "$t/m1300" "$t/m1300" --measure all ;;
*) echo "unknown set $w" >&2; exit 2 ;;
esac; done
} | tee "$out"
