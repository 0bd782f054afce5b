// Package gate runs every stage of one base/head comparison and writes
// report.json: inputs, base checkout (and the breaking-against release's),
// wiregate.yaml, buf lint and breaking, Avro compatibility, prepare,
// correctness, sizes, interleaved bench rounds, pipeline rounds,
// comparison, history (record or read) and verdict. A stage that cannot run
// is recorded as an error in the report (which is written regardless) and
// the stages that do not depend on it go on. The report's exit code is the
// gate's answer.
package gate

import (
	"time"

	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Options are one gate run: its inputs (the action's, validated by the
// inputs package as the first stage) and the plan the caller made.
type Options struct {
	// Inputs gives every gate input's text; empty text is the default.
	Inputs inputs.Getter
	// Labels are the PR's raw label names; the verdict decides what they allow.
	Labels []string
	// Approvals are the PR's /wiregate comments and their authors; the
	// verdict decides what they approve. Nil: none.
	Approvals *report.Approvals

	// The base side: a commit checked out as a git worktree of the
	// working directory's repository (BaseRef), or an existing checkout
	// (BaseDir).
	BaseRef, BaseDir string
	// Labels and shas shown in the report. Empty: the ref, and the shas
	// git reports for each side.
	BaseLabel, HeadLabel, HeadSha string
	// RecordHistory appends head's exact figures to the history branch
	// instead of reading it. The caller decides: the action sets it on a
	// push to the repository's default branch, the one event it knows.
	RecordHistory bool

	HarnessDir string // a wiregate checkout's harness/ the bench programs link (developing wiregate); $WIREGATE_HARNESS, else the source the binary carries, when empty
	Buf        string // buf binary; prepare.FindBuf's when empty (never one in the checkout judged)
	CacheDir   string // prepared bench programs
	TmpDir     string // worktrees; the system's temp dir when empty
	Out        string // report.json, base.txt, head.txt, benchstat.txt
	Log        func(format string, args ...any)
	// StagesBefore are steps the caller ran before the gate (the action's
	// cache restore and harness build), listed first in the report.
	StagesBefore []report.Stage
	// Clock is the time-budget's clock: the budget's start and deadlines,
	// every plan and meter, each stage's seconds and the report's are read
	// from it. Nil: time.Now. A test gives a fast clock to gate a tight
	// budget in seconds.
	Clock func() time.Time
}
