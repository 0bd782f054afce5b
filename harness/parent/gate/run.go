package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/checkout"
	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/schemafiles"
	"github.com/wiregate/wiregate/harness/program/subcmd"
)

// run is one gate run: what every stage reads — the options (as given,
// never changed), the inputs, the configuration, the tools, the sides'
// checkouts and the budget, each set before the stages that read it run —
// what the stages said (the journal), and the report. Only the sequencers
// write the report: Run (gate.go) and Plan (plan.go), with the enter
// functions (enter.go) that turn each stage's typed result into
// report.json's sections. A stage takes its inputs as arguments or from
// the fields above and returns what it found; none reads the report.
type run struct {
	o          *Options
	s          inputs.Settings
	cfg        config.Config
	tools      tools
	base, head *side
	release    *side           // breaking-against's checkout; nil when there is none (or it is the base)
	against    *report.Against // breaking-against as checked out; nil without one
	budget     budget.Budget
	said       journal
	r          *report.Report
}

// journal is what the stages said, in order: each stage's record (in the
// order the stages started), its error as "stage: one line", and the
// warnings. The sequencer copies it into the report before the verdict
// reads it. Two stages can run at once (the counts beside the bench
// rounds): mu guards it.
type journal struct {
	mu       sync.Mutex
	stages   []report.Stage
	errors   []string
	warnings []string
	// interrupted: a stage has recorded the signal (or the run's end) as
	// its error; a stage running beside it says so in its note only, so
	// one signal is one error.
	interrupted bool
}

// newRun is a run of o before any stage, its budget counting on o's clock
// from now less what the caller's stages took before it.
func newRun(o *Options, before time.Duration) *run {
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	now := o.Clock
	if now == nil {
		now = time.Now
	}
	return &run{o: o, r: report.New(), budget: budget.Budget{Start: now().Add(-before), Now: now},
		base: &side{name: "base", dir: o.BaseDir, rev: report.Rev{Ref: o.BaseLabel}},
		head: &side{name: "head", rev: report.Rev{Ref: o.HeadLabel, Sha: o.HeadSha}}}
}

// tmpDir is where worktrees go.
func (g *run) tmpDir() string {
	if g.o.TmpDir != "" {
		return g.o.TmpDir
	}
	return os.TempDir()
}

// stage runs f as the named stage: it logs the start, times it, and
// records it in the journal with the note f returns and its error as one
// line. f's result is returned even when it failed: a stage that stops
// part way (the budget, a signal, a broken child) returns what it had
// measured, and Run records that too.
func stage[T any](ctx context.Context, g *run, name string, f func(context.Context) (T, string, error)) (T, bool) {
	return runStage(ctx, g, g.beginStage(ctx, name), f)
}

// stageSlot is a stage begun: its place in the journal is taken when it
// starts, so stages that run at once are recorded in the order they began.
type stageSlot struct {
	name      string
	start     time.Time
	cancelled bool // the run was already interrupted
	at        int  // index in the journal's stages; -1 when cancelled
}

// beginStage logs the stage's start and takes its place in the journal.
func (g *run) beginStage(ctx context.Context, name string) stageSlot {
	g.o.Log("wiregate: %s", name)
	s := stageSlot{name: name, start: g.budget.Now(), cancelled: ctx.Err() != nil, at: -1}
	if !s.cancelled {
		g.said.mu.Lock()
		s.at = len(g.said.stages)
		g.said.stages = append(g.said.stages, report.Stage{Name: name})
		g.said.mu.Unlock()
	}
	return s
}

// runStage runs f as the begun stage s (see stage).
func runStage[T any](ctx context.Context, g *run, s stageSlot, f func(context.Context) (T, string, error)) (T, bool) {
	v, note, err := f(ctx)
	st := report.Stage{Name: s.name, Seconds: g.budget.Now().Sub(s.start).Seconds(), Note: note}
	g.said.mu.Lock()
	defer g.said.mu.Unlock()
	if err != nil && s.cancelled {
		return v, false // the stage that was running when the signal came recorded it
	}
	if err != nil && ctx.Err() != nil {
		err = context.Cause(ctx) // "interrupted by SIGINT", not what a killed child made of it
		if g.said.interrupted {
			st.Note = joinNotes(st.Note, "stopped: "+subcmd.OneLine(err.Error()))
			err = nil
		}
		g.said.interrupted = true
	}
	if err != nil {
		st.Error = subcmd.OneLine(err.Error())
		g.said.errors = append(g.said.errors, s.name+": "+st.Error)
		g.o.Log("wiregate: %s failed: %s", s.name, st.Error)
	}
	if s.at < 0 {
		g.said.stages = append(g.said.stages, st)
	} else {
		g.said.stages[s.at] = st
	}
	return v, err == nil && ctx.Err() == nil
}

// warn adds a one-line warning to the journal.
func (g *run) warn(format string, args ...any) {
	w := subcmd.OneLine(fmt.Sprintf(format, args...))
	g.said.mu.Lock()
	g.said.warnings = append(g.said.warnings, w)
	g.said.mu.Unlock()
	g.o.Log("wiregate: warning: %s", w)
}

// firstError is the first error a stage said, or what to say without one.
func (g *run) firstError(otherwise string) string {
	if len(g.said.errors) > 0 {
		return g.said.errors[0]
	}
	return otherwise
}

// side is base, head or a release: a checkout.
type side struct {
	name string
	dir  string
	rev  report.Rev // its ref and sha, as the caller named it or git found it
	// worktree is the checkout the gate made for this side (base, release),
	// removed when the run ends.
	worktree *checkout.Worktree
}

// avro is the side's .avsc files, absolute.
func (s *side) avro(globs []string) ([]string, error) { return schemafiles.Glob(s.dir, globs) }

// bufInput is the side's buf input directory.
func (s *side) bufInput(set string) string { return filepath.Join(s.dir, set) }

// tools are what the tools stage found: the harness source, the buf
// binary both sides use, where the working directory sits in the
// repository (git's prefix), and the buf configs the schema checks run
// with.
type tools struct {
	harness, buf, prefix string
	bufs                 bufConfigs
}
