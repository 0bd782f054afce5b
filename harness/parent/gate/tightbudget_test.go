package gate_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// tightK is how many times faster than real time the gate's clock runs in
// TestTightBudgetsEndInsideThemAndSayWhatTheyCut. Every duration the gate
// sees is then 20 times what it took, while its prices (estimates made on
// this machine) are not: the gate runs as on a machine 20 times slower
// than its prices, so the first unit of every metered loop (a count
// process, the warm-up, a pipeline fill) overruns its estimate many times
// over, which is what a ceiling must survive. 20 because a 3m budget then
// runs in 9 s, so the always-on cases cost about 35 s of the package's
// test time, while a one-message module's unplanned stages (checks,
// prepare, records, sizes: ~0.5 s) still end well inside the smallest
// budget's deadline, so the planned stages run and are cut.
const tightK = 20

// largeTightSizes, when set to 1, adds the 57- and 200-message modules:
// each of their runs takes the half-minute or more that records and sizes
// take on this machine, whatever the budget.
const largeTightSizes = "WIREGATE_TIGHT_BUDGET_LARGE"

// fastClock runs k times faster than real time from the moment it is made.
func fastClock(k float64) (now func() time.Time, start time.Time) {
	start = time.Now()
	return func() time.Time { return start.Add(time.Duration(float64(time.Since(start)) * k)) }, start
}

// sharedChange writes a base and a head module of n messages that all hold
// Metadata, which head changes: every message changes, Metadata too.
func sharedChange(t *testing.T, n int) (base, head string) {
	t.Helper()
	root := t.TempDir()
	base, head = filepath.Join(root, "base"), filepath.Join(root, "head")
	out, err := exec.Command("python3", "../../../scripts/gen-messages.py", strconv.Itoa(n), base,
		"--shared-metadata", "--head", head, "--changed", "Metadata").CombinedOutput()
	if err != nil {
		t.Fatalf("gen-messages.py: %v %s", err, out)
	}
	return base, head
}

// tightRun is one gate run on a fast clock: report.json as written, the
// report, when on the gate's clock from the step's start the first stage
// the plan may cut (the counts) began (-1: none did), and its wall time.
type tightRun struct {
	json    []byte
	r       *report.Report
	planned float64
	wall    time.Duration
}

// gateTight gates head against base at budgetIn on a clock tightK times
// fast, with before already spent by the caller's stages (the action's
// cache restore), the bench programs cached in cache.
func gateTight(t *testing.T, base, head, cache, budgetIn string, before time.Duration, edit func(map[string]string)) tightRun {
	t.Helper()
	in := map[string]string{"working-directory": head, "time-budget": budgetIn, "broker": "embedded", "history": "false"}
	if edit != nil {
		edit(in)
	}
	now, start := fastClock(tightK)
	var mu sync.Mutex
	planned := -1.0
	o := gate.Options{HarnessDir: "../..", BaseDir: base, CacheDir: cache, Out: t.TempDir(), Inputs: inputs.Map(in), Clock: now,
		Log: func(format string, args ...any) {
			// beginStage logs each stage's name as it begins.
			if format == "wiregate: %s" && len(args) == 1 && args[0] == "cpu" {
				mu.Lock()
				planned = (now().Sub(start) + before).Seconds()
				mu.Unlock()
			}
		}}
	if before > 0 {
		o.StagesBefore = []report.Stage{{Name: "cache restore", Seconds: before.Seconds()}}
	}
	wall := time.Now()
	if _, err := gate.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(o.Out, "report.json"))
	if err != nil {
		t.Fatal("no report.json written")
	}
	mu.Lock()
	defer mu.Unlock()
	return tightRun{json: b, r: readReport(t, filepath.Join(o.Out, "report.json")), planned: planned, wall: time.Since(wall)}
}

// coverageFigures says which of coverage's figures message has in r, read from
// the figures themselves: every format (json, protobuf, avro) sized on
// both sides; encode and decode counted, and timed, on both sides in
// every format; a records/s on both sides for every format the pipeline
// drains for it (every format when none is marked).
func coverageFigures(r *report.Report, message string) map[string]bool {
	i := slices.IndexFunc(r.Messages, func(m report.Message) bool { return m.Name == message })
	if i < 0 || len(r.Messages[i].Formats) != 3 {
		return map[string]bool{}
	}
	fs := r.Messages[i].Formats
	every := func(ok func(report.Format) bool) bool {
		return !slices.ContainsFunc(fs, func(f report.Format) bool { return !ok(f) })
	}
	ops := func(unit string) func(report.Format) bool {
		return func(f report.Format) bool {
			both := map[string]bool{}
			for _, m := range f.Metrics {
				if m.Unit == unit && m.Base != nil && m.Head != nil {
					both[m.Name] = true
				}
			}
			return both["encode"] && both["decode"]
		}
	}
	anyPiped := slices.ContainsFunc(fs, func(f report.Format) bool { return f.Piped })
	return map[string]bool{
		report.FigureSized:   every(func(f report.Format) bool { return f.Size != nil && f.Size.DeltaPct != nil }),
		report.FigureCounted: every(ops("instr/op")),
		report.FigureTimed:   every(ops("sec/op")),
		report.FigurePiped: every(func(f report.Format) bool {
			return anyPiped && !f.Piped || slices.ContainsFunc(r.Pipeline, func(p report.Pipeline) bool {
				return p.Message == message && p.Format == f.Format && p.Base != nil && p.Head != nil
			})
		}),
	}
}

// stagesOf are r's stages before the one named until (all: "") that took
// a second or more on the gate's clock, with their notes.
func stagesOf(r *report.Report, until string) string {
	var out []string
	for _, st := range r.Stages {
		if st.Name == until {
			break
		}
		if st.Seconds >= 1 {
			out = append(out, fmt.Sprintf("%s %.0f s (%s)", st.Name, st.Seconds, st.Note))
		}
	}
	return strings.Join(out, ", ")
}

// Tight budgets as a property: generated modules of 1 and 8
// messages (57 and 200 with WIREGATE_TIGHT_BUDGET_LARGE=1), every message
// changed through the Metadata they share, each gated at 30 s, 1 m and 3 m
// on a clock tightK times fast, counting where Valgrind is installed, the
// pipeline on the embedded broker, the rest at the defaults. The "30 s"
// case is time-budget 1m with 30 s already spent by the action's cache
// restore: time-budget itself is at least 1m (an input of 30s is refused
// as bad input, exit 2, by contract). Each module's bench programs are
// prepared once, so the runs measured find them in the cache.
//
// Every run writes a report.json that validates, exits 0 or 1, says in
// coverage each expected figure a changed message lacks (and never calls
// one cut that it has), and ends inside its budget on the gate's clock.
// The one exception is exact: the stages the plan does not own — the
// schema checks, prepare, records and sizes, whose first unit per worker
// always runs (the exact figures are the verdict's core) — can by
// themselves end past the deadline (time-budget less budget.Reserve); the
// 8-message module's do at 1m on this clock (records and sizes of nine
// messages take ~5 s, 100 s here). Then the run may end past its budget,
// but no later than the reserve after the first stage the plan cuts
// began: nothing the plan owns runs past the deadline.
func TestTightBudgetsEndInsideThemAndSayWhatTheyCut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole gate")
	}
	cpu, expected := "off", []string{report.FigureSized, report.FigureTimed, report.FigurePiped}
	if counting(t) {
		cpu, expected = "on", []string{report.FigureSized, report.FigureCounted, report.FigureTimed, report.FigurePiped}
	}
	sizes := []int{1, 8}
	if os.Getenv(largeTightSizes) == "1" {
		sizes = append(sizes, 57, 200)
	}
	cases := []struct {
		name, budget string
		before       time.Duration
	}{{"30s", "1m", 30 * time.Second}, {"1m", "1m", 0}, {"3m", "3m", 0}}
	oneMessage, insideDeadline := 0, 0 // runs of the 1-message module; runs whose planned stages began in time
	for _, n := range sizes {
		base, head := sharedChange(t, n)
		cache := t.TempDir()
		prep := gateTight(t, base, head, cache, "1m", 0, func(in map[string]string) { in["cpu-cost"], in["pipeline"] = "off", "false" })
		t.Logf("%d messages: programs prepared in %s", n, prep.wall.Round(time.Millisecond))
		for _, c := range cases {
			t.Run(strconv.Itoa(n)+"x"+c.name, func(t *testing.T) {
				run := gateTight(t, base, head, cache, c.budget, c.before, func(in map[string]string) { in["cpu-cost"] = cpu })
				if n == 1 {
					oneMessage++
				}
				r := run.r
				if err := report.Validate(run.json); err != nil {
					t.Errorf("report.json breaks its contract: %v", err)
				}
				if r.ExitCode != 0 && r.ExitCode != 1 {
					t.Errorf("exit %d (%s): errors %v", r.ExitCode, r.ExitReason, r.Errors)
				}
				for _, st := range r.Stages {
					if st.Name == "prepare" && !(strings.Contains(st.Note, "head reused") && strings.Contains(st.Note, "base reused")) {
						t.Errorf("prepare was not a cache hit: %s", st.Note)
					}
				}

				if r.Change == nil || len(r.Change.Changed) != n+1 {
					t.Fatalf("want every message and Metadata changed, have %+v", r.Change)
				}
				cov := r.Coverage
				if cov == nil || !slices.Equal(cov.Expected, expected) || cov.Changed != n+1 {
					t.Fatalf("coverage %+v, want %d changed, expecting %v", cov, n+1, expected)
				}
				for _, m := range r.Change.Changed {
					has := coverageFigures(r, m)
					for _, f := range expected {
						switch cut := slices.Contains(cov.Cut[f], m); {
						case !has[f] && !cut:
							t.Errorf("%s is not %s, and coverage does not say it was cut", m, f)
						case has[f] && cut:
							t.Errorf("coverage says %s was cut from %s, but it has the figures", m, f)
						}
					}
				}

				total, _ := time.ParseDuration(c.budget)
				deadline := (total - budget.Reserve).Seconds()
				switch {
				case run.planned < 0:
					t.Errorf("no stage the plan cuts began (%v)", r.Errors)
				case run.planned <= deadline:
					insideDeadline++
					if r.Seconds > total.Seconds() {
						t.Errorf("ended at %.1f s of a %s budget; the planned stages began at %.1f s: %s", r.Seconds, c.budget, run.planned, stagesOf(r, ""))
					}
				case r.Seconds > run.planned+budget.Reserve.Seconds():
					t.Errorf("the unplanned stages ended at %.1f s, past the %.0f s deadline, and the run %.1f s later: more than the reserve", run.planned, deadline, r.Seconds-run.planned)
				default:
					t.Logf("the unplanned stages alone passed the deadline: %s", stagesOf(r, "cpu"))
				}
				cut := map[string]int{}
				for f, ms := range cov.Cut {
					cut[f] = len(ms)
				}
				t.Logf("%d messages, %s: %.1f s on the gate's clock (planned stages from %.1f s, deadline %.0f s), exit %d, cut %v; wall %s",
					n, c.name, r.Seconds, run.planned, deadline, r.ExitCode, cut, run.wall.Round(time.Millisecond))
			})
		}
	}
	if oneMessage > 0 && insideDeadline == 0 {
		t.Error("in no run did the planned stages begin before the deadline: nothing tested the plan")
	}
}
