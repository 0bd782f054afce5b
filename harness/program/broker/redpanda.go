package broker

import (
	"context"
	"errors"
	"fmt"
)

// startRedpanda runs Redpanda through cfg.docker and checks it answers.
func startRedpanda(ctx context.Context, cfg config) (*Broker, error) {
	if err := cfg.docker.Answers(ctx); err != nil {
		return nil, badInput("broker redpanda: no Docker daemon answered (%s); use --broker embedded or an external cluster host:port", oneLine(err))
	}
	addr, remove, err := cfg.docker.StartRedpanda(ctx)
	if err != nil {
		return nil, fmt.Errorf("broker redpanda: %w", err)
	}
	if err := Ping(ctx, []string{addr}, PingTimeout); err != nil {
		_ = remove()
		return nil, err
	}
	return &Broker{Addrs: []string{addr}, Kind: KindRedpanda, close: remove}, nil
}

// noDocker is Start's Docker when none was passed: like a machine without a
// daemon.
type noDocker struct{}

func (noDocker) Answers(context.Context) error {
	return errors.New("this program cannot run containers")
}
func (noDocker) RedpandaImage() string { return "" }
func (noDocker) StartRedpanda(context.Context) (string, func() error, error) {
	return "", nil, errors.New("this program cannot run containers")
}
