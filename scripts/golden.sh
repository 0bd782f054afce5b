#!/usr/bin/env bash
# Regenerates the golden comments: test/golden/*.json from the fail fixture,
# real buf runs and real gate runs of a few seconds (avro-first, sharded:
# kept while a rerun measures the same; TestGoldenReportsAreFresh fails
# when any is stale), then every test/golden/*.md from the renderer
# (harness/parent/render's TestGoldenComments fails when one differs).
# Review the diff: it is what
# reviewers will read.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH" # buf: without it the Go golden test skips
(cd harness && go test -count=1 -run 'TestGoldenReportsAreFresh' ./parent/gate -update)
npm run golden
