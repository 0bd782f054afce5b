#!/usr/bin/env bash
# Reruns every figure docs/figures.md quotes, sequentially (run it on an otherwise
# idle machine: timings from a busy one are noise). Results go to
# docs/results/. Takes about two hours on the 2-core development machine.
#   scripts/figures.sh [codec|overhead|prepare|pipeline|memory|change|scale|paired|calibrate|cpu|avro]...   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
res=$root/docs/results
mkdir -p "$res"
export PATH="$root/node_modules/.bin:$PATH"
go build -o /tmp/wiregate-figures ./harness/cmd/wiregate
wg=/tmp/wiregate-figures
which=("$@"); [ ${#which[@]} -eq 0 ] && which=(codec overhead prepare pipeline memory change scale paired calibrate cpu avro)

for w in "${which[@]}"; do case $w in
codec) # Issue 2: the published telemetry table.
  $wg sizes --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent \
     --formats json,protobuf,avro,msgpack,cbor > "$res/telemetry-sizes.txt"
  $wg bench --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent \
     --formats json,protobuf,avro,msgpack,cbor --count 10 --benchtime 1s -o "$res/telemetry-bench.txt"
  go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da "$res/telemetry-bench.txt" 2>/dev/null | sed "s|$res/||" > "$res/telemetry-benchstat.txt" \
    || (cd harness && go run ./cmd/wiregate compare "$res/telemetry-bench.txt" "$res/telemetry-bench.txt" > "$res/telemetry-benchstat.txt")
  ;;
avro) # Issue 18: twmb/avro (avro) against hamba/avro (avro-hamba), side by side in one run; agreement with Java.
  $wg sizes --buf-input . --harness-dir harness --formats avro,avro-hamba > "$res/avro-sizes.txt"
  $wg instructions --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent \
     --formats avro,avro-hamba -o "$res/avro-instructions.txt"
  $wg bench --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent \
     --formats avro,avro-hamba --count 20 --benchtime 500ms -o "$res/avro-bench.txt"
  (cd harness && go run golang.org/x/perf/cmd/benchstat "$res/avro-bench.txt") | sed "s|$res/||" > "$res/avro-benchstat.txt"
  (cd harness && go test -count=1 ./parent/avrocompat -run TestJavaAgreement -v) | grep agrees | sed 's/^ *//' > "$res/avro-java-agreement.txt"
  ;;
overhead) # Issue 2: harness vs direct library calls.
  (cd harness && go test ./program/codec -run '^$' -bench 'Overhead(Decode|Encode)' -count 10 -benchtime 500ms) > "$res/overhead-bench.txt"
  (cd harness && go test ./program/codec -run '^$' -bench OverheadFloor -count 10 -benchtime 200ms) > "$res/overhead-floor.txt"
  ;;
prepare) # Issue 2: cold (empty Go build cache and wiregate cache) and warm prepare.
  cold=$(mktemp -d)
  { echo "# cold: empty GOCACHE and WIREGATE_CACHE"; GOCACHE=$cold/go WIREGATE_CACHE=$cold/wg $wg prepare --buf-input . --harness-dir harness
    echo "# warm: same caches, unchanged schemas"; GOCACHE=$cold/go WIREGATE_CACHE=$cold/wg $wg prepare --buf-input . --harness-dir harness
    echo "# changed schema (a field added), warm Go build cache"
    ch=$(mktemp -d); cp -r schemas buf.yaml "$ch/"
    sed -i 's#string region = 12;#string region = 12;\n  repeated string tags = 13;#' "$ch/schemas/telemetry/v1/telemetry_event.proto"
    GOCACHE=$cold/go WIREGATE_CACHE=$cold/wg $wg prepare --buf-input "$ch" --harness-dir harness; rm -rf "$ch"
  } > "$res/prepare.txt"; rm -rf "$cold"
  ;;
pipeline) # Issue 3: N = 2,000,000 telemetry records, embedded broker and real Kafka.
  { $wg pipeline --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent --formats json,protobuf,avro --broker embedded --pipeline-messages 2000000 --pipeline-bytes 1GiB
    bash scripts/kafka.sh start >/dev/null
    $wg pipeline --buf-input . --harness-dir harness --messages telemetry.v1.TelemetryEvent --formats json,protobuf,avro --broker "$(bash scripts/kafka.sh addr)" --pipeline-messages 2000000 --pipeline-bytes 1GiB
    bash scripts/kafka.sh stop >/dev/null
  } > "$res/pipeline-2m.txt" 2>&1
  ;;
memory) # Issue 9 item 6: peak RSS of the broker, fill and consumer processes on big records (batch.v1.LogBatch, ~12 kB of JSON).
  shapes=$root/harness/cmd/wiregate/testdata/shapes
  lb=(--messages batch.v1.LogBatch --formats json,protobuf,avro)
  { echo "# peak RSS of the pipeline's processes on batch.v1.LogBatch (scripts/peakrss.py; before the byte budget: pipeline-memory-before.txt)"
    echo "# wiregate pipeline, one side, defaults (N by count and bytes), embedded broker"
    python3 scripts/peakrss.py $wg pipeline --buf-input "$shapes" --harness-dir harness "${lb[@]}" --broker embedded 2>&1 | grep -E 'RESULT|PEAK_RSS role=(emb|pipe)'
    for n in "" 20000; do
      extra=(); [ -n "$n" ] && extra=(--pipeline-messages "$n" --pipeline-bytes 1GiB)
      echo "# wiregate gate A/A (base = head), defaults ${extra[*]}, embedded broker"
      python3 scripts/peakrss.py $wg gate --harness-dir harness --base-dir "$shapes" --working-directory "$shapes" "${lb[@]}" \
        --lint=false --breaking=false --measure all --broker embedded "${extra[@]}" --out /tmp/wiregate-memory --quiet 2>&1 | grep -E 'PEAK_RSS role=(emb|pipe)'
      python3 -c "import json; r=json.load(open('/tmp/wiregate-memory/report.json')); e=r['env']; print('report: result=%s backlogs=%s broker_peak_rss=%dMiB consumer_peak_rss=%dMiB pipeline=%.1fs' % (r['result'], sorted({(p['message'], p['backlog']['n']) for p in r['pipeline']}), e['broker_peak_rss_bytes']>>20, e['consumer_peak_rss_bytes']>>20, [s['seconds'] for s in r['stages'] if s['name']=='pipeline'][0]))"
    done
    bash scripts/kafka.sh start >/dev/null
    echo "# wiregate pipeline, one side, defaults, Apache Kafka 4.1.0 (heap 512m; its RSS before: $(grep VmHWM /proc/$(cat .kafka/pid)/status | tr -s ' '))"
    python3 scripts/peakrss.py --pid="$(cat .kafka/pid)" $wg pipeline --buf-input "$shapes" --harness-dir harness "${lb[@]}" --broker "$(bash scripts/kafka.sh addr)" 2>&1 | grep -E 'RESULT|PEAK_RSS role=(ext|pipe)'
    echo "kafka data dir after: $(du -sh .kafka/data.* | cut -f1)"
    bash scripts/kafka.sh stop >/dev/null
  } > "$res/pipeline-memory.txt"
  ;;
change) # Issue 17: this repo's gate, cold and warm, no schema / one message changed / measure all, before and after.
  bash scripts/change-figures.sh "$res/change-speed.txt" 8e9b858 HEAD
  ;;
scale) # Issue 17: the gate on generated 1,000-, 57- and 1,300-message modules, wall and peak RSS.
  bash scripts/scale-figures.sh "$res/scale.txt"
  ;;
paired) # Issue 16: base → head bytes/msg and instr/op per change kind (this checkout's gate; before: see the script).
  bash scripts/paired-figures.sh "$res/paired-figures.md"
  ;;
calibrate) # Issue 4: A/A false violations and power, with the defaults, no pipeline; then pipeline A/A.
  bash scripts/calibrate.sh 10 --pipeline=false > "$res/calibration.txt" 2>&1
  bash scripts/calibrate.sh 4 --messages telemetry.v1.TelemetryEvent --broker embedded > "$res/calibration-pipeline.txt" 2>&1
  ;;
cpu) # Issue 8: instructions/op under Valgrind (its own script: scripts/cpu-figures.sh).
  bash scripts/cpu-figures.sh
  ;;
*) echo "unknown figure set $w" >&2; exit 2;;
esac; echo "figures: $w done"; done
