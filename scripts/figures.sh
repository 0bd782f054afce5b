#!/usr/bin/env bash
# The one entry to every figure docs/figures.md and docs/design/ quote: each
# SET reruns one figure as the docs quote it (the same revision to compare
# with, the same results file), writing it to docs/results/. Run it on an
# otherwise idle machine: timings from a busy one are noise.
#   scripts/figures.sh SET...          (no SET: the default list below, about two hours)
#   BEFORE=REV scripts/figures.sh SET  (the revision a before/after set compares with)
# Sets backed by a script run scripts/figures/SET.sh (or .py); the script's
# header says what it measures, and it takes other arguments by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
res=$root/docs/results
mkdir -p "$res"
export PATH="$root/node_modules/.bin:$PATH"
wg=/tmp/wiregate-figures
built=
build() { [ -n "$built" ] || { go build -o "$wg" ./harness/cmd/wiregate; built=1; }; }
# stamp FILE: the first line names the set, the date, the machine and the
# revision, as a line every reader of the file skips ('#').
stamp() {
  local f=$1
  { echo "# bash scripts/figures.sh $w, $(date -u +%F), $(nproc) CPUs, $(go env GOVERSION), rev $(git rev-parse --short HEAD)"; cat "$f"; } > "$f.stamped"
  mv "$f.stamped" "$f"
}
which=("$@"); [ ${#which[@]} -eq 0 ] && which=(codec overhead prepare pipeline pipeline-memory change scale paired calibrate cpu avro)

for w in "${which[@]}"; do case $w in
codec) # Bytes and decode time of the telemetry message in five formats, against a published comparison.
  build
  $wg sizes --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent \
     --formats json,protobuf,avro,msgpack,cbor > "$res/telemetry-sizes.txt"
  $wg bench --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent \
     --formats json,protobuf,avro,msgpack,cbor --count 10 --benchtime 1s -o "$res/telemetry-bench.txt"
  go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da "$res/telemetry-bench.txt" 2>/dev/null | sed "s|$res/||" > "$res/telemetry-benchstat.txt" \
    || (cd harness && go run ./cmd/wiregate compare "$res/telemetry-bench.txt" "$res/telemetry-bench.txt" > "$res/telemetry-benchstat.txt")
  for f in telemetry-sizes.txt telemetry-bench.txt telemetry-benchstat.txt; do stamp "$res/$f"; done
  ;;
shapes) # Bytes per message of each shape real APIs use (the shapes and editions test modules).
  build
  all=json,protobuf,avro,protojson,msgpack,cbor
  $wg sizes --buf-input harness/cmd/wiregate/testdata/shapes --harness-dir harness --formats "$all,vtprotobuf" > "$res/shapes-sizes.txt"
  $wg sizes --buf-input harness/cmd/wiregate/testdata/editions-and-groups --harness-dir harness --formats "$all" > "$res/editions-groups-sizes.txt"
  stamp "$res/shapes-sizes.txt"; stamp "$res/editions-groups-sizes.txt"
  ;;
avro) # twmb/avro (avro) against hamba/avro (avro-hamba), side by side in one run; agreement with Apache Avro Java.
  build
  $wg sizes --buf-input . --harness-dir harness --formats avro,avro-hamba > "$res/avro-sizes.txt"
  $wg instructions --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent \
     --formats avro,avro-hamba -o "$res/avro-instructions.txt"
  $wg bench --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent \
     --formats avro,avro-hamba --count 20 --benchtime 500ms -o "$res/avro-bench.txt"
  (cd harness && go run golang.org/x/perf/cmd/benchstat "$res/avro-bench.txt") | sed "s|$res/||" > "$res/avro-benchstat.txt"
  (cd harness && go test -count=1 ./parent/avrocompat -run TestJavaAgreement -v) | grep agrees | sed 's/^ *//' > "$res/avro-java-agreement.txt"
  for f in avro-sizes.txt avro-instructions.txt avro-bench.txt avro-benchstat.txt avro-java-agreement.txt; do stamp "$res/$f"; done
  ;;
overhead) # What the harness adds: the harness's loop against direct library calls.
  (cd harness && go test ./program/codec -run '^$' -bench 'Overhead(Decode|Encode)' -count 10 -benchtime 500ms) > "$res/overhead-bench.txt"
  (cd harness && go test ./program/codec -run '^$' -bench OverheadFloor -count 10 -benchtime 200ms) > "$res/overhead-floor.txt"
  stamp "$res/overhead-bench.txt"; stamp "$res/overhead-floor.txt"
  ;;
prepare) # Building the bench programs: cold (empty Go build cache and wiregate cache), warm, one field added.
  build
  cold=$(mktemp -d)
  { echo "# cold: empty GOCACHE and WIREGATE_CACHE"; GOCACHE=$cold/go WIREGATE_CACHE=$cold/wg $wg prepare --buf-input . --harness-dir harness
    echo "# warm: same caches, unchanged schemas"; GOCACHE=$cold/go WIREGATE_CACHE=$cold/wg $wg prepare --buf-input . --harness-dir harness
    echo "# changed schema (a field added), warm Go build cache"
    ch=$(mktemp -d); cp -r schemas buf.yaml "$ch/"
    sed -i 's#string region = 12;#string region = 12;\n  repeated string tags = 13;#' "$ch/schemas/telemetry/v1/telemetry_event.proto"
    GOCACHE=$cold/go WIREGATE_CACHE=$cold/wg $wg prepare --buf-input "$ch" --harness-dir harness; rm -rf "$ch"
  } > "$res/prepare.txt"; rm -rf "$cold"
  stamp "$res/prepare.txt"
  ;;
pipeline) # Throughput at N = 2,000,000 telemetry records, embedded broker and real Kafka.
  build
  { $wg pipeline --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent --formats json,protobuf,avro --broker embedded --pipeline-messages 2000000 --pipeline-bytes 1GiB
    bash scripts/kafka.sh start >/dev/null
    $wg pipeline --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent --formats json,protobuf,avro --broker "$(bash scripts/kafka.sh addr)" --pipeline-messages 2000000 --pipeline-bytes 1GiB
    bash scripts/kafka.sh stop >/dev/null
  } > "$res/pipeline-2m.txt" 2>&1
  stamp "$res/pipeline-2m.txt"
  ;;
pipeline-memory) # Peak RSS of the broker, fill and consumer processes on big records (batch.v1.LogBatch, ~12 kB of JSON).
  build
  shapes=$root/harness/cmd/wiregate/testdata/shapes
  lb=(--messages batch.v1.LogBatch --formats json,protobuf,avro)
  { echo "# peak RSS of the pipeline's processes on batch.v1.LogBatch (scripts/figures/peakrss.py; before the byte budget: pipeline-memory-before.txt)"
    echo "# wiregate pipeline, one side, defaults (N by count and bytes), embedded broker"
    python3 scripts/figures/peakrss.py $wg pipeline --buf-input "$shapes" --harness-dir harness "${lb[@]}" --broker embedded 2>&1 | grep -E 'RESULT|PEAK_RSS role=(emb|pipe)'
    for n in "" 20000; do
      extra=(); [ -n "$n" ] && extra=(--pipeline-messages "$n" --pipeline-bytes 1GiB)
      echo "# wiregate gate A/A (base = head), defaults ${extra[*]}, embedded broker"
      python3 scripts/figures/peakrss.py $wg gate --harness-dir harness --base-dir "$shapes" --working-directory "$shapes" "${lb[@]}" \
        --lint=false --breaking=false --measure all --broker embedded "${extra[@]}" --out /tmp/wiregate-memory --quiet 2>&1 | grep -E 'PEAK_RSS role=(emb|pipe)'
      python3 -c "import json; r=json.load(open('/tmp/wiregate-memory/report.json')); e=r['env']; print('report: result=%s backlogs=%s broker_peak_rss=%dMiB consumer_peak_rss=%dMiB pipeline=%.1fs' % (r['result'], sorted({(p['message'], p['backlog']['n']) for p in r['pipeline']}), e['broker_peak_rss_bytes']>>20, e['consumer_peak_rss_bytes']>>20, [s['seconds'] for s in r['stages'] if s['name']=='pipeline'][0]))"
    done
    bash scripts/kafka.sh start >/dev/null
    echo "# wiregate pipeline, one side, defaults, Apache Kafka 4.1.0 (heap 512m; its RSS before: $(grep VmHWM /proc/$(cat .kafka/pid)/status | tr -s ' '))"
    python3 scripts/figures/peakrss.py --pid="$(cat .kafka/pid)" $wg pipeline --buf-input "$shapes" --harness-dir harness "${lb[@]}" --broker "$(bash scripts/kafka.sh addr)" 2>&1 | grep -E 'RESULT|PEAK_RSS role=(ext|pipe)'
    echo "kafka data dir after: $(du -sh .kafka/data.* | cut -f1)"
    bash scripts/kafka.sh stop >/dev/null
  } > "$res/pipeline-memory.txt"
  stamp "$res/pipeline-memory.txt"
  ;;
cpu-processes) # How far A/A counts move with one, two and three processes a side (a 100-message module).
  build
  t=$(mktemp -d)
  python3 scripts/gen-messages.py 100 "$t/m100" >/dev/null
  $wg gate --harness-dir harness --base-dir "$t/m100" --working-directory "$t/m100" \
    --measure all --pipeline false --lint false --breaking false --count 2 --benchtime 5ms \
    --time-budget 2h --cpu-processes 3 --cpu-threshold 0.5% --out "$t/aa100" >/dev/null || true
  python3 scripts/figures/cpu-processes.py "$t/aa100" > "$res/cpu-processes-aa.txt"
  cp "$t/aa100/base.txt" "$res/cpu-processes-aa-base.txt"; cp "$t/aa100/head.txt" "$res/cpu-processes-aa-head.txt"
  for f in cpu-processes-aa.txt cpu-processes-aa-base.txt cpu-processes-aa-head.txt; do stamp "$res/$f"; done
  rm -rf "$t"
  ;;
comment-sizes) # How long the comment is for the synthetic reports the tests build.
  rm -rf build && npx tsc -p tsconfig.json && node build/scripts/figures/comment-sizes.js > "$res/comment-sizes.txt"
  stamp "$res/comment-sizes.txt"
  ;;
approve) # mode: approve decided again (the end-to-end test prints it), and wiregate built when the cache misses.
  { rm -rf build && npx tsc -p tsconfig.json && node --test build/test/e2e.test.js 2>&1 | grep 'mode: approve decided again' || true
    cold=$(mktemp -d); start=$(date +%s.%N)
    (cd harness && GOCACHE=$cold go build -o "$cold/wg" ./cmd/wiregate)
    echo "go build ./cmd/wiregate, empty GOCACHE: $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"; rm -rf "$cold"
  } > "$res/approve.txt"
  stamp "$res/approve.txt"
  ;;
# Sets that are a script of their own, with the arguments the docs quote.
paired) bash scripts/figures/paired.sh "$res/paired-records.md";;
values) bash scripts/figures/values.sh "${BEFORE:-67f597f}" 100 > "$res/values.md"; stamp "$res/values.md";;
avro-first) bash scripts/figures/avro-first.sh "$res/avro-first.md";;
change) bash scripts/figures/change.sh "$res/change-speed.txt" "${BEFORE:-8e9b858}" HEAD;;
scale) bash scripts/figures/scale.sh "$res/scale.txt";;
memory) bash scripts/figures/memory.sh "$res/memory" 2 "${BEFORE:-c86ce32}" HEAD;;
calibrate)
  bash scripts/figures/calibrate.sh 10 --pipeline=false > "$res/calibration.txt" 2>&1
  bash scripts/figures/calibrate.sh 4 --messages telemetry.v1.TelemetryEvent --broker embedded > "$res/calibration-pipeline.txt" 2>&1
  stamp "$res/calibration.txt"; stamp "$res/calibration-pipeline.txt"
  ;;
cpu) bash scripts/figures/cpu.sh;;
count-cost) bash scripts/figures/count-cost.sh "${BEFORE:-b09a774}" "$res/count-cost.txt";;
cpu-stage) bash scripts/figures/cpu-stage.sh "${BEFORE:-b09a774}" "$res/cpu-stage.txt";;
batch-aa) bash scripts/figures/batch-aa.sh 3 "$res/batch-aa.txt";;
profiles) bash scripts/figures/profiles.sh 2 "$res/profiles.txt";;
release) bash scripts/figures/release.sh "$res/release-wall.txt";;
added-cpu) bash scripts/figures/cpu-stage.sh "${BEFORE:-70fffe2}" "$res/added-content-cpu-stage.txt";;
release-history) bash scripts/figures/release-history.sh "${BEFORE:-70fffe2}" "$res/release-history.txt";;
tight-budget) bash scripts/figures/tight-budget.sh 3 "$res/tight-budget-nan.txt";;
cli) bash scripts/figures/cli.sh > "$res/cli-figures.txt";;
power) bash scripts/figures/power.sh "${BEFORE:-bb743f1}" 2 "$res/power.txt";;
rounds) bash scripts/figures/rounds.sh "$res/round-calibration.txt";;
drain) bash scripts/figures/drain.sh "$res/drain-target.txt";;
benchtime) bash scripts/figures/benchtime.sh "$res/benchtime.txt";;
beside) bash scripts/figures/beside.sh "$res/beside-interference.txt";;
pipe-beside) bash scripts/figures/pipe-beside.sh "$res/pipe-beside-interference.txt";;
shards) bash scripts/figures/shards.sh "$res/shards.md";;
prices) bash scripts/figures/prices.sh "$res/prices-measured.md" 24;;
prices-static) bash scripts/figures/prices.sh "$res/prices-static.md" 24 static;;
*) echo "unknown figure set $w" >&2; exit 2;;
esac; echo "figures: $w done"; done
