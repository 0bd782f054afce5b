// Package report holds report.json: the one file every stage writes into and
// the action renders from. Fields marked "contract" are stable across
// versions (docs/action.md lists them); everything else may grow.
package report

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

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
	// KindAddedContent: what a change adds costs more, when filled (or,
	// for a message that only adds, unset), than added-content-threshold
	// allows. Off by default.
	KindAddedContent = "added-content"
	// KindAvroMismatch: a proto message's own .avsc disagrees with it (a
	// field one lacks, a type the other cannot hold); its Avro formats are
	// not measured, the others are.
	KindAvroMismatch = "avro-mismatch"
)

type Report struct {
	Version int `json:"version"` // contract
	// Result is the verdict (contract): "pass" | "fail", or "error" for the
	// minimal report of a run whose report could not be encoded
	// (Unencodable).
	Result string `json:"result"`
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
	// Seconds is the run's wall time, from the step's start (the stages
	// before wiregate's included) to the verdict. Stages can run at once
	// (the counts beside the bench rounds), so theirs can add up to more.
	// A merged report's is its parts' added up, as its stages are. 0: not
	// known (a report the action wrote when wiregate could not run).
	Seconds float64 `json:"seconds,omitempty"`
	// MeasuringTimes are what measuring each message cost this run, by stage: what
	// a later plan prices it by.
	MeasuringTimes []MeasuringTime `json:"costs,omitempty"`
	Benchstat      string          `json:"benchstat,omitempty"` // benchstat's text table, base vs head
	Errors         []string        `json:"errors,omitempty"`    // stages that could not run, one line each
	Cut            Cut             `json:"plan"`                // what the time budget cut
	// Warnings are one line each: something the gate could not do that
	// does not fail it (no tag matches breaking-against, history not
	// recorded).
	Warnings []string `json:"warnings,omitempty"`
	// BufRules say whose buf rules judged lint and breaking when they are
	// not head's own buf config as it is: nil when head's config is the
	// base's file with the base's rules.
	BufRules *BufRules `json:"buf_rules,omitempty"`
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

// Write writes the report as indented JSON. A report that cannot be
// encoded (a figure that is not a number, an encoder's error) is
// wiregate's bug, not the user's input: r becomes the minimal report that
// says so (Unencodable), and that is written instead, exit code 2, so the
// comment still renders.
func (r *Report) Write(path string) error {
	b, err := r.encode()
	if err != nil {
		*r = *Unencodable(r, err)
		if b, err = r.encode(); err != nil {
			return fmt.Errorf("encode report: %w", err)
		}
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// encode is report.json's bytes, or why there are none. encoding/json
// refuses a NaN or ±Inf float, so a report holding one fails here; only
// then is the report walked (NonFinite), to name where the numbers are
// and the stage that made them.
func (r *Report) encode() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err == nil {
		return b, nil
	}
	if bad := NonFinite(r); len(bad) > 0 {
		return nil, &NotANumber{Paths: bad, Stage: StageOf(r, bad[0])}
	}
	return nil, err
}
