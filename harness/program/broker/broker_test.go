package broker_test

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/parent/redpanda"
	"github.com/wiregate/wiregate/harness/program/broker"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// The test binary doubles as the embedded broker's process (and as a parent
// that starts one, for the parent-death test), chosen by an env var.
const roleEnv = "WIREGATE_BROKER_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "embedded-broker":
		if err := broker.ServeEmbedded(context.Background(), os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	case "parent":
		// Start an embedded broker, print its address, then wait to be killed.
		b, err := broker.Start(context.Background(), "embedded", broker.WithEmbeddedCommand(embeddedCommand))
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString(b.Addrs[0] + "\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func embeddedCommand() *proc.Cmd {
	cmd := proc.Command(context.Background(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), roleEnv+"=embedded-broker")
	return cmd
}

func withEmbedded() broker.Option { return broker.WithEmbeddedCommand(embeddedCommand) }

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestEmbeddedStartsAnswersAndCloses(t *testing.T) {
	ctx := testContext(t)
	b, err := broker.Start(ctx, "embedded", withEmbedded())
	if err != nil {
		t.Fatal(err)
	}
	if b.Kind != broker.KindEmbedded || len(b.Addrs) != 1 || b.Reason == "" {
		t.Fatalf("broker = %+v", b)
	}
	if err := broker.Ping(ctx, b.Addrs, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if b.PeakRSSBytes() != 0 {
		t.Errorf("peak RSS %d before Close: it is the process's, known when it has exited", b.PeakRSSBytes())
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v (the child should exit when its stdin closes)", err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if rss := b.PeakRSSBytes(); rss < 1<<20 || rss > 1<<30 {
		t.Errorf("peak RSS of the embedded broker's process: %d bytes", rss)
	}
	waitClosed(t, b.Addrs[0])
}

// The start's context bounds the start only: an interrupted run must still
// be able to delete its topics before it closes the broker.
func TestEmbeddedOutlivesItsStartContext(t *testing.T) {
	ctx, cancel := context.WithCancel(testContext(t))
	b, err := broker.Start(ctx, "embedded", withEmbedded())
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	time.Sleep(300 * time.Millisecond)
	if err := broker.Ping(testContext(t), b.Addrs, 5*time.Second); err != nil {
		t.Fatalf("the broker stopped with its start context: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, b.Addrs[0])
}

// A start with a cancelled context fails at once and leaves no process.
func TestEmbeddedStartWithCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := broker.Start(ctx, "embedded", withEmbedded()); err == nil {
		t.Fatal("Start succeeded with a cancelled context")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Start took %s to notice the cancelled context", d)
	}
}

func TestEmbeddedDiesWithItsParent(t *testing.T) {
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), roleEnv+"=parent")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = parent.Process.Kill(); _ = parent.Wait() }()
	s := bufio.NewScanner(out)
	got := make(chan string, 1)
	go func() {
		if s.Scan() {
			got <- s.Text()
		}
		close(got)
	}()
	var addr string
	select {
	case addr = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("the parent printed no broker address within 30s")
	}
	if addr == "" {
		t.Fatal("the parent exited without a broker address")
	}
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, addr)
}

func TestEmbeddedKill(t *testing.T) {
	ctx := testContext(t)
	b, err := broker.Start(ctx, "embedded", withEmbedded())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Kill(); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, b.Addrs[0])
}

// waitClosed fails unless addr stops accepting connections within 10s.
func waitClosed(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return
		}
		c.Close()
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s still accepts connections 10s after the broker should have stopped", addr)
}

func TestExternalSpecsThatAreNotAddresses(t *testing.T) {
	for _, spec := range []string{"garbage", "localhost", ":9092", "host:", "host:port", "h:0", "h:70000", "a b:1", ",", "kafka://h:1"} {
		_, err := broker.Start(testContext(t), spec)
		if err == nil {
			t.Errorf("Start(%q) succeeded", spec)
			continue
		}
		if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "broker") {
			t.Errorf("Start(%q) = %v (code %d), want a bad-input error naming the broker", spec, err, exitcode.Code(err))
		}
	}
}

func TestParseAddrs(t *testing.T) {
	got, err := broker.ParseAddrs(" 127.0.0.1:9092, kafka-1.internal:9093 ")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "127.0.0.1:9092|kafka-1.internal:9093" {
		t.Fatalf("ParseAddrs = %q", got)
	}
}

func TestExternalUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err = broker.Start(testContext(t), addr, broker.WithPingTimeout(2*time.Second))
	if err == nil {
		t.Fatalf("Start(%q) succeeded with nothing listening", addr)
	}
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), addr) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Start(%q) = %q, want one line naming the address, exit code 2", addr, err)
	}
	t.Log(err)
}

func TestExternalReachable(t *testing.T) {
	ctx := testContext(t)
	emb, err := broker.Start(ctx, "embedded", withEmbedded())
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	b, err := broker.Start(ctx, emb.Addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	if b.Kind != broker.KindExternal || b.Addrs[0] != emb.Addrs[0] {
		t.Fatalf("broker = %+v", b)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// Closing an external broker leaves the cluster alone.
	if err := broker.Ping(ctx, emb.Addrs, 5*time.Second); err != nil {
		t.Fatalf("the external cluster stopped answering after Close: %v", err)
	}
}

func TestRealKafkaIsReachable(t *testing.T) {
	addrs := realKafka(t)
	b, err := broker.Start(testContext(t), addrs)
	if err != nil {
		t.Fatal(err)
	}
	if b.Kind != broker.KindExternal {
		t.Fatalf("kind = %q", b.Kind)
	}
}

// realKafka returns WIREGATE_KAFKA_BROKERS (set by scripts/test.sh after
// scripts/kafka.sh start). CI must run against it: there, a missing variable
// fails the test instead of skipping it.
func realKafka(t *testing.T) string {
	t.Helper()
	addrs := os.Getenv("WIREGATE_KAFKA_BROKERS")
	if addrs == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but WIREGATE_KAFKA_BROKERS is not set: run scripts/kafka.sh start and export its addr (scripts/test.sh does)")
		}
		t.Skip("WIREGATE_KAFKA_BROKERS not set (bash scripts/kafka.sh start; export WIREGATE_KAFKA_BROKERS=$(bash scripts/kafka.sh addr))")
	}
	return addrs
}

// skipIfDockerAnswers skips the test when a Docker daemon answers: the tests below
// are about the machine without one.
func skipIfDockerAnswers(t *testing.T) {
	t.Helper()
	if (redpanda.Docker{}).Answers(testContext(t)) == nil {
		t.Skip("a Docker daemon answers here")
	}
}

func TestRedpandaWithoutDockerFailsFast(t *testing.T) {
	skipIfDockerAnswers(t)
	start := time.Now()
	_, err := broker.Start(testContext(t), "redpanda", broker.WithDocker(redpanda.Docker{}))
	elapsed := time.Since(start)
	if err == nil {
		t.Fatal("Start(redpanda) succeeded without Docker")
	}
	var ee *exitcode.Error
	if !errors.As(err, &ee) || ee.Code != exitcode.Unusable {
		t.Fatalf("error %v is not exit code 2", err)
	}
	msg := err.Error()
	for _, want := range []string{"broker redpanda: no Docker daemon answered", "--broker embedded", "host:port"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	t.Log(err)
	if elapsed > 10*time.Second {
		t.Errorf("Start(redpanda) took %s to fail; it must fail fast without Docker", elapsed)
	}
}

func TestAutoFallsBackToEmbedded(t *testing.T) {
	skipIfDockerAnswers(t)
	b, err := broker.Start(testContext(t), "auto", withEmbedded(), broker.WithDocker(redpanda.Docker{}))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Kind != broker.KindEmbedded {
		t.Fatalf("kind = %q", b.Kind)
	}
	if !strings.HasPrefix(b.Reason, "auto: no Docker daemon answered (") || !strings.HasSuffix(b.Reason, "using the embedded broker") {
		t.Fatalf("reason = %q", b.Reason)
	}
	t.Log(b.Reason)
}
