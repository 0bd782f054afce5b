#!/usr/bin/env bash
# Issue 11's figures: how long the gate takes on a fresh machine, with its
# caches restored, and on a ~60-message schema set within the default budget.
#   scripts/speed-figures.sh [cold|sixty]...   (default: both)
# cold:  a fresh clone with empty Go build, module and wiregate caches:
#        `npm ci && npm run gate` (defaults, pipeline included, base = HEAD);
#        then the same with the caches packed as the action's cache entry
#        holds them (tar + zstd), removed, and unpacked again ("restored");
#        then warm (everything on disk).
# sixty: `wiregate gate` with the defaults on 60 generated messages, A/A and
#        with every message changed.
# Run on an otherwise idle machine. Results: docs/results/speed-*.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
res=$root/docs/results
which=("$@"); [ ${#which[@]} -eq 0 ] && which=(cold sixty)

now() { date +%s.%N; }
stages() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('  result=%s plan=%s' % (r['result'], json.dumps(r.get('plan')))); [print('  %-28s %6.1fs  %s' % (x['name'], x['seconds'], x.get('note',''))) for x in r['stages']]" "$1"; }

for w in "${which[@]}"; do case $w in
cold)
  t=$(mktemp -d); git clone -q "$root" "$t/repo"
  ( # the empty caches are this set's only
  export GOCACHE=$t/cache/go-build GOMODCACHE=$t/cache/go-mod WIREGATE_CACHE=$t/cache/programs
  {
    echo "# $(date -u +%F) $(nproc) cores, $(go version | cut -d' ' -f3); npm ci && npm run gate (defaults, base = HEAD) in a fresh clone"
    s=$(now); (cd "$t/repo" && npm ci --no-audit --no-fund >/dev/null 2>&1 && npm run --silent gate -- --out "$t/out-cold" >/dev/null 2>"$t/cold.err"); e=$(now)
    printf 'cold (empty GOCACHE, GOMODCACHE, wiregate cache, node_modules): %.1f s\n' "$(echo "$e - $s" | bc)"; stages "$t/out-cold/report.json"
    # What the action's cache entry holds (src/cache.ts), packed as @actions/cache packs it.
    s=$(now); tar -C "$t" --exclude='cache/go-mod/cache/download/*/*.zip' -cf - cache | zstd -q -T0 -o "$t/cache.tzst"; e=$(now)
    printf 'cache entry: %s (zstd), packed in %.1f s\n' "$(du -h "$t/cache.tzst" | cut -f1)" "$(echo "$e - $s" | bc)"
    chmod -R u+w "$t/cache"; rm -rf "$t/cache" "$t/repo/node_modules"
    s=$(now); zstd -q -d -c "$t/cache.tzst" | tar -C "$t" -xf -
    (cd "$t/repo" && npm ci --no-audit --no-fund >/dev/null 2>&1 && npm run --silent gate -- --out "$t/out-restored" >/dev/null 2>"$t/restored.err"); e=$(now)
    printf 'cache restored (unpack + npm ci + gate): %.1f s\n' "$(echo "$e - $s" | bc)"; stages "$t/out-restored/report.json"
    s=$(now); (cd "$t/repo" && npm run --silent gate -- --out "$t/out-warm" >/dev/null 2>"$t/warm.err"); e=$(now)
    printf 'warm (everything on disk): %.1f s\n' "$(echo "$e - $s" | bc)"; stages "$t/out-warm/report.json"
    # A PR's usual shape: one message of three changed (a field added).
    sed -i 's/string region = 12;/string region = 12;\n  int32 rssi = 13;/' "$t/repo/schemas/telemetry/v1/telemetry_event.proto"
    sed -i 's/{"name": "region", "type": "string"}/{"name": "region", "type": "string"}, {"name": "rssi", "type": "int", "default": 0}/' "$t/repo/schemas/telemetry/v1/telemetry_event.avsc"
    s=$(now); (cd "$t/repo" && npm run --silent gate -- --out "$t/out-changed" >/dev/null 2>"$t/changed.err" || true); e=$(now)
    printf 'warm, one message of three changed (an int32 field added to telemetry.v1.TelemetryEvent): %.1f s\n' "$(echo "$e - $s" | bc)"; stages "$t/out-changed/report.json"
  } > "$res/speed-cold.txt"
  )
  chmod -R u+w "$t"; rm -rf "$t"
  ;;
sixty)
  t=$(mktemp -d); python3 scripts/gen-messages.py 60 "$t/schemas"
  go build -o "$t/wiregate" ./harness/cmd/wiregate
  {
    echo "# $(date -u +%F) wiregate gate A/A with the defaults on 60 generated messages (scripts/gen-messages.py), embedded broker"
    s=$(now); "$t/wiregate" gate --harness-dir harness --base-dir "$t/schemas" --working-directory "$t/schemas" --out "$t/out" --quiet || true; e=$(now)
    printf 'wall: %.1f s (budget 600 s)\n' "$(echo "$e - $s" | bc)"; stages "$t/out/report.json"
    # Worst case: every message changed (the shared enum gains a value, and
    # every message uses it).
    cp -r "$t/schemas" "$t/changed"; sed -i 's/  KIND_C = 3;/  KIND_C = 3;\n  KIND_D = 4;/' "$t/changed/gen/v1/gen.proto"
    s=$(now); "$t/wiregate" gate --harness-dir harness --base-dir "$t/schemas" --working-directory "$t/changed" --out "$t/out-changed" --quiet || true; e=$(now)
    printf 'every message changed (KIND_D added to the enum all 60 use): wall %.1f s (budget 600 s)\n' "$(echo "$e - $s" | bc)"; stages "$t/out-changed/report.json"
  } > "$res/speed-sixty.txt"
  rm -rf "$t"
  ;;
*) echo "unknown set $w" >&2; exit 2;;
esac; echo "speed: $w done"; done
