// Package broker provides the Kafka-API broker the pipeline stage measures
// through: Redpanda in a testcontainer (through a Docker implementation the
// parent passes in: package parent/redpanda, which the bench program does
// not link), franz-go's kfake in a child process (the "embedded" broker), or
// an external cluster, and says which and why. The bench program uses only
// Ping and ServeEmbedded.
package broker

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
	"github.com/wiregate/wiregate/harness/program/subcmd"
)

// Kinds of broker, as reports name them.
const (
	KindRedpanda = "redpanda"
	KindEmbedded = "embedded"
	KindExternal = "external"
)

// Broker is a running (or reachable) Kafka-API broker.
type Broker struct {
	Addrs  []string // seed brokers, host:port
	Kind   string   // KindRedpanda, KindEmbedded or KindExternal
	Reason string   // why this broker, one sentence for the report

	once     sync.Once
	closeErr error
	close    func() error
	kill     func() error
	peakRSS  func() int64
}

// PeakRSSBytes is the embedded broker process's peak resident memory, once
// Close has returned; 0 for other kinds or before (not measured).
func (b *Broker) PeakRSSBytes() int64 {
	if b.peakRSS == nil {
		return 0
	}
	return b.peakRSS()
}

// Close stops a broker this package started (an external cluster is left
// alone). It is safe to call more than once and from several goroutines.
func (b *Broker) Close() error {
	b.once.Do(func() {
		if b.close != nil {
			b.closeErr = b.close()
		}
	})
	return b.closeErr
}

// Kill ends an embedded broker's process abruptly (SIGKILL), as a crash
// would; fault tests use it. Other kinds return an error.
func (b *Broker) Kill() error {
	if b.kill == nil {
		return fmt.Errorf("broker %s: Kill works only on the embedded broker", b.Kind)
	}
	return b.kill()
}

// Option configures Start.
type Option func(*config)

type config struct {
	embeddedCommand func() *proc.Cmd
	docker          Docker
	pingTimeout     time.Duration
}

// Docker is what Start needs from a Docker daemon to run Redpanda. Package
// parent/redpanda implements it with testcontainers-go; without WithDocker,
// Start behaves as on a machine without a daemon.
type Docker interface {
	// Answers is nil when a daemon answers within a few seconds, else why not.
	Answers(ctx context.Context) error
	// RedpandaImage is the image StartRedpanda runs, for the report.
	RedpandaImage() string
	// StartRedpanda runs a Redpanda container and returns its seed broker
	// and how to remove the container.
	StartRedpanda(ctx context.Context) (addr string, remove func() error, err error)
}

// WithDocker lets Start run Redpanda (spec redpanda, or auto when a daemon
// answers).
func WithDocker(d Docker) Option {
	return func(c *config) { c.docker = d }
}

// WithEmbeddedCommand sets how the embedded broker's process is started
// (needed for the specs embedded and auto). The command must run
// ServeEmbedded: it prints the address on stdout and serves until its
// stdin closes. Its context must outlive the broker (context.Background):
// Close and Kill end it, so that an interrupted run can delete its topics
// first.
func WithEmbeddedCommand(f func() *proc.Cmd) Option {
	return func(c *config) { c.embeddedCommand = f }
}

// WithPingTimeout overrides PingTimeout, how long an external cluster gets to
// answer before it counts as unreachable.
func WithPingTimeout(d time.Duration) Option {
	return func(c *config) { c.pingTimeout = d }
}

// Start provides the broker named by spec: "auto", "redpanda", "embedded", or
// "host:port[,host:port…]". ctx bounds the start only: a broker Start started
// lives until Close, so that its owner can delete its topics first, also
// after ctx was cancelled. (If this process dies, the embedded broker dies
// with it, and testcontainers' reaper removes a Redpanda container.)
func Start(ctx context.Context, spec string, opts ...Option) (*Broker, error) {
	cfg := config{docker: noDocker{}, pingTimeout: PingTimeout}
	for _, o := range opts {
		o(&cfg)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("broker %s: %w", spec, context.Cause(ctx))
	}
	var (
		b   *Broker
		err error
	)
	switch spec = strings.TrimSpace(spec); spec {
	case "auto", "":
		b, err = startAuto(ctx, cfg)
	case KindRedpanda:
		b, err = startRedpanda(ctx, cfg)
		if b != nil {
			b.Reason = "broker redpanda was asked for"
		}
	case KindEmbedded:
		b, err = startEmbedded(ctx, cfg)
		if b != nil {
			b.Reason = "broker embedded was asked for"
		}
	default:
		b, err = startExternal(ctx, spec, cfg.pingTimeout)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// startAuto prefers Redpanda when a Docker daemon answers, and otherwise the
// embedded broker; the Reason says which and why.
func startAuto(ctx context.Context, cfg config) (*Broker, error) {
	if err := cfg.docker.Answers(ctx); err != nil {
		b, eerr := startEmbedded(ctx, cfg)
		if eerr != nil {
			return nil, eerr
		}
		b.Reason = fmt.Sprintf("auto: no Docker daemon answered (%s); using the embedded broker", oneLine(err))
		return b, nil
	}
	b, err := startRedpanda(ctx, cfg)
	if err == nil {
		b.Reason = "auto: a Docker daemon answered; using Redpanda " + cfg.docker.RedpandaImage()
		return b, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	b, eerr := startEmbedded(ctx, cfg)
	if eerr != nil {
		return nil, eerr
	}
	b.Reason = fmt.Sprintf("auto: Docker answered but Redpanda did not start (%s); using the embedded broker", oneLine(err))
	return b, nil
}

// oneLine keeps error text fit for a one-line reason.
func oneLine(err error) string {
	s := subcmd.OneLine(err.Error())
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// badInput is the error for a broker spec that cannot work as given.
func badInput(format string, args ...any) error { return exitcode.BadInput(format, args...) }
