#!/usr/bin/env bash
# The change-centric gate on this repo's schemas: the whole gate's wall time,
# cold (empty Go build cache and wiregate cache; the module cache warm) and
# warm, when no schema changed, when one message of three changed (an int32
# field added to telemetry.v1.TelemetryEvent), and measuring every message
# (measure: all; a revision without that input measures every message
# anyway) — for each git revision given, alternating, so a before and an
# after see the same machine.
#   scripts/figures/change.sh OUT REV...     e.g. scripts/figures/change.sh docs/results/change-speed.txt 8e9b858 HEAD
# Defaults otherwise: pipeline on (embedded broker here), cpu-cost auto,
# count 10. Run on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:?usage: change.sh OUT REV...}
shift
[ $# -gt 0 ] || { echo "name at least one revision" >&2; exit 2; }
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
now() { date +%s.%N; }

for rev in "$@"; do
  d="$work/$rev"
  git worktree add -q --detach "$d" "$rev"
  ln -s "$root/node_modules" "$d/node_modules"
done
{
echo "# bash scripts/figures/change.sh OUT $*, $(date -u +%F), $(nproc) CPUs, $(go version | cut -d' ' -f3); wiregate gate on this repo's schemas, base = HEAD, defaults"
for scenario in none one all; do
  for temp in cold warm; do
    for rev in "$@"; do
      d="$work/$rev"
      git -C "$d" checkout -q -- schemas
      flags=()
      case $scenario in
        one)
          sed -i 's/string region = 12;/string region = 12;\n  int32 rssi = 13;/' "$d/schemas/telemetry/v1/telemetry_event.proto"
          sed -i 's/{"name": "region", "type": "string"}/{"name": "region", "type": "string"}, {"name": "rssi", "type": "int", "default": 0}/' "$d/schemas/telemetry/v1/telemetry_event.avsc" ;;
        all) grep -qs '"measure"' "$d/harness/inputs/table.go" "$d/harness/parent/inputs/table.go" && flags=(--measure all) ;;
      esac
      export GOCACHE="$work/cache-$rev/go-build" WIREGATE_CACHE="$work/cache-$rev/programs"
      if [ "$temp" = cold ]; then chmod -R u+w "$work/cache-$rev" 2>/dev/null || true; rm -rf "$work/cache-$rev"; fi
      s=$(now)
      (cd "$d" && go build -o "$work/wiregate-$rev" ./harness/cmd/wiregate \
        && "$work/wiregate-$rev" gate --base-ref HEAD --harness-dir harness --out "$work/out" --quiet "${flags[@]}" >/dev/null 2>&1) || true
      e=$(now)
      python3 - "$work/out/report.json" "$rev" "$scenario" "$temp" "$(echo "$e - $s" | bc)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
st = {x["name"]: x["seconds"] for x in r["stages"]}
keep = ["prepare", "sizes", "correctness", "cpu", "bench", "pipeline"]
parts = ", ".join(f"{k} {st[k]:.1f}" for k in keep if k in st)
print(f"{sys.argv[2]:>10} {sys.argv[3]:>5} {sys.argv[4]:>5}: {float(sys.argv[5]):6.1f} s  result={r['result']}  peak_rss={r['env'].get('peak_rss_bytes', 0) / 2**20:.0f} MiB  [{parts}]")
PY
      git -C "$d" checkout -q -- schemas
    done
  done
done
} | tee "$out"
for rev in "$@"; do git worktree remove --force "$work/$rev"; done
