package gate

import (
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strings"

	"github.com/wiregate/wiregate/harness/broker"
	"github.com/wiregate/wiregate/harness/compare"
	"github.com/wiregate/wiregate/harness/pipeline"
	"github.com/wiregate/wiregate/harness/report"
)

// pipelineSamples are one side's drains of one backlog.
type pipelineSamples struct {
	rps, nsPerMsg []float64
	raw           float64
	cap           string
	peakRSS       int64
}

// pipeline measures end-to-end throughput with constant backlogs: each side
// fills one topic per message and format once; a raw drain of each warms the
// broker's read path and gives the fixed per-record cost; then rounds of
// decoded drains alternate base and head, like the bench rounds.
func (g *run) pipeline(ctx context.Context) error {
	b, err := broker.Start(ctx, g.s.Broker, broker.WithEmbeddedCommand(func() *exec.Cmd {
		// The bench program has the embedded-broker subcommand; whoever
		// runs the gate (cmd/wiregate, a test binary) may not.
		return exec.Command(g.head.prep.Binary, broker.EmbeddedSubcommand)
	}))
	if err != nil {
		return err
	}
	defer b.Close()
	g.r.Env.Broker, g.r.Env.BrokerReason, g.r.Env.PipelineN = b.Kind, b.Reason, int(g.s.PipelineMessages)
	addrs := strings.Join(b.Addrs, ",")

	sides := []*side{g.base, g.head}
	backlogs := map[*side][]pipeline.Backlog{}
	defer func() {
		for _, bls := range backlogs {
			for _, bl := range bls {
				_ = bl.Delete(ctx)
			}
		}
	}()
	samples := map[*side]map[string]*pipelineSamples{}
	for _, s := range sides {
		if len(s.prep.Messages) == 0 {
			continue
		}
		var bls []pipeline.Backlog
		if err := s.runJSON(ctx, &bls, "pipeline-fill", "--brokers", addrs, "--broker-kind", b.Kind, "--n", fmt.Sprint(g.s.PipelineMessages)); err != nil {
			return err
		}
		backlogs[s] = bls
		samples[s] = map[string]*pipelineSamples{}
		for _, bl := range bls {
			res, err := bl.Drain(ctx, true, g.consumer(s, bl))
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			samples[s][bl.Message+"/"+bl.Format] = &pipelineSamples{raw: res.NsPerMsg}
		}
	}
	// Base and head drains of the same message and format run back to back,
	// and which goes first flips every time (ABBA): drift in the machine or
	// the broker over a round then hits both sides alike. Running all base
	// drains before all head drains once showed a false 17% "regression"
	// between identical programs.
	byKey := map[string]map[*side]pipeline.Backlog{}
	var order []string
	for _, s := range sides {
		for _, bl := range backlogs[s] {
			k := bl.Message + "/" + bl.Format
			if byKey[k] == nil {
				byKey[k] = map[*side]pipeline.Backlog{}
				order = append(order, k)
			}
			byKey[k][s] = bl
		}
	}
	rounds := g.pipelineRounds(len(order))
	flip := 0
	for round := 0; round < rounds; round++ {
		for _, k := range order {
			for _, s := range abba(sides, flip) {
				bl, ok := byKey[k][s]
				if !ok {
					continue
				}
				res, err := bl.Drain(ctx, false, g.consumer(s, bl))
				if err != nil {
					return fmt.Errorf("%s: %w", s.name, err)
				}
				ps := samples[s][k]
				ps.rps = append(ps.rps, res.RPS)
				ps.nsPerMsg = append(ps.nsPerMsg, res.NsPerMsg)
				ps.cap = res.Cap
				ps.peakRSS = max(ps.peakRSS, res.PeakRSSBytes)
			}
			flip++
		}
		g.o.Log("wiregate: pipeline round %d/%d", round+1, rounds)
	}
	var keys []string
	for k := range samples[g.head] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		head := samples[g.head][k]
		msg, format, _ := strings.Cut(k, "/")
		entry := report.Pipeline{Message: msg, Format: format, Broker: b.Kind, BrokerReason: b.Reason,
			HeadNsPerMsg: median(head.nsPerMsg), RawNsPerMsg: head.raw}
		g.r.Env.ConsumerCap = head.cap
		if base := samples[g.base][k]; base != nil {
			c := compare.Samples(base.rps, head.rps, "records/s", g.cfg.Alpha)
			bs, hs := c.Base, c.Head
			entry.Base, entry.Head, entry.DeltaPct, entry.P, entry.Significant = &bs, &hs, c.DeltaPct, c.P, c.Significant
			entry.NoiseFloor, entry.BaseNsPerMsg = c.NoiseFloorPct, median(base.nsPerMsg)
		} else {
			c := compare.Samples(head.rps, head.rps, "records/s", g.cfg.Alpha)
			hs := c.Head
			entry.Head = &hs
		}
		g.r.Pipeline = append(g.r.Pipeline, entry)
	}
	return nil
}

// pipelineRounds is the number of decoded drains per side and backlog. Each
// round drains every backlog of both sides, so rounds are the pipeline's
// main cost; but the verdict corrects for the m rows it tests (Holm), so the
// rounds must let a clean shift clear Holm's first step: the smallest n ≥ 5
// whose complete-separation Mann-Whitney p, 2/C(2n,n), is at most
// alpha/(2m), and never more than count. For this repo's 9 rows: 6.
func (g *run) pipelineRounds(m int) int {
	limit := max(g.s.Count, 2)
	n := min(5, limit)
	for n < limit && 2/binomial(2*n, n) > g.cfg.Alpha/float64(2*max(m, 1)) {
		n++
	}
	return n
}

func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// consumer starts side s's bench program as the capped consumer of bl.
func (g *run) consumer(s *side, bl pipeline.Backlog) func(context.Context, pipeline.ConsumerSpec) *exec.Cmd {
	return func(ctx context.Context, spec pipeline.ConsumerSpec) *exec.Cmd {
		args := append([]string{"pipeline-consume"}, s.selection(bl.Message, bl.Format, g.s.Samples)...)
		return exec.Command(s.prep.Binary, append(append(args, "--"), spec.Args()...)...)
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// abba returns sides in order, reversed on odd turns.
func abba(sides []*side, turn int) []*side {
	if turn%2 == 0 {
		return sides
	}
	return []*side{sides[1], sides[0]}
}
