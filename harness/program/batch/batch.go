package batch

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// HeaderBytes is a record batch v2's header as the broker stores it, ahead
// of its records: base offset (8), batch length (4), partition leader
// epoch (4), magic (1), crc (4), attributes (2), last offset delta (4),
// first and max timestamps (8 + 8), producer id (8), producer epoch (2),
// base sequence (4) and record count (4).
const HeaderBytes = 61

// produceOverhead is what franz-go counts for a batch with no records when
// it decides whether the next record still fits (recordBatchOverhead in
// its sink.go): the header and the 4-byte length the produce request puts
// in front of the batch.
const produceOverhead = 4 + HeaderBytes

// Result is one codec's batches over one pool of records.
type Result struct {
	Codec   string
	Records int
	Batches int
	// Bytes is every batch as the broker stores it: its header and its
	// (compressed) records.
	Bytes int64
}

// PerRecord is the stored bytes per record; 0 for no records.
func (r Result) PerRecord() float64 {
	if r.Records == 0 {
		return 0
	}
	return float64(r.Bytes) / float64(r.Records)
}

// Measure is Build's batches, counted.
func Measure(values [][]byte, codec string, batchBytes int) (Result, error) {
	bs, err := Build(values, codec, batchBytes)
	if err != nil {
		return Result{}, err
	}
	r := Result{Codec: codec, Records: len(values), Batches: len(bs)}
	for _, b := range bs {
		r.Bytes += int64(len(b))
	}
	return r, nil
}

// Build frames values (record values in pool order, no key, no headers)
// into record batches v2 as franz-go's producer does for one partition:
// a record joins the open batch while the batch's produce length (its
// header, its records, and the produce request's 4-byte length) stays
// within batchBytes, else it opens the next one; a record too big for an
// empty batch is a batch of its own (franz-go would refuse it, Kafka's
// Java producer sends it alone). Every timestamp is 0, so each record's
// timestamp delta is 0 and the bytes depend on the values alone. Each
// batch's records are compressed with franz-go's default compressor for
// codec and, as franz-go does, kept uncompressed when that is not
// smaller. The batches are whole: a broker accepts them as they are.
func Build(values [][]byte, codec string, batchBytes int) ([][]byte, error) {
	cc, err := Codec(codec)
	if err != nil {
		return nil, err
	}
	if err := CheckBatchBytes(batchBytes); err != nil {
		return nil, err
	}
	comp, err := kgo.DefaultCompressor(cc)
	if err != nil {
		return nil, fmt.Errorf("batch: %s compressor: %w", codec, err)
	}
	var (
		out     [][]byte
		records []byte // the open batch's framed records
		n       int    // and how many
	)
	flush := func() error {
		if n == 0 {
			return nil
		}
		b, err := seal(records, n, comp)
		if err != nil {
			return fmt.Errorf("batch: %s: %w", codec, err)
		}
		out = append(out, b)
		records, n = records[:0], 0
		return nil
	}
	for _, v := range values {
		framed := frame(v, int32(n))
		if n > 0 && produceOverhead+len(records)+len(framed) > batchBytes {
			if err := flush(); err != nil {
				return nil, err
			}
			framed = frame(v, 0) // first of the next batch: its offset delta is 0
		}
		records = append(records, framed...)
		n++
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

// frame is one record as a batch holds it, through kmsg's own encoding:
// length (varint), attributes, timestamp delta 0, offset delta, key -1
// (none), the value, header count 0.
func frame(value []byte, offsetDelta int32) []byte {
	r := kmsg.Record{OffsetDelta: offsetDelta, Value: value}
	body := r.AppendTo(nil)
	r.Length = int32(len(body) - 1) // a Length of 0 is one varint byte
	return r.AppendTo(make([]byte, 0, len(body)+4))
}

// crc32c is the Castagnoli table a batch's CRC uses.
var crc32c = crc32.MakeTable(crc32.Castagnoli)

// seal makes one batch of n framed records, through kmsg's RecordBatch
// encoding, compressing the records with comp (nil: none).
func seal(records []byte, n int, comp kgo.Compressor) ([]byte, error) {
	b := kmsg.RecordBatch{PartitionLeaderEpoch: -1, Magic: 2, LastOffsetDelta: int32(n - 1),
		ProducerID: -1, ProducerEpoch: -1, FirstSequence: -1, NumRecords: int32(n), Records: records}
	if comp != nil {
		out, codec := comp.Compress(new(bytes.Buffer), records)
		if codec == kgo.CodecError {
			return nil, fmt.Errorf("compressing %d records failed", n)
		}
		if len(out) < len(records) {
			b.Records, b.Attributes = out, int16(codec)
		}
	}
	buf := b.AppendTo(nil)
	// Length counts what follows it; the CRC covers what follows it.
	binary.BigEndian.PutUint32(buf[8:], uint32(len(buf)-12))
	binary.BigEndian.PutUint32(buf[17:], crc32.Checksum(buf[21:], crc32c))
	return buf, nil
}
