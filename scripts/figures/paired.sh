#!/usr/bin/env bash
# Paired records' figures: for each kind of schema edit, base → head bytes/msg
# and instr/op per format, through the whole gate, on this repo's schemas.
# Usage: scripts/figures/paired.sh OUT.md [LABEL=WIREGATE_BIN:HARNESS_DIR ...]
# With no gates named: this checkout's. "Before" figures come from building
# an older wiregate in a worktree and naming it here, e.g.
#   git worktree add /tmp/before 8e9b858 && (cd /tmp/before && go build -o /tmp/wg-before ./harness/cmd/wiregate)
#   scripts/figures/paired.sh docs/results/paired-records.md before=/tmp/wg-before:/tmp/before/harness after=/tmp/wg:harness
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${1:?usage: paired.sh OUT.md [LABEL=BIN:HARNESS ...]}
shift
gates=("$@")
if [ ${#gates[@]} -eq 0 ]; then
  go build -o /tmp/wiregate-paired ./harness/cmd/wiregate
  gates=("now=/tmp/wiregate-paired:$root/harness")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# edit KIND DIR: the head side of each change kind.
edit() {
  local p="$2/schemas/telemetry/v1/telemetry_event.proto" o="$2/schemas/orders/v1/order.proto"
  case "$1" in
    rename) sed -i 's/string region = 12;/string deployment_zone = 12;/' "$p" ;;
    widen) sed -i 's/int32 battery_pct = 8;/int64 battery_pct = 8;/' "$p" ;;
    reorder) sed -i 's/  string device_id = 1;//; s/string region = 12;/string region = 12;\n  string device_id = 1; \/\/ moved down, with a comment/' "$p" ;;
    add-field) sed -i 's/string region = 12;/string region = 12;\n  int32 rssi = 13;/' "$p" ;;
    oneof-member) sed -i 's/BankTransfer bank_transfer = 9;/BankTransfer bank_transfer = 9;\n    Voucher voucher = 10;/; s/^message Card {/message Voucher { string code = 1; }\nmessage Card {/' "$o" ;;
    string-to-int64) sed -i 's/string firmware = 9;/int64 firmware = 9;/' "$p" ;;
  esac
}
# payment adds a oneof to orders.v1.Order on both sides (the oneof-member kind's base).
payment() {
  python3 - "$1/schemas/orders/v1/order.proto" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read().replace("map<string, string> meta = 7;\n}\n", """map<string, string> meta = 7;
  oneof payment {
    Card card = 8;
    BankTransfer bank_transfer = 9;
  }
}

message Card { string last4 = 1; string network = 2; }
message BankTransfer { string iban = 1; string reference = 2; }
""")
open(p, "w").write(s)
PY
}

echo "# bash scripts/figures/paired.sh, $(date -u +%Y-%m-%d), $(nproc) CPUs: paired records, base → head on one edit" > "$out"
echo >> "$out"
echo '`scripts/figures/paired.sh` gates each edit with json, protobuf, avro (Avro schema derived from the proto on both sides), count 2, no pipeline, instructions counted.' >> "$out"
for kind in rename widen reorder add-field oneof-member string-to-int64; do
  msg=telemetry.v1.TelemetryEvent
  [ "$kind" = oneof-member ] && msg=orders.v1.Order
  rm -rf "$work/base" "$work/head"
  mkdir -p "$work/base" "$work/head"
  cp -r schemas buf.yaml "$work/base/"
  [ "$kind" = oneof-member ] && payment "$work/base"
  cp -r "$work/base/." "$work/head/"
  edit "$kind" "$work/head"
  echo >> "$out"
  echo "## $kind ($msg)" >> "$out"
  echo >> "$out"
  echo "| gate | format | bytes/msg | encode instr/op | decode instr/op |" >> "$out"
  echo "|---|---|---|---|---|" >> "$out"
  for g in "${gates[@]}"; do
    label=${g%%=*}; rest=${g#*=}; bin=${rest%%:*}; harness=${rest#*:}
    rm -rf "$work/out"
    "$bin" gate --base-dir "$work/base" --working-directory "$work/head" --harness-dir "$harness" --out "$work/out" --quiet \
      --messages "$msg" --formats json,protobuf,avro --avro-schemas 'no-such-dir/*.avsc' --breaking=false --lint=false \
      --count 2 --benchtime 5ms --pipeline=false >/dev/null 2>&1 || true
    python3 - "$work/out/report.json" "$label" >> "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def cell(base, head, digits):
    if base is None or head is None:
        return "—"
    d = "=" if base == head else f"{100 * (head / base - 1):+.2f}%"
    return f"{base:.{digits}f} → {head:.{digits}f} ({d})"
for m in r["messages"]:
    for f in m["formats"]:
        s = f.get("size") or {}
        ops = {x["name"]: x for x in f["metrics"] if x["unit"] == "instr/op"}
        ins = [cell(ops[o]["base"]["center"], ops[o]["head"]["center"], 1) if o in ops else "—" for o in ("encode", "decode")]
        print(f"| {sys.argv[2]} | {f['format']} | {cell(s.get('base'), s.get('head'), 2)} | {ins[0]} | {ins[1]} |")
if r.get("errors"):
    print(f"| {sys.argv[2]} | error: {r['errors'][0]} | | | |")
PY
  done
done
echo "wrote $out"
