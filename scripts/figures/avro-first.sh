#!/usr/bin/env bash
# Avro-first records' figures: an Avro-only module of this repo's making (two records
# sharing an Address, no .proto, no buf.yaml), base → head for four edits,
# measured as the gate measures Avro-first records (json and avro, records
# paired by name and alias, instructions under Valgrind): bytes/msg and
# instr/op, base → head.
#   scripts/figures/avro-first.sh OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:?usage: avro-first.sh OUT}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
(cd harness && go build -o "$t/wiregate" ./cmd/wiregate)

write() { # write DIR ORDER INVOICE
  mkdir -p "$1/shop"
  printf '%s\n' "$2" > "$1/shop/order.avsc"
  printf '%s\n' "$3" > "$1/shop/invoice.avsc"
}
address='{"type": "record", "name": "Address", "fields": [{"name": "street", "type": "string"}, {"name": "city", "type": "string"}, {"name": "zip", "type": "string"}]}'
order() { # order QTY-FIELD EXTRA ADDRESS
  echo "{\"type\": \"record\", \"name\": \"Order\", \"namespace\": \"shop.v1\", \"fields\": [
  {\"name\": \"id\", \"type\": \"long\"}, $1, {\"name\": \"price\", \"type\": \"double\"}, $2
  {\"name\": \"note\", \"type\": [\"null\", \"string\"], \"default\": null},
  {\"name\": \"status\", \"type\": {\"type\": \"enum\", \"name\": \"Status\", \"symbols\": [\"NEW\", \"PAID\", \"SHIPPED\"]}},
  {\"name\": \"ship_to\", \"type\": $3},
  {\"name\": \"tags\", \"type\": {\"type\": \"array\", \"items\": \"string\"}},
  {\"name\": \"attrs\", \"type\": {\"type\": \"map\", \"values\": \"long\"}}]}"
}
invoice() { # invoice ADDRESS
  echo "{\"type\": \"record\", \"name\": \"Invoice\", \"namespace\": \"shop.v1\", \"fields\": [
  {\"name\": \"number\", \"type\": \"string\"}, {\"name\": \"total\", \"type\": \"double\"}, {\"name\": \"bill_to\", \"type\": $1}]}"
}
qty='{"name": "qty", "type": "int"}'
grown=${address/\{\"name\": \"zip\", \"type\": \"string\"\}\]/\{\"name\": \"zip\", \"type\": \"string\"\}, \{\"name\": \"country\", \"type\": \"string\", \"default\": \"NL\"\}\]}
write "$t/base" "$(order "$qty" "" "$address")" "$(invoice "$address")"
write "$t/add" "$(order "$qty" '{"name": "channel", "type": "string", "default": "web"},' "$address")" "$(invoice "$address")"
write "$t/alias" "$(order '{"name": "quantity", "aliases": ["qty"], "type": "int"}' "" "$address")" "$(invoice "$address")"
write "$t/widen" "$(order '{"name": "qty", "type": "long"}' "" "$address")" "$(invoice "$address")"
write "$t/shared" "$(order "$qty" "" "$grown")" "$(invoice "$grown")"

{
echo "# bash scripts/figures/avro-first.sh, $(date -u +%F), $(nproc) CPUs, $(go version | cut -d' ' -f3): Avro-only module, base → head (instr/op: the median of each side's counts, 3 processes a side by default)"
for edit in add alias widen shared; do
  "$t/wiregate" gate --harness-dir harness --base-dir "$t/base" --working-directory "$t/$edit" --pipeline false --count 2 \
    --benchtime 5ms --quiet --out "$t/out-$edit" > /dev/null 2>&1 || true
  python3 - "$t/out-$edit/report.json" "$edit" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
names = {"add": "add `channel` with a default", "alias": "rename `qty` → `quantity`, alias `qty`",
         "widen": "widen `qty` int → long", "shared": "Address (in both records) gains `country`"}
print(f"\n## {names[sys.argv[2]]}: changed {', '.join(r['change']['changed'])}; groups "
      f"{[g['cause'] for g in r['change'].get('groups', [])]}; {r['result']}; errors {r.get('errors', [])}")
print("| message | format | bytes/msg base → head | instr/op encode | instr/op decode |")
print("|---|---|---|---|---|")
for m in r["messages"]:
    for f in m["formats"]:
        s = f["size"]
        cells = []
        for op in ("encode", "decode"):
            x = next((x for x in f["metrics"] if x["unit"] == "instr/op" and x["name"] == op), None)
            cells.append("—" if x is None else f"{x['base']['center']:,.0f} → {x['head']['center']:,.0f} ({x['delta_pct']:+.2f}%)")
        print(f"| {m['name']} | {f['format']} | {s['base']:.2f} → {s['head']:.2f} ({s['head'] - s['base']:+.2f}) | {cells[0]} | {cells[1]} |")
PY
done
} | tee "$out"
