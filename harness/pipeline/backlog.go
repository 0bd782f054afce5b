package pipeline

import (
	"context"
	"os/exec"

	"github.com/wiregate/wiregate/harness/broker"
)

// Backlog is a topic Fill created and filled: the constant backlog that
// consumers drain from offset 0, as often as a comparison needs rounds.
type Backlog struct {
	Message  string   `json:"message"`
	Format   string   `json:"format"`
	Brokers  []string `json:"brokers"`
	Topic    string   `json:"topic"`
	N        int64    `json:"n"`
	Checksum uint64   `json:"checksum"`
}

// Fill creates a fresh topic and produces exactly o.N records into it
// (o.ConsumerCommand is not used). The caller deletes it with Delete.
func Fill(ctx context.Context, o Options) (Backlog, error) {
	if err := o.validate(); err != nil {
		return Backlog{}, err
	}
	if err := broker.Ping(ctx, o.Brokers, o.ConnectTimeout); err != nil {
		return Backlog{}, err
	}
	t, err := createTopic(ctx, o.Brokers, o.Topic, o.Format)
	if err != nil {
		return Backlog{}, err
	}
	sum, err := produce(ctx, t, o.N, o.Payloads, o.Timeout)
	if err != nil {
		_ = t.delete(ctx) // the produce error is the one to report
		return Backlog{}, err
	}
	return Backlog{Message: o.Message, Format: o.Format, Brokers: o.Brokers, Topic: t.name, N: o.N, Checksum: sum}, nil
}

// Drain runs one capped consumer process (started by command) over the
// whole backlog, decoded or raw, and verifies its count and checksum: a
// shortfall or mismatch is an error, never a figure.
func (b Backlog) Drain(ctx context.Context, raw bool, command func(context.Context, ConsumerSpec) *exec.Cmd) (ConsumeResult, error) {
	spec := ConsumerSpec{Brokers: b.Brokers, Topic: b.Topic, N: b.N, Raw: raw, Timeout: DefaultTimeout(b.N), Idle: DefaultIdle}
	return drain(ctx, command, spec, b.Checksum)
}

// Delete removes the backlog's topic, bounded in time.
func (b Backlog) Delete(ctx context.Context) error {
	return (&topic{name: b.Topic, brokers: b.Brokers}).delete(ctx)
}
