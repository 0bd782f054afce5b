package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/piperounds"
)

// pipelineCLI runs `wiregate pipeline` on telemetry against spec and
// checks every format drained exactly N verified records in a capped
// consumer.
func pipelineCLI(t *testing.T, spec, wantKind string) {
	t.Helper()
	r := runWiregate(t, "pipeline", "--buf-input", repoRoot(t), "--messages", "telemetry.v1.TelemetryEvent",
		"--formats", "json,protobuf,avro", "--broker", spec, "--pipeline-messages", "20000", "--rounds", "2", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var res []piperounds.Summary
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if len(res) != 3 {
		t.Fatalf("%d results, want 3", len(res))
	}
	for _, x := range res {
		if !x.Verified || x.N != 20000 || x.Rounds != 2 || len(x.RPSSamples) != 2 || x.RPS <= 0 || x.RawNsPerMsg <= 0 || x.Broker != wantKind || x.ConsumerPeakRSSBytes <= 0 {
			t.Errorf("result %+v", x)
		}
		if x.Cap == "" {
			t.Errorf("%s: the consumer's cap is not stated", x.Format)
		}
	}
}

func TestPipelineCLIEmbedded(t *testing.T) { pipelineCLI(t, "embedded", "embedded") }

// Against the real Apache Kafka broker scripts/kafka.sh starts (CI sets
// WIREGATE_KAFKA_BROKERS); on CI a missing broker is a failure, not a skip.
func TestPipelineCLIRealKafka(t *testing.T) {
	addr := os.Getenv("WIREGATE_KAFKA_BROKERS")
	if addr == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("WIREGATE_KAFKA_BROKERS is not set on CI: scripts/test.sh should start Kafka")
		}
		t.Skip("no Kafka broker: run scripts/kafka.sh start and set WIREGATE_KAFKA_BROKERS")
	}
	pipelineCLI(t, addr, "external")
}

func TestPipelineCLIBadInput(t *testing.T) {
	wantBadInput(t, runWiregate(t, "pipeline", "--buf-input", repoRoot(t), "--pipeline-messages", "0"), "--pipeline-messages 0")
	wantBadInput(t, runWiregate(t, "pipeline", "--buf-input", repoRoot(t), "--rounds", "0"), "--rounds 0")
	wantBadInput(t, runWiregate(t, "pipeline", "--buf-input", repoRoot(t), "--compression", "brotli"), `--compression is "brotli": not a codec`)
	wantBadInput(t, runWiregate(t, "pipeline", "--buf-input", repoRoot(t), "--pipeline-bytes", "1KiB"), `--pipeline-bytes is "1KiB": want a byte size from 1MiB`)
	wantBadInput(t, runWiregate(t, "pipeline", "--buf-input", repoRoot(t), "--messages", "telemetry.v1.TelemetryEvent",
		"--broker", "127.0.0.1:1", "--pipeline-messages", "10"), "127.0.0.1:1")
}

// On GitHub's runners Docker is present: the CI workflow sets
// WIREGATE_REDPANDA_TEST=1 and the Redpanda testcontainer path runs for real.
// Here (no Docker daemon) the fail-fast path is tested in package broker.
func TestPipelineCLIRedpanda(t *testing.T) {
	if os.Getenv("WIREGATE_REDPANDA_TEST") != "1" {
		t.Skip("set WIREGATE_REDPANDA_TEST=1 where a Docker daemon runs")
	}
	pipelineCLI(t, "redpanda", "redpanda")
}
