#!/usr/bin/env bash
# What a release history costs in violations, before and after the gate
# split added content from the same content: a generated 30-message API
# (every message nests one shared Metadata, a tenth of them near the 8 KiB
# cap) goes through four releases, each adding fields the way APIs grow:
#   r1  one int32 on a leaf message
#   r2  a repeated string on a message, and a value to its enum
#   r3  one int32 on the shared Metadata (every message changes)
#   r4  a string on Metadata and a repeated message field on one message
# and a fifth that does both, as a release can:
#   r5  one int32 added to a small message, and its repeated int32 made
#       unpacked (the same content costs more: a tag on every element)
# Each release is gated against the one before, at the defaults (cpu
# counted, pipeline on the embedded broker, time-budget 10m), by wiregate
# at BEFORE_REV and at the working tree; the violations are counted by
# kind. Run on an otherwise idle machine (the exact kinds do not depend on
# it; time and throughput do).
#   scripts/figures/release-history.sh BEFORE_REV [OUT]   (default docs/results/release-history.txt)
#   PAIRS="r3 r4,r4 r5" scripts/figures/release-history.sh …   (only those pairs)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
before=${1:?usage: release-history.sh BEFORE_REV [OUT]}
out=${2:-$root/docs/results/release-history.txt}
export PATH="$root/node_modules/.bin:$PATH"
# shellcheck source=scripts/figures/lib.sh
. scripts/figures/lib.sh
before_after "$before" before-src

python3 scripts/gen-messages.py 30 "$work/r0" --shared-metadata --big-share 0.1 >/dev/null
# release N FROM TO EDIT...: TO is FROM with each EDIT ("Message:field line")
# added at the end of that message (or "enum:Kind:VALUE = n", or
# "sub:Message:OLD:NEW" replacing OLD with NEW within that message).
release() {
  local from=$1 to=$2; shift 2
  cp -r "$work/$from" "$work/$to"
  python3 - "$work/$to/gen/v1/gen.proto" "$@" <<'PY'
import re, sys
path, edits = sys.argv[1], sys.argv[2:]
text = open(path).read()
for e in edits:
    kind, rest = e.split(":", 1)
    if kind == "sub":
        name, old, new = rest.split(":", 2)
        start = text.index(f"message {name} {{")
        end = text.index("\n}\n", start)
        body = text[start:end]
        assert old in body, f"{old!r} not in {name}"
        text = text[:start] + body.replace(old, new, 1) + text[end:]
        continue
    if kind == "enum":
        name, value = rest.split(":", 1)
        start = text.index(f"enum {name} {{")
        end = text.index("\n}\n", start)
        text = text[:end] + f"\n  {value};" + text[end:]
        continue
    start = text.index(f"message {kind} {{")
    end = text.index("\n}\n", start)
    num = max(int(n) for n in re.findall(r'= (\d+);', text[start:end])) + 1
    text = text[:end] + f"\n  {rest} = {num};" + text[end:]
open(path, "w").write(text)
PY
}
release r0 r1 "Message29:int32 priority"
release r1 r2 "Message05:repeated string tags" "enum:Kind:KIND_ARCHIVED = 99"
release r2 r3 "Metadata:int32 shard"
release r3 r4 "Metadata:string zone" "Message12:repeated Chunk attachments"
release r4 r5 "Message29:int32 rank" "sub:Message29:repeated int32 owner = 4;:repeated int32 owner = 4 [packed = false];"

{
  echo "# bash scripts/figures/release-history.sh $before: release history, 30 messages with a shared Metadata (big-share 0.1), four releases that add fields; wiregate at $before and at $(git rev-parse --short HEAD)+$(git status --porcelain | wc -l | tr -d ' ') changed files; $(date -u +%F), $(nproc) CPUs"
  pairs=("r0 r1" "r1 r2" "r2 r3" "r3 r4" "r4 r5")
  if [ -n "${PAIRS:-}" ]; then IFS=, read -ra pairs <<< "$PAIRS"; fi
  for pair in "${pairs[@]}"; do
    set -- $pair
    for side in before after; do
      dir="$work/out-$1-$2-$side"
      start=$(date +%s)
      "$work/wg-$side" gate --harness-dir "$( [ $side = before ] && echo "$work/before-src/harness" || echo "$root/harness")" \
        --base-dir "$work/$1" --working-directory "$work/$2" --cache-dir "$work/cache-$side" --out "$dir" \
        --broker embedded --quiet >/dev/null 2>&1 || true
      end=$(date +%s)
      python3 - "$dir/report.json" "$1→$2" "$side" "$((end - start))" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
by = collections.Counter(v["kind"] for v in r["violations"] if not v.get("allowed"))
changed = len((r.get("change") or {}).get("changed") or [])
added = sum(1 for m in r["messages"] if m.get("added_content"))
kinds = ", ".join(f"{k} {n}" for k, n in sorted(by.items())) or "none"
print(f"{sys.argv[2]:7} {sys.argv[3]:6} exit {r['exit_code']}  {changed:2} changed, {added:2} with added content, {sum(by.values()):3} violations: {kinds}  ({sys.argv[4]} s)")
PY
    done
  done
} | tee "$out"
