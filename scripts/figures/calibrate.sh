#!/usr/bin/env bash
# Calibration of the timing verdict's defaults on this machine: false alarms and power.
#   A/A:   gate this repo's schemas against an identical base RUNS times and
#          count false size/time/throughput violations.
#   power: a head whose telemetry decode is measurably slower (one double
#          turned into a string: `double pressure` → `string pressure`), RUNS
#          times: how often the time violation is raised, and the noise floor
#          the runs reported.
# Usage: scripts/figures/calibrate.sh [RUNS] [extra gate flags…]   (default 10 runs)
#        CALIBRATE_ONLY=aa|slow scripts/figures/calibrate.sh …         (one half only)
# Output: one line per run, then a summary; raw reports in .wiregate/calibrate/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${1:-10}; shift || true
out=$root/.wiregate/calibrate
rm -rf "$out"; mkdir -p "$out"
go build -o "$out/wiregate" ./harness/cmd/wiregate

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/base" "$work/aa" "$work/slow"
for d in base aa slow; do cp -r schemas buf.yaml "$work/$d/"; done
# Power head: pressure becomes a decimal string, both in the proto and the .avsc.
sed -i 's/double pressure = 5;/string pressure = 5;/' "$work/slow/schemas/telemetry/v1/telemetry_event.proto"
sed -i 's/{"name": "pressure", "type": "double"}/{"name": "pressure", "type": "string"}/' "$work/slow/schemas/telemetry/v1/telemetry_event.avsc"

# --measure all --unchanged-rounds 100 (= count, whatever count is): an A/A run is all
# unchanged messages, and its noise floors stand for what a changed message
# gets, which is every round (docs/verdicts.md#unchanged-schema).
gate() { # name head run
  "$out/wiregate" gate --harness-dir "$root/harness" --base-dir "$work/base" --working-directory "$work/$2" \
    --out "$out/$1-$3" --quiet --avro-compatibility NONE --measure all --unchanged-rounds 100 "${extra[@]}" >/dev/null 2>&1 || true
}
extra=("$@")
summarize() { # name
  python3 - "$out" "$1" <<'PY'
import glob, json, sys, statistics
out, name = sys.argv[1], sys.argv[2]
counts, floors, flagged, n = {}, {}, 0, 0
for path in sorted(glob.glob(f"{out}/{name}-*/report.json")):
    r = json.load(open(path)); n += 1
    kinds = [v["kind"] for v in r["violations"]]
    for k in kinds: counts[k] = counts.get(k, 0) + 1
    if any(v["kind"] == "time" and "telemetry.v1.TelemetryEvent" in v["subject"] and "decode" in v["subject"] for v in r["violations"]):
        flagged += 1
    for m in r["messages"]:
        for f in m["formats"]:
            for mt in f["metrics"]:
                if mt["unit"] == "sec/op" and mt.get("noise_floor_pct") is not None:
                    floors.setdefault(f'{m["name"]}/{f["format"]}/{mt["name"]}', []).append(mt["noise_floor_pct"])
    print(f"{name} run {n}: result={r['result']} violations={kinds} errors={r.get('errors', [])}")
print(f"== {name}: {n} runs; violations by kind: {counts}; telemetry decode time flagged in {flagged}/{n}")
for k in sorted(floors):
    if "TelemetryEvent" in k:
        print(f"   noise floor {k}: median {statistics.median(floors[k]):.1f}% (min {min(floors[k]):.1f}%, max {max(floors[k]):.1f}%)")
PY
}
if [ "${CALIBRATE_ONLY:-aa}" = aa ] || [ -z "${CALIBRATE_ONLY:-}" ]; then
  for i in $(seq 1 "$runs"); do gate aa aa "$i"; done
  summarize aa
fi
if [ "${CALIBRATE_ONLY:-slow}" = slow ] || [ -z "${CALIBRATE_ONLY:-}" ]; then
  for i in $(seq 1 "$runs"); do gate slow slow "$i"; done
  summarize slow
fi
