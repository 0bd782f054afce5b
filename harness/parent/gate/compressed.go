package gate

import (
	"fmt"
	"math"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// batching is what the sizes stage asks each program for besides raw
// size: bytes per record after batch compression, per the inputs.
func (g *run) batching() benchprog.Batching {
	return benchprog.Batching{Compression: g.s.Compression, BatchBytes: g.s.BatchBytes}
}

// compressedSizes pairs each codec's figure of head with base's (nil base:
// a new message), with the words for where raw and compressed disagree.
func compressedSizes(base, head *benchprog.Size, rawDelta *float64) []report.CompressedSize {
	var out []report.CompressedSize
	for _, h := range head.Compressed {
		c := report.CompressedSize{Codec: h.Codec, BatchBytes: h.BatchBytes, Head: h.BytesPerRecord}
		if base != nil {
			for _, b := range base.Compressed {
				if b.Codec == h.Codec {
					c.Base = &b.BytesPerRecord
					c.DeltaPct = compare.DeltaPct(b.BytesPerRecord, h.BytesPerRecord)
				}
			}
		}
		c.Reading = reading(rawDelta, c.DeltaPct, h.Codec)
		out = append(out, c)
	}
	return out
}

// disagree is how far apart (in percentage points) raw and compressed
// growth must be, and the larger of the two must have moved, before the
// comment says what the difference means: below it the two figures tell
// one story.
const disagree = 3.0

// reading says what it means when raw and compressed size moved apart:
// raw growth a codec removes is repetition (JSON's keys, repeated values);
// compressed growth at or past raw growth is new information (ids,
// hashes, random values), which no codec removes. Empty when they agree.
func reading(raw, comp *float64, codec string) string {
	if raw == nil || comp == nil || math.Abs(*raw-*comp) < disagree {
		return ""
	}
	moved := fmt.Sprintf("%+.1f%% raw, %+.1f%% after %s", *raw, *comp, codec)
	switch {
	case *raw > 0 && *comp < *raw:
		return moved + ": the growth is mostly repeated bytes (keys, repeated values), which batch compression removes"
	case *comp > 0 && *comp > *raw:
		return moved + ": the new bytes are hard to compress (ids, hashes, random values), so they cost more on the broker than raw size shows"
	case *raw < 0 && *comp > *raw:
		return moved + ": what was removed was mostly repeated bytes, which batch compression had already removed"
	}
	return moved + ": what was removed was hard to compress, so the broker saves more than raw size shows"
}
