#!/usr/bin/env bash
# Formatters and linters, as .ci/run runs them: no merge conflict
# markers; gofmt, go vet and
# staticcheck over the harness; tsc and ESLint (eslint.config.js) over the
# action. Exits non-zero on the first finding.
set -euo pipefail
cd "$(dirname "$0")/.."
staticcheck_version=v0.8.2 # honnef.co/go/tools: pinned so a new check never fails an old commit

echo "== merge conflict markers"
if git grep -nE '^(<<<<<<< |>>>>>>> |=======$)' -- . ':!dist' ':!node_modules'; then
  echo "merge conflict markers: resolve them" >&2
  exit 1
fi
echo "== gofmt"
unformatted=$(gofmt -l harness)
if [ -n "$unformatted" ]; then
  echo "gofmt: these files are not formatted (run gofmt -w):" >&2
  echo "$unformatted" >&2
  exit 1
fi
# harness/program/codec/avrohamba is a module of its own (the opt-in avro-hamba codec).
for module in harness harness/program/codec/avrohamba; do
  echo "== go vet ($module)"
  (cd "$module" && go vet ./...)
  echo "== staticcheck $staticcheck_version ($module)"
  (cd "$module" && go run "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version" ./...)
done
echo "== tsc --noEmit"
npx tsc -p tsconfig.json --noEmit
echo "== eslint"
npx eslint .
