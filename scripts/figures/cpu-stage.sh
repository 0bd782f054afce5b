#!/usr/bin/env bash
# The cpu stage's wall time against an earlier revision, side by
# side in one run: a large changed message (records near the 8 KiB cap) and a
# module of 9 small changed messages, every format, 3 count processes a side
# (the defaults). Bench and pipeline are kept to their least, so the
# figure is the cpu stage's own (report.json's stages[].seconds). Programs
# are prepared beforehand (a cache hit, as on a second push). The counts
# run after the bench, not beside it (--counts-beside=false where the
# revision has it): beside, the stage's wall includes the rounds' share of
# the CPUs, not what counting costs. Run on an otherwise idle machine.
# Each counted gate's log is kept beside OUT (OUT.logs/), and a gate that
# wrote no report reads "nan": the uncounted run's report is removed first,
# so it cannot stand in for the counted one.
#   scripts/figures/cpu-stage.sh BEFORE_REV [OUT]   (default docs/results/cpu-stage.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
before=${1:?usage: cpu-stage.sh BEFORE_REV [OUT]}
out=${2:-$root/docs/results/cpu-stage.txt}
export PATH="$root/node_modules/.bin:$PATH"
logs=$out.logs; mkdir -p "$logs"
# shellcheck source=scripts/figures/lib.sh
. scripts/figures/lib.sh
before_after "$before"

# add FILE MESSAGE...: head gains `int32 added_in_head` in each message.
add() {
  python3 - "$@" <<'PY'
import re, sys
path, names = sys.argv[1], sys.argv[2:]
text = open(path).read()
for name in names:
    start = text.index(f"message {name} {{")
    end = text.index("\n}\n", start)
    num = max(int(n) for n in re.findall(r'= (\d+);', text[start:end])) + 1
    text = text[:end] + f"\n  int32 added_in_head = {num};" + text[end:]
open(path, "w").write(text)
PY
}
python3 scripts/gen-messages.py 40 "$work/large/base" --big-share 0.25 >/dev/null
cp -r "$work/large/base" "$work/large/head"
add "$work/large/head/gen/v1/gen.proto" Message38
python3 scripts/gen-messages.py 20 "$work/small/base" --big-share 0 >/dev/null
cp -r "$work/small/base" "$work/small/head"
small=$(python3 -c "print(' '.join(f'Message{i:02d}' for i in range(1, 19, 2)))")
# shellcheck disable=SC2086
add "$work/small/head/gen/v1/gen.proto" $small

{
  echo "# bash scripts/figures/cpu-stage.sh $before: cpu stage, $(date -u +%F), $(nproc) CPUs; before $before, after $(git rev-parse --short HEAD)"
  printf '%-34s %10s %10s %8s\n' case before_s after_s ratio
  for c in large small; do
    row=()
    for side in before after; do
      harness=$root/harness; [ $side = before ] && harness=$work/before/harness
      args=(gate --harness-dir "$harness" --base-dir "$work/$c/base" --working-directory "$work/$c/head"
        --cache-dir "$work/cache-$side-$c" --pipeline=false --count 2 --benchtime 5ms --time-budget 60m --out "$work/out-$side-$c")
      if "$work/wg-$side" gate --help 2>&1 | grep -q -- -counts-beside; then args+=(--counts-beside=false); fi
      "$work/wg-$side" "${args[@]}" --cpu-cost off >/dev/null 2>&1 || true # prepare the programs, uncounted
      rm -f "$work/out-$side-$c/report.json"
      "$work/wg-$side" "${args[@]}" >"$logs/$side-$c.log" 2>&1 || true
      row+=("$(python3 -c "import json,sys
try: r=json.load(open(sys.argv[1])); print(next(s['seconds'] for s in r['stages'] if s['name']=='cpu'))
except Exception: print('nan')" "$work/out-$side-$c/report.json")")
    done
    label="large: Message38 (big-share .25)"; [ $c = small ] && label="small: 9 of 20 messages"
    python3 -c "import sys; b,a=float(sys.argv[2]),float(sys.argv[3]); r=b/a if a else float('nan'); print(f'{sys.argv[1]:<34} {b:10.1f} {a:10.1f} {r:7.1f}x')" "$label" "${row[0]}" "${row[1]}"
  done
} | tee "$out"
