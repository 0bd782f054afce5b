package gate

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/wiregate/wiregate/harness/checkout"
	"github.com/wiregate/wiregate/harness/config"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/inputs"
	"github.com/wiregate/wiregate/harness/report"
	"github.com/wiregate/wiregate/harness/sizes"
	"github.com/wiregate/wiregate/harness/subcmd"
)

// run is one gate run's state.
type run struct {
	o          *Options
	s          inputs.Settings
	r          *report.Report
	base, head *side
	release    *side                     // breaking-against's checkout; nil when there is none (or it is the base)
	sizes      map[string][2]*sizes.Size // message/format → base, head
	cfg        config.Config
	bufRoot    string          // where the buf input sits in the repository, for findings
	note       string          // the running stage's note (see report.Stage.Note)
	aliasing   map[string]bool // message/format → its decoder aliases strings (from check)
	start      time.Time       // the time budget counts from here: Run's start less StagesBefore
	// correctnessTime is what building both programs' records and checking
	// them took: about what every later program start costs again.
	correctnessTime time.Duration
	// unchanged are the messages whose schema is identical on both sides:
	// their time cannot fail the gate.
	unchanged map[string]bool
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
	g := &run{o: &o, r: report.New(), sizes: map[string][2]*sizes.Size{}, aliasing: map[string]bool{}, start: time.Now().Add(-before(o.StagesBefore)), unchanged: map[string]bool{},
		base: &side{name: "base", dir: o.BaseDir}, head: &side{name: "head"}}
	g.r.Base = report.Rev{Ref: o.BaseLabel}
	g.r.Head = report.Rev{Ref: o.HeadLabel, Sha: o.HeadSha}
	g.r.Env = report.Env{GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH,
		Cores: runtime.NumCPU(), Runner: os.Getenv("RUNNER_NAME")}
	g.r.Stages = append(g.r.Stages, o.StagesBefore...)

	if g.stage(ctx, "inputs", g.readInputs) && g.stage(ctx, "checkout", g.checkout) {
		defer g.removeWorktree(g.base)
		if g.s.BreakingAgainst.Given() {
			g.stage(ctx, "release checkout", g.checkoutRelease)
			defer func() { g.removeWorktree(g.release) }()
		}
		configured := g.stage(ctx, "config", g.loadConfig)
		compiles := g.stage(ctx, "tools", g.findTools) && g.schemaChecks(ctx)
		g.stage(ctx, "avro-compatibility", g.avroCompat)
		if g.release != nil {
			g.stage(ctx, "avro-compatibility (release)", g.releaseAvro)
		}
		if configured && compiles && g.stage(ctx, "prepare", g.prepare) && g.stage(ctx, "correctness", g.correctness) {
			g.markUnchanged()
			g.stage(ctx, "sizes", g.measureSizes)
			g.stage(ctx, "cpu", g.countInstructions)
			if g.stage(ctx, "bench", g.benchRounds) {
				g.stage(ctx, "compare", g.compare)
			}
			if g.s.Pipeline {
				g.stage(ctx, "pipeline", g.pipeline)
			}
		}
		g.stage(ctx, "history", g.history)
	}
	g.stage(ctx, "verdict", g.verdict)
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

// addNote adds a clause to the running stage's note.
func (g *run) addNote(s string) {
	if g.note != "" {
		s = g.note + "; " + s
	}
	g.note = s
}

// stage times f, records it, and turns its error into a report error.
func (g *run) stage(ctx context.Context, name string, f func(ctx context.Context) error) bool {
	g.o.Log("wiregate: %s", name)
	start := time.Now()
	g.note = ""
	cancelled := ctx.Err() != nil
	err := f(ctx)
	st := report.Stage{Name: name, Seconds: time.Since(start).Seconds(), Note: g.note}
	if err != nil && cancelled {
		return false // the stage that was running when the signal came recorded it
	}
	if err != nil && ctx.Err() != nil {
		err = context.Cause(ctx) // "interrupted by SIGINT", not what a killed child made of it
	}
	if err != nil {
		st.Error = subcmd.OneLine(err.Error())
		g.r.Errors = append(g.r.Errors, name+": "+st.Error)
		g.o.Log("wiregate: %s failed: %s", name, st.Error)
	}
	g.r.Stages = append(g.r.Stages, st)
	return err == nil
}

// readInputs validates every input (the first bad one is the error).
func (g *run) readInputs(ctx context.Context) error {
	s, err := inputs.Parse(g.o.Inputs)
	if err != nil {
		return err
	}
	if s.WorkingDirectory, err = filepath.Abs(s.WorkingDirectory); err != nil {
		return err
	}
	if s.Samples != "" && !filepath.IsAbs(s.Samples) {
		s.Samples = filepath.Join(s.WorkingDirectory, s.Samples)
	}
	g.s = s
	g.r.Plan.BudgetSeconds = s.TimeBudget.Seconds()
	g.head.dir = s.WorkingDirectory
	g.r.Env.Count, g.r.Env.Alpha = s.Count, s.Alpha
	return nil
}

// checkout makes the base side: a worktree of BaseRef, or BaseDir as it is.
// It also fills in the shas the caller did not give.
func (g *run) checkout(ctx context.Context) error {
	if g.r.Head.Sha == "" {
		if sha, ref, dirty, err := checkout.Head(ctx, g.head.dir); err == nil {
			g.r.Head.Sha = sha
			if dirty {
				g.r.Head.Sha = sha[:12] + "+dirty"
			}
			if g.r.Head.Ref == "" {
				g.r.Head.Ref = ref
			}
		}
	}
	switch {
	case g.o.BaseDir != "":
		g.r.Base.Sha = gitSha(ctx, g.o.BaseDir)
		return nil
	case g.o.BaseRef == "":
		return exitcode.BadInput("no base: give --base-ref (a commit to compare against) or --base-dir (a checkout of it)")
	}
	w, err := checkout.Add(ctx, g.head.dir, g.o.BaseRef, g.tmpDir())
	if err != nil {
		return err
	}
	g.base.worktree, g.base.dir, g.r.Base.Sha = w, w.Dir, w.Sha
	if g.r.Base.Ref == "" {
		g.r.Base.Ref = g.o.BaseRef
	}
	return nil
}

func (g *run) removeWorktree(s *side) {
	if s != nil && s.worktree != nil {
		if err := s.worktree.Remove(); err != nil {
			g.o.Log("wiregate: removing the %s worktree: %v", s.name, err)
		}
		s.worktree = nil
	}
}

func (g *run) tmpDir() string {
	if g.o.TmpDir != "" {
		return g.o.TmpDir
	}
	return os.TempDir()
}

func gitSha(ctx context.Context, dir string) string {
	sha, _, _, err := checkout.Head(ctx, dir)
	if err != nil {
		return ""
	}
	return sha
}
