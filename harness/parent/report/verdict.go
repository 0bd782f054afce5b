package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

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
	// show: "/wiregate approve wg-3f9a2c61d04be7a0" (a measured regression's with
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

// Blocking says whether v fails the gate: neither allowed by a label nor
// approved. The one test of it in Go (the action's isBlocking mirrors it).
func (v Violation) Blocking() bool { return !v.Allowed && v.Approved == nil }

// Measured says whether a kind of violation is a measurement's (size,
// compressed size, cpu, time, throughput, added content): approved up to
// an amount, allowed by the regression label, and said with its figures.
// The one list of them: the verdict and the renderer both ask it.
func Measured(kind string) bool {
	switch kind {
	case KindSize, KindCompressedSize, KindCPU, KindTime, KindThroughput, KindAddedContent:
		return true
	}
	return false
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

type Ignored struct {
	Subject string `json:"subject"`
	Reason  string `json:"reason"`
}

// Conclude sets Result, ExitCode and ExitReason from the violations: fail
// when any is not allowed; exit code 2 when one of those is an error
// (wiregate could not run), 1 when the gate failed (not for a shard's
// part: the merge decides), 0 otherwise.
func (r *Report) Conclude() {
	if r.Result == ResultError {
		return // Unencodable's: it holds no figure to decide again
	}
	r.Result, r.ExitCode, r.ExitReason = ResultPass, exitcode.OK, "pass"
	blocking, allowed := 0, 0
	for _, v := range r.Violations {
		if !v.Blocking() {
			allowed++
			continue
		}
		blocking++
		r.Result = ResultFail
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
	return IDOf(h.Sum(nil))
}

// IDDigits is how many hex digits of a sha256 an approval id keeps: 64
// bits, so no finding can be crafted to share a harmful one's id (24 bits
// took seconds of brute force). Ids are matched whole, never by prefix.
const IDDigits = 16

// IDOf is the approval id of a sha256 sum: "wg-" and its first IDDigits
// hex digits.
func IDOf(sum []byte) string {
	return "wg-" + hex.EncodeToString(sum)[:IDDigits]
}
