package gate

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// run is one gate run: what every stage reads — the options (as given,
// never changed), the inputs, the configuration, the tools, the two sides'
// checkouts and the budget — and the report Run assembles from what the
// stages return. The early stages return what they found (settings,
// checkouts, tools, configuration) and only their callers here record it;
// the measuring stages take their inputs as arguments and return a typed
// result, which Run records.
type run struct {
	o          *Options
	s          inputs.Settings
	cfg        config.Config
	tools      tools
	r          *report.Report
	base, head *side
	release    *side // breaking-against's checkout; nil when there is none (or it is the base)
	budget     budget.Budget
}

// Run executes the gate and writes report.json (and base.txt, head.txt,
// benchstat.txt) into o.Out. The error is non-nil only when the report
// could not be written; stage failures are in the report.
func Run(ctx context.Context, o Options) (*report.Report, error) {
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, exitcode.BadInput("--out %s: %v", o.Out, err)
	}
	g := &run{o: &o, r: report.New(), base: &side{name: "base", dir: o.BaseDir}, head: &side{name: "head"}}
	g.budget = budget.Budget{Start: time.Now().Add(-before(o.StagesBefore)), Now: time.Now}
	g.r.Base = report.Rev{Ref: o.BaseLabel}
	g.r.Head = report.Rev{Ref: o.HeadLabel, Sha: o.HeadSha}
	g.r.Env = report.Env{GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH,
		Cores: runtime.NumCPU(), Runner: os.Getenv("RUNNER_NAME")}
	g.r.Stages = append(g.r.Stages, o.StagesBefore...)

	var m measured
	if g.readInputs(ctx) && g.checkout(ctx) {
		defer g.removeWorktree(g.base)
		if g.s.BreakingAgainst.Given() {
			g.checkoutRelease(ctx)
			defer func() { g.removeWorktree(g.release) }()
		}
		configured := g.loadConfig(ctx)
		compiles := g.findTools(ctx) && g.schemaChecks(ctx)
		// Schemas the checks cannot read are what measuring would read
		// next: their error is said once.
		readable := g.avroCompat(ctx)
		if configured && compiles && readable {
			m = g.measure(ctx)
		}
		g.history(ctx, m)
	}
	g.r.Env.PeakRSSBytes = peakRSS()
	stage(ctx, g, "verdict", func(ctx context.Context) (struct{}, string, error) { g.verdict(); return struct{}{}, "", nil })
	g.r.Sort()
	if err := g.r.Write(filepath.Join(o.Out, "report.json")); err != nil {
		return g.r, err
	}
	return g.r, nil
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

// readInputs validates every input (the first bad one is the error).
func (g *run) readInputs(ctx context.Context) bool {
	s, ok := stage(ctx, g, "inputs", func(ctx context.Context) (inputs.Settings, string, error) {
		s, err := inputs.Parse(g.o.Inputs)
		if err != nil {
			return s, "", err
		}
		if s.WorkingDirectory, err = filepath.Abs(s.WorkingDirectory); err != nil {
			return s, "", err
		}
		if s.Samples != "" && !filepath.IsAbs(s.Samples) {
			s.Samples = filepath.Join(s.WorkingDirectory, s.Samples)
		}
		return s, "", nil
	})
	if !ok {
		return false
	}
	g.s = s
	g.budget.Total, g.budget.Workers = s.TimeBudget, s.Workers
	g.r.Plan.BudgetSeconds = s.TimeBudget.Seconds()
	g.head.dir = s.WorkingDirectory
	g.r.Env.Count, g.r.Env.Alpha, g.r.Env.Workers = s.Count, s.Alpha, s.Workers
	return true
}

func (g *run) tmpDir() string {
	if g.o.TmpDir != "" {
		return g.o.TmpDir
	}
	return os.TempDir()
}
