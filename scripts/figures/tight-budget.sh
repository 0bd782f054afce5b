#!/usr/bin/env bash
# A change of every message on a tight budget, several times: a generated
# 57-message module (56 messages nesting one shared Metadata, which head
# changes) through `wiregate gate --time-budget 3m` on the embedded broker,
# defaults otherwise. Each run must write a report.json that validates and
# exit 0 or 1; where a budget cut lands differs from run to run, so run it
# several times (a figure that is not a number once lost 1 run in 3).
#   scripts/figures/tight-budget.sh [RUNS] [OUT]   (default 3, docs/results/tight-budget-nan.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${1:-3}
out=${2:-$root/docs/results/tight-budget-nan.txt}
export PATH="$root/node_modules/.bin:$PATH"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 scripts/gen-messages.py 56 "$work/base" --shared-metadata --head "$work/head" --changed Metadata >/dev/null
(cd harness && go build -o "$work/wg" ./cmd/wiregate)
{
  echo "# bash scripts/figures/tight-budget.sh $runs: tight budget, 57 messages, every one changed through a shared Metadata, --time-budget 3m, embedded broker; $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD)"
  for i in $(seq 1 "$runs"); do
    code=0
    "$work/wg" gate --harness-dir harness --base-dir "$work/base" --working-directory "$work/head" --cache-dir "$work/cache" \
      --out "$work/out$i" --time-budget 3m --broker embedded --quiet >/dev/null 2>"$work/err$i" || code=$?
    python3 - "$work/out$i/report.json" "$i" "$code" "$work/err$i" <<'PY'
import json, os, sys
path, i, code, err = sys.argv[1:5]
if not os.path.exists(path):
    print(f"run {i}: exit {code}, no report.json: {open(err).read().strip()[:300]}")
    sys.exit()
r = json.load(open(path))
cut = (r.get("coverage") or {}).get("cut") or {}
print(f"run {i}: exit {code} ({r['result']}: {r['exit_reason']}); {r.get('seconds', 0):.0f} s; cut {dict((k, len(v)) for k, v in cut.items())}")
PY
  done
} | tee "$out"
