package pipeline_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wiregate/wiregate/harness/broker"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/pipeline"
)

// The test binary doubles as the embedded broker's process and as the
// consumer process (optionally a faulty one), chosen by env vars.
const (
	roleEnv  = "WIREGATE_PIPELINE_TEST_ROLE"
	faultEnv = "WIREGATE_PIPELINE_TEST_FAULT"
	dirEnv   = "WIREGATE_PIPELINE_TEST_DIR"
	testN    = 20_000
)

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "embedded-broker":
		if err := broker.ServeEmbedded(context.Background(), os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "consumer":
		os.Exit(faultyConsumer(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// decodeRecord is the test's "codec": a uvarint length, then that many bytes.
func decodeRecord(_ int64, p []byte) error {
	n, k := binary.Uvarint(p)
	if k <= 0 || int(n) != len(p)-k {
		return fmt.Errorf("bad record: length %d, %d bytes follow", n, len(p)-k)
	}
	return nil
}

func payloads() [][]byte {
	var ps [][]byte
	for i := 0; i < 256; i++ {
		body := []byte(strings.Repeat(fmt.Sprintf("record %03d ", i), 5+i%20))
		ps = append(ps, append(binary.AppendUvarint(nil, uint64(len(body))), body...))
	}
	return ps
}

// faultyConsumer is ConsumerMain, or a consumer with the fault faultEnv names.
func faultyConsumer(args []string) int {
	ctx := context.Background()
	fault := os.Getenv(faultEnv)
	if fault == "" {
		return pipeline.ConsumerMain(ctx, args, decodeRecord, os.Stdout, os.Stderr)
	}
	spec, err := pipeline.ParseConsumerArgs(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	o := spec.Options(decodeRecord)
	switch fault {
	case "stop-early", "short-topic":
		// stop-early reports half the records (a consumer that gave up);
		// short-topic expects one record more than the topic holds.
		o.N++
		o.Idle = 2 * time.Second
	case "decode-error":
		o.Decode = func(off int64, p []byte) error {
			if off == 123 {
				return errors.New("corrupt field 7")
			}
			return decodeRecord(off, p)
		}
	case "pause-at-half":
		// Small fetches so that the drain spans many requests; at half, tell
		// the test, and wait until it has killed the broker.
		o.FetchMaxBytes = 16 << 10
		dir := os.Getenv(dirEnv)
		o.Decode = func(off int64, p []byte) error {
			if off == o.N/2 {
				_ = os.WriteFile(filepath.Join(dir, "half"), nil, 0o644)
				waitForFile(filepath.Join(dir, "killed"), 30*time.Second)
			}
			return decodeRecord(off, p)
		}
	}
	res, err := pipeline.Consume(ctx, o)
	if fault == "stop-early" && err != nil {
		res = pipeline.ConsumeResult{N: spec.N / 2, Checksum: 1}
		err = nil
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if fault == "corrupt" {
		res.Checksum ^= 1
	}
	_ = json.NewEncoder(os.Stdout).Encode(res)
	return 0
}

func waitForFile(path string, limit time.Duration) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return true
		}
	}
	return false
}

// consumerCommand re-executes the test binary as a consumer with fault.
func consumerCommand(fault, dir string) func(context.Context, pipeline.ConsumerSpec) *exec.Cmd {
	return func(_ context.Context, spec pipeline.ConsumerSpec) *exec.Cmd {
		cmd := exec.Command(os.Args[0], spec.Args()...)
		cmd.Env = append(os.Environ(), roleEnv+"=consumer", faultEnv+"="+fault, dirEnv+"="+dir)
		return cmd
	}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func embedded(t *testing.T) *broker.Broker {
	t.Helper()
	b, err := broker.Start(testContext(t), "embedded", broker.WithEmbeddedCommand(func() *exec.Cmd {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), roleEnv+"=embedded-broker")
		return cmd
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func options(b *broker.Broker, fault string, t *testing.T) pipeline.Options {
	return pipeline.Options{
		Brokers: b.Addrs, BrokerKind: b.Kind, Message: "test.v1.Record", Format: "test",
		N: testN, Payloads: payloads(), ConsumerCommand: consumerCommand(fault, t.TempDir()),
		Idle: 5 * time.Second,
	}
}

func checkResult(t *testing.T, brokers []string, res pipeline.Result) {
	t.Helper()
	t.Log(res.Line(), "cap:", res.Cap)
	if !res.Verified || res.N != testN || res.RPS <= 0 || res.NsPerMsg <= 0 || res.RawNsPerMsg <= 0 || res.ConsumerPeakRSSBytes <= 0 {
		t.Fatalf("result = %+v", res)
	}
	if !strings.HasPrefix(res.Topic, pipeline.TopicPrefix) {
		t.Errorf("topic %q lacks the %s prefix", res.Topic, pipeline.TopicPrefix)
	}
	if !strings.Contains(res.Cap, "GOMAXPROCS=1 GOMEMLIMIT=512MiB cpus=1") {
		t.Errorf("cap = %q, want GOMAXPROCS=1, GOMEMLIMIT=512MiB and one CPU", res.Cap)
	}
	if !strings.HasPrefix(res.Line(), "RESULT message=test.v1.Record format=test ") {
		t.Errorf("line = %q", res.Line())
	}
	if topics := listTopics(t, brokers); topics[res.Topic] {
		t.Errorf("topic %s still exists after Run", res.Topic)
	}
}

func listTopics(t *testing.T, brokers []string) map[string]bool {
	t.Helper()
	adm := admin(t, brokers)
	td, err := adm.ListTopics(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, n := range td.Names() {
		names[n] = true
	}
	return names
}

func admin(t *testing.T, brokers []string) *kadm.Client {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return kadm.NewClient(cl)
}

func TestRunEmbedded(t *testing.T) {
	b := embedded(t)
	res, err := pipeline.Run(testContext(t), options(b, "", t))
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, b.Addrs, res)
	if res.Broker != broker.KindEmbedded {
		t.Errorf("broker = %q", res.Broker)
	}
}

// TestRunRealKafka runs against the Apache Kafka broker of scripts/kafka.sh
// (scripts/test.sh exports its address). In CI it must run, not skip.
func TestRunRealKafka(t *testing.T) {
	addrs := os.Getenv("WIREGATE_KAFKA_BROKERS")
	if addrs == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but WIREGATE_KAFKA_BROKERS is not set: run scripts/kafka.sh start and export its addr (scripts/test.sh does)")
		}
		t.Skip("WIREGATE_KAFKA_BROKERS not set (bash scripts/kafka.sh start; export WIREGATE_KAFKA_BROKERS=$(bash scripts/kafka.sh addr))")
	}
	b, err := broker.Start(testContext(t), addrs)
	if err != nil {
		t.Fatal(err)
	}
	// A topic of someone else's must survive the run. (Other packages'
	// tests share this broker and delete their own topics concurrently, so
	// the check is on a sentinel, not on every topic listed before.)
	ctx := testContext(t)
	adm := admin(t, b.Addrs)
	sentinel := fmt.Sprintf("someone-elses-topic-%d", time.Now().UnixNano())
	if _, err := adm.CreateTopic(ctx, 1, 1, nil, sentinel); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = adm.DeleteTopic(context.WithoutCancel(ctx), sentinel) })
	res, err := pipeline.Run(ctx, options(b, "", t))
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, b.Addrs, res)
	if !listTopics(t, b.Addrs)[sentinel] {
		t.Errorf("topic %s existed before Run and is gone after", sentinel)
	}
}

func TestRunBrokerUnreachable(t *testing.T) {
	o := pipeline.Options{
		Brokers: []string{"127.0.0.1:1"}, N: testN, Payloads: payloads(),
		ConsumerCommand: consumerCommand("", t.TempDir()), ConnectTimeout: 3 * time.Second,
	}
	_, err := pipeline.Run(testContext(t), o)
	wantError(t, err, exitcode.Unusable, "127.0.0.1:1", "unreachable")
}

func TestRunRefusesBadN(t *testing.T) {
	for _, n := range []int64{0, -5, pipeline.MaxN + 1} {
		o := pipeline.Options{Brokers: []string{"127.0.0.1:1"}, N: n, Payloads: payloads(), ConsumerCommand: consumerCommand("", "")}
		_, err := pipeline.Run(testContext(t), o)
		wantError(t, err, exitcode.Unusable, "pipeline-messages", fmt.Sprint(n))
	}
}

func TestConsumerStopsEarly(t *testing.T) {
	b := embedded(t)
	_, err := pipeline.Run(testContext(t), options(b, "stop-early", t))
	wantError(t, err, exitcode.Unusable, "received 10000 of 20000 records")
}

func TestConsumerStallsShortOfN(t *testing.T) {
	b := embedded(t)
	_, err := pipeline.Run(testContext(t), options(b, "short-topic", t))
	wantError(t, err, exitcode.Unusable, "no record for 2s after 20000 of 20001 records")
}

func TestChecksumMismatch(t *testing.T) {
	b := embedded(t)
	_, err := pipeline.Run(testContext(t), options(b, "corrupt", t))
	wantError(t, err, exitcode.Unusable, "checksum", "differs")
}

func TestDecodeError(t *testing.T) {
	b := embedded(t)
	_, err := pipeline.Run(testContext(t), options(b, "decode-error", t))
	wantError(t, err, exitcode.Unusable, "offset 123", "corrupt field 7")
}

func TestBrokerKilledMidRun(t *testing.T) {
	b := embedded(t)
	o := options(b, "pause-at-half", t)
	dir := t.TempDir()
	o.ConsumerCommand = consumerCommand("pause-at-half", dir)
	go func() {
		if waitForFile(filepath.Join(dir, "half"), time.Minute) {
			_ = b.Kill()
			_ = os.WriteFile(filepath.Join(dir, "killed"), nil, 0o644)
		}
	}()
	_, err := pipeline.Run(testContext(t), o)
	wantError(t, err, exitcode.Unusable, "of 20000 records")
	if strings.Contains(err.Error(), "after 0 of") {
		t.Errorf("the consumer failed before the broker was killed: %v", err)
	}
}

func TestExistingTopicIsNeverReused(t *testing.T) {
	b := embedded(t)
	ctx := testContext(t)
	adm := admin(t, b.Addrs)
	const name = "wiregate-existing"
	if _, err := adm.CreateTopic(ctx, 1, 1, nil, name); err != nil {
		t.Fatal(err)
	}
	o := options(b, "", t)
	o.Topic = name
	_, err := pipeline.Run(ctx, o)
	wantError(t, err, exitcode.Unusable, name, "already exists")
	ends, err := adm.ListEndOffsets(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if end, ok := ends.Lookup(name, 0); !ok || end.Err != nil || end.Offset != 0 {
		t.Fatalf("the existing topic was touched: %+v", end)
	}
}

func TestConsumerArgsRoundTrip(t *testing.T) {
	spec := pipeline.ConsumerSpec{Brokers: []string{"a:1", "b:2"}, Topic: "wiregate-x", N: 42, Raw: true, Timeout: time.Minute, Idle: 3 * time.Second}
	got, err := pipeline.ParseConsumerArgs(spec.Args())
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(spec) {
		t.Fatalf("round trip: %+v, want %+v", got, spec)
	}
	if _, err := pipeline.ParseConsumerArgs([]string{"-topic", "x"}); err == nil {
		t.Fatal("ParseConsumerArgs accepted args without brokers and n")
	}
}

func wantError(t *testing.T, err error, code int, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one saying %q", wants)
	}
	t.Log(err)
	if exitcode.Code(err) != code {
		t.Errorf("exit code %d, want %d: %v", exitcode.Code(err), code, err)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
}

// Without taskset the consumer pins its own threads, and says so.
func TestConsumerPinsItselfWithoutTaskset(t *testing.T) {
	b := embedded(t)
	t.Setenv("PATH", t.TempDir()) // no taskset to be found
	res, err := pipeline.Run(testContext(t), options(b, "", t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Cap, "cpus=1 (pinned by self)") {
		t.Fatalf("cap = %q, want one CPU pinned by the consumer itself", res.Cap)
	}
	t.Log(res.Cap)
}
