package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wiregate/wiregate/harness/internal/proctest"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/broker"
	"github.com/wiregate/wiregate/harness/program/pipeline"
)

// The gate interrupted by SIGINT — what a cancelled GitHub job and Ctrl-C
// send — stops its children, deletes its topics, stops its broker, writes
// report.json naming the interruption and exits 2, within 10 s.

// interruptedGate is one gate run interrupted by SIGINT.
type interruptedGate struct {
	code     int
	took     time.Duration // from the signal to the exit
	pgid     int
	children []proctest.Process // the gate's descendants when the signal was sent
	report   report.Report
	stderr   []string
}

// interruptGate runs `wiregate gate` with args in its own process group,
// waits for a stderr line containing after and a descendant whose command
// line contains child, then sends it SIGINT.
func interruptGate(t *testing.T, after, child string, args ...string) interruptedGate {
	t.Helper()
	return interruptGateWith(t, syscall.SIGINT, after, child, args...)
}

// interruptGateWith is interruptGate sending sig. Both sides are the
// repo's schemas, measured with measure: all.
func interruptGateWith(t *testing.T, sig syscall.Signal, after, child string, args ...string) interruptedGate {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the whole gate")
	}
	base, head, out := copySchemas(t), copySchemas(t), t.TempDir()
	args = append([]string{"gate", "--base-dir", base, "--working-directory", head, "--out", out,
		"--messages", "telemetry.v1.TelemetryEvent", "--formats", "protobuf", "--measure", "all"}, args...)
	cmd := exec.Command(wiregateBin(t), args...)
	cmd.Env = wiregateEnv(t)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	lines := make(chan string, 1000)
	go func() {
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	var g interruptedGate
	g.pgid = cmd.Process.Pid
	deadline := time.After(5 * time.Minute)
	for seen := false; !seen; {
		select {
		case l, ok := <-lines:
			if !ok {
				_ = cmd.Wait()
				t.Fatalf("the gate ended before %q:\n%s", after, strings.Join(g.stderr, "\n"))
			}
			g.stderr = append(g.stderr, l)
			seen = strings.Contains(l, after)
		case <-deadline:
			t.Fatalf("no %q within 5 minutes:\n%s", after, strings.Join(g.stderr, "\n"))
		}
	}
	// Interrupt while a child of the kind asked for runs.
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		g.children = proctest.Descendants(cmd.Process.Pid)
		if proctest.Running(g.children, child) {
			break
		}
	}
	if !proctest.Running(g.children, child) {
		t.Fatalf("no %q process under the gate to interrupt; children %+v", child, g.children)
	}
	sent := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		g.stderr = append(g.stderr, l)
	}
	err = cmd.Wait()
	g.took = time.Since(sent)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		g.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatalf("no report.json after the interruption: %v\n%s", err, strings.Join(g.stderr, "\n"))
	}
	if err := json.Unmarshal(b, &g.report); err != nil {
		t.Fatal(err)
	}
	return g
}

// check asserts what every interrupted gate must do.
func (g interruptedGate) check(t *testing.T) {
	t.Helper()
	t.Logf("exit %d %s after SIGINT; interrupted %d processes; errors %q", g.code, g.took.Round(time.Millisecond), len(g.children), g.report.Errors)
	if g.code != 2 {
		t.Errorf("exit code %d, want 2\n%s", g.code, strings.Join(g.stderr, "\n"))
	}
	if g.took > 10*time.Second {
		t.Errorf("the gate took %s to stop, want ≤ 10s", g.took)
	}
	if len(g.report.Errors) == 0 || !strings.Contains(strings.Join(g.report.Errors, " "), "interrupted by SIGINT") {
		t.Errorf("report.json errors %q do not name the interruption", g.report.Errors)
	}
	if last := g.stderr[len(g.stderr)-1]; !strings.Contains(last, "interrupted by SIGINT") {
		t.Errorf("last stderr line %q does not name the interruption", last)
	}
	if !proctest.GroupGone(g.pgid) {
		t.Errorf("the gate's process group %d still has processes: %+v", g.pgid, proctest.InGroup(g.pgid))
	}
	proctest.NoneLeft(t, g.children)
}

func TestGateInterruptedDuringBenchRounds(t *testing.T) {
	g := interruptGate(t, "wiregate: bench: round 1 of", " "+benchprog.CmdBench+" ",
		"--count", "20", "--benchtime", "50ms", "--pipeline=false")
	g.check(t)
}

// With the embedded broker the gate started: the broker's process goes too.
func TestGateInterruptedDuringPipelineRoundsEmbedded(t *testing.T) {
	g := interruptGate(t, "wiregate: pipeline round 1/", benchprog.CmdConsume,
		"--count", "5", "--benchtime", "1ms", "--broker", "embedded", "--pipeline-messages", "200000")
	g.check(t)
	if !proctest.Running(g.children, benchprog.CmdEmbeddedBroker) {
		t.Errorf("the embedded broker was not among the interrupted processes: %+v", g.children)
	}
}

// With a broker the gate did not start (an embedded broker in a process of
// the test's): the broker stays up, and the gate's topics are gone from it.
func TestGateInterruptedDuringPipelineRoundsDeletesItsTopics(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole gate")
	}
	r := runWiregate(t, "prepare", "--buf-input", repoRoot(t), "--messages", "telemetry.v1.TelemetryEvent")
	var p struct{ Binary string }
	if err := json.Unmarshal([]byte(r.stdout), &p); r.code != 0 || err != nil {
		t.Fatalf("prepare: exit %d %v: %s", r.code, err, r.stderr)
	}
	prog := &benchprog.Program{Binary: p.Binary}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	b, err := broker.Start(ctx, "embedded", broker.WithEmbeddedCommand(prog.EmbeddedBrokerCommand))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	addr := strings.Join(b.Addrs, ",")
	g := interruptGate(t, "wiregate: pipeline round 1/", benchprog.CmdConsume,
		"--count", "5", "--benchtime", "1ms", "--broker", addr, "--pipeline-messages", "200000")
	g.check(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	topics, err := kadm.NewClient(cl).ListTopics(ctx)
	if err != nil {
		t.Fatalf("the broker did not survive the gate's interruption: %v", err)
	}
	for _, n := range topics.Names() {
		if strings.HasPrefix(n, pipeline.TopicPrefix) {
			t.Errorf("topic %s is left on the broker", n)
		}
	}
}
