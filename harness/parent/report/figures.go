package report

import (
	"encoding/json"
	"math"
)

// What set an instr/op metric's noise floor (Metric.NoiseFloorFrom).
const (
	FloorFromFormat = "format"
	FloorFromCounts = "counts"
)

type Rev struct {
	Ref string `json:"ref"`
	Sha string `json:"sha"`
}

type Message struct {
	Name    string   `json:"name"`    // contract
	Formats []Format `json:"formats"` // contract
	// UnchangedSchema is true when the message's schema is byte-identical
	// on both sides (descriptor and everything it depends on, Avro schema,
	// samples): both programs run the same code for it, so its time and
	// throughput deltas are noise and never fail the gate.
	UnchangedSchema bool `json:"unchanged_schema,omitempty"`
	// Status is StatusChanged, StatusNew or StatusUnchanged (the last only
	// when measure is all).
	Status string `json:"status,omitempty"`
	// Records says which records both sides measured and what of them is
	// new on head; nil for a message measured on one side only.
	Records *Records `json:"records,omitempty"`
	// AddedContent is what head's added content costs when filled; nil
	// when head's records add none (or were not measured whole).
	AddedContent *AddedContent `json:"added_content,omitempty"`
}

// AddedContent is what the content a release adds costs when filled: head's
// records whole against the same records without it (Records.NewFields and
// the new oneof members the records hold), in each format, by each exact
// figure. The base is not in it: the regression gate compares the same
// content with the base (Format.Size, Format.Metrics); this is stated,
// and fails only past added-content-threshold. Timings and the pipeline
// measure the same content only.
type AddedContent struct {
	Formats []AddedFormat `json:"formats"`
}

// AddedFormat is one format's added-content figures.
type AddedFormat struct {
	Format  string        `json:"format"`
	Figures []AddedFigure `json:"figures"`
}

// The figures of an AddedFigure (Metric).
const (
	AddedSize           = "size"            // bytes/msg
	AddedCompressedSize = "compressed-size" // bytes per record after Codec's batch compression
	AddedEncode         = "encode"          // instr/op
	AddedDecode         = "decode"          // instr/op
)

// AddedMetrics are every AddedFigure metric.
var AddedMetrics = []string{AddedSize, AddedCompressedSize, AddedEncode, AddedDecode}

// AddedFigure is one exact figure of head's records without their added
// content (Without: the same content) and with it (With).
type AddedFigure struct {
	Metric   string   `json:"metric"`          // AddedMetrics
	Codec    string   `json:"codec,omitempty"` // compressed-size: the batch codec
	Unit     string   `json:"unit"`            // B/msg, B/record or instr/op
	Without  float64  `json:"without"`
	With     float64  `json:"with"`
	DeltaPct *float64 `json:"delta_pct" jsonschema:"nullable"`
	// ThresholdPct is the added-content threshold the verdict applied to
	// this figure; absent when it is off (stated, never failing).
	ThresholdPct *float64 `json:"threshold_pct,omitempty"`
}

// Records are how base and head got the same logical records: the base's
// pool carried to head's schema by field number, so every value whose
// field survives is the same on both sides. The lists say what head's
// records hold that the base's did not.
type Records struct {
	// Source is one line: "paired: the base's 256 generated records carried
	// to head by field number", "samples (40 records) on each side", …
	Source string `json:"source"`
	// FromSamples is true when both sides measured the user's samples
	// file: then what the records compress to is the data's, and
	// compressed size gates (verdict: compressedSize).
	FromSamples bool `json:"from_samples,omitempty"`
	// NewFields are head's fields with a number the base does not have:
	// generated as for a new message.
	NewFields []FieldNote `json:"new_fields,omitempty"`
	// Regenerated are fields whose kind changed so that the base's values
	// cannot survive (string → int64): fresh values, this field only.
	Regenerated []FieldNote `json:"regenerated,omitempty"`
	// NewOneofMembers are members added to an existing oneof: every record
	// keeps the member it held, so none holds these; ProtobufBytes is what
	// one would carry where a record does.
	NewOneofMembers []FieldNote `json:"new_oneof_members,omitempty"`
	// Renamed are fields kept by number under another name (information:
	// no value changed).
	Renamed []FieldNote `json:"renamed,omitempty"`
	// Removed are the base's fields head no longer has.
	Removed []FieldNote `json:"removed,omitempty"`
	// OnlyAdded says head's schema of the message (and its Avro schema)
	// differs from the base's only by what head adds: the same content
	// then costs more under head's schema only by what the added fields
	// cost even unset, which is the addition's cost (judged with the
	// added content), not a regression.
	OnlyAdded bool `json:"only_added,omitempty"`
}

// FieldNote is one field of a paired message.
type FieldNote struct {
	Field  string `json:"field"`          // head's path of names from the message: "lines.notes" (the base's for Removed)
	Number string `json:"number"`         // the same path in field numbers: "3.5"
	From   string `json:"from,omitempty"` // Regenerated: the base's kind; Renamed: the base's name
	To     string `json:"to,omitempty"`   // Regenerated, NewFields, NewOneofMembers: head's kind; Renamed: head's name
	Was    string `json:"was,omitempty"`  // Regenerated: the base's name, when head renamed the field too
	// ProtobufBytes is the mean protobuf bytes per record the field adds on
	// head (NewFields, Regenerated: tag and value), or would add where a
	// record holds it (NewOneofMembers).
	ProtobufBytes *float64 `json:"protobuf_bytes,omitempty"`
	// Entries is the mean entries a record holds of a list or map field
	// head adds or regenerates; absent for a singular field.
	Entries *float64 `json:"entries,omitempty"`
	// Required marks a new field head requires: every record of head must
	// hold it, so it is judged with the same content, not stated as added.
	Required bool `json:"required,omitempty"`
}

type Format struct {
	Format   string   `json:"format"`                     // contract
	Size     *Size    `json:"size" jsonschema:"nullable"` // contract (nil when the format has no head or base)
	Metrics  []Metric `json:"metrics"`                    // contract
	Aliasing bool     `json:"aliasing"`                   // decoder aliases strings into the input buffer
	// Piped is true when the pipeline drains the message in this format
	// (input pipeline-formats), whether or not the budget let it: the
	// formats coverage's "piped" asks rows for.
	Piped bool `json:"piped,omitempty"`
}

// Size is bytes per message, exact (mean over the record pool).
type Size struct {
	Base     float64  `json:"base"`                            // contract
	Head     float64  `json:"head"`                            // contract
	DeltaPct *float64 `json:"delta_pct" jsonschema:"nullable"` // contract
	VsJSON   float64  `json:"vs_json,omitempty"`
	// Unset says why this format's same content grew although no value
	// did: it writes the fields head adds even when they are unset ("avro
	// writes every field: +1.0 B a record even when `tags` is empty").
	// Empty otherwise.
	Unset string `json:"unset,omitempty"`
	// Compressed is bytes per record as a Kafka broker stores them, one
	// entry per codec of the compression input: the same records in
	// producer batches, each batch compressed. Exact, like raw size.
	Compressed []CompressedSize `json:"compressed,omitempty"`
}

// CompressedSize is one codec's stored bytes per record, base vs head.
type CompressedSize struct {
	Codec      string `json:"codec"`       // none, gzip, snappy, lz4 or zstd
	BatchBytes int    `json:"batch_bytes"` // a batch before compression
	// Base is nil when the base has no such figure (a new message).
	Base     *float64 `json:"base" jsonschema:"nullable"`
	Head     float64  `json:"head"`
	DeltaPct *float64 `json:"delta_pct" jsonschema:"nullable"`
	// Reading says in words what it means when raw and compressed size
	// moved apart ("+31% raw, +2% after zstd: …"); empty when they agree.
	Reading string `json:"reading,omitempty"`
	// Ungated says why a growth past the compressed-size threshold did not
	// fail ("on generated records; give samples to gate it"); empty when
	// the figure was gated or within its threshold.
	Ungated string `json:"ungated,omitempty"`
}

// Metric is one benchmark unit compared base vs head (benchmath).
type Metric struct {
	Name        string   `json:"name"`                       // contract: encode | decode
	Unit        string   `json:"unit"`                       // contract: sec/op, B/op, allocs/op, instr/op
	Base        *Summary `json:"base" jsonschema:"nullable"` // contract
	Head        *Summary `json:"head" jsonschema:"nullable"` // contract
	DeltaPct    *float64 `json:"delta_pct" jsonschema:"nullable"`
	P           *float64 `json:"p" jsonschema:"nullable"`
	Significant bool     `json:"significant"`               // p <= alpha; for an exact instr/op count: past its noise floor
	Delta       string   `json:"delta"`                     // benchstat's delta text: "+12.30%" or "~"
	NoiseFloor  *float64 `json:"noise_floor_pct,omitempty"` // smallest change this run could tell from noise
	// LayoutNoise marks a significant sec/op delta on a format whose exact
	// figures are equal on both sides (bytes/msg, and every instruction and
	// allocation count within its noise floor): the same work in two
	// builds' code layout, not a change the schema made.
	LayoutNoise bool `json:"layout_noise,omitempty"`
	// NoiseFloorFrom says what set an instr/op floor: FloorFromFormat (the
	// format's global floor) or FloorFromCounts (twice the spread this
	// metric's own counts showed between processes, past the global one).
	NoiseFloorFrom string `json:"noise_floor_from,omitempty"`
	// MDE is a timed metric's minimum detectable effect: the smallest
	// change, in percent, its samples could have shown significant at the
	// strictest cutoff Holm's procedure applies to the run's timings
	// (alpha over the number of timed tests); nil with MDEReason when no
	// change could have reached it.
	MDE       *float64 `json:"mde_pct,omitempty"`
	MDEReason string   `json:"mde_reason,omitempty"`
	// StoppedNoSlowdown is the rounds a side after which the message was
	// timed no further because its spread gave the rounds planned the power
	// its threshold needs and head showed no slowdown of a quarter of it (a
	// slowdown would have kept it timed); MDE is then at the rounds
	// planned, the power its decision had. 0: it did not stop so.
	StoppedNoSlowdown int `json:"stopped_no_slowdown,omitempty"`
	// Ops is how many operations each instr/op count covered: whole passes
	// over the first records of the pool, the same on both sides.
	Ops int `json:"ops,omitempty"`
	// NotTimed marks a timing the gate did not run: the noise the base's
	// history point measured said that even every round the plan allows
	// could not show a slowdown of its threshold. MDE is that prediction.
	NotTimed bool `json:"not_timed,omitempty"`
	// Functions says why an instr/op count moved: the functions whose own
	// instructions per operation moved past the count's noise floor, the
	// largest change first, at most a handful; none when nothing did.
	Functions []FunctionCost `json:"functions,omitempty"`
}

// The kinds of a FunctionCost: a function, one of the bench program's
// generated code, or a group of functions.
const (
	FunctionKindFunction  = "function"
	FunctionKindGenerated = "generated"
	FunctionKindGroup     = "group"
)

// FunctionKinds are every FunctionCost kind.
var FunctionKinds = []string{FunctionKindFunction, FunctionKindGenerated, FunctionKindGroup}

// FunctionCost is one function's instructions per operation, base → head,
// read from the same callgrind dumps as the count (each side's median over
// its processes). Name is package-qualified ("protowire.ConsumeVarint"),
// or a group's ("allocation": the runtime's allocator and GC barriers;
// "protobuf decoder": the protobuf runtime's table-driven decoder).
type FunctionCost struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // FunctionKinds

	// Self is what the function itself executed; Inclusive adds what it
	// called (rebuilt from self costs and call counts).
	SelfBase       float64 `json:"self_base"`
	SelfHead       float64 `json:"self_head"`
	InclusiveBase  float64 `json:"inclusive_base"`
	InclusiveHead  float64 `json:"inclusive_head"`
	SelfDelta      float64 `json:"self_delta"`      // head − base
	InclusiveDelta float64 `json:"inclusive_delta"` // head − base
	// ExplainsMost marks the function whose own change is more than half
	// of the count's change.
	ExplainsMost bool `json:"explains_most,omitempty"`
}

// Summary is benchmath's summary of one side's samples.
type Summary struct {
	Center float64 `json:"center"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	N      int     `json:"n"`
}

// MarshalJSON leaves out bounds benchmath could not compute (±Inf when a
// side has too few samples for a confidence interval): JSON has no infinity.
func (s Summary) MarshalJSON() ([]byte, error) {
	out := map[string]any{"center": finite(s.Center), "n": s.N}
	if !math.IsInf(s.Lo, 0) && !math.IsNaN(s.Lo) {
		out["lo"] = s.Lo
	}
	if !math.IsInf(s.Hi, 0) && !math.IsNaN(s.Hi) {
		out["hi"] = s.Hi
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes: a bound that is missing is
// one benchmath could not compute (±Inf).
func (s *Summary) UnmarshalJSON(b []byte) error {
	var in struct {
		Center *float64 `json:"center"`
		Lo     *float64 `json:"lo"`
		Hi     *float64 `json:"hi"`
		N      int      `json:"n"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*s = Summary{Center: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1), N: in.N}
	if in.Center != nil {
		s.Center = *in.Center
	}
	if in.Lo != nil {
		s.Lo = *in.Lo
	}
	if in.Hi != nil {
		s.Hi = *in.Hi
	}
	return nil
}

func finite(f float64) any {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil
	}
	return f
}
