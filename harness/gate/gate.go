package gate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/codec"
	"github.com/wiregate/wiregate/harness/compare"
	"github.com/wiregate/wiregate/harness/config"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/prepare"
	"github.com/wiregate/wiregate/harness/report"
	"github.com/wiregate/wiregate/harness/sizes"
)

// run is one gate run's state.
type run struct {
	o          *Options
	r          *report.Report
	base, head *side
	sizes      map[string][2]*sizes.Size // message/format → base, head
	cfg        config.Config
	ctx        context.Context // main's: a signal cancels it
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
	g := &run{o: &o, r: report.New(), sizes: map[string][2]*sizes.Size{}, ctx: ctx,
		base: &side{name: "base", dir: o.BaseDir}, head: &side{name: "head", dir: o.HeadDir}}
	g.r.Base = report.Rev{Ref: o.BaseRef, Sha: o.BaseSha}
	g.r.Head = report.Rev{Ref: o.HeadRef, Sha: o.HeadSha}
	g.r.Env = report.Env{GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH,
		Cores: runtime.NumCPU(), Count: o.Count, Alpha: o.Alpha, Runner: os.Getenv("RUNNER_NAME")}

	g.cfg = config.Default()
	configured := g.stage("config", g.loadConfig)
	g.stage("findings", g.readFindings)
	g.stage("avro-compatibility", g.avroCompat)
	prepared := configured && g.stage("tools", g.findTools) && g.stage("prepare", g.prepare)
	checked := prepared && g.stage("correctness", g.correctness)
	if checked {
		g.stage("sizes", g.measureSizes)
		if g.stage("bench", g.benchRounds) {
			g.stage("compare", g.compare)
		}
		if o.Pipeline {
			g.stage("pipeline", g.pipeline)
		}
	}
	g.stage("verdict", g.verdict)
	g.r.Sort()
	if err := g.r.Write(filepath.Join(o.Out, "report.json")); err != nil {
		return g.r, err
	}
	return g.r, nil
}

// stage times f, records it, and turns its error into a report error.
func (g *run) stage(name string, f func(ctx context.Context) error) bool {
	g.o.Log("wiregate: %s", name)
	start := time.Now()
	cancelled := g.ctx.Err() != nil
	err := f(g.ctx)
	st := report.Stage{Name: name, Seconds: time.Since(start).Seconds()}
	if err != nil && cancelled {
		return false // the stage that was running when the signal came recorded it
	}
	if err != nil && g.ctx.Err() != nil {
		err = context.Cause(g.ctx) // "interrupted by SIGINT", not what a killed child made of it
	}
	if err != nil {
		st.Error = oneLine(err.Error())
		g.r.Errors = append(g.r.Errors, name+": "+st.Error)
		g.o.Log("wiregate: %s failed: %s", name, st.Error)
	}
	g.r.Stages = append(g.r.Stages, st)
	return err == nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// findTools resolves buf once for both sides: the base worktree has no
// node_modules of its own.
func (g *run) findTools(ctx context.Context) error {
	buf, err := prepare.FindBuf(g.o.Buf, g.o.HeadDir, g.o.HarnessDir, ".")
	if err != nil {
		return err
	}
	if strings.ContainsRune(buf, os.PathSeparator) {
		buf, _ = filepath.Abs(buf)
	}
	g.o.Buf = buf
	return nil
}

func (g *run) readFindings(ctx context.Context) error {
	if g.o.FindingsFile == "" {
		return nil
	}
	b, err := os.ReadFile(g.o.FindingsFile)
	if err != nil {
		return exitcode.BadInput("--findings %s: %v", g.o.FindingsFile, err)
	}
	var fs []report.Finding
	if err := json.Unmarshal(b, &fs); err != nil {
		return exitcode.BadInput("--findings %s: not a JSON array of findings: %v", g.o.FindingsFile, err)
	}
	g.r.Findings = append(g.r.Findings, fs...)
	return nil
}

// prepare builds head first (its message list is the measured set), then
// base with the same messages minus those the base does not declare yet.
func (g *run) prepare(ctx context.Context) error {
	if err := g.head.prepare(ctx, g.o, g.o.Messages, false); err != nil {
		return err
	}
	return g.base.prepare(ctx, g.o, g.head.prep.Messages, true)
}

func (g *run) correctness(ctx context.Context) error {
	for _, s := range []*side{g.base, g.head} {
		if len(s.prep.Messages) == 0 {
			continue
		}
		if err := s.check(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (g *run) measureSizes(ctx context.Context) error {
	for i, s := range []*side{g.base, g.head} {
		if len(s.prep.Messages) == 0 {
			continue
		}
		ss, err := s.sizes(ctx)
		if err != nil {
			return err
		}
		for j := range ss {
			k := ss[j].Message + "/" + ss[j].Format
			pair := g.sizes[k]
			pair[i] = &ss[j]
			g.sizes[k] = pair
		}
	}
	for k, pair := range g.sizes {
		msg, format, _ := strings.Cut(k, "/")
		f := g.format(msg, format)
		if pair[1] == nil {
			continue
		}
		sz := &report.Size{Head: pair[1].BytesMean, VsJSON: pair[1].VsJSON}
		if pair[0] != nil {
			sz.Base = pair[0].BytesMean
			if sz.Base > 0 {
				d := 100 * (sz.Head - sz.Base) / sz.Base
				sz.DeltaPct = &d
			}
		}
		f.Size = sz
	}
	return nil
}

// benchRounds alternates base and head, one round each, count times, after
// one discarded warm-up round per side, flipping which side goes first every
// round (ABBA): slow drift on a shared runner then hits both sides alike
// instead of whichever ran second.
func (g *run) benchRounds(ctx context.Context) error {
	files := map[*side]string{g.base: filepath.Join(g.o.Out, "base.txt"), g.head: filepath.Join(g.o.Out, "head.txt")}
	for _, f := range files {
		os.Remove(f)
	}
	for round := -1; round < g.o.Count; round++ {
		for _, s := range abba([]*side{g.base, g.head}, round+1) {
			if len(s.prep.Messages) == 0 {
				continue
			}
			out, err := s.bench(ctx, g.o.Benchtime, round == 0)
			if err != nil {
				return err
			}
			if round < 0 {
				continue // warm-up
			}
			if err := appendFile(files[s], out); err != nil {
				return err
			}
		}
		if round >= 0 {
			g.o.Log("wiregate: bench round %d/%d", round+1, g.o.Count)
		}
	}
	g.r.Env.BenchPin = g.head.prog.Pinned()
	return nil
}

func (g *run) compare(ctx context.Context) error {
	if len(g.base.prep.Messages) == 0 {
		return nil // nothing to compare against: head-only sizes are still reported
	}
	bf, err := os.Open(filepath.Join(g.o.Out, "base.txt"))
	if err != nil {
		return err
	}
	defer bf.Close()
	hf, err := os.Open(filepath.Join(g.o.Out, "head.txt"))
	if err != nil {
		return err
	}
	defer hf.Close()
	res, err := compare.Files(bf, hf, "base", "head", g.cfg.Alpha)
	if err != nil {
		return err
	}
	g.r.Benchstat = res.Text
	if err := os.WriteFile(filepath.Join(g.o.Out, "benchstat.txt"), []byte(res.Text), 0o644); err != nil {
		return err
	}
	for _, c := range res.Comparisons {
		if c.Message == "" || c.Unit == "B/msg" {
			continue // sizes are exact and reported from the sizes stage
		}
		f := g.format(c.Message, c.Format)
		f.Metrics = append(f.Metrics, c.Metric(c.Op))
	}
	for i := range g.r.Messages {
		for j := range g.r.Messages[i].Formats {
			ms := g.r.Messages[i].Formats[j].Metrics
			sort.SliceStable(ms, func(a, b int) bool {
				if ms[a].Name != ms[b].Name {
					return ms[a].Name < ms[b].Name // decode, encode
				}
				return unitOrder[ms[a].Unit] < unitOrder[ms[b].Unit]
			})
		}
	}
	return nil
}

var unitOrder = map[string]int{"sec/op": 0, "B/op": 1, "allocs/op": 2}

// format returns the report entry for message/format, creating it.
func (g *run) format(msg, format string) *report.Format {
	var m *report.Message
	for i := range g.r.Messages {
		if g.r.Messages[i].Name == msg {
			m = &g.r.Messages[i]
		}
	}
	if m == nil {
		g.r.Messages = append(g.r.Messages, report.Message{Name: msg, Formats: []report.Format{}})
		m = &g.r.Messages[len(g.r.Messages)-1]
	}
	for i := range m.Formats {
		if m.Formats[i].Format == format {
			return &m.Formats[i]
		}
	}
	codecFormat, _ := codec.Lookup(format)
	m.Formats = append(m.Formats, report.Format{Format: format, Metrics: []report.Metric{}, Aliasing: codecFormat.Aliasing})
	return &m.Formats[len(m.Formats)-1]
}
