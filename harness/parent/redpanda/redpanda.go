// Package redpanda runs the pipeline's Redpanda broker in a testcontainer:
// broker.Start's Docker. Only the parent's broker-starting path imports it,
// so the generated bench program does not link testcontainers and the
// Docker client.
package redpanda

import (
	"context"
	"fmt"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcredpanda "github.com/testcontainers/testcontainers-go/modules/redpanda"
)

// Image is the pinned image (the one testcontainers-go v0.44.0's redpanda
// module is tested with).
const Image = "docker.redpanda.com/redpandadata/redpanda:v25.2.4"

const (
	healthTimeout = 3 * time.Second
	// Pulling the image on a cold runner dominates; a started container
	// answers in seconds.
	startTimeout = 3 * time.Minute
)

// Docker is broker.Docker through testcontainers-go. Image "" is Image.
type Docker struct{ Image string }

// Answers tells, within a few seconds, whether a Docker daemon answers: nil
// when it does, the reason when not.
func (Docker) Answers(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	p, err := testcontainers.NewDockerProvider()
	if err != nil {
		return err
	}
	return p.Health(ctx) // Health closes the provider
}

// RedpandaImage is the image StartRedpanda runs.
func (d Docker) RedpandaImage() string {
	if d.Image == "" {
		return Image
	}
	return d.Image
}

// StartRedpanda runs the container and returns its seed broker. The
// container is removed by remove; if this process dies first,
// testcontainers' reaper (Ryuk) removes it.
func (d Docker) StartRedpanda(ctx context.Context) (string, func() error, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	ctr, err := tcredpanda.Run(ctx, d.RedpandaImage())
	if err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return "", nil, fmt.Errorf("starting %s: %w", d.RedpandaImage(), err)
	}
	addr, err := ctr.KafkaSeedBroker(ctx)
	if err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return "", nil, fmt.Errorf("seed broker address of %s: %w", d.RedpandaImage(), err)
	}
	return addr, func() error { return testcontainers.TerminateContainer(ctr) }, nil
}
