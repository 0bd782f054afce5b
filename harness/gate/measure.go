package gate

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/compare"
	"github.com/wiregate/wiregate/harness/cpucost"
	"github.com/wiregate/wiregate/harness/report"
)

// prepare builds head first (its message list is the measured set), then
// base with the same messages minus those the base does not declare yet.
func (g *run) prepare(ctx context.Context) error {
	if err := g.head.prepare(ctx, g.o, g.s, g.s.Messages, false); err != nil {
		return err
	}
	err := g.base.prepare(ctx, g.o, g.s, g.head.prep.Messages, true)
	g.recordSkipped()
	g.note = "head " + g.head.prepared() + "; base " + g.base.prepared()
	return err
}

func (g *run) correctness(ctx context.Context) error {
	start := time.Now()
	defer func() { g.correctnessTime = time.Since(start) }()
	for _, s := range []*side{g.base, g.head} {
		if len(s.prep.Messages) == 0 {
			continue
		}
		cs, err := s.check(ctx)
		if err != nil {
			return err
		}
		for _, c := range cs {
			g.aliasing[c.Message+"/"+c.Format] = c.Aliasing
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
		head := pair[1]
		if head == nil {
			continue
		}
		msg, format, _ := strings.Cut(k, "/")
		f := g.r.Format(msg, format)
		f.Aliasing = g.aliasing[k]
		f.Size = &report.Size{Head: head.BytesMean, VsJSON: head.VsJSON}
		if base := pair[0]; base != nil {
			f.Size.Base = base.BytesMean
			f.Size.DeltaPct = compare.DeltaPct(base.BytesMean, head.BytesMean)
		}
	}
	return nil
}

// benchRounds alternates base and head, one round each, after one
// discarded warm-up round per side, flipping which side goes first every
// round (ABBA): slow drift on a shared runner then hits both sides alike
// instead of whichever ran second. The warm-up round also prices a round,
// and the rounds are planned to fit the time budget (package budget).
func (g *run) benchRounds(ctx context.Context) error {
	files := g.benchFiles() // the cpu stage started them: append
	sides := []*side{g.base, g.head}
	start := time.Now()
	var warm [][]byte
	for _, s := range sides {
		if len(s.prep.Messages) == 0 {
			continue
		}
		out, err := s.bench(ctx, g.warmupBenchtime(), false)
		if err != nil {
			return err
		}
		warm = append(warm, out)
	}
	plan := g.planBench(time.Since(start), warm)
	g.note, g.r.Plan.Bench = plan.Note, &report.BenchPlan{Count: plan.Count, Benchtime: plan.Benchtime.String(), Untimed: plan.Untimed, Note: plan.Note}
	for _, s := range sides {
		s.sel.Messages = timedOnly(s.sel.Messages, plan.Timed)
	}
	timed := map[*side][]string{g.base: g.base.sel.Messages, g.head: g.head.sel.Messages}
	unchangedRounds := g.s.Rounds(true)
	if len(g.unchanged) > 0 && unchangedRounds < plan.Count {
		g.r.Env.UnchangedRounds = unchangedRounds
		g.addNote("unchanged-schema messages timed " + strconv.Itoa(unchangedRounds) + " rounds (information only)")
	}
	defer func() { // the later stages (pipeline, cpu) see every timed message
		for s, ms := range timed {
			s.sel.Messages = ms
		}
	}()
	for round := 0; round < plan.Count; round++ {
		if round == unchangedRounds { // from here only what can fail the gate
			for s, ms := range timed {
				s.sel.Messages, _ = g.byChange(ms)
			}
		}
		for _, s := range abba(sides, round+1) {
			if len(s.sel.Messages) == 0 {
				continue
			}
			out, err := s.bench(ctx, plan.Benchtime, round == 0)
			if err != nil {
				return err
			}
			if err := appendFile(files[s], out); err != nil {
				return err
			}
		}
		g.o.Log("wiregate: bench round %d/%d", round+1, plan.Count)
	}
	g.r.Env.BenchPin = g.head.prog.Pinned()
	return nil
}

func (g *run) compare(ctx context.Context) error {
	if len(g.base.prep.Messages) == 0 || len(g.head.prep.Messages) == 0 {
		return nil // nothing to compare against: head-only sizes are still reported
	}
	// The files hold what the cpu stage counted and the bench rounds timed;
	// when the budget left neither anything, there are none.
	bf, err := os.Open(filepath.Join(g.o.Out, "base.txt"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	defer bf.Close()
	hf, err := os.Open(filepath.Join(g.o.Out, "head.txt"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
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
		f := g.r.Format(c.Message, c.Format)
		if c.Unit == cpucost.UnitInstructions {
			f.Metrics = append(f.Metrics, cpuMetric(c))
			continue
		}
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

var unitOrder = map[string]int{"sec/op": 0, "B/op": 1, "allocs/op": 2, cpucost.UnitInstructions: 3}
