package batch_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/wiregate/wiregate/harness/program/batch"
)

// pool is n JSON-ish records with repeated keys and some random content,
// the same for the same seed.
func pool(seed uint64, n int) [][]byte {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, `{"device_id":"dev-%06d","temperature":%.3f,"firmware":"v1.%d.0","region":"eu-west-%d","pad":"%s"}`,
			r.IntN(1_000_000), r.Float64()*40, r.IntN(9), r.IntN(3), bytes.Repeat([]byte{'a' + byte(r.IntN(26))}, r.IntN(400)))
	}
	return out
}

// The same records give the same bytes, batch for batch, every time, in
// every codec; and every codec but none stores this pool in fewer bytes.
func TestSameRecordsSameBytes(t *testing.T) {
	values := pool(7, 256)
	var none int64
	for _, c := range batch.Codecs {
		a, err := batch.Build(values, c, batch.DefaultBatchBytes)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := batch.Build(pool(7, 256), c, batch.DefaultBatchBytes)
		if len(a) != len(b) {
			t.Fatalf("%s: %d then %d batches", c, len(a), len(b))
		}
		for i := range a {
			if !bytes.Equal(a[i], b[i]) {
				t.Fatalf("%s: batch %d differs between two builds of the same records", c, i)
			}
		}
		m, _ := batch.Measure(values, c, batch.DefaultBatchBytes)
		if c == "none" {
			none = m.Bytes
		} else if m.Bytes >= none {
			t.Errorf("%s: %d bytes, none %d", c, m.Bytes, none)
		}
		if m.Records != 256 || m.Batches != len(a) || m.Batches < 2 {
			t.Errorf("%s: %+v", c, m)
		}
	}
}

// Without compression the stored bytes are the values plus Kafka's framing
// exactly: 61 bytes a batch, and per record its length varint, attributes,
// timestamp delta, offset delta, key length -1, value length and header
// count.
func TestNoneIsValuesPlusFraming(t *testing.T) {
	values := pool(3, 300)
	m, err := batch.Measure(values, "none", 4096)
	if err != nil {
		t.Fatal(err)
	}
	bs, _ := batch.Build(values, "none", 4096)
	framed := func(v []byte, offsetDelta int) int {
		body := 1 + 1 + uvarlen(zigzag(int64(offsetDelta))) + 1 + uvarlen(zigzag(int64(len(v)))) + len(v) + 1
		return uvarlen(zigzag(int64(body))) + body
	}
	want := int64(batch.HeaderBytes * len(bs))
	i := 0
	for k, b := range bs {
		n := int(binary.BigEndian.Uint32(b[57:]))
		for d := range n {
			want += int64(framed(values[i], d))
			i++
		}
		// franz-go's rule: with the produce request's 4-byte length, a
		// batch stays within batch-bytes, and the next record would not.
		if len(b)+4 > 4096 || (k < len(bs)-1 && len(b)+4+framed(values[i], n) <= 4096) {
			t.Errorf("batch %d: %d bytes of %d records, then a record of %d", k, len(b), n, len(values[i]))
		}
	}
	if m.Bytes != want || i != len(values) {
		t.Errorf("stored %d bytes, want %d (%d records framed)", m.Bytes, want, i)
	}
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func uvarlen(u uint64) int {
	n := 1
	for ; u >= 0x80; u >>= 7 {
		n++
	}
	return n
}

// A codec or batch size wiregate does not know is refused, naming what is
// accepted.
func TestRefusesUnknownCodecAndSize(t *testing.T) {
	if _, err := batch.Build(pool(1, 2), "brotli", batch.DefaultBatchBytes); err == nil {
		t.Error("brotli accepted")
	}
	for _, n := range []int{0, batch.MinBatchBytes - 1, batch.MaxBatchBytes + 1} {
		if _, err := batch.Build(pool(1, 2), "zstd", n); err == nil {
			t.Errorf("batch bytes %d accepted", n)
		}
	}
}

// What Build counts is what a broker stores: franz-go's producer, set to
// the same codec and batch size, produces the same records (timestamps
// fixed) to the embedded kfake broker (a Kafka implementation in franz-go's
// own repository), and every batch a fetch returns is exactly as long as
// Build makes a batch of the same records: franz-go frames and compresses
// them, Build does it again, and only the producer id, epoch, sequence,
// timestamps and CRC may differ, none of which changes a length. Where
// franz-go cuts a batch depends on when its sender runs (a batch may go
// part filled); Build's cuts are its size rule, tested on its own above.
func TestBrokerStoresBuildsBytes(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.Ports(0), kfake.SeedTopics(1, "t-none", "t-gzip", "t-snappy", "t-lz4", "t-zstd"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	values := pool(11, 256)
	for _, codec := range batch.Codecs {
		t.Run(codec, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			topic := "t-" + codec
			cc, _ := batch.Codec(codec)
			cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic(topic),
				kgo.ProducerBatchCompression(cc), kgo.ProducerBatchMaxBytes(batch.DefaultBatchBytes),
				kgo.MaxVersions(kversion.V3_0_0()))
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			at := time.UnixMilli(1_700_000_000_000)
			for _, v := range values {
				cl.Produce(ctx, &kgo.Record{Value: v, Timestamp: at}, func(_ *kgo.Record, err error) {
					if err != nil {
						t.Error(err)
					}
				})
			}
			if err := cl.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			next, compressed := 0, 0
			for i, b := range fetchBatches(ctx, t, cl, topic) {
				n := int(binary.BigEndian.Uint32(b[57:]))
				if binary.BigEndian.Uint16(b[21:])&7 != 0 {
					compressed++
				}
				built, err := batch.Build(values[next:next+n], codec, batch.MaxBatchBytes)
				if err != nil {
					t.Fatal(err)
				}
				if len(built) != 1 || len(built[0]) != len(b) {
					t.Errorf("batch %d (records %d to %d): the broker stores %d bytes, Build makes %d", i, next, next+n-1, len(b), len(built[0]))
				}
				next += n
			}
			if next != len(values) || (codec != "none") != (compressed > 0) {
				t.Errorf("the broker holds %d records (%d batches compressed), produced %d", next, compressed, len(values))
			}
		})
	}
}

// fetchBatches fetches topic's partition 0 from offset 0 and returns its
// raw batches as the broker sends them (base offset and length included).
func fetchBatches(ctx context.Context, t *testing.T, cl *kgo.Client, topic string) [][]byte {
	t.Helper()
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID, req.MaxBytes, req.MaxWaitMillis = -1, 64<<20, 0
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.PartitionMaxBytes = 64 << 20
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1 || resp.Topics[0].Partitions[0].ErrorCode != 0 {
		t.Fatalf("fetch: %+v", resp)
	}
	raw := resp.Topics[0].Partitions[0].RecordBatches
	var out [][]byte
	for len(raw) >= 12 {
		n := 12 + int(binary.BigEndian.Uint32(raw[8:]))
		out = append(out, raw[:n])
		raw = raw[n:]
	}
	if len(raw) != 0 {
		t.Fatalf("%d bytes after the last whole batch", len(raw))
	}
	return out
}
