package report

import "github.com/invopop/jsonschema"

// Figures of a changed message, as Coverage counts them.
const (
	FigureSized   = "sized"   // bytes/msg in every format, both sides (and the correctness check)
	FigureCounted = "counted" // instr/op of encode and decode in every format
	FigureTimed   = "timed"   // sec/op of encode and decode in every format
	FigurePiped   = "piped"   // pipeline records/s in every format it drains (Format.Piped)
)

// Coverage is what the verdict judged: of the messages whose schema
// changed (and that wiregate can measure), how many have each figure on
// both sides. A new message has nothing to compare and is not counted.
type Coverage struct {
	Changed int `json:"changed"`
	Sized   int `json:"sized"`
	Counted int `json:"counted"`
	Timed   int `json:"timed"`
	Piped   int `json:"piped"`
	// Expected are the figures this run set out to measure (Figure*):
	// counted only where instructions can be counted, piped only with the
	// pipeline on.
	Expected []string `json:"expected"`
	// Cut are, by figure, the changed messages whose expected figure is
	// missing: the budget cut it, or its shard's part is missing.
	Cut map[string][]string `json:"cut,omitempty"`
	// Added is how many changed messages' added content was measured, and
	// SameContentOnly says what of it was not: timings and the pipeline
	// measure the same content only (measuring both would double them),
	// so an addition's cost is its exact figures alone. Empty when no
	// message has added content.
	Added           int    `json:"added,omitempty"`
	SameContentOnly string `json:"same_content_only,omitempty"`
}

// SameContentOnlyNote is Coverage.SameContentOnly's words.
const SameContentOnlyNote = "timed and drained on the same content only; what the added content costs is its bytes and instruction counts"

// Complete is whether every expected figure of every changed message is
// there.
func (c *Coverage) Complete() bool { return c == nil || len(c.Cut) == 0 }

// ShardNamePattern and PartNamePattern are the contract's shapes of a
// shard's name (2/8) and of its part's artifact name
// (wiregate-part-2-of-8): the schemas declare them, so the action checks
// a name against Go's pattern, never its own; their writers
// (inputs.Shard.String, shard.PartName) are tested against them.
const (
	ShardNamePattern = `^[1-9][0-9]*/[1-9][0-9]*$`
	PartNamePattern  = `^wiregate-part-[1-9][0-9]*-of-[1-9][0-9]*$`
)

// JSONSchemaExtend gives the names their patterns.
func (Shard) JSONSchemaExtend(s *jsonschema.Schema) {
	Pattern(s, "name", ShardNamePattern)
	Pattern(s, "artifact", PartNamePattern)
}

// JSONSchemaExtend gives the missing shards' names their pattern.
func (Merged) JSONSchemaExtend(s *jsonschema.Schema) { Pattern(s, "missing_names", ShardNamePattern) }

// Pattern sets property key's pattern, or its items' when it is an array.
func Pattern(s *jsonschema.Schema, key, pattern string) {
	p, ok := s.Properties.Get(key)
	if !ok {
		return
	}
	if p.Items != nil {
		p = p.Items
	}
	p.Pattern = pattern
}

// Shard is one part of a sharded gate: what it measured and what every
// shard of the same plan measures, with what must agree for parts to merge.
type Shard struct {
	Index int `json:"index"` // 1-based
	Count int `json:"count"`
	// Name is the shard as the matrix and the shard input name it (2/8),
	// and Artifact what its part uploads as (wiregate-part-2-of-8): both
	// decided by the gate (inputs.Shard.String, shard.PartName), passed
	// on by the action and read by the merge, never rebuilt from Index and
	// Count.
	Name     string `json:"name"`
	Artifact string `json:"artifact"`
	// Parts are every shard's messages, by index from 0: a merge names a
	// missing shard's messages from any other part.
	Parts [][]string `json:"parts"`
	// Split, Change, Inputs and Harness identify the split, the change set,
	// the inputs that decide what is measured and judged, and the harness
	// that measured: parts that differ in one cannot be merged.
	Split   string `json:"split"`
	Change  string `json:"change"`
	Inputs  string `json:"inputs"`
	Harness string `json:"harness"`
}

// Merged is which shards a merged report holds.
type Merged struct {
	Count   int   `json:"count"`             // shards in the plan
	Parts   []int `json:"parts"`             // the shards merged, 1-based
	Missing []int `json:"missing,omitempty"` // shards with no part: their messages are not measured
	// MissingNames are the missing shards as the matrix named them (2/8:
	// inputs.Shard.String), for the comment: the action builds no shard
	// name.
	MissingNames []string `json:"missing_names,omitempty"`
}
