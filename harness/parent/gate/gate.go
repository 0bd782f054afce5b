package gate

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// start is the start-up Run and Plan share: the inputs, the base
// checkout and the tools both sides use, each stage's result assigned
// here. started is false when there is nothing to gate (a bad input, no
// base); tooled when buf was not found either. Each failure's error is in
// the journal.
func (g *run) start(ctx context.Context) (started, tooled bool) {
	s, started := g.readInputs(ctx)
	if started {
		g.s = s
		g.budget.Total, g.budget.Workers = s.TimeBudget, s.Workers
		g.head.dir = s.WorkingDirectory
		g.r.Cut.BudgetSeconds = s.TimeBudget.Seconds()
		g.r.Env.Rounds, g.r.Env.Workers = s.Rounds, s.Workers
		var co checkedOut
		co, started = g.checkout(ctx)
		*g.base, g.base.rev, g.head.rev = co.side, co.base, co.head
	}
	g.r.Base, g.r.Head = g.base.rev, g.head.rev // named also when a bad input stopped the run
	if !started {
		return false, false
	}
	g.tools, tooled = g.findTools(ctx)
	return true, tooled
}

// Run executes the gate and writes report.json (and base.txt, head.txt,
// benchstat.txt) into o.Out. The error is non-nil only when the report
// could not be written; stage failures are in the report.
func Run(ctx context.Context, o Options) (*report.Report, error) {
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, exitcode.BadInput("--out %s: %v", o.Out, err)
	}
	g := newRun(&o, before(o.StagesBefore))
	g.r.Env = report.Env{GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH,
		Cores: runtime.NumCPU(), Runner: os.Getenv("RUNNER_NAME")}
	g.r.Stages = append(g.r.Stages, o.StagesBefore...)

	started, tooled := g.start(ctx)
	if started {
		defer g.removeWorktree(g.base)
		if g.s.BreakingAgainst.Given() {
			rel := g.checkoutRelease(ctx)
			g.release, g.against = rel.side, rel.against
			g.r.BreakingAgainst = g.against
			defer func() { g.removeWorktree(g.release) }()
		}
		cfg, configured := g.loadConfig(ctx)
		if configured {
			g.cfg = cfg
		}
		compiles := tooled
		if compiles {
			var fs []report.Finding
			fs, g.r.BufRules, compiles = g.schemaChecks(ctx)
			g.r.Findings = append(g.r.Findings, fs...)
		}
		// Schemas the checks cannot read are what measuring would read
		// next: their error is said once.
		fs, readable := g.avroCompat(ctx)
		g.r.Findings = append(g.r.Findings, fs...)
		var m stageResults
		if configured && compiles && readable {
			m = g.measure(ctx)
			defer m.sch.close()
		}
		times := measuringTimesOf(m.list, m.sizes, m.counts, m.timings, m.rows)
		enterResults(g.r, g.s, m, times)
		if g.s.History != "" {
			exact := exactOf(m, g.s.Formats)
			enterHistory(g.r, g.history(ctx, historyIn{sch: m.sch, carried: m.carried, last: m.last, branch: m.branch,
				figures: history.Figures(exact), times: times, changed: history.ChangedMessages(exact)}))
		}
	}
	// wiregate.yaml's alpha once it was read (cfg.Alpha: the inputs' when
	// it sets none), else the inputs'.
	g.r.Env.Alpha = cmp.Or(g.cfg.Alpha, g.s.Alpha)
	g.r.Env.PeakRSSBytes = peakRSS()
	g.decide()
	g.r.Sort()
	if err := g.r.Write(filepath.Join(o.Out, "report.json")); err != nil {
		return g.r, err
	}
	return g.r, nil
}

// decide records what the stages said, then the verdict, itself the last
// stage.
func (g *run) decide() {
	g.o.Log("wiregate: verdict")
	start := g.budget.Now()
	g.r.Stages = append(g.r.Stages, g.said.stages...)
	g.r.Errors = append(g.r.Errors, g.said.errors...)
	g.r.Warnings = append(g.r.Warnings, g.said.warnings...)
	g.verdict()
	g.r.Stages = append(g.r.Stages, report.Stage{Name: "verdict", Seconds: g.budget.Now().Sub(start).Seconds()})
	g.r.Seconds = g.budget.Now().Sub(g.budget.Start).Seconds()
}

// verdict applies thresholds, wiregate.yaml and the PR's labels, turns
// stage errors into `error` violations and sets the result.
func (g *run) verdict() {
	g.r.Rules = &report.Rules{Config: g.cfg, Labels: g.o.Labels, LintAll: g.s.LintAll,
		CoverageRequired: g.s.CoverageRequired, Pipeline: g.s.Pipeline}
	if g.o.Approvals != nil {
		g.r.Rules.Approvals = *g.o.Approvals
	}
	verdict.Decide(g.r)
}

// before is what the caller's stages took: the budget is the whole
// step's, cache restore and harness build included.
func before(stages []report.Stage) time.Duration {
	var d time.Duration
	for _, s := range stages {
		d += time.Duration(s.Seconds * float64(time.Second))
	}
	return d
}
