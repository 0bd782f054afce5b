#!/usr/bin/env bash
# Runs every test of the repo: the Go harness (including pipeline tests against
# the embedded broker and a real Kafka broker started here) and the action's
# TypeScript tests. Assumes the tools .ci/run installs (npm ci, Java for Kafka).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH="$root/node_modules/.bin:$PATH"

kafka_started=""
cleanup() { if [ -n "$kafka_started" ]; then bash scripts/kafka.sh stop || true; fi; }
trap cleanup EXIT

if [ -f scripts/kafka.sh ] && [ "${WIREGATE_SKIP_KAFKA:-}" != "1" ]; then
  bash scripts/kafka.sh start
  kafka_started=1
  export WIREGATE_KAFKA_BROKERS="$(bash scripts/kafka.sh addr)"
fi

echo "== python tests (scripts)"
python3 scripts/gen_messages_test.py
echo "== go test (harness)"
(cd harness && go test -count=1 -timeout 20m ./...)
echo "== go test (harness/program/codec/avrohamba: the opt-in avro-hamba codec's own module)"
(cd harness/program/codec/avrohamba && go test -count=1 ./...)

if [ -d src ] && [ -f tsconfig.json ]; then
  echo "== node tests (action)"
  npm run --silent test:ts
fi
