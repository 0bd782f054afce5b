package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Decoder decodes one record's payload into a typed value (and drops it). A
// nil Decoder drains the records without decoding (the raw figure).
type Decoder func(offset int64, payload []byte) error

// DefaultFetchMaxBytes and DefaultFetchMaxPartitionBytes are the Java
// consumer's defaults (fetch.max.bytes, max.partition.fetch.bytes): what a
// real consumer of a one-partition topic runs with. A 50 MiB partition fetch
// measured the consumer's memory instead of its decoding: at N = 2,000,000
// protobuf records it drained at 478k records/s with 631 MiB peak RSS,
// against 777k records/s and 354 MiB with 4 MiB fetches.
const (
	DefaultFetchMaxBytes          = 50 << 20
	DefaultFetchMaxPartitionBytes = 1 << 20
)

// DefaultIdle is how long the consumer waits for the next record before it
// calls the drain stalled (a dead broker, a topic with fewer records than N).
const DefaultIdle = 20 * time.Second

// ConsumeOptions is what one consumer process drains.
type ConsumeOptions struct {
	Brokers []string
	Topic   string        // partition 0 is drained from offset 0
	N       int64         // records expected; the drain stops at N
	Decode  Decoder       // nil: raw drain
	Timeout time.Duration // whole drain; 0: DefaultTimeout(N)
	Idle    time.Duration // longest wait for the next record; 0: DefaultIdle
	// FetchMaxBytes overrides DefaultFetchMaxBytes (fault tests use a small
	// fetch so that a drain spans many requests).
	FetchMaxBytes int32
}

// ConsumeResult is what a consumer process reports, as JSON on stdout.
type ConsumeResult struct {
	N            int64   `json:"n"`
	ElapsedS     float64 `json:"elapsed_s"`
	RPS          float64 `json:"rps"`
	NsPerMsg     float64 `json:"ns_per_msg"`
	Checksum     uint64  `json:"checksum"`
	PeakRSSBytes int64   `json:"peak_rss_bytes"`
	Cap          string  `json:"cap"`
}

// DefaultTimeout bounds a produce or a drain of n records: a minute plus
// 10 µs a record, far above any healthy run and still finite.
func DefaultTimeout(n int64) time.Duration {
	return time.Minute + time.Duration(n)*10*time.Microsecond
}

// Consume drains o.Topic from offset 0 until N records arrived, decoding each
// and summing the xxhash64 of each payload (order-independent, so it matches
// the producer's sum). The timer starts before the first poll, so connecting
// and the first fetch count. It runs inside the capped consumer process.
func Consume(ctx context.Context, o ConsumeOptions) (ConsumeResult, error) {
	capDesc := applyCapInConsumer()
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout(o.N)
	}
	if o.Idle <= 0 {
		o.Idle = DefaultIdle
	}
	if o.FetchMaxBytes <= 0 {
		o.FetchMaxBytes = DefaultFetchMaxBytes
	}
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(o.Brokers...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{o.Topic: {0: kgo.NewOffset().At(0)}}),
		kgo.FetchMaxBytes(o.FetchMaxBytes),
		kgo.FetchMaxPartitionBytes(min(o.FetchMaxBytes, DefaultFetchMaxPartitionBytes)),
		kgo.BrokerMaxReadBytes(max(2*o.FetchMaxBytes, 2*DefaultFetchMaxBytes)), // a broker may exceed a small fetch size
		kgo.DialTimeout(5*time.Second),
	)
	if err != nil {
		return ConsumeResult{}, fmt.Errorf("consumer: %w", err)
	}
	defer cl.Close()

	var (
		count int64
		sum   uint64
	)
	start := time.Now()
	deadline := start.Add(o.Timeout)
	for count < o.N {
		pollDeadline := time.Now().Add(o.Idle)
		if pollDeadline.After(deadline) {
			pollDeadline = deadline
		}
		pctx, cancel := context.WithDeadline(ctx, pollDeadline)
		fs := cl.PollFetches(pctx)
		cancel()
		for it := fs.RecordIter(); !it.Done(); {
			r := it.Next()
			if o.Decode != nil {
				if err := o.Decode(r.Offset, r.Value); err != nil {
					return ConsumeResult{}, fmt.Errorf("consumer: decoding the record at offset %d: %w", r.Offset, err)
				}
			}
			sum += xxhash.Sum64(r.Value)
			count++
		}
		if err := stalled(ctx, fs, deadline, o, count); err != nil {
			return ConsumeResult{}, err
		}
	}
	elapsed := time.Since(start)
	if count != o.N {
		return ConsumeResult{}, fmt.Errorf("consumer: received %d records, more than the %d produced (the topic is not fresh)", count, o.N)
	}
	return ConsumeResult{
		N:            count,
		ElapsedS:     elapsed.Seconds(),
		RPS:          float64(count) / elapsed.Seconds(),
		NsPerMsg:     float64(elapsed.Nanoseconds()) / float64(count),
		Checksum:     sum,
		PeakRSSBytes: peakRSS(),
		Cap:          capDesc,
	}, nil
}

// stalled turns a poll's errors into the consumer's one-line error, with the
// count reached; nil when the drain may go on.
func stalled(ctx context.Context, fs kgo.Fetches, deadline time.Time, o ConsumeOptions, count int64) error {
	errs := fs.Errors()
	if len(errs) == 0 {
		return nil
	}
	err := errs[0].Err
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("consumer: interrupted (%v) after %d of %d records", ctx.Err(), count, o.N)
	case errors.Is(err, context.DeadlineExceeded) && !time.Now().Before(deadline):
		return fmt.Errorf("consumer: timed out after %s with %d of %d records", o.Timeout, count, o.N)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("consumer: no record for %s after %d of %d records from %s (is the broker still up?)", o.Idle, count, o.N, o.Topic)
	case errors.Is(err, kgo.ErrClientClosed):
		return fmt.Errorf("consumer: client closed after %d of %d records", count, o.N)
	default:
		return fmt.Errorf("consumer: fetching %s after %d of %d records: %w", o.Topic, count, o.N, err)
	}
}
