// Package report holds report.json: the one file every stage writes into and
// the action renders from. Fields marked "contract" are stable across
// versions (docs/action.md lists them); everything else may grow.
package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Version is the report.json schema version (contract).
const Version = 1

// Violation kinds (contract).
const (
	KindLint     = "lint"
	KindBreaking = "breaking"
	KindAvro     = "avro"
	KindSize     = "size"
	// KindCompressedSize is bytes per record after batch compression.
	KindCompressedSize = "compressed-size"
	KindCPU            = "cpu"
	KindTime           = "time"
	KindThroughput     = "throughput"
	KindError          = "error"
	// KindCoverage: input coverage is required and the budget or a missing
	// shard cut a changed message's figure.
	KindCoverage = "coverage"
	// KindAvroMismatch: a proto message's own .avsc disagrees with it (a
	// field one lacks, a type the other cannot hold); its Avro formats are
	// not measured, the others are.
	KindAvroMismatch = "avro-mismatch"
)

type Report struct {
	Version int    `json:"version"` // contract
	Result  string `json:"result"`  // contract: "pass" | "fail"
	// ExitCode is the gate's answer as wiregate's exit code: 0 pass, 1 the
	// gate failed, 2 wiregate could not run. The action exits with it and
	// sets the commit status by it; ExitReason says why in one line.
	ExitCode   int         `json:"exit_code"`
	ExitReason string      `json:"exit_reason"`
	Base       Rev         `json:"base"`              // contract
	Head       Rev         `json:"head"`              // contract
	Violations []Violation `json:"violations"`        // contract
	Messages   []Message   `json:"messages"`          // contract
	Pipeline   []Pipeline  `json:"pipeline"`          // contract
	Findings   []Finding   `json:"findings"`          // schema-check findings (lint, breaking, avro), also those allowed
	Ignored    []Ignored   `json:"ignored,omitempty"` // metrics ignored by wiregate.yaml, with the reason
	// UnableToFail are the timed metrics (message/format/op) of changed
	// messages whose minimum detectable effect is above their time
	// threshold: measured, but no slowdown they could show would fail.
	UnableToFail []string `json:"unable_to_fail,omitempty"`
	Env          Env      `json:"env"`
	Stages       []Stage  `json:"stages"`
	// Costs are what measuring each message cost this run, by stage: what
	// a later plan prices it by.
	Costs     []Cost   `json:"costs,omitempty"`
	Benchstat string   `json:"benchstat,omitempty"` // benchstat's text table, base vs head
	Errors    []string `json:"errors,omitempty"`    // stages that could not run, one line each
	Plan      Plan     `json:"plan"`                // what the time budget cut
	// Warnings are one line each: something the gate could not do that
	// does not fail it (no tag matches breaking-against, history not
	// recorded).
	Warnings []string `json:"warnings,omitempty"`
	// BreakingAgainst is the release the schema checks also ran against
	// (input breaking-against); nil when they ran against the base only.
	BreakingAgainst *Against `json:"breaking_against,omitempty"`
	History         *History `json:"history,omitempty"`
	// Skipped are the messages of the schemas wiregate cannot measure,
	// each once; every other message was measured.
	Skipped []Skipped `json:"skipped,omitempty"`
	// CPUCost says how CPU cost was measured: instructions counted, or
	// why it is time only. Nil when the run stopped before the cpu stage.
	CPUCost *CPUCost `json:"cpu_cost,omitempty"`
	// Change is what the pull request changed in the schemas, by message:
	// everything the gate measures is planned from it. Nil when the run
	// stopped before the schemas of both sides were loaded.
	Change *Change `json:"change,omitempty"`
	// Coverage is what the verdict judged of the change: how many changed
	// messages have each figure, and which the budget cut. Nil when nothing
	// was measured.
	Coverage *Coverage `json:"coverage,omitempty"`
	// Rules are what the verdict applies besides the measurements, as the
	// gate resolved them: a merge or an approval re-decides the report by
	// them without the checkout.
	Rules *Rules `json:"rules,omitempty"`
	// Shard is this report's part of a sharded gate; nil for a whole or a
	// merged one.
	Shard *Shard `json:"shard,omitempty"`
	// Merged says which shards a merged report holds; nil otherwise.
	Merged *Merged `json:"merged,omitempty"`
	// Approvals say what each /wiregate command of the pull request did.
	Approvals []ApprovalNote `json:"approvals,omitempty"`
	// Elements are the schema violations by element (file → message or
	// enum → field or enum value): the comment shows one row each.
	Elements []Element `json:"elements,omitempty"`
	// ApproveAll are the comment lines that, posted as one comment,
	// approve every blocking violation: the schema findings by their
	// elements' ids on the first line, then each measured regression's own
	// line (each has its amount). Empty with fewer than two to approve.
	ApproveAll []string `json:"approve_all,omitempty"`
	// ApproveFiles are one line per file approving its blocking schema
	// findings, when they span more than one file.
	ApproveFiles []FileApproval `json:"approve_files,omitempty"`
}

// Element is one schema element with every schema violation on it (of one
// kind, against one side): a field renamed and retyped in one commit is
// one element with four of buf's rules.
type Element struct {
	// ID approves every violation of the element as they stand (a rule
	// hit later is not covered); a lone violation's element has its id.
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Against string `json:"against,omitempty"`
	File    string `json:"file"`
	// Container is the message or enum that holds the element, as buf
	// names it; empty when buf's message names none (the element is the
	// finding itself).
	Container     string `json:"container,omitempty"`
	ContainerKind string `json:"container_kind,omitempty"` // message | enum | service | file
	Member        string `json:"member,omitempty"`         // field | enum value | rpc; empty: the container itself
	Number        string `json:"number,omitempty"`         // the field's or enum value's number
	Name          string `json:"name,omitempty"`           // the member's name on head (the base's, deleted)
	// Changes are what changed, each once.
	Changes []ElementChange `json:"changes"`
	// Rules are the rules that fired, each once, in the order found.
	Rules []string `json:"rules"`
	// Violations are the ids of its violations.
	Violations  []string `json:"violations"`
	ApproveWith string   `json:"approve_with,omitempty"`
}

// ElementChange is one thing a schema finding says changed: "name" from a to b,
// "type", "json_name", "cardinality", another property buf names, or
// "deleted"; Text is the finding's own message when it names none.
type ElementChange struct {
	What string `json:"what"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	Text string `json:"text,omitempty"`
}

// FileApproval is the line approving a file's blocking schema findings.
type FileApproval struct {
	File string `json:"file"`
	Line string `json:"line"`
}

// Approval is a PR comment `/wiregate approve <id>…` that covers a
// violation.
type Approval struct {
	By     string `json:"by"`               // the comment's author
	At     string `json:"at"`               // the comment as it reads now: its last edit, RFC 3339
	URL    string `json:"url"`              // the comment
	Reason string `json:"reason,omitempty"` // what the approver wrote after the ids
	// UpToPct is the largest growth (percent) a measured regression's
	// approval covers ("up to 7.4%"); nil for a schema finding, which an
	// approval covers exactly.
	UpToPct *float64 `json:"up_to_pct,omitempty"`
}

// Comment is one of the pull request's comments that speaks to wiregate
// (a line starting /wiregate), as it reads now.
type Comment struct {
	ID        int64  `json:"id"`
	URL       string `json:"url"`
	Author    string `json:"author"`
	Body      string `json:"body"`
	CreatedAt string `json:"created_at"` // RFC 3339
	UpdatedAt string `json:"updated_at"`
}

// Author is what GitHub says of a comment's author: their permission on
// the repository (admin, maintain, write, triage, read, none) and the
// approver teams of wiregate.yaml they belong to.
type Author struct {
	Login      string   `json:"login"`
	Permission string   `json:"permission"`
	Teams      []string `json:"teams,omitempty"`
	// Bot is GitHub's word that the account is a bot (user type Bot): the
	// sticky comment's author, an app. A bot never approves.
	Bot bool `json:"bot,omitempty"`
}

// ApprovalNote says what one /wiregate command did to one id: counted, or
// why not.
type ApprovalNote struct {
	By     string `json:"by"`
	URL    string `json:"url"`
	Action string `json:"action"` // approve | revoke
	ID     string `json:"id"`
	// Status is counted, refused (the author may not approve), unknown (no
	// violation has the id in this run), exceeded (the regression grew past
	// the approved amount) or amount (a measured regression's approval
	// needs "up to N%").
	Status string `json:"status"`
	Why    string `json:"why,omitempty"`
}

// What an approval command did (ApprovalNote.Status).
const (
	ApprovalCounted  = "counted"
	ApprovalRefused  = "refused"
	ApprovalUnknown  = "unknown"
	ApprovalExceeded = "exceeded"
	ApprovalAmount   = "amount"
)

// Rules are the verdict's inputs besides the measurements.
type Rules struct {
	Config  config.Config `json:"config"`           // thresholds and alpha, overlaid by the base's wiregate.yaml
	Labels  []string      `json:"labels,omitempty"` // the PR's labels, as given
	LintAll bool          `json:"lint_all,omitempty"`
	// CoverageRequired fails the gate on a changed message's cut figure
	// (input coverage: required).
	CoverageRequired bool `json:"coverage_required,omitempty"`
	// Pipeline is whether the pipeline was asked for: a changed message
	// without its rows is then not fully measured.
	Pipeline bool `json:"pipeline"`
	// Approvals are the pull request's comments the verdict reads
	// approvals from (the action gathers them).
	Approvals
}

// Approvals are what the action gathers from GitHub for the verdict: the
// pull request's /wiregate comments as they read now, what GitHub says of
// their authors, and the pull request's author. The verdict decides what
// they approve (package verdict).
type Approvals struct {
	Comments []Comment `json:"comments,omitempty"`
	Authors  []Author  `json:"authors,omitempty"`
	PRAuthor string    `json:"pr_author,omitempty"`
}

// Figures of a changed message, as Coverage counts them.
const (
	FigureSized   = "sized"   // bytes/msg in every format, both sides (and the correctness check)
	FigureCounted = "counted" // instr/op of encode and decode in every format
	FigureTimed   = "timed"   // sec/op of encode and decode in every format
	FigurePiped   = "piped"   // pipeline records/s in every format
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
}

// Complete is whether every expected figure of every changed message is
// there.
func (c *Coverage) Complete() bool { return c == nil || len(c.Cut) == 0 }

// Shard is one part of a sharded gate: what it measured and what every
// shard of the same plan measures, with what must agree for parts to merge.
type Shard struct {
	Index int `json:"index"` // 1-based
	Count int `json:"count"`
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
}

// Measure modes (input measure).
const (
	MeasureChanged = "changed" // only changed and new messages are measured (the default)
	MeasureAll     = "all"     // every message, changed or not
)

// Message statuses: how a message's schema differs between base and head.
const (
	StatusChanged   = "changed"   // on both sides, its schema differs
	StatusNew       = "new"       // only head declares it (a renamed or moved message is new): nothing to compare
	StatusUnchanged = "unchanged" // identical schema on both sides: its figures cannot differ
	StatusRemoved   = "removed"   // only the base declares it
)

// Change is the change set: each of head's messages (and the base's that
// head no longer declares) by status, every list sorted. A message's
// schema is its descriptor closure, its Avro schema and its samples file
// (the fingerprint); two equal fingerprints run the same code on the same
// records, so an unchanged message is not re-measured unless measure is
// all.
type Change struct {
	Measure   string   `json:"measure"` // MeasureChanged | MeasureAll
	Changed   []string `json:"changed"`
	New       []string `json:"new"`
	Removed   []string `json:"removed"`
	Unchanged []string `json:"unchanged"`
	// NoSchemaChanged is true when no message changed, was added or was
	// removed: the gate ran the schema checks and measured nothing.
	NoSchemaChanged bool `json:"no_schema_changed,omitempty"`
	// Groups are the changed messages by cause: what in each one's closure
	// changed (itself, or the messages and enums it holds), largest group
	// first. One field added to a message hundreds embed is one group.
	Groups []Group `json:"groups,omitempty"`
}

// Group is changed messages that changed for the same cause.
type Group struct {
	// Cause names what changed, sorted: messages and enums by full name, a
	// file by its path and " (file options)"; a message whose closure is
	// the same on both sides but whose Avro schema or samples changed is
	// its own cause.
	Cause    []string `json:"cause"`
	Messages []string `json:"messages"`
}

// Skipped is a message wiregate cannot measure (a MessageSet, a weak
// field, a message holding one), where it is declared, and why.
type Skipped struct {
	Message string `json:"message"`
	File    string `json:"file"`
	Reason  string `json:"reason"`
	// Side is "head" when head cannot measure it, "base" when only the base
	// could not (head's figures for it then have nothing to compare with).
	Side string `json:"side"`
}

// CPUCost is the cpu stage's outcome (input cpu-cost).
type CPUCost struct {
	Mode string `json:"mode"`           // auto | on | off, as the input says
	Tool string `json:"tool,omitempty"` // the counter, when instructions were counted
	// Installed says that the gate installed Valgrind on the runner, and
	// how long it took.
	Installed string `json:"installed,omitempty"`
	// Unavailable says in one line why CPU cost is time only.
	Unavailable string `json:"unavailable,omitempty"`
}

// Against is the release named by the breaking-against input.
type Against struct {
	Input string `json:"input"` // as given: "latest-tag:v*", "v1.4.0", "release/1.x"
	Ref   string `json:"ref"`   // what it resolved to: the tag, or the ref itself
	Sha   string `json:"sha"`
	// SameAsBase is true when the release is the base commit: its checks
	// would repeat the base's, so they did not run.
	SameAsBase bool `json:"same_as_base,omitempty"`
}

// Plan is what the gate cut to fit its time budget (package budget).
type Plan struct {
	BudgetSeconds float64 `json:"budget_seconds"`
	// ShardsNeeded is how many shards of time-budget each measure the
	// whole change, by the prices mode: plan splits by (package shard).
	ShardsNeeded int           `json:"shards_needed,omitempty"`
	Bench        *BenchPlan    `json:"bench,omitempty"`
	Pipeline     *PipelinePlan `json:"pipeline,omitempty"`
	CPU          *CPUPlan      `json:"cpu,omitempty"`
	Exact        *ExactPlan    `json:"exact,omitempty"`
}

// CPUPlan is what the budget cut of the instruction counts: messages
// counted in fewer processes than asked, and messages not counted at all.
type CPUPlan struct {
	Uncounted []string `json:"uncounted,omitempty"` // messages not counted
	// FewerProcesses are messages counted in fewer processes per side than
	// asked; with one, their floor is the format's global one.
	FewerProcesses []string `json:"fewer_processes,omitempty"`
	Note           string   `json:"note,omitempty"`
}

// ExactPlan is what the budget cut of the exact stage (correctness and
// sizes): messages it had no time left for. Nothing is cut here before
// every timing stage is.
type ExactPlan struct {
	Unmeasured []string `json:"unmeasured,omitempty"`
	Note       string   `json:"note,omitempty"`
}

// PipelinePlan is what the budget cut of the pipeline rounds.
type PipelinePlan struct {
	Untimed []string `json:"untimed,omitempty"` // rows (message/format) not measured
	Note    string   `json:"note,omitempty"`    // what was cut; empty when nothing was
}

// BenchPlan is the bench rounds the run did.
type BenchPlan struct {
	Count     int      `json:"count"`
	Benchtime string   `json:"benchtime"`
	Untimed   []string `json:"untimed,omitempty"` // messages whose time was not measured
	Note      string   `json:"note,omitempty"`    // what was cut and why; empty when nothing was
}

type Rev struct {
	Ref string `json:"ref"`
	Sha string `json:"sha"`
}

// Violation is one reason the gate fails (or would fail, when Allowed).
// Detail is prose; the numbers are fields of their own, and the renderer
// formats them (one place decides how a number reads).
type Violation struct {
	Kind         string   `json:"kind"`           // contract
	Subject      string   `json:"subject"`        // contract: message/format/metric, file, or stage
	Detail       string   `json:"detail"`         // contract: one sentence a reviewer can act on, without numbers
	Unit         string   `json:"unit,omitempty"` // of Base and Head: B/msg, sec/op, allocs/op, instr/op, records/s
	Base         *float64 `json:"base,omitempty"` // the metric's center on base
	Head         *float64 `json:"head,omitempty"` // … and on head
	DeltaPct     *float64 `json:"delta_pct,omitempty"`
	ThresholdPct *float64 `json:"threshold_pct,omitempty"`
	P            *float64 `json:"p,omitempty"`
	BaseN        int      `json:"base_n,omitempty"` // samples per side behind P
	HeadN        int      `json:"head_n,omitempty"`
	Allowed      bool     `json:"allowed"` // contract: turned into a warning by a PR label
	// ID names the violation by what it is, never where it sits (ViolationID):
	// the same across commits while the violation is the same.
	ID string `json:"id,omitempty"`
	// Approved is the approval that covers it: it does not fail the gate.
	Approved *Approval `json:"approved,omitempty"`
	// ApproveWith is the comment line that approves it, for the comment to
	// show: "/wiregate approve wg-3f9a2c" (a measured regression's with
	// "up to" its growth). Empty for what cannot be approved (errors).
	ApproveWith string `json:"approve_with,omitempty"`
	// NoiseFloor is the metric's noise floor (percent) for a measured
	// violation: an approval covers a growth up to its amount plus it.
	NoiseFloor *float64 `json:"noise_floor_pct,omitempty"`
	// Against is the release a breaking or avro violation breaks (the
	// ref of BreakingAgainst); empty: the base.
	Against string `json:"against,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
}

// Finding is one schema-check result (buf lint, buf breaking, Avro compat).
type Finding struct {
	Kind    string `json:"kind"` // lint | breaking | avro | avro-mismatch
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Message string `json:"message"`
	Against string `json:"against,omitempty"` // the release checked against; empty: the base
	// Existing marks a lint finding the base already has (the same file,
	// rule and message): debt the pull request did not add. It fails the
	// gate only when lint-findings is all.
	Existing bool `json:"existing,omitempty"`
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
}

// Records are how base and head got the same logical records: the base's
// pool carried to head's schema by field number, so every value whose
// field survives is the same on both sides. The lists say what head's
// records hold that the base's did not.
type Records struct {
	// Source is one line: "paired: the base's 256 generated records carried
	// to head by field number", "samples (40 records) on each side", …
	Source string `json:"source"`
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
}

// FieldNote is one field of a paired message.
type FieldNote struct {
	Field  string `json:"field"`          // head's path of names from the message: "lines.notes" (the base's for Removed)
	Number string `json:"number"`         // the same path in field numbers: "3.5"
	From   string `json:"from,omitempty"` // Regenerated: the base's kind; Renamed: the base's name
	To     string `json:"to,omitempty"`   // Regenerated: head's kind; Renamed: head's name
	Was    string `json:"was,omitempty"`  // Regenerated: the base's name, when head renamed the field too
	// ProtobufBytes is the mean protobuf bytes per record the field adds on
	// head (NewFields, Regenerated: tag and value), or would add where a
	// record holds it (NewOneofMembers).
	ProtobufBytes *float64 `json:"protobuf_bytes,omitempty"`
}

type Format struct {
	Format   string   `json:"format"`                     // contract
	Size     *Size    `json:"size" jsonschema:"nullable"` // contract (nil when the format has no head or base)
	Metrics  []Metric `json:"metrics"`                    // contract
	Aliasing bool     `json:"aliasing"`                   // decoder aliases strings into the input buffer
}

// Size is bytes per message, exact (mean over the record pool).
type Size struct {
	Base     float64  `json:"base"`                            // contract
	Head     float64  `json:"head"`                            // contract
	DeltaPct *float64 `json:"delta_pct" jsonschema:"nullable"` // contract
	VsJSON   float64  `json:"vs_json,omitempty"`
	// NewContent is how many of head's bytes/msg come from what head's
	// records hold that the base's did not (Records' new and regenerated
	// fields): head's size less that of the same records without them, in
	// this format. Nil when there is none.
	NewContent *float64 `json:"new_content,omitempty"`
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
	// Ops is how many operations each instr/op count covered: whole passes
	// over the first records of the pool, the same on both sides.
	Ops int `json:"ops,omitempty"`
}

// What set an instr/op metric's noise floor (Metric.NoiseFloorFrom).
const (
	FloorFromFormat = "format"
	FloorFromCounts = "counts"
)

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

type Pipeline struct {
	Message      string   `json:"message"` // contract
	Format       string   `json:"format"`  // contract
	Broker       string   `json:"broker"`  // contract: redpanda | embedded | external
	BrokerReason string   `json:"broker_reason,omitempty"`
	Base         *Summary `json:"base" jsonschema:"nullable"`      // contract: records/s
	Head         *Summary `json:"head" jsonschema:"nullable"`      // contract: records/s
	DeltaPct     *float64 `json:"delta_pct" jsonschema:"nullable"` // contract
	P            *float64 `json:"p" jsonschema:"nullable"`         // contract
	Significant  bool     `json:"significant"`
	BaseNsPerMsg float64  `json:"base_ns_per_msg,omitempty"`
	HeadNsPerMsg float64  `json:"head_ns_per_msg,omitempty"`
	RawNsPerMsg  float64  `json:"raw_ns_per_msg,omitempty"`
	NoiseFloor   *float64 `json:"noise_floor_pct,omitempty"`
	// MDE is the smallest fall of records/s the row's base rounds could
	// show at the Holm cutoff of the pipeline family; nil with MDEReason
	// when none could.
	MDE       *float64 `json:"mde_pct,omitempty"`
	MDEReason string   `json:"mde_reason,omitempty"`
	Backlog   *Backlog `json:"backlog,omitempty"`
	// Compression is the producer's batch codec (the first of the
	// compression input; none when it is off): the consumer's figures
	// include decompressing it.
	Compression string `json:"compression,omitempty"`
}

// Backlog is how many records each side's backlog of a pipeline row held,
// and why: the count asked for (env.pipeline_n), or fewer when that many of
// the message's records in its biggest format would exceed the byte budget
// (env.pipeline_bytes).
type Backlog struct {
	N int64 `json:"n"`
	// BudgetBytes is the byte budget when it decided N: N is BudgetBytes /
	// MeanBytes. 0: N is the count asked for, or the drain target decided.
	BudgetBytes int64   `json:"budget_bytes,omitempty"`
	MeanBytes   float64 `json:"mean_bytes"` // the message's mean record in Format, its biggest format
	Format      string  `json:"format"`
	// DrainSeconds is the drain target when it decided N: N records make
	// a decoded drain that long at the message's fastest format.
	DrainSeconds float64 `json:"drain_seconds,omitempty"`
}

type Ignored struct {
	Subject string `json:"subject"`
	Reason  string `json:"reason"`
}

type Env struct {
	GoVersion string `json:"go_version,omitempty"`
	OS        string `json:"os,omitempty"`
	CPU       string `json:"cpu,omitempty"`
	Cores     int    `json:"cores,omitempty"`
	// Workers is how many processes the exact stages ran at once (input
	// workers).
	Workers int `json:"workers,omitempty"`
	Count   int `json:"count,omitempty"`
	// UnchangedRounds are the timing rounds of the unchanged-schema
	// messages when fewer than Count (input unchanged-rounds); 0: as Count.
	UnchangedRounds int     `json:"unchanged_rounds,omitempty"`
	Alpha           float64 `json:"alpha,omitempty"`
	Broker          string  `json:"broker,omitempty"`
	BrokerReason    string  `json:"broker_reason,omitempty"`
	ConsumerCap     string  `json:"consumer_cap,omitempty"`
	BenchPin        string  `json:"bench_pin,omitempty"`      // where the bench processes ran
	PipelineN       int     `json:"pipeline_n,omitempty"`     // the most records per backlog (input pipeline-messages)
	PipelineBytes   int64   `json:"pipeline_bytes,omitempty"` // the byte budget of a backlog (input pipeline-bytes)
	// Peak resident memory of the pipeline's processes: the embedded broker
	// (0 for one in a container or elsewhere) and the largest consumer's.
	BrokerPeakRSSBytes   int64  `json:"broker_peak_rss_bytes,omitempty"`
	ConsumerPeakRSSBytes int64  `json:"consumer_peak_rss_bytes,omitempty"`
	Runner               string `json:"runner,omitempty"`
	// PeakRSSBytes is the largest resident memory of the gate and any one
	// of its children (bench programs, Valgrind, consumers, the broker).
	PeakRSSBytes int64 `json:"peak_rss_bytes,omitempty"`
}

// Cost is what measuring one message cost in this run, one unit of each
// stage, in wall time on this run's runner (0: the stage did not measure
// it). A push's run keeps them on the history branch, and a later plan
// prices the message by them instead of by its schema alone
// (docs/action.md, "Prices").
type Cost struct {
	Message string `json:"message"`
	// SizesSeconds is sizing it on one side: its part of its chunk's
	// processes.
	SizesSeconds float64 `json:"sizes_seconds,omitempty"`
	// CountSeconds is one count process on one side, every format: the
	// mean of its processes.
	CountSeconds float64 `json:"count_seconds,omitempty"`
	// RoundSeconds is one bench round on one side at the shortest
	// benchtime (10ms), building its records included: the warm-up
	// round's.
	RoundSeconds float64 `json:"round_seconds,omitempty"`
	// PipelinePassSeconds is one pass of its backlog through the pipeline
	// on one side, every format added, its producer's or consumer's start
	// included.
	PipelinePassSeconds float64 `json:"pipeline_pass_seconds,omitempty"`
}

// Stage is one step of the run with its wall time.
type Stage struct {
	Name string `json:"name"`
	// Shard is the shard that ran the stage, in a merged report ("2/8").
	Shard   string  `json:"shard,omitempty"`
	Seconds float64 `json:"seconds"`
	Error   string  `json:"error,omitempty"`
	// Note says what the stage did where that varies: restored or built,
	// reused or rebuilt, what the plan cut.
	Note string `json:"note,omitempty"`
}

// Message returns the entry for message, adding it when the report has
// none yet.
func (r *Report) Message(message string) *Message {
	for i := range r.Messages {
		if r.Messages[i].Name == message {
			return &r.Messages[i]
		}
	}
	r.Messages = append(r.Messages, Message{Name: message, Formats: []Format{}})
	return &r.Messages[len(r.Messages)-1]
}

// HasMessage says whether the report has an entry for message.
func (r *Report) HasMessage(message string) bool {
	for i := range r.Messages {
		if r.Messages[i].Name == message {
			return true
		}
	}
	return false
}

// Format returns the entry for message in format, adding it (and the
// message) when the report has none yet.
func (r *Report) Format(message, format string) *Format {
	m := r.Message(message)
	for i := range m.Formats {
		if m.Formats[i].Format == format {
			return &m.Formats[i]
		}
	}
	m.Formats = append(m.Formats, Format{Format: format, Metrics: []Metric{}})
	return &m.Formats[len(m.Formats)-1]
}

// Decide sets Result, ExitCode and ExitReason from the violations: fail
// when any is not allowed; exit code 2 when one of those is an error
// (wiregate could not run), 1 when the gate failed (not for a shard's
// part: the merge decides), 0 otherwise.
func (r *Report) Decide() {
	r.Result, r.ExitCode, r.ExitReason = "pass", exitcode.OK, "pass"
	blocking, allowed := 0, 0
	for _, v := range r.Violations {
		if v.Allowed || v.Approved != nil {
			allowed++
			continue
		}
		blocking++
		r.Result = "fail"
		if v.Kind == KindError && r.ExitCode != exitcode.Unusable {
			r.ExitCode, r.ExitReason = exitcode.Unusable, "wiregate could not run: "+v.Detail
		}
	}
	switch {
	case r.ExitCode == exitcode.Unusable:
	case blocking > 0 && r.Shard != nil:
		// A part's verdict is not the pull request's: its Holm families are
		// part of the merge's, which decides. The part's job fails only when
		// wiregate could not run.
		r.ExitReason = fmt.Sprintf("shard %d/%d: fail on its own (%d %s); the merge decides", r.Shard.Index, r.Shard.Count, blocking, plural(blocking, "violation"))
	case blocking > 0:
		r.ExitCode, r.ExitReason = exitcode.Failed, fmt.Sprintf("fail: %d %s", blocking, plural(blocking, "violation"))
	case allowed > 0:
		r.ExitReason = fmt.Sprintf("pass: %d %s allowed or approved", allowed, plural(allowed, "violation"))
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return what
	}
	return what + "s"
}

// Sort puts every list in a stable order so two runs diff cleanly.
func (r *Report) Sort() {
	sort.SliceStable(r.Violations, func(i, j int) bool {
		a, b := r.Violations[i], r.Violations[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Subject != b.Subject {
			return a.Subject < b.Subject
		}
		return a.Against < b.Against // the base's before a release's
	})
	if r.History != nil {
		sort.SliceStable(r.History.Messages, func(i, j int) bool { return r.History.Messages[i].Name < r.History.Messages[j].Name })
	}
	sort.SliceStable(r.Messages, func(i, j int) bool { return r.Messages[i].Name < r.Messages[j].Name })
	sort.SliceStable(r.Skipped, func(i, j int) bool { return r.Skipped[i].Message < r.Skipped[j].Message })
	sort.SliceStable(r.Pipeline, func(i, j int) bool {
		if r.Pipeline[i].Message != r.Pipeline[j].Message {
			return r.Pipeline[i].Message < r.Pipeline[j].Message
		}
		return r.Pipeline[i].Format < r.Pipeline[j].Format
	})
}

// New returns an empty report with non-nil lists, so report.json always has
// every contract field even when a stage failed.
func New() *Report {
	return &Report{Version: Version, Result: "fail", ExitCode: exitcode.Unusable, ExitReason: "wiregate could not run",
		Violations: []Violation{}, Messages: []Message{},
		Pipeline: []Pipeline{}, Findings: []Finding{}, Stages: []Stage{}}
}

// Write writes the report as indented JSON.
func (r *Report) Write(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// ViolationID names a violation by what it is, never where it sits: its
// kind and release, and for a schema finding its file and what it says
// (buf's and Avro compatibility's messages name the element: the field,
// the message, the record), for a measured one its subject (message,
// format, metric, op). Lines and columns are left out, so an approval
// follows the finding when lines move.
func ViolationID(v Violation) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", v.Kind, v.Against)
	switch v.Kind {
	case KindLint, KindBreaking, KindAvro, KindAvroMismatch:
		fmt.Fprintf(h, "%s\x00%s", v.File, v.Detail)
	case KindError:
		fmt.Fprintf(h, "%s\x00%s", v.Subject, v.Detail)
	default:
		fmt.Fprint(h, v.Subject)
	}
	return "wg-" + hex.EncodeToString(h.Sum(nil))[:6]
}
