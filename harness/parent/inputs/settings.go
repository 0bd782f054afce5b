package inputs

import (
	"fmt"
	"time"

	"github.com/wiregate/wiregate/harness/parent/avrocompat"
	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
)

// Settings are the gate's inputs, validated and typed. Defaults() is every
// input at its default; Parse reads them from text.
type Settings struct {
	WorkingDirectory  string   // head checkout, relative to the current directory
	BufInput          string   // relative to each side's checkout
	Messages          []string // empty: every top-level message
	Samples           string
	AvroSchemas       []string // globs, relative to each side's checkout
	AvroCompatibility avrocompat.Level
	Formats           []string
	Lint, Breaking    bool
	// LintAll fails the gate on every lint finding, not only those the
	// pull request adds (input lint-findings).
	LintAll         bool
	BreakingAgainst Against
	// Measure is report.MeasureChanged or report.MeasureAll.
	Measure string

	History       string // branch; empty: no history
	HistoryPoints int

	SizeThreshold, TimeThreshold, ThroughputThreshold float64 // percent
	// Compression are the codecs bytes per record after batch compression
	// is measured with (empty: not measured); the pipeline's producer
	// compresses with the first. BatchBytes is a batch before compression.
	Compression             []string
	BatchBytes              int
	CompressedSizeThreshold float64 // percent
	CPUThreshold            float64 // percent
	// AddedContentThreshold is every added-content kind's threshold, in
	// percent; nil: off.
	AddedContentThreshold *float64
	CPUCost               cpucost.Mode
	CPUProcesses          int // per side and message
	Alpha                 float64
	Rounds                int // timing and pipeline rounds (input count)
	UnchangedRounds       int // timing rounds of an unchanged-schema message; use RoundsFor
	Benchtime             time.Duration
	TimeBudget            time.Duration // for the whole run; timing is fitted to it

	// Workers is how many processes the exact stages run at once.
	Workers int
	// CountsBeside runs the instruction counts beside the bench rounds.
	CountsBeside bool
	// Shard is this job's part of a sharded gate; the zero Shard is the whole change.
	Shard     Shard
	MaxShards int
	// CoverageRequired fails the gate when the budget cut a changed
	// message's figure (input coverage: required).
	CoverageRequired bool

	Pipeline         bool
	PipelineFormats  PipelineFormats
	PipelineMessages int64
	PipelineBytes    int64 // a backlog's byte budget
	Broker           string
}

// Defaults is every gate input at its documented default.
func Defaults() Settings {
	s, err := Parse(func(string) (string, string) { return "", "" })
	if err != nil {
		panic("inputs: a default in Table does not validate: " + err.Error())
	}
	return s
}

// RoundsFor is the timing rounds a message gets: count, or unchanged-rounds
// (at most count) when its schema is identical on both sides.
func (s Settings) RoundsFor(unchanged bool) int {
	if unchanged {
		return min(s.Rounds, s.UnchangedRounds)
	}
	return s.Rounds
}

// ProducerCompression is the pipeline producers' batch codec: the first of
// compression, so throughput and the compressed size describe the same
// wire; none when compression is off.
func (s Settings) ProducerCompression() string {
	if len(s.Compression) == 0 {
		return "none"
	}
	return s.Compression[0]
}

// Config is the verdict's configuration from these settings, before
// wiregate.yaml overlays it.
func (s Settings) Config() config.Config {
	return config.Config{Alpha: s.Alpha, Thresholds: config.Thresholds{
		SizePct: s.SizeThreshold, CompressedSizePct: s.CompressedSizeThreshold, TimePct: s.TimeThreshold, ThroughputPct: s.ThroughputThreshold, CPUPct: s.CPUThreshold,
		Added: config.AllAdded(s.AddedContentThreshold)}}
}

// Against is the breaking-against input: a ref, or the newest tag matching
// a glob. Both empty: check against the base only.
type Against struct {
	Ref, TagGlob string
	Text         string // the input as given, for the report
	Where        string // which input or flag gave it, for errors found later (a ref git does not know)
}

// Given is whether the input names a release to check against.
func (a Against) Given() bool { return a.Ref != "" || a.TagGlob != "" }

// Shard is part Index (1-based) of Count; the zero Shard is the whole
// change.
type Shard struct{ Index, Count int }

// Whole is whether the shard is the whole change: no shard input. A
// "1/1" is a shard like any other (what plan's matrix gives one job,
// whose part merge decides), as the gate and the action treat it.
func (s Shard) Whole() bool { return s.Count == 0 }

func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}
