#!/usr/bin/env bash
# The wall time of a release-like pull request — a 56-message
# module whose records reach the 8 KiB cap for a fifth of its messages, 8
# messages changed (one int32 field each; three of them big) — through the
# whole gate with its defaults (time-budget 10m, every format, the
# pipeline on the embedded broker), bench programs prepared beforehand (a
# cache hit, as on a second push). Run on an otherwise idle machine.
#   scripts/figures/release.sh [OUT]   (default docs/results/release-wall.txt)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:-$root/docs/results/release-wall.txt}
export PATH="$root/node_modules/.bin:$PATH"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd harness && go build -o "$work/wg" ./cmd/wiregate)
python3 scripts/gen-messages.py 56 "$work/base" --big-share 0.2 >/dev/null
cp -r "$work/base" "$work/head"
changed=$(python3 - "$work/head/gen/v1/gen.proto" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
names = re.findall(r'^message (Message\d+) \{', text, re.M)
picked = names[3::7][:8]   # every seventh, from the fourth: a spread of shapes
for name in picked:
    start = text.index(f"message {name} {{")
    end = text.index("\n}\n", start)
    body = text[start:end]
    num = max(int(n) for n in re.findall(r'= (\d+);', body)) + 1
    text = text[:end] + f"\n  int32 added_in_head = {num};" + text[end:]
open(path, "w").write(text)
print(",".join("gen.v1." + n for n in picked))
PY
)
args=(gate --harness-dir harness --base-dir "$work/base" --working-directory "$work/head" --cache-dir "$work/cache" --out "$work/out")
# Prepare both sides' programs once (uncounted): a short gate builds them
# into the cache; what it measures is thrown away.
"$work/wg" "${args[@]}" --cpu-cost off --pipeline=false --count 2 >/dev/null 2>&1 || true
start=$(date +%s%N)
"$work/wg" "${args[@]}" > "$work/gate.log" 2>&1 || true
end=$(date +%s%N)
{
  echo "# bash scripts/figures/release.sh: release-like PR: 56 messages (big-share 0.2), 8 changed: $changed; $(date -u +%F), $(nproc) CPUs, rev $(git rev-parse --short HEAD)"
  echo "wall $(( (end - start) / 1000000 )) ms (programs prepared)"
  python3 - "$work/out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("result", r["result"], "exit", r["exit_code"], "-", r["exit_reason"])
for s in r["stages"]:
    print(f'  {s["name"]:<22} {s.get("seconds", 0):7.1f} s  {s.get("note", "")[:1000]}')
cov = r.get("coverage") or {}
print("coverage", {k: len(v) if isinstance(v, list) else v for k, v in cov.items() if k != "cut"})
print("plan", json.dumps(r.get("plan"))[:400])
print("unable_to_fail", len(r.get("unable_to_fail") or []))
PY
} | tee "$out"
