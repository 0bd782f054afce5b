#!/usr/bin/env bash
# Regenerates the action's test reports (test/fixtures/*.json) from real
# `wiregate gate` runs on this repo's schemas; TestActionFixturesAreFresh
# fails when they no longer match what the gate writes.
set -euo pipefail
cd "$(dirname "$0")/../harness"
go test -count=1 -run 'TestUpdateActionFixtures' ./parent/gate -update -v
