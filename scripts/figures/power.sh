#!/usr/bin/env bash
# Timing to power: the bench stage before and after timing each changed message to
# the power its verdict needs. This repo's schemas with one field added to
# TelemetryEvent (3 formats: a family of 6 timings), gated by BEFORE_REV's
# wiregate and by this tree's, alternately, RUNS times each; counting and
# the pipeline off so the bench stage is what differs. The seconds are
# this machine's; run it on an otherwise idle machine.
#   scripts/figures/power.sh BEFORE_REV [RUNS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
before=${1:?usage: power.sh BEFORE_REV [RUNS] [OUT]}
runs=${2:-2}
out=${3:-$root/docs/results/power.txt}
export PATH="$root/node_modules/.bin:$PATH"
# shellcheck source=scripts/figures/lib.sh
. scripts/figures/lib.sh
before_after "$before"
for d in base head; do mkdir -p "$work/$d"; cp -r schemas buf.yaml "$work/$d/"; done
sed -i 's/string region = 12;/string region = 12;\n  string zone = 13;/' "$work/head/schemas/telemetry/v1/telemetry_event.proto"
{
  echo "# bash scripts/figures/power.sh $before $runs: bench stage, this repo + one string field in telemetry.v1.TelemetryEvent, count 10, benchtime 100ms, $(date -u +%F), $(nproc) CPUs"
  echo "# before: $before   after: $(git rev-parse --short HEAD)"
  printf '%-6s %3s %8s %8s %10s %8s  %s\n' side run bench_s rounds max_mde% unable note
  for i in $(seq "$runs"); do
    for side in before after; do
      harness=$root/harness; [ $side = before ] && harness=$work/before/harness
      rm -rf "$work/out"
      "$work/wg-$side" gate --base-dir "$work/base" --working-directory "$work/head" --harness-dir "$harness" --cache-dir "$work/cache-$side" \
        --messages telemetry.v1.TelemetryEvent --pipeline=false --cpu-cost off --out "$work/out" --quiet >/dev/null 2>&1 || true
      python3 - "$work/out/report.json" "$side" "$i" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bench = next(s for s in r["stages"] if s["name"] == "bench")
ns, mdes = set(), []
for m in r["messages"]:
    for f in m["formats"]:
        for x in f["metrics"]:
            if x["unit"] == "sec/op":
                ns.add(x["base"]["n"])
                mdes.append(x.get("mde_pct") or float("inf"))
print(f'{sys.argv[2]:6s} {sys.argv[3]:>3s} {bench["seconds"]:8.1f} {",".join(map(str, sorted(ns))):>8s} {max(mdes):10.1f} {len(r.get("unable_to_fail") or []):8d}  {bench.get("note", "")}')
PY
    done
  done
} | tee "$out"
