package pipeline_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wiregate/wiregate/harness/program/broker"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/pipeline"
	"github.com/wiregate/wiregate/harness/program/proc"
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
	case "consumer-server":
		os.Exit(consumerServer())
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

// parseSpec reads the flags ConsumerSpec.Args wrote, as the bench
// program's pipeline-consume does.
func parseSpec(args []string) (pipeline.ConsumerSpec, error) {
	var spec pipeline.ConsumerSpec
	fs := flag.NewFlagSet("consumer", flag.ContinueOnError)
	spec.Define(fs)
	if err := fs.Parse(args); err != nil {
		return spec, err
	}
	return spec, spec.Validate()
}

// faultyConsumer is a consumer process as the bench program runs it (a
// signal stops it), with the fault faultEnv names, if any.
func faultyConsumer(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fault := os.Getenv(faultEnv)
	spec, err := parseSpec(args)
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
	case "pause-at-half", "hang-at-half":
		// Small fetches so that the drain spans many requests; at half, tell
		// the test, and wait until it has killed the broker (or, hanging,
		// until the test interrupts the drain).
		o.FetchMaxBytes = 16 << 10
		dir := os.Getenv(dirEnv)
		o.Decode = func(off int64, p []byte) error {
			if off == o.N/2 {
				_ = os.WriteFile(filepath.Join(dir, "half"), nil, 0o644)
				_ = os.WriteFile(filepath.Join(dir, "pid"), []byte(fmt.Sprint(os.Getpid())), 0o644)
				if fault == "hang-at-half" {
					<-ctx.Done()
					return ctx.Err()
				}
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

// consumerServer is the long-lived consumer as the bench program runs it
// (pipeline.Serve), decoding the test's records; the row "test.v1.Bad/test"
// has no decoder, and a request for the row "test.v1.Exit/test" ends the
// process at once, as a crash would.
func consumerServer() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := pipeline.Serve(ctx, os.Stdin, os.Stdout, func(message, format string) (pipeline.Decoder, error) {
		switch message {
		case "test.v1.Bad":
			return nil, errors.New("test.v1.Bad/test is not in this consumer's selection")
		case "test.v1.Exit":
			fmt.Fprintln(os.Stderr, "consumer crashed on purpose")
			os.Exit(3)
		}
		return decodeRecord, nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
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
func consumerCommand(fault, dir string) func(context.Context, pipeline.ConsumerSpec) *proc.Cmd {
	return func(ctx context.Context, spec pipeline.ConsumerSpec) *proc.Cmd {
		cmd := proc.Command(ctx, os.Args[0], spec.Args()...)
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
	b, err := broker.Start(testContext(t), "embedded", broker.WithEmbeddedCommand(func() *proc.Cmd {
		cmd := proc.Command(context.Background(), os.Args[0])
		cmd.Env = append(os.Environ(), roleEnv+"=embedded-broker")
		return cmd
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func fillOptions(b *broker.Broker) pipeline.FillOptions {
	return pipeline.FillOptions{Brokers: b.Addrs, Message: "test.v1.Record", Format: "test", N: testN, Payloads: payloads()}
}

// measured is one backlog measured as piperounds measures one side: fill,
// a raw drain, a decoded drain, then the topic deleted.
type measured struct {
	backlog          pipeline.Backlog
	decoded, rawOnly pipeline.ConsumeResult
}

func measure(ctx context.Context, o pipeline.FillOptions, command func(context.Context, pipeline.ConsumerSpec) *proc.Cmd) (m measured, err error) {
	m.backlog, err = pipeline.Fill(ctx, o)
	if err != nil {
		return m, err
	}
	defer func() {
		if derr := m.backlog.Delete(ctx); err == nil {
			err = derr
		}
	}()
	if m.rawOnly, err = m.backlog.Drain(ctx, true, command); err != nil {
		return m, err
	}
	m.decoded, err = m.backlog.Drain(ctx, false, command)
	return m, err
}

func checkMeasured(t *testing.T, brokers []string, m measured) {
	t.Helper()
	res := m.decoded
	t.Logf("topic %s: %.0f records/s, %.1f ns/record, raw %.1f ns/record, cap %s", m.backlog.Topic, res.RPS, res.NsPerMsg, m.rawOnly.NsPerMsg, res.Cap)
	if res.N != testN || res.RPS <= 0 || res.NsPerMsg <= 0 || m.rawOnly.NsPerMsg <= 0 || res.PeakRSSBytes <= 0 {
		t.Fatalf("result = %+v, raw %+v", res, m.rawOnly)
	}
	if !strings.HasPrefix(m.backlog.Topic, pipeline.TopicPrefix) {
		t.Errorf("topic %q lacks the %s prefix", m.backlog.Topic, pipeline.TopicPrefix)
	}
	if !strings.Contains(res.Cap, "GOMAXPROCS=1 GOMEMLIMIT=512MiB cpus=1") {
		t.Errorf("cap = %q, want GOMAXPROCS=1, GOMEMLIMIT=512MiB and one CPU", res.Cap)
	}
	if topics := listTopics(t, brokers); topics[m.backlog.Topic] {
		t.Errorf("topic %s still exists after Delete", m.backlog.Topic)
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

func TestMeasureEmbedded(t *testing.T) {
	b := embedded(t)
	m, err := measure(testContext(t), fillOptions(b), consumerCommand("", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	checkMeasured(t, b.Addrs, m)
}

// TestMeasureRealKafka runs against the Apache Kafka broker of scripts/kafka.sh
// (scripts/test.sh exports its address). In CI it must run, not skip.
func TestMeasureRealKafka(t *testing.T) {
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
	m, err := measure(ctx, fillOptions(b), consumerCommand("", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	checkMeasured(t, b.Addrs, m)
	if !listTopics(t, b.Addrs)[sentinel] {
		t.Errorf("topic %s existed before the run and is gone after", sentinel)
	}
}

func TestFillBrokerUnreachable(t *testing.T) {
	o := pipeline.FillOptions{Brokers: []string{"127.0.0.1:1"}, N: testN, Payloads: payloads(), ConnectTimeout: 3 * time.Second}
	_, err := pipeline.Fill(testContext(t), o)
	wantError(t, err, exitcode.Unusable, "127.0.0.1:1", "unreachable")
}

func TestFillRefusesBadN(t *testing.T) {
	for _, n := range []int64{0, -5, pipeline.MaxN + 1} {
		o := pipeline.FillOptions{Brokers: []string{"127.0.0.1:1"}, N: n, Payloads: payloads()}
		_, err := pipeline.Fill(testContext(t), o)
		wantError(t, err, exitcode.Unusable, "--pipeline-messages", fmt.Sprint(n))
	}
}

func faultRun(t *testing.T, fault string) error {
	t.Helper()
	_, err := measure(testContext(t), fillOptions(embedded(t)), consumerCommand(fault, t.TempDir()))
	return err
}

func TestConsumerStopsEarly(t *testing.T) {
	wantError(t, faultRun(t, "stop-early"), exitcode.Unusable, "received 10000 of 20000 records")
}

func TestConsumerStallsShortOfN(t *testing.T) {
	wantError(t, faultRun(t, "short-topic"), exitcode.Unusable, "no record for 2s after 20000 of 20001 records")
}

func TestChecksumMismatch(t *testing.T) {
	wantError(t, faultRun(t, "corrupt"), exitcode.Unusable, "checksum", "differs")
}

func TestDecodeError(t *testing.T) {
	wantError(t, faultRun(t, "decode-error"), exitcode.Unusable, "offset 123", "corrupt field 7")
}

func TestBrokerKilledMidRun(t *testing.T) {
	b := embedded(t)
	ctx := testContext(t)
	// Batches of a few records: a consumer fetches whole batches, and one
	// 1 MiB batch could hold the backlog's second half before the pause.
	o := fillOptions(b)
	o.BatchMaxBytes = 16 << 10
	bl, err := pipeline.Fill(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	go func() {
		if waitForFile(filepath.Join(dir, "half"), time.Minute) {
			_ = b.Kill()
			_ = os.WriteFile(filepath.Join(dir, "killed"), nil, 0o644)
		}
	}()
	_, err = bl.Drain(ctx, false, consumerCommand("pause-at-half", dir))
	wantError(t, err, exitcode.Unusable, "of 20000 records")
	if strings.Contains(err.Error(), "after 0 of") {
		t.Errorf("the consumer failed before the broker was killed: %v", err)
	}
}

// Cancelling a drain's context (a signal to the gate) stops the consumer
// process at once and says why.
func TestInterruptedDrainStopsTheConsumer(t *testing.T) {
	b := embedded(t)
	bl, err := pipeline.Fill(testContext(t), fillOptions(b))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cause := errors.New("interrupted by SIGINT")
	ctx, cancel := context.WithCancelCause(testContext(t))
	go func() {
		if waitForFile(filepath.Join(dir, "half"), time.Minute) {
			cancel(cause)
		}
	}()
	start := time.Now()
	_, err = bl.Drain(ctx, false, consumerCommand("hang-at-half", dir))
	if !errors.Is(err, cause) {
		t.Fatalf("drain error %v does not carry the interruption", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the interrupted drain took %s", d)
	}
	pid, _ := os.ReadFile(filepath.Join(dir, "pid"))
	if p, err := strconv.Atoi(string(pid)); err != nil || syscall.Kill(p, 0) != syscall.ESRCH {
		t.Errorf("consumer %q is still running after the interrupted drain (%v)", pid, err)
	}
}

// DeleteTopics removes a run's topics, also one a fill never reported, and
// nothing else.
func TestDeleteTopicsByRunPrefix(t *testing.T) {
	b := embedded(t)
	ctx := testContext(t)
	adm := admin(t, b.Addrs)
	prefix := pipeline.NewRunPrefix()
	other := pipeline.NewRunPrefix() + "x"
	for _, n := range []string{prefix + "head-json-1", prefix + "base-json-2", other, "someone-elses"} {
		if _, err := adm.CreateTopic(ctx, 1, 1, nil, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := pipeline.DeleteTopics(ctx, b.Addrs, prefix); err != nil {
		t.Fatal(err)
	}
	topics := listTopics(t, b.Addrs)
	if topics[prefix+"head-json-1"] || topics[prefix+"base-json-2"] || !topics[other] || !topics["someone-elses"] {
		t.Fatalf("after DeleteTopics(%s): %v", prefix, topics)
	}
	for _, bad := range []string{"", pipeline.TopicPrefix, "someone-"} {
		if err := pipeline.DeleteTopics(ctx, b.Addrs, bad); err == nil {
			t.Errorf("DeleteTopics(%q) was not refused", bad)
		}
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
	o := fillOptions(b)
	o.Topic = name
	_, err := pipeline.Fill(ctx, o)
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
	got, err := parseSpec(spec.Args())
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(spec) {
		t.Fatalf("round trip: %+v, want %+v", got, spec)
	}
	if _, err := parseSpec([]string{"--topic", "x"}); err == nil {
		t.Fatal("a spec without brokers and n was accepted")
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
	m, err := measure(testContext(t), fillOptions(b), consumerCommand("", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.decoded.Cap, "cpus=1 (pinned by self)") {
		t.Fatalf("cap = %q, want one CPU pinned by the consumer itself", m.decoded.Cap)
	}
	t.Log(m.decoded.Cap)
}

// The fill's producer compresses with the codec it is given (the gate's
// first compression codec), so the backlog is stored as the compressed
// size measures it: every batch the broker holds carries that codec.
func TestFillCompressesWithTheGivenCodec(t *testing.T) {
	b := embedded(t)
	for codec, id := range map[string]int16{"none": 0, "gzip": 1, "lz4": 3, "zstd": 4} {
		o := fillOptions(b)
		o.Compression, o.N = codec, 500
		bl, err := pipeline.Fill(testContext(t), o)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addrs...), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{bl.Topic: {0: kgo.NewOffset().AtStart()}}))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int16]int{}
		for n := 0; n < int(o.N); {
			fs := cl.PollFetches(testContext(t))
			if err := fs.Err(); err != nil {
				t.Fatal(err)
			}
			fs.EachPartition(func(p kgo.FetchTopicPartition) {
				for _, r := range p.Records {
					seen[int16(r.Attrs.CompressionType())]++
					n++
				}
			})
		}
		cl.Close()
		if len(seen) != 1 || seen[id] != int(o.N) {
			t.Errorf("%s: records by codec id %v, want all %d as %d", codec, seen, o.N, id)
		}
		_ = bl.Delete(testContext(t))
	}
}

// One long-lived consumer drains backlog after backlog, of one row and of
// another, raw and decoded, each verified (count, checksum) and capped as
// a fresh consumer is; a row it cannot decode is that drain's one-line
// error and the consumer goes on; a consumer that dies is a one-line error
// naming what it said; Close ends it.
func TestOneConsumerDrainsBacklogAfterBacklog(t *testing.T) {
	b := embedded(t)
	ctx := testContext(t)
	c, err := pipeline.StartConsumer(serverCommand(ctx))
	if err != nil {
		t.Fatal(err)
	}
	var backlogs []pipeline.Backlog
	for _, message := range []string{"test.v1.A", "test.v1.B"} {
		o := fillOptions(b)
		o.Message = message
		bl, err := pipeline.Fill(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = bl.Delete(context.Background()) })
		backlogs = append(backlogs, bl)
	}
	for _, bl := range append(backlogs, backlogs[0]) {
		for _, raw := range []bool{true, false, false} {
			res, err := c.Drain(ctx, bl, raw)
			if err != nil {
				t.Fatalf("%s raw=%v: %v", bl.Message, raw, err)
			}
			if res.N != testN || res.RPS <= 0 || !strings.Contains(res.Cap, "GOMAXPROCS=1 GOMEMLIMIT=512MiB cpus=1") {
				t.Fatalf("%s raw=%v: %+v", bl.Message, raw, res)
			}
		}
	}
	// A checksum that does not match is an error, never a figure.
	wrong := backlogs[1]
	wrong.Checksum ^= 1
	if _, err := c.Drain(ctx, wrong, false); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a changed checksum: %v", err)
	}
	bad := backlogs[0]
	bad.Message = "test.v1.Bad"
	if _, err := c.Drain(ctx, bad, false); err == nil || !strings.Contains(err.Error(), "not in this consumer's selection") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a row it cannot decode: %v", err)
	}
	if _, err := c.Drain(ctx, backlogs[1], false); err != nil {
		t.Errorf("after a failed drain the consumer goes on: %v", err)
	}
	exit := backlogs[0]
	exit.Message = "test.v1.Exit"
	if _, err := c.Drain(ctx, exit, false); err == nil || !strings.Contains(err.Error(), "crashed on purpose") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a consumer that died: %v", err)
	}
	if err := c.Close(); err == nil {
		t.Error("Close of a consumer that died said nothing")
	}

	// Cancelling a drain stops the consumer at once.
	c, err = pipeline.StartConsumer(serverCommand(ctx))
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Drain(cctx, backlogs[0], false); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled drain: %v", err)
	}
	c.Close()
}

func serverCommand(ctx context.Context) *proc.Cmd {
	cmd := proc.Command(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"=consumer-server")
	return cmd
}
