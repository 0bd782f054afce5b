#!/usr/bin/env bash
# Generated values' figures: compressed bytes per record of generated records,
# before and after the value rules, per codec (16 KiB batches, franz-go's
# compressors), for this repo's schemas/, a generated module
# (scripts/gen-messages.py) and the real-shaped corpus of
# scripts/figures/values/ (log records with repeating names, spans with
# random ids) beside the generated records of the same schema. Bytes are
# exact: any machine, any load, the same figures.
# Usage: scripts/figures/values.sh [BEFORE] [N]
#   BEFORE  the commit whose generator is "before" (default 67f597f, the
#           last one before the value rules)
#   N       messages of the generated module (default 100)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
before=${1:-67f597f}
n=${2:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

npx buf build schemas -o "$work/schemas.binpb"
npx buf build scripts/figures/values -o "$work/obs.binpb"
python3 scripts/gen-messages.py "$n" "$work/gen" > /dev/null
npx buf build "$work/gen" -o "$work/gen.binpb"

# The before side: the old harness with this checkout's figure program.
mkdir -p "$work/before"
git archive "$before" harness | tar -x -C "$work/before"
cp -r harness/internal/valuefigures "$work/before/harness/internal/"

figures() { # SIDE HARNESS
  (cd "$2" && go build -o "$work/vf-$1" ./internal/valuefigures)
  "$work/vf-$1" -label "$1" "$work/schemas.binpb"
  "$work/vf-$1" -label "$1" "$work/gen.binpb"
  "$work/vf-$1" -label "$1" -real "$work/obs.binpb"
}
{ figures before "$work/before/harness"; figures after "$root/harness"; } > "$work/lines.tsv"
python3 scripts/figures/values/table.py "$work/lines.tsv" "$before" "$n"
