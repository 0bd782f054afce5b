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
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/shard"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/cpucost"
	"github.com/wiregate/wiregate/harness/program/record"
)

// What the static prices assume of a job, from the runs in
// docs/figures.md ("Beyond one runner"): what a shard spends before it
// measures (building wiregate and the bench programs, the schema checks),
// what building the bench programs adds per message, and the part of
// what is left the split plans into (prices are estimates; the gate's own
// meter then keeps each shard inside its budget).
const (
	shardFixed      = 60 * time.Second
	preparePerMsg   = 100 * time.Millisecond
	shardFill       = 0.8
	priceSample     = 8 // records generated to price a message
	exactPerMessage = 200 * time.Millisecond
	exactPerKiB     = 150 * time.Millisecond
)

// nsPerByte is what the slower op of a format costs per byte of the
// message's protobuf encoding, natively, and opBaseNs its fixed part
// (this repo's messages, docs/figures.md): enough to price a count.
var nsPerByte = map[string]float64{"json": 20, "protojson": 40, "protobuf": 2, "vtprotobuf": 1.5, "avro": 2, "avro-hamba": 3, "msgpack": 8, "cbor": 8}

const opBaseNs = 100

// staticPrices are what measuring each of list costs, from the schemas
// alone, so that every shard of a matrix prices alike: the cheapest
// measurement the budget still calls whole — every figure of every
// message, counts at their floor's length in cpu-processes processes per
// side, bench rounds at the shortest benchtime and the fewest rounds the
// union's Holm family can reach significance with, pipeline rows at the
// smallest backlog — on the job's workers, plus building its programs.
func (g *run) staticPrices(sch *schemas, list []string) ([]shard.Priced, error) {
	formats := len(g.s.Formats)
	gated := 0
	for _, m := range list {
		if sch.status[m] != report.StatusUnchanged {
			gated++
		}
	}
	rounds := verdict.MinRounds(verdict.TimeFamily(gated, formats), g.s.Alpha)
	pipeRounds := verdict.MinRounds(verdict.PipelineFamily(gated*formats), g.s.Alpha)
	workers := time.Duration(max(g.s.Workers, 1))
	out := make([]shard.Priced, 0, len(list))
	for _, m := range list {
		md, err := sch.head.Message(m)
		if err != nil {
			return nil, err
		}
		var bytes float64
		for _, r := range record.Generate(dynamicpb.NewMessageType(md), priceSample, record.Seed) {
			bytes += float64(proto.Size(r))
		}
		bytes /= priceSample
		sides := 2
		if sch.status[m] == report.StatusNew {
			sides = 1
		}
		exact := time.Duration(sides) * (exactPerMessage + time.Duration(bytes/1024*float64(exactPerKiB)))
		var count, pipe time.Duration
		for _, f := range g.s.Formats {
			ns := opBaseNs + bytes*nsPerByte[f]
			count += cpucost.EstimateFormat(f, [2]float64{ns, ns}, bytes)
			pass := time.Duration(bytes*float64(brokerPerByte) + ns)
			pipe += time.Duration(sides*(2+pipeRounds)) * (pipeStart + budget.MinBacklog*pass)
		}
		count = (cpucost.ProcessStart + count) * time.Duration(sides*g.s.CPUProcesses)
		bench := time.Duration(rounds*sides*formats*2) * time.Duration(benchCalibration*float64(budget.MinBenchtime))
		price := preparePerMsg + (exact+count)/workers + bench
		if g.s.Pipeline {
			price += pipe
		}
		out = append(out, shard.Priced{Name: m, Price: price})
	}
	return out, nil
}

// shardCapacity is what one job of time-budget has for measuring.
func (g *run) shardCapacity() time.Duration {
	return time.Duration(float64(g.s.TimeBudget-budget.Reserve-shardFixed) * shardFill)
}

// split is list's shards: how many measure all of it (at most
// max-shards), which messages each takes, and how many it would take
// uncapped.
type split struct {
	parts  [][]string
	needed int
	total  time.Duration
	price  map[string]time.Duration
}

// note says what shard index (1-based; 0: the whole change) takes of the
// split.
func (s split) note(index int) string {
	if index == 0 {
		return fmt.Sprintf("%s priced at %s: %d shards of time-budget measure all of it", plural(len(s.price), "message"), s.total.Round(time.Second), s.needed)
	}
	var part time.Duration
	for _, m := range s.parts[index-1] {
		part += s.price[m]
	}
	return fmt.Sprintf("shard %d/%d: %d of %d messages, priced at %s of %s", index, len(s.parts), len(s.parts[index-1]), len(s.price),
		part.Round(time.Second), s.total.Round(time.Second))
}

// splitList splits list into n shards (0: as many as the prices need, at
// most max-shards).
func (g *run) splitList(sch *schemas, list []string, n int) (split, error) {
	prices, err := g.staticPrices(sch, list)
	if err != nil {
		return split{}, err
	}
	s := split{price: map[string]time.Duration{}}
	for _, p := range prices {
		s.total += p.Price
		s.price[p.Name] = p.Price
	}
	count, needed := shard.Count(s.total, g.shardCapacity(), g.s.MaxShards)
	if n == 0 {
		n = count
	}
	s.parts, s.needed = shard.Split(prices, n), needed
	return s, nil
}

// shardOf is the report's record of shard i of s: what must agree for its
// parts to merge.
func (g *run) shardOf(sch *schemas, list []string, s split) *report.Shard {
	return &report.Shard{Index: g.s.Shard.Index, Count: g.s.Shard.Count, Parts: s.parts, Split: shard.Hash(s.parts),
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
