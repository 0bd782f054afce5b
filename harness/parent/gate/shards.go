package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/piperounds"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/shard"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/record"
)

// priceSample is how many records are generated to price a message
// from its schema.
const priceSample = 8

// shardPrices are what measuring each of list costs a shard job
// (budget.Job.Price), the same in every shard of a matrix: each stage a
// run measured for a message (measured, from the history point at the
// base) priced as measured, every other from the schemas alone
// (budget.StaticPrice). n is how many of list had a measured price.
func (g *run) shardPrices(sch *schemas, list []string, fromHistory map[string]budget.MessagePrice) (out []shard.Priced, n int, err error) {
	gated := 0
	for _, m := range list {
		if sch.status[m] != report.StatusUnchanged {
			gated++
		}
	}
	formats := len(g.s.Formats)
	// A job's bench runs at most count rounds, fewer where the family's
	// cutoff is reached sooner; its pipeline as many as piperounds plans.
	job := budget.Job{Formats: formats, Workers: g.s.Workers, Processes: g.s.CPUProcesses,
		Rounds:     min(g.s.Rounds, verdict.MinRounds(verdict.TimeFamily(gated, formats), g.s.Alpha)),
		PipeRounds: piperounds.Rounds(g.pipelineFamily(gated), g.s.Rounds, g.s.Alpha),
		Counting:   g.s.CPUCost != cpucost.Off, Pipeline: g.s.Pipeline, Beside: g.s.CountsBeside}
	out = make([]shard.Priced, 0, len(list))
	for _, m := range list {
		md, err := sch.head.Message(m)
		if err != nil {
			return nil, 0, err
		}
		var bytes float64
		for _, r := range record.Generate(dynamicpb.NewMessageType(md), priceSample, record.Seed) {
			bytes += float64(proto.Size(r))
		}
		sides := 2
		if sch.status[m] == report.StatusNew {
			sides = 1
		}
		bytes /= priceSample
		most := g.s.PipelineMessages
		if g.s.PipelineBytes > 0 && bytes > 0 {
			most = min(most, int64(float64(g.s.PipelineBytes)/bytes))
		}
		unit, from := budget.StaticPrice(bytes, g.s.Formats, g.s.PipelineFormats.Of(g.s.Formats), most).Over(fromHistory[m])
		if from > 0 {
			n++
		}
		out = append(out, shard.Priced{Name: m, Price: job.Price(unit, sides)})
	}
	return out, n, nil
}

// split is list's shards: how many measure all of it (at most
// max-shards), which messages each takes, and how many it would take
// uncapped.
type split struct {
	parts  [][]string
	needed int
	total  time.Duration
	price  map[string]time.Duration
	// pricedBy says where the prices came from.
	pricedBy string
}

// note says what shard index (1-based; 0: the whole change) takes of the
// split.
func (s split) note(index int) string {
	if index == 0 && s.needed == 0 {
		return fmt.Sprintf("%s priced at %s (%s): time-budget leaves a shard nothing to measure, so no shard count: this run measures what its budget holds", plural(len(s.price), "message"), s.total.Round(time.Second), s.pricedBy)
	}
	if index == 0 {
		return fmt.Sprintf("%s priced at %s (%s): %d shards of time-budget measure all of it", plural(len(s.price), "message"), s.total.Round(time.Second), s.pricedBy, s.needed)
	}
	var part time.Duration
	for _, m := range s.parts[index-1] {
		part += s.price[m]
	}
	return fmt.Sprintf("shard %d/%d: %d of %d messages, priced at %s of %s (%s)", index, len(s.parts), len(s.parts[index-1]), len(s.price),
		part.Round(time.Second), s.total.Round(time.Second), s.pricedBy)
}

// splitList splits list into n shards (0: as many as the prices need, at
// most max-shards), priced by what prices measured (measuredPrices). For
// a plan or a shard (sharded), a time-budget that leaves a shard no time
// to measure is the user's input error, naming the smallest that holds the
// dearest message; a whole run measures what its budget holds and says
// what it cut. (A shard that holds less than its dearest message measures
// what fits of it, as a whole run does.)
func (g *run) splitList(sch *schemas, list []string, n int, mp measuredPrices, sharded bool) (split, error) {
	prices, from, err := g.shardPrices(sch, list, mp.prices)
	if err != nil {
		return split{}, err
	}
	s := split{price: map[string]time.Duration{}, pricedBy: mp.says(from, len(list))}
	var dearest shard.Priced
	for _, p := range prices {
		s.total += p.Price
		s.price[p.Name] = p.Price
		if p.Price > dearest.Price {
			dearest = p
		}
	}
	capacity := budget.Capacity(g.s.TimeBudget)
	if capacity <= 0 {
		if sharded {
			return split{}, exitcode.BadInput("input 'time-budget' is %s: a shard spends %s outside measuring, which leaves it nothing for %s, priced at %s (%s); the smallest time-budget that holds it is %s",
				brief(g.s.TimeBudget), brief(budget.Reserve+budget.ShardFixed), dearest.Name, brief(dearest.Price), s.pricedBy, brief(budget.ShardMinimum(dearest.Price)))
		}
		return s, nil // no split: the budget's plan cuts what does not fit
	}
	count, needed := shard.Count(s.total, capacity, g.s.MaxShards)
	if n == 0 {
		n = count
	}
	s.parts, s.needed = shard.Deal(prices, n), needed
	return s, nil
}

// shardOf is the report's record of shard i of s: what must agree for its
// parts to merge.
func (g *run) shardOf(sch *schemas, list []string, s split) *report.Shard {
	return &report.Shard{Index: g.s.Shard.Index, Count: g.s.Shard.Count, Name: g.s.Shard.String(), Artifact: shard.PartName(g.s.Shard),
		Parts: s.parts, Split: shard.Hash(s.parts),
		Change: changeHash(sch, list), Inputs: inputsHash(g.s), Harness: sch.head.Harness()}
}

// changeHash identifies the change a split is of: the messages measured
// and each one's schema print on both sides.
func changeHash(sch *schemas, list []string) string {
	h := sha256.New()
	for _, m := range slices.Sorted(slices.Values(list)) {
		base := ""
		if sch.base != nil {
			base = schemaPrint(sch.base, m, sch.baseSet, "")
		}
		fmt.Fprintf(h, "%s %s %s %s\n", m, sch.status[m], base, sch.prints[m])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// inputsHash identifies the inputs that decide what a shard measures and
// how it is judged: all of them but where this job runs (its shard, its
// workers, its checkout's path).
func inputsHash(s inputs.Settings) string {
	s.Shard, s.Workers, s.WorkingDirectory, s.Samples = inputs.Shard{}, 0, "", ""
	s.BreakingAgainst.Where = ""
	b, _ := json.Marshal(s)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])[:16]
}
