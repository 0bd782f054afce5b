// Package pipeline measures end-to-end consumer throughput through a
// Kafka-API broker with the constant-backlog method: a producer fills a fresh
// topic with exactly N records; then a consumer in its own capped process
// drains it from offset 0, decodes every record, and verifies count and
// checksum before any figure is reported.
package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/wiregate/wiregate/harness/broker"
	"github.com/wiregate/wiregate/harness/exitcode"
)

// MaxN is the largest backlog Run accepts: beyond it a run takes hours and
// the producer's buffers alone strain a CI machine.
const MaxN = 100_000_000

// Options is one pipeline measurement.
type Options struct {
	Brokers    []string
	BrokerKind string // for the report: redpanda, embedded or external
	Message    string
	Format     string
	N          int64
	Payloads   [][]byte // the encoded record pool; record i is Payloads[i%len]
	// ConsumerCommand starts a consumer process that runs ConsumerMain with
	// spec.Args() (and the decoder for Message and Format), printing a
	// ConsumeResult as JSON on stdout. Run adds the cap.
	ConsumerCommand func(ctx context.Context, spec ConsumerSpec) *exec.Cmd
	// Topic names the topic to create; it must not exist (wiregate never
	// reuses a topic). Empty: a fresh random wiregate-… name.
	Topic          string
	ConnectTimeout time.Duration // the broker must answer within it; 0: broker.PingTimeout
	Timeout        time.Duration // produce, and each drain; 0: DefaultTimeout(N)
	Idle           time.Duration // longest wait for the next record; 0: DefaultIdle
}

// Result is one verified measurement.
type Result struct {
	Message              string  `json:"message"`
	Format               string  `json:"format"`
	Broker               string  `json:"broker"`
	Topic                string  `json:"topic"`
	N                    int64   `json:"n"`
	ElapsedS             float64 `json:"elapsed_s"`
	RPS                  float64 `json:"rps"`
	NsPerMsg             float64 `json:"ns_per_msg"`
	RawNsPerMsg          float64 `json:"raw_ns_per_msg"`
	ConsumerPeakRSSBytes int64   `json:"consumer_peak_rss_bytes"`
	Verified             bool    `json:"verified"`
	Cap                  string  `json:"cap"`
}

// Line is the result as one greppable line.
func (r Result) Line() string {
	return fmt.Sprintf("RESULT message=%s format=%s broker=%s n=%d elapsed=%.3fs rps=%.0f ns/msg=%.1f raw_ns/msg=%.1f peak_rss=%dMiB",
		r.Message, r.Format, r.Broker, r.N, r.ElapsedS, r.RPS, r.NsPerMsg, r.RawNsPerMsg, r.ConsumerPeakRSSBytes>>20)
}

func (o *Options) validate() error {
	switch {
	case o.N <= 0 || o.N > MaxN:
		return exitcode.BadInput("pipeline-messages %d: want a backlog from 1 to %d records", o.N, MaxN)
	case len(o.Payloads) == 0:
		return exitcode.BadInput("pipeline %s/%s: no encoded records to produce", o.Message, o.Format)
	case len(o.Brokers) == 0:
		return exitcode.BadInput("pipeline: no broker address; use --broker auto, embedded, redpanda, or host:port")
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = broker.PingTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout(o.N)
	}
	if o.Idle <= 0 {
		o.Idle = DefaultIdle
	}
	return nil
}

// Run measures one message and format: fresh topic, produce N records, drain
// them decoded and raw in capped consumer processes, verify, delete the topic.
// Any shortfall or mismatch is an error, never a figure.
func Run(ctx context.Context, o Options) (res Result, err error) {
	if err := o.validate(); err != nil {
		return Result{}, err
	}
	if o.ConsumerCommand == nil {
		return Result{}, errors.New("pipeline: Options.ConsumerCommand is nil")
	}
	if err := broker.Ping(ctx, o.Brokers, o.ConnectTimeout); err != nil {
		return Result{}, err
	}
	t, err := createTopic(ctx, o.Brokers, o.Topic, o.Format)
	if err != nil {
		return Result{}, err
	}
	defer func() {
		derr := t.delete(ctx)
		switch {
		case derr == nil:
		case err == nil:
			err = derr
		default: // one line: the run's error first, the cleanup's after
			err = fmt.Errorf("%w; and %w", err, derr)
		}
	}()
	sum, err := produce(ctx, t, o.N, o.Payloads, o.Timeout)
	if err != nil {
		return Result{}, err
	}
	spec := ConsumerSpec{Brokers: o.Brokers, Topic: t.name, N: o.N, Timeout: o.Timeout, Idle: o.Idle}
	decoded, err := drain(ctx, o.ConsumerCommand, spec, sum)
	if err != nil {
		return Result{}, err
	}
	spec.Raw = true
	raw, err := drain(ctx, o.ConsumerCommand, spec, sum)
	if err != nil {
		return Result{}, err
	}
	return Result{
		Message: o.Message, Format: o.Format, Broker: o.BrokerKind, Topic: t.name,
		N: decoded.N, ElapsedS: decoded.ElapsedS, RPS: decoded.RPS, NsPerMsg: decoded.NsPerMsg,
		RawNsPerMsg:          raw.NsPerMsg,
		ConsumerPeakRSSBytes: decoded.PeakRSSBytes,
		Verified:             true,
		Cap:                  decoded.Cap,
	}, nil
}

// drain runs one capped consumer process and verifies its count and checksum.
func drain(ctx context.Context, command func(context.Context, ConsumerSpec) *exec.Cmd, spec ConsumerSpec, want uint64) (ConsumeResult, error) {
	kind := "decoding"
	if spec.Raw {
		kind = "raw"
	}
	cmd := command(ctx, spec)
	capConsumer(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &limitedWriter{w: &stderr, n: 64 << 10}
	if err := cmd.Start(); err != nil {
		return ConsumeResult{}, fmt.Errorf("pipeline: starting the %s consumer %s: %w", kind, cmd.Path, err)
	}
	// The consumer bounds itself; this bounds a consumer that does not.
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-time.After(spec.Timeout + 30*time.Second):
		_ = cmd.Process.Kill()
		<-done
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer did not finish within %s; killed it", kind, spec.Timeout+30*time.Second)
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		return ConsumeResult{}, fmt.Errorf("pipeline: %s consumer interrupted: %w", kind, ctx.Err())
	}
	if werr != nil {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer failed (%v): %s", kind, werr, lastLine(stderr.String()))
	}
	var res ConsumeResult
	if err := json.Unmarshal(lastJSONLine(stdout.Bytes()), &res); err != nil {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer printed no result JSON (%v): %q", kind, err, lastLine(stdout.String()))
	}
	if res.N != spec.N {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer received %d of %d records from %s", kind, res.N, spec.N, spec.Topic)
	}
	if res.Checksum != want {
		return ConsumeResult{}, fmt.Errorf("pipeline: the %s consumer's checksum %016x differs from the producer's %016x over %d records of %s: payloads changed in transit", kind, res.Checksum, want, res.N, spec.Topic)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss<<10 > res.PeakRSSBytes {
		res.PeakRSSBytes = ru.Maxrss << 10 // kB on Linux
	}
	return res, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func lastJSONLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if l := bytes.TrimSpace(lines[i]); bytes.HasPrefix(l, []byte("{")) {
			return l
		}
	}
	return nil
}

// limitedWriter keeps at most n bytes (a consumer that floods stderr must not
// grow this process without bound).
type limitedWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.n -= k
		_, _ = l.w.Write(p[:k])
	}
	return len(p), nil
}
