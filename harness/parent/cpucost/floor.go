package cpucost

import "slices"

// The noise floor of an instruction count: the smallest growth of instr/op
// the gate tells from what identical counts do. A count is exact up to what
// differs between two processes of the same program: Go seeds every map's
// and sync.Map's hash per process, so a lookup walks a longer or shorter
// probe sequence or trie path depending on the seed
// (docs/design/exact-counts.md), and a little runtime work lands in a loop at random. Formats that
// find field names or types in such tables on every operation keep a
// spread of tens to hundreds of instructions per op; formats that do not
// stay within a few.
//
// A relative floor alone cannot cover a keyed format (a small message's few
// instructions of seed luck are a large share of it) and an absolute floor
// alone cannot cover a large message, so a format's floor is the larger of
// both. Each is set to at least twice the largest spread between identical
// counts measured (docs/results/cpu-aa.txt, cpu-aa-extra.txt,
// cpu-gate-aa.txt; TestFloorsCoverTheMeasuredSpreads reads them):
//
//	protobuf, vtprotobuf, avro  0.197% (2 instr/op of 1,040), at most 6 instr/op
//	json       0.519% (57 of 11,007), at most 168 instr/op (0.42% of 40,000)
//	cbor       0.760% (48 of 6,249)
//	protojson  1.212% (695 of 57,346)
//	msgpack    1.905% (191 of 10,024), 1.517% (284 of 18,690)
//
// A change under the floor is not a cpu violation at any threshold: the
// same code can move that far.
type floor struct {
	pct   float64 // percent of the base count
	instr float64 // instructions per operation
}

var floors = map[string]floor{
	"protobuf":   {0.5, 16},
	"vtprotobuf": {0.5, 16},
	"avro":       {0.5, 16},
	"json":       {1, 256},
	"cbor":       {1.5, 256},
	"protojson":  {3, 500},
	"msgpack":    {4, 500},
}

// unmeasured is the floor of a format whose spread was never measured: the
// widest of the measured ones.
var unmeasured = floor{4, 500}

// NoiseFloorPct is the smallest growth of instr/op, in percent of base
// (the base side's count), that format's counts can tell from their own
// noise.
func NoiseFloorPct(format string, base float64) float64 {
	f := floorOf(format)
	if base <= 0 {
		return f.pct
	}
	return max(f.pct, 100*f.instr/base)
}

// Floor is the noise floor a verdict on one instr/op metric uses: at least
// the format's global floor (NoiseFloorPct), and at least twice the largest
// spread this metric's own counts showed between processes on either side
// (SpreadPct): some messages' lookups vary by hash seed past any global
// floor. FromCounts says the second decided it.
type Floor struct {
	Pct        float64
	FromCounts bool
}

// FloorOf is the floor of a metric of format whose base counts center on
// base, each side's counts from processes of their own.
func FloorOf(format string, base float64, sides ...[]float64) Floor {
	f := Floor{Pct: NoiseFloorPct(format, base)}
	for _, counts := range sides {
		if own := 2 * SpreadPct(counts); own > f.Pct {
			f = Floor{Pct: own, FromCounts: true}
		}
	}
	return f
}

// SpreadPct is how far apart counts of the same thing are: the largest over
// the smallest, in percent of the smallest; 0 for fewer than two.
func SpreadPct(counts []float64) float64 {
	if len(counts) < 2 {
		return 0
	}
	lo, hi := slices.Min(counts), slices.Max(counts)
	if lo <= 0 {
		return 0
	}
	return 100 * (hi - lo) / lo
}

// floorOf is format's floor, or the widest for a format never measured.
func floorOf(format string) floor {
	if f, ok := floors[format]; ok {
		return f
	}
	return unmeasured
}
