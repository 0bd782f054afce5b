#!/usr/bin/env bash
# Workers, shards and merge: a generated 400-message module (16 files, 4 packages,
# 5% of the records near the 8 KiB cap) where every message embeds one
# shared Metadata message, and head adds `string shard` to it: 401 messages
# changed. One runner with a 10-minute budget against the sharded gate —
# plan, 8 shards of 5 minutes run one after the other here (a matrix runs
# them at once), merge — with what each judged, wall time and peak RSS;
# then the cpu stage alone with workers 1 and 2 on the same 10 messages.
#   scripts/figures/shards.sh OUT [runner|shards|workers]...
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:?usage: shards.sh OUT [runner|shards|workers]...}
shift
which=("$@"); [ ${#which[@]} -eq 0 ] && which=(runner shards workers)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
(cd harness && go build -o "$t/wiregate" ./cmd/wiregate)
python3 scripts/gen-messages.py 400 "$t/base" --files 16 --packages 4 --big-share 0.05 --shared-metadata \
  --head "$t/head" --changed Metadata > /dev/null
common=(--harness-dir harness --base-dir "$t/base" --working-directory "$t/head" --quiet)
now() { date +%s.%N; }

# judged REPORT LABEL WALL LOG: one line of what a report judged.
judged() {
  python3 - "$1" "$2" "$3" "$4" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
c = r.get("coverage") or {}
rows = sum(1 for p in r["pipeline"] if p.get("base") and p.get("head"))
peaks = [int(m.group(1)) for m in re.finditer(r"PEAK_RSS role=\S+(?: \S+)? MiB=(\d+)", open(sys.argv[4]).read())]
print(f"| {sys.argv[2]} | {float(sys.argv[3]):.0f} s | {max(peaks or [0])} MiB | {c.get('changed', 0)} | {c.get('sized', 0)} | "
      f"{c.get('counted', 0)} | {c.get('timed', 0)} | {c.get('piped', 0)} ({rows} rows) | {r['result']} (exit {r['exit_code']}) |")
PY
}

{
echo "# bash scripts/figures/shards.sh OUT ${which[*]}, $(date -u +%F), $(nproc) CPUs, $(go version | cut -d' ' -f3): 400 generated messages + Metadata, Metadata gains \`string shard\` (401 changed)"
echo
echo "| run | wall | peak RSS of one process | changed | sized | counted | timed | drained | verdict |"
echo "|---|---|---|---|---|---|---|---|---|"
for w in "${which[@]}"; do case $w in
runner)
  s=$(now)
  python3 scripts/figures/peakrss.py "$t/wiregate" gate "${common[@]}" --out "$t/one" > "$t/one.log" 2>&1 || true
  judged "$t/one/report.json" "one runner, 10-minute budget" "$(echo "$(now) - $s" | bc)" "$t/one.log" ;;
shards)
  "$t/wiregate" plan "${common[@]}" --time-budget 5m --max-shards 8 --plan-out "$t/plan.json" 2> "$t/plan.log"
  n=$(python3 -c "import json; print(json.load(open('$t/plan.json'))['shards'])")
  parts=()
  total=0
  for i in $(seq 1 "$n"); do
    s=$(now)
    python3 scripts/figures/peakrss.py "$t/wiregate" gate "${common[@]}" --time-budget 5m --max-shards 8 --shard "$i/$n" \
      --out "$t/part$i" > "$t/part$i.log" 2>&1 || true
    wall=$(echo "$(now) - $s" | bc)
    judged "$t/part$i/report.json" "shard $i/$n, 5-minute budget" "$wall" "$t/part$i.log"
    parts+=("$t/part$i")
  done
  s=$(now)
  python3 scripts/figures/peakrss.py "$t/wiregate" merge --out "$t/merged" "${parts[@]}" > "$t/merge.log" 2>&1 || true
  judged "$t/merged/report.json" "merge of $n shards" "$(echo "$(now) - $s" | bc)" "$t/merge.log"
  echo
  echo "plan: $(python3 -c "import json; print(json.load(open('$t/plan.json'))['note'])")" ;;
workers)
  msgs=$(python3 -c "print(','.join(f'gen.p00.v1.Message{i:03d}' for i in range(10)))")
  echo
  echo "| cpu stage, the same 10 messages × 3 formats, 3 processes a side | wall |"
  echo "|---|---|"
  for k in 1 2; do
    "$t/wiregate" gate "${common[@]}" --messages "$msgs" --workers "$k" --pipeline false --count 2 --benchtime 5ms \
      --time-budget 60m --out "$t/w$k" > /dev/null 2>&1 || true
    python3 - "$t/w$k/report.json" "$k" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
st = next(s for s in r["stages"] if s["name"] == "cpu")
print(f"| workers: {sys.argv[2]} | {st['seconds']:.1f} s ({st.get('note', '')[:120]}) |")
PY
  done ;;
*) echo "unknown figure $w" >&2; exit 2 ;;
esac; done
} | tee "$out"
