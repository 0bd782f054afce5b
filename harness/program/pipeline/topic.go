package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wiregate/wiregate/harness/program/batch"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// TopicPrefix starts every topic wiregate creates.
const TopicPrefix = "wiregate-"

const topicCleanupTimeout = 10 * time.Second

// producerBufferBytes bounds the records a fill holds unacknowledged.
const producerBufferBytes = 64 << 20

// NewRunPrefix is a run's own topic prefix, "wiregate-<16 random hex>-":
// every topic of the run starts with it, so DeleteTopics can remove them all
// (and nothing else) even when a fill was interrupted before it reported
// its topics.
func NewRunPrefix() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return TopicPrefix + hex.EncodeToString(b[:]) + "-"
}

var notTopicChars = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// topic is a topic Fill created (and so may delete).
type topic struct {
	name    string
	brokers []string
}

// createTopic creates a fresh one-partition, replication-factor-1 topic. An
// explicit name that exists is refused; a random name that collides is
// replaced. An existing topic is never written to, drained or deleted.
func createTopic(ctx context.Context, brokers []string, name, prefix, format string) (*topic, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	for attempt := 0; attempt < 3; attempt++ {
		n := name
		if n == "" {
			n = randomTopicName(prefix, format)
		}
		_, err := adm.CreateTopic(ctx, 1, 1, nil, n)
		switch {
		case err == nil:
			return &topic{name: n, brokers: brokers}, nil
		case errors.Is(err, kerr.TopicAlreadyExists) && name != "":
			return nil, exitcode.BadInput("pipeline topic %s already exists: wiregate measures only a topic it created and never reuses one; pick an unused name or leave it empty", name)
		case errors.Is(err, kerr.TopicAlreadyExists):
			continue
		default:
			return nil, fmt.Errorf("pipeline: creating topic %s: %w", n, err)
		}
	}
	return nil, errors.New("pipeline: three random topic names all existed already")
}

func randomTopicName(prefix, format string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	f := notTopicChars.ReplaceAllString(format, "_")
	if f == "" || len(f) > 64 {
		f = "run"
	}
	return prefix + f + "-" + hex.EncodeToString(b[:])
}

// delete removes the topic, bounded in time even when the broker is gone.
func (t *topic) delete(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), topicCleanupTimeout)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(t.brokers...))
	if err != nil {
		return fmt.Errorf("pipeline: deleting topic %s: %w", t.name, err)
	}
	defer cl.Close()
	if _, err := kadm.NewClient(cl).DeleteTopic(ctx, t.name); err != nil && !errors.Is(err, kerr.UnknownTopicOrPartition) {
		return fmt.Errorf("pipeline: deleting topic %s: %w", t.name, err)
	}
	return nil
}

// DeleteTopics deletes every topic whose name starts with prefix, a run's
// own (NewRunPrefix): the run's cleanup, also after an interruption, so the
// caller passes a fresh context with a short timeout. A prefix that is not
// a run's is refused: wiregate deletes only topics it created.
func DeleteTopics(ctx context.Context, brokers []string, prefix string) error {
	if len(prefix) <= len(TopicPrefix)+1 || !strings.HasPrefix(prefix, TopicPrefix) {
		return fmt.Errorf("pipeline: refusing to delete topics by the prefix %q: not a run's own", prefix)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		return fmt.Errorf("pipeline: deleting the topics %s*: %w", prefix, err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	listed, err := adm.ListTopics(ctx)
	if err != nil {
		return fmt.Errorf("pipeline: listing topics to delete %s*: %w", prefix, err)
	}
	var mine []string
	for _, n := range listed.Names() {
		if strings.HasPrefix(n, prefix) {
			mine = append(mine, n)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	resp, err := adm.DeleteTopics(ctx, mine...)
	if err == nil {
		err = resp.Error()
	}
	if err != nil && !errors.Is(err, kerr.UnknownTopicOrPartition) {
		return fmt.Errorf("pipeline: deleting the topics %s*: %w", prefix, err)
	}
	return nil
}

// produce writes exactly o.N records (record i is o.Payloads[i%len]), waits
// for every ack, checks the topic's end offset is o.N, and returns the sum of
// the payloads' xxhash64.
func produce(ctx context.Context, t *topic, o FillOptions) (uint64, error) {
	n, payloads := o.N, o.Payloads
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	opts := []kgo.Opt{
		kgo.SeedBrokers(t.brokers...),
		kgo.DefaultProduceTopic(t.name),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.ProducerBatchMaxBytes(o.BatchMaxBytes),
		// franz-go buffers 10,000 records by default: 10 GB of 1 MB
		// samples. A byte bound keeps the fill's memory small whatever
		// the records, and 64 in-flight batches keep the broker busy.
		kgo.MaxBufferedBytes(producerBufferBytes),
		kgo.ProducerLinger(2 * time.Millisecond),
		kgo.RecordDeliveryTimeout(30 * time.Second),
	}
	if o.Compression != "" {
		cc, err := batch.Codec(o.Compression)
		if err != nil {
			return 0, exitcode.BadInput("pipeline: producer compression: %v", err)
		}
		opts = append(opts, kgo.ProducerBatchCompression(cc))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return 0, fmt.Errorf("pipeline: producer: %w", err)
	}
	defer cl.Close()
	var (
		mu       sync.Mutex
		firstErr error
		sum      uint64
		i        int64
	)
	acked := func(_ *kgo.Record, err error) {
		if err != nil {
			mu.Lock()
			if firstErr == nil {
				firstErr = err
			}
			mu.Unlock()
		}
	}
	failed := func() error { mu.Lock(); defer mu.Unlock(); return firstErr }
	for i = 0; i < n; i++ {
		p := payloads[i%int64(len(payloads))]
		sum += xxhash.Sum64(p)
		cl.Produce(ctx, &kgo.Record{Value: p}, acked)
		if i%4096 == 0 && failed() != nil {
			break
		}
	}
	if err := cl.Flush(ctx); err != nil {
		return 0, fmt.Errorf("pipeline: producing to %s: waiting for acks after %d of %d records: %w", t.name, i, n, err)
	}
	if err := failed(); err != nil {
		return 0, fmt.Errorf("pipeline: producing to %s (%d of %d records sent): %w", t.name, i, n, err)
	}
	ends, err := kadm.NewClient(cl).ListEndOffsets(ctx, t.name)
	if err != nil {
		return 0, fmt.Errorf("pipeline: end offset of %s: %w", t.name, err)
	}
	end, ok := ends.Lookup(t.name, 0)
	if !ok || end.Err != nil || end.Offset != n {
		return 0, fmt.Errorf("pipeline: %s holds %d records after producing %d (err %v)", t.name, end.Offset, n, end.Err)
	}
	return sum, nil
}
