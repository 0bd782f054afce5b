#!/usr/bin/env bash
# Prices: how close a plan's price of each shard comes
# to what the shard then takes, with static prices and with the prices a
# run measured. A generated module (N messages + the shared Metadata every
# one embeds, a tenth with records near the 8 KiB cap), head adds a field
# to Metadata: N+1 changed. Base is a commit of a repository with an
# origin; head a clone with the change in its working tree.
#   1. plan with static prices (no history branch yet);
#   2. run that plan's shards one after the other, each as the plan prices
#      it (count 6, benchtime 10ms, pipeline backlogs of 1,000) and with a
#      budget nothing cuts; each shard's measuring time against its price;
#   3. keep the shards' measured costs as the base's history point (what a
#      push of the base would have recorded);
#   4. plan again — measured prices — and run its shards the same way.
#   scripts/figures/prices.sh OUT [N] [static]   (static: steps 1 and 2 only)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:?usage: prices.sh OUT [N]}
n=${2:-24}
only=${3:-}
t=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $t" >&2 || trap 'rm -rf "$t"' EXIT
(cd harness && go build -o "$t/wiregate" ./cmd/wiregate)
python3 scripts/gen-messages.py "$n" "$t/gen" --files 4 --packages 2 --big-share 0.1 --shared-metadata \
  --head "$t/headfiles" --changed Metadata > /dev/null
git init -q --bare -b main "$t/origin.git"
mv "$t/gen" "$t/base"
(cd "$t/base" && git init -q -b main && git add -A && git -c user.name=w -c user.email=w@x commit -qm base &&
  git remote add origin "$t/origin.git" && git push -q origin main)
git clone -q "$t/origin.git" "$t/head"
(cd "$t/headfiles" && tar cf - --exclude .git .) | (cd "$t/head" && tar xf -)
base_sha=$(git -C "$t/base" rev-parse HEAD)
budget=5m
common=(--harness-dir harness --base-dir "$t/base" --working-directory "$t/head" --quiet --max-shards 64)
# What the plan and the shards measure with: the cheapest whole
# measurement (a plan prices exactly that; the shards then take no more).
settings=(--count 6 --benchtime 10ms --pipeline-messages 1000)
shardrun=(--time-budget 60m "${settings[@]}")

# shards LABEL: runs plan.json's shards, prints one row each and a total.
shards() {
  local label=$1 k
  k=$(python3 -c "import json; print(json.load(open('$t/plan.json'))['shards'])")
  for i in $(seq 1 "$k"); do
    local s0 s1
    s0=$(date +%s.%N)
    "$t/wiregate" gate "${common[@]}" "${shardrun[@]}" --shard "$i/$k" --out "$t/$label$i" > "$t/$label$i.log" 2>&1 || true
    s1=$(date +%s.%N)
    python3 -c "print($s1 - $s0)" > "$t/$label$i/wall"
  done
  python3 - "$t/plan.json" "$k" "$t/$label" "$label" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
k, prefix, label = int(sys.argv[2]), sys.argv[3], sys.argv[4]
measuring = {"records", "sizes", "cpu", "bench", "pipeline"}
tot_p = tot_a = 0
for i in range(1, k + 1):
    r = json.load(open(f"{prefix}{i}/report.json"))
    # The measuring stages' wall: the run's less its other stages (the cpu
    # and bench stages run at once, so their seconds overlap).
    fixed = sum(s["seconds"] for s in r["stages"] if s["name"] not in measuring)
    took = float(open(f"{prefix}{i}/wall").read()) - fixed
    price = plan["parts"][i - 1]["price_seconds"]
    tot_p += price; tot_a += took
    c = r.get("coverage") or {}
    print(f"| {label} | {i}/{k} | {len(plan['parts'][i-1]['messages'])} | {price:.0f} s | {took:.0f} s | {took/price:.2f} | {fixed:.0f} s | "
          f"{c.get('counted', 0)}/{c.get('changed', 0)} counted, {c.get('timed', 0)} timed |")
cap = plan["capacity_seconds"]
need = -(-tot_a // cap)
print(f"| {label} | all | | {tot_p:.0f} s | {tot_a:.0f} s | {tot_a/tot_p:.2f} | | plan: {plan['needed']} shards of {cap:.0f} s; what they took needs {need:.0f} |")
PY
}

{
echo "# bash scripts/figures/prices.sh OUT $n $only, $(date -u +%F), $(nproc) CPUs, $(go version | cut -d' ' -f3), rev $(git -C "$root" rev-parse --short HEAD): $n generated messages + Metadata, Metadata gains a field ($((n + 1)) changed); plans at time-budget $budget, shards run with ${shardrun[*]}"
echo
echo "| prices | shard | messages | plan's price | measuring took | took/price | fixed stages | judged |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
"$t/wiregate" plan "${common[@]}" "${settings[@]}" --time-budget "$budget" --plan-out "$t/plan.json" 2> "$t/plan-static.log"
note_static=$(python3 -c "import json; print(json.load(open('$t/plan.json'))['note'])")
shards static
if [ "$only" = static ]; then echo; echo "- static plan: $note_static"; exit 0; fi
# The base's history point: the costs the static shards measured.
python3 - "$t" "$base_sha" <<'PY' > "$t/history.jsonl"
import glob, json, sys
t, sha = sys.argv[1], sys.argv[2]
costs, harness, go = [], "", ""
for f in sorted(glob.glob(f"{t}/static*/report.json")):
    r = json.load(open(f))
    costs += r.get("costs", [])
    # A point prices only for the wiregate and Go that measured it.
    harness, go = (r.get("shard") or {}).get("harness", harness), r["env"].get("go_version", go)
print(json.dumps({"sha": sha, "ref": "main", "date": "2026-11-26T00:00:00Z", "wiregate": harness, "go": go,
                  "figures": [], "costs": costs}))
PY
git clone -q "$t/origin.git" "$t/data"
(cd "$t/data" && git checkout -q --orphan wiregate-data && git rm -rqf . && cp "$t/history.jsonl" . && git add history.jsonl &&
  git -c user.name=w -c user.email=w@x commit -qm point && git push -q origin wiregate-data)
"$t/wiregate" plan "${common[@]}" "${settings[@]}" --time-budget "$budget" --plan-out "$t/plan.json" 2> "$t/plan-measured.log"
note_measured=$(python3 -c "import json; print(json.load(open('$t/plan.json'))['note'])")
shards measured
echo
echo "- static plan: $note_static"
echo "- measured plan: $note_measured"
} | tee "$out"
