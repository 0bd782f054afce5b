package cpucost

// The noise floor of an instruction count: the smallest growth of instr/op
// the gate tells from what identical counts do. A count is exact up to what
// differs between two processes of the same program: Go seeds every map's
// and sync.Map's hash per process, so a lookup walks a longer or shorter
// probe sequence or trie path depending on the seed (docs/harness.md, "CPU
// cost"). Formats that find field names or types in such tables on every
// operation keep a spread of tens to hundreds of instructions per op;
// formats that do not stay within a few instructions.
//
// Measured over 10 counts of this repo's 3 messages (json, protobuf, avro)
// and 6 counts of the opt-in formats (docs/results/cpu-aa.txt,
// cpu-aa-extra.txt), largest spread between any two counts:
//
//	protobuf, vtprotobuf, avro: up to 0.197%, and at most 6 instr/op
//	json up to 0.485% and 168 instr/op, protojson 0.533% and 242,
//	cbor 0.526% and 53, msgpack 1.93% and 241;
//	a one-field message's JSON encode: 1.7% (24 instr/op)
//
// A relative floor alone cannot cover the keyed formats (a small message's
// few instructions of seed luck are a large share), and an absolute floor
// alone cannot cover large messages; so the floor is the larger of both,
// each about twice the worst spread measured. A change under it is not a
// cpu violation at any threshold: the same code can move that far.
const (
	// exactFloorPct and exactFloorInstr: the formats in exactFormats.
	exactFloorPct   = 0.5
	exactFloorInstr = 16
	// keyedFloorPct and keyedFloorInstr: every other format, including
	// any added later until its spread is measured.
	keyedFloorPct   = 1.0
	keyedFloorInstr = 500
)

// exactFormats decode and encode without hash-table lookups per operation
// (field numbers and positions, generated or schema-compiled code).
var exactFormats = map[string]bool{"protobuf": true, "vtprotobuf": true, "avro": true}

// NoiseFloorPct is the smallest growth of instr/op, in percent of base
// (the base side's count), that format's counts can tell from their own
// noise.
func NoiseFloorPct(format string, base float64) float64 {
	pct, instr := keyedFloorPct, float64(keyedFloorInstr)
	if exactFormats[format] {
		pct, instr = exactFloorPct, exactFloorInstr
	}
	if base <= 0 {
		return pct
	}
	return max(pct, 100*instr/base)
}
