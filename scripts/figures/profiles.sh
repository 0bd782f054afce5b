#!/usr/bin/env bash
# Function profiles: what the per-function profiles cost the cpu stage. (1) This
# repo's schemas: A/A gates (measure: all, no pipeline), the cpu stage's
# seconds with WIREGATE_CPU_PROFILES=off and on, alternated, RUNS each.
# (2) This repo's schemas and a 50-message generated module: one count of
# every message (--keep-dumps), then reading all its dumps without and with
# the profiles (cpucost's BenchmarkReadDump): the profiles' share of the
# count. RUNS=0 skips (1).
# Run on an otherwise idle machine.
#   scripts/figures/profiles.sh [RUNS] [OUT]   (RUNS default 2; OUT docs/results/profiles.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${1:-2}
out=${2:-$root/docs/results/profiles.txt}
export PATH="$root/node_modules/.bin:$PATH"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd harness && go build -o "$work/wg" ./cmd/wiregate)
cpu_seconds() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(next(s["seconds"] for s in r["stages"] if s["name"]=="cpu"))' "$1"; }
{
  echo "# bash scripts/figures/profiles.sh, function profiles, $(date -u +%F), $(nproc) CPUs, $(git rev-parse --short HEAD)"
  [ "$runs" -gt 0 ] && echo "## this repo's schemas, A/A gate (measure: all), cpu stage seconds"
  for i in $(seq "$runs"); do
    for mode in off on; do
      WIREGATE_CPU_PROFILES=$mode "$work/wg" gate --harness-dir harness --base-dir . --working-directory . \
        --measure all --pipeline false --count 2 --benchtime 5ms --time-budget 1h \
        --cache-dir "$work/cache" --out "$work/repo-$mode-$i" >/dev/null 2>&1 || true
      echo "run $i profiles=$mode cpu $(cpu_seconds "$work/repo-$mode-$i/report.json") s"
    done
  done
  python3 scripts/gen-messages.py 50 "$work/gm" >/dev/null
  for c in "repo .:" "gen50 $work/gm:"; do
    read -r name spec <<<"$c"
    dir=${spec%%:*} msgs=${spec#*:}
    echo "## $name: one count of every message and format (processes of up to 25 messages), then reading its dumps"
    "$work/wg" instructions --buf-input "$dir" --harness-dir harness --cache-dir "$work/cache" --batch 25 \
      ${msgs:+--messages "$msgs"} --keep-dumps "$work/dumps-$name" --json > "$work/counts-$name.json"
    python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); n, s = len(c["results"]), c["seconds"]; print(f"count: {n} loops, {s:.1f} s")' "$work/counts-$name.json"
    (cd harness && WIREGATE_DUMPS="$work/dumps-$name" go test -run '^$' -bench BenchmarkReadDump -benchtime 5x -count 3 ./parent/cpucost | grep Benchmark)
  done
} | tee "$out"
