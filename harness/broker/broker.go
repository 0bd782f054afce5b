// Package broker provides the Kafka-API broker the pipeline stage measures
// through: Redpanda in a testcontainer, franz-go's kfake in a child process
// (the "embedded" broker), or an external cluster, and says which and why.
package broker

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/wiregate/wiregate/harness/exitcode"
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
	stop     func() bool // unregisters the ctx.Done hook
}

// Close stops a broker this package started (an external cluster is left
// alone). It is safe to call more than once and from several goroutines.
func (b *Broker) Close() error {
	b.once.Do(func() {
		if b.stop != nil {
			b.stop()
		}
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
	embeddedCommand func() *exec.Cmd
	redpandaImage   string
	pingTimeout     time.Duration
}

// WithEmbeddedCommand sets how the embedded broker's process is started. The
// command must run ServeEmbedded (it prints the address on stdout and serves
// until stdin closes). The default is this executable with the argument
// "embedded-broker".
func WithEmbeddedCommand(f func() *exec.Cmd) Option {
	return func(c *config) { c.embeddedCommand = f }
}

// WithPingTimeout overrides PingTimeout, how long an external cluster gets to
// answer before it counts as unreachable.
func WithPingTimeout(d time.Duration) Option {
	return func(c *config) { c.pingTimeout = d }
}

// WithRedpandaImage overrides the pinned Redpanda image.
func WithRedpandaImage(image string) Option {
	return func(c *config) { c.redpandaImage = image }
}

// Start provides the broker named by spec: "auto", "redpanda", "embedded", or
// "host:port[,host:port…]". A broker it starts lives until Close or until ctx
// is done, whichever comes first.
func Start(ctx context.Context, spec string, opts ...Option) (*Broker, error) {
	cfg := config{embeddedCommand: defaultEmbeddedCommand, redpandaImage: RedpandaImage, pingTimeout: PingTimeout}
	for _, o := range opts {
		o(&cfg)
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
	b.stop = context.AfterFunc(ctx, func() { _ = b.Close() })
	return b, nil
}

// startAuto prefers Redpanda when a Docker daemon answers, and otherwise the
// embedded broker; the Reason says which and why.
func startAuto(ctx context.Context, cfg config) (*Broker, error) {
	if err := DockerAnswers(ctx); err != nil {
		b, eerr := startEmbedded(ctx, cfg)
		if eerr != nil {
			return nil, eerr
		}
		b.Reason = fmt.Sprintf("auto: no Docker daemon answered (%s); using the embedded broker", oneLine(err))
		return b, nil
	}
	b, err := startRedpanda(ctx, cfg)
	if err == nil {
		b.Reason = "auto: a Docker daemon answered; using Redpanda " + cfg.redpandaImage
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

// oneLine keeps error text fit for a one-line message.
func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// badInput is the error for a broker spec that cannot work as given.
func badInput(format string, args ...any) error { return exitcode.BadInput(format, args...) }
