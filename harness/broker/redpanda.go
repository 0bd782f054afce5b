package broker

import (
	"context"
	"fmt"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/modules/redpanda"
)

// RedpandaImage is the pinned image (the one testcontainers-go v0.44.0's
// redpanda module is tested with).
const RedpandaImage = "docker.redpanda.com/redpandadata/redpanda:v25.2.4"

const (
	dockerHealthTimeout = 3 * time.Second
	// Pulling the image on a cold runner dominates; a started container
	// answers in seconds.
	redpandaStartTimeout = 3 * time.Minute
)

// DockerAnswers tells, within a few seconds, whether a Docker daemon answers:
// nil when it does, the reason when not.
func DockerAnswers(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, dockerHealthTimeout)
	defer cancel()
	p, err := testcontainers.NewDockerProvider()
	if err != nil {
		return err
	}
	return p.Health(ctx) // Health closes the provider
}

func startRedpanda(ctx context.Context, cfg config) (*Broker, error) {
	if err := DockerAnswers(ctx); err != nil {
		return nil, badInput("broker redpanda: no Docker daemon answered (%s); use --broker embedded or an external cluster host:port", oneLine(err))
	}
	startCtx, cancel := context.WithTimeout(ctx, redpandaStartTimeout)
	defer cancel()
	// The container is removed by Close; if this process dies first,
	// testcontainers' reaper (Ryuk) removes it.
	ctr, err := redpanda.Run(startCtx, cfg.redpandaImage)
	if err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return nil, fmt.Errorf("broker redpanda: starting %s: %w", cfg.redpandaImage, err)
	}
	addr, err := ctr.KafkaSeedBroker(startCtx)
	if err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return nil, fmt.Errorf("broker redpanda: seed broker address: %w", err)
	}
	if err := Ping(startCtx, []string{addr}, PingTimeout); err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return nil, err
	}
	return &Broker{
		Addrs: []string{addr},
		Kind:  KindRedpanda,
		close: func() error { return testcontainers.TerminateContainer(ctr) },
	}, nil
}
