// Package batch measures what a Kafka broker stores for a pool of encoded
// records: the records framed as a producer frames them (record batch v2),
// batches filled the way franz-go fills them, each batch's records
// compressed with franz-go's own compressor. The figure is bytes per record
// as stored, replicated and fetched; it is exact and deterministic (fixed
// timestamps, records in pool order), so it is compared like raw size.
package batch

import (
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Codecs are the compression codecs Kafka defines, in its own order
// (the batch attributes' codec ids 0 to 4).
var Codecs = []string{"none", "gzip", "snappy", "lz4", "zstd"}

// The batch-bytes bounds: below 1 KiB a batch holds a handful of small
// records and the per-batch header is most of the figure; above 1 MiB is
// past what a Kafka broker accepts by default (message.max.bytes, 1 MiB
// and 12 bytes) and what franz-go caps a batch at (ProducerBatchMaxBytes).
const (
	MinBatchBytes     = 1 << 10
	MaxBatchBytes     = 1 << 20
	DefaultBatchBytes = 16 << 10 // Kafka's producer batch.size
)

// Codec is franz-go's compression codec of a name in Codecs, with the
// level franz-go's producer uses by default.
func Codec(name string) (kgo.CompressionCodec, error) {
	switch name {
	case "none":
		return kgo.NoCompression(), nil
	case "gzip":
		return kgo.GzipCompression(), nil
	case "snappy":
		return kgo.SnappyCompression(), nil
	case "lz4":
		return kgo.Lz4Compression(), nil
	case "zstd":
		return kgo.ZstdCompression(), nil
	}
	return kgo.CompressionCodec{}, fmt.Errorf("%q is not a codec; valid codecs: %s", name, strings.Join(Codecs, ", "))
}

// CheckBatchBytes refuses a batch size outside the bounds.
func CheckBatchBytes(n int) error {
	if n < MinBatchBytes || n > MaxBatchBytes {
		return fmt.Errorf("%d bytes is outside %d to %d (%d, Kafka's batch.size, is the default)", n, MinBatchBytes, MaxBatchBytes, DefaultBatchBytes)
	}
	return nil
}
