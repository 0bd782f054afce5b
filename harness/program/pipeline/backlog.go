package pipeline

import (
	"context"
	"time"

	"github.com/wiregate/wiregate/harness/program/broker"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// MaxN is the largest backlog Fill accepts: beyond it a run takes hours and
// the producer's buffers alone strain a CI machine.
const MaxN = 100_000_000

// CheckN is the one check of a backlog size; its error names the input the
// gate and the CLI both call pipeline-messages.
func CheckN(n int64) error {
	if n <= 0 || n > MaxN {
		return exitcode.BadInput("--pipeline-messages %d: want a backlog from 1 to %d records", n, MaxN)
	}
	return nil
}

// FillOptions is one backlog to fill.
type FillOptions struct {
	Brokers  []string
	Message  string
	Format   string
	N        int64
	Payloads [][]byte // the encoded record pool; record i is Payloads[i%len]
	// Topic names the topic to create; it must not exist (wiregate never
	// reuses a topic). Empty: TopicPrefix (default TopicPrefix), the format
	// and 16 random hex digits.
	Topic          string
	TopicPrefix    string
	ConnectTimeout time.Duration // the broker must answer within it; 0: broker.PingTimeout
	Timeout        time.Duration // the whole produce; 0: DefaultTimeout(N)
	// Compression is the producer's batch codec (batch.Codecs), so the
	// backlog is stored as the compressed size figure measures it; empty:
	// franz-go's default (snappy).
	Compression string
	// BatchMaxBytes caps a produced batch; 0: DefaultBatchMaxBytes. A
	// consumer fetches at least one whole batch, so fault tests that pause
	// a consumer mid-backlog make batches small: the rest is then still on
	// the broker.
	BatchMaxBytes int32
}

// DefaultBatchMaxBytes is the producer's batch cap (Kafka's default
// message.max.bytes is about this, so every broker takes it).
const DefaultBatchMaxBytes = 1 << 20

func (o *FillOptions) validate() error {
	if err := CheckN(o.N); err != nil {
		return err
	}
	switch {
	case len(o.Payloads) == 0:
		return exitcode.BadInput("pipeline %s/%s: no encoded records to produce", o.Message, o.Format)
	case len(o.Brokers) == 0:
		return exitcode.BadInput("pipeline: no broker address; use --broker auto, embedded, redpanda, or host:port")
	}
	if o.TopicPrefix == "" {
		o.TopicPrefix = TopicPrefix
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = broker.PingTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout(o.N)
	}
	if o.BatchMaxBytes <= 0 {
		o.BatchMaxBytes = DefaultBatchMaxBytes
	}
	return nil
}

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

// Fill creates a fresh topic and produces exactly o.N records into it,
// checking the end offset and summing the payloads' xxhash64. The caller
// deletes it (Delete, or DeleteTopics by prefix).
func Fill(ctx context.Context, o FillOptions) (Backlog, error) {
	if err := o.validate(); err != nil {
		return Backlog{}, err
	}
	if err := broker.Ping(ctx, o.Brokers, o.ConnectTimeout); err != nil {
		return Backlog{}, err
	}
	t, err := createTopic(ctx, o.Brokers, o.Topic, o.TopicPrefix, o.Format)
	if err != nil {
		return Backlog{}, err
	}
	sum, err := produce(ctx, t, o)
	if err != nil {
		_ = t.delete(ctx) // the produce error is the one to report
		return Backlog{}, err
	}
	return Backlog{Message: o.Message, Format: o.Format, Brokers: o.Brokers, Topic: t.name, N: o.N, Checksum: sum}, nil
}

// Drain runs one capped consumer process (started by command, see drain)
// over the whole backlog, decoded or raw, and verifies its count and
// checksum: a shortfall or mismatch is an error, never a figure.
func (b Backlog) Drain(ctx context.Context, raw bool, command func(context.Context, ConsumerSpec) *proc.Cmd) (ConsumeResult, error) {
	spec := ConsumerSpec{Brokers: b.Brokers, Topic: b.Topic, N: b.N, Raw: raw, Timeout: DefaultTimeout(b.N), Idle: DefaultIdle}
	return drain(ctx, command, spec, b.Checksum)
}

// Delete removes the backlog's topic, bounded in time even when ctx is done.
func (b Backlog) Delete(ctx context.Context) error {
	return (&topic{name: b.Topic, brokers: b.Brokers}).delete(ctx)
}
