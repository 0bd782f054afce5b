package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/interleave"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/pin"
)

// counts are the cpu stage's results: each side's instruction counts (what
// was counted before a stop included; a message counted in several
// processes has one result per process), what counted them, and what the
// budget cut.
type counts struct {
	base, head []cpucost.Result
	// added are head's added-content counts by message, each beside its
	// same-content count of the same process (the one of its batch's head
	// processes that counted them).
	added    map[string][]addedCount
	cpuCost  *report.CPUCost
	forecast budget.CPUForecast
	// seconds is each message's count processes' wall time, every side,
	// and processes how many finished.
	seconds   map[string]float64
	processes map[string]int
}

// countProcess is one Valgrind process: a batch of messages in every format
// that measures them, on one side, in one of the batch's processes.
type countProcess struct {
	index    int // in the plan's order
	messages []string
	side     int // index into programs.sides()
	process  int // which of the batch's processes on its side
	price    time.Duration
	// added are the messages whose added content the process also counts
	// (sizes.savedAdded), after its other loops: each message with added
	// content in one of its batch's head processes, spread over them.
	added []string
}

// addedCount is one op's count on head's records with their added content
// (with) and on its same content (without), in the same process: the
// same hash seeds, the same rotations.
type addedCount struct {
	op, format    string // "encode", "protobuf"
	without, with float64
}

// errCountUnavailable stops the pool when Valgrind went away after
// Prepare found it.
var errCountUnavailable = errors.New("instruction counts unavailable")

// countInstructions is the cpu stage: instructions per encode and decode,
// counted exactly under Valgrind (package cpucost), a batch of messages a
// process (every format; the records the sizes stage saved, loaded), up to
// workers processes at once (each runs one thread), in the plan's order.
// Each batch is counted in cpu-processes processes per side, interleaved
// base and head, so every count's spread between hash seeds is seen and
// sets its noise floor. A message's two sides are counted over the same
// rotations, in batches of the same messages. Whether it counts is
// cpu-cost's decision (cpucost.Prepare); not counting is a reason in the
// report, not an error, unless cpu-cost is on. Valgrind failing is the
// stage's error: one line.
func (g *run) countInstructions(ctx context.Context, ps programs, prices budget.Prices, sz sizes, by beside) (counts, string, error) {
	c := counts{cpuCost: &report.CPUCost{Mode: string(g.s.CPUCost)}, seconds: map[string]float64{}, processes: map[string]int{}}
	// The rounds beside wait for this: Valgrind found (or installed, which
	// must not run beside a timing) and the counts' price forecast; 0 when
	// the stage ends before.
	defer by.hand(0)
	setup, err := cpucost.Prepare(ctx, g.s.CPUCost, cpucost.Env{CI: os.Getenv("GITHUB_ACTIONS") == "true"})
	if err != nil && budget.Stopped(ctx) {
		return c, stoppedNote, nil // installing Valgrind met the deadline: nothing is counted
	}
	if err != nil {
		return c, "", err
	}
	c.cpuCost.Installed = setup.Installed
	if setup.Valgrind == "" {
		c.cpuCost.Unavailable = setup.Reason
		return c, setup.Reason, nil
	}
	prices.Counting = true
	c.forecast = g.budget.Forecast(budget.FromCPU, prices).CPU
	by.hand(c.forecast.Price)
	procs := g.countProcesses(ps, c.forecast, sz)
	bytes := sz.countBytes()

	prog := newProgress(g.o.Log, "cpu", progressEvery)
	defer prog.stop()
	var mu sync.Mutex
	results := make([][]cpucost.Result, len(procs))
	var seconds [2]float64
	unavailable := ""
	finished := 0
	started, err := pool(ctx, by.lanes(g.s.Workers), g.budget.Meter(c.forecast.Deadline), 0, procs, func(u countProcess) time.Duration { return u.price },
		func(ctx context.Context, u countProcess) error {
			p := ps.sides()[u.side]
			start := g.budget.Now()
			sel, _ := p.only(u.messages)
			opts := cpucost.Options{Valgrind: setup.Valgrind, Bytes: bytes, Parallel: 1, Batch: len(u.messages), Profiles: profilesOn(), CPUs: by.now()}
			if len(u.added) > 0 {
				opts.Added, opts.AddedMessages = sz.savedAdded, u.added
			}
			res, err := cpucost.Count(ctx, p.prog.Binary, sel, opts)
			if err != nil {
				return p.wrap(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if res.Unavailable != "" { // Prepare found it; only a race can lose it
				unavailable = res.Unavailable
				return errCountUnavailable
			}
			c.cpuCost.Tool = res.Tool
			took := g.budget.Now().Sub(start).Seconds()
			seconds[sideIndex(ps, u.side)] += took
			// A message costs what it took in the process and its share of
			// the process's start. (What it took inside is the program's
			// reading of the machine's clock: the budget's but in a test
			// that gives the gate a faster one.)
			var own float64
			for _, s := range res.MessageSeconds {
				own += s
			}
			share := max(took-own, 0) / float64(len(u.messages))
			for _, m := range u.messages {
				c.seconds[m] += res.MessageSeconds[m] + share
				c.processes[m]++
			}
			results[u.index] = res.Results
			finished++
			prog.step("%d of %d processes (%s)", finished, len(procs), batchName(u.messages))
			return nil
		})
	if errors.Is(err, errCountUnavailable) {
		c.cpuCost.Unavailable = unavailable
		return c, unavailable, nil
	}
	ran := g.keepWholeProcesses(&c, ps, procs, results)
	c.forecast.Ran(ran)
	stopped := ""
	if err != nil && budget.Stopped(ctx) {
		// The processes running at the deadline were stopped: Ran cut
		// what they would have counted.
		if started > finished {
			stopped = stoppedNote
		}
		err = nil
	}
	if err != nil {
		return c, "", err
	}
	notes := []string{c.cpuCost.Installed}
	if len(c.forecast.Counted) > 0 {
		notes = append(notes, fmt.Sprintf("%s counted in %s on %s%s (process time: base %.1f s, head %.1f s)",
			plural(len(c.forecast.Counted), "message"), plural(len(procs), "process"), plural(g.s.Workers, "worker"), by.note(g.s.Workers), seconds[0], seconds[1]))
	}
	note := joinNotes(append(notes, c.forecast.Note, stopped)...)
	if c.cpuCost.Tool != "" { // none when no process finished
		note = c.cpuCost.Tool + ": " + note
	}
	return c, note, nil
}

// beside is where the counts run while the bench rounds run beside them:
// the CPUs they may use until the rounds end (pin.Others: every CPU but
// the one the timings are pinned to). The zero beside: the counts run
// alone, on every worker.
type beside struct {
	cpus       []int
	roundsDone <-chan struct{}
	// priced hands the rounds, once, what the counts are forecast to take
	// (0: they do not run), when Valgrind is ready: the rounds start then.
	priced chan time.Duration
}

// hand gives the rounds the counts' forecast price; only the first call
// counts (priced holds one: a later call finds it full, or read already
// and nobody reading again), so it never blocks.
func (b beside) hand(price time.Duration) {
	select {
	case b.priced <- price:
	default:
	}
}

// countsBeside is where this run's counts go while the bench rounds run,
// or the zero beside when they run first: with counts-beside off, cpu-cost
// off, one worker, or no CPU to pin them away from the timings'.
func (g *run) countsBeside() beside {
	if !g.s.CountsBeside || g.s.CPUCost == cpucost.Off || g.s.Workers < 2 {
		return beside{}
	}
	return beside{cpus: pin.Others(), priced: make(chan time.Duration, 1)}
}

// lanes are the counts' lanes: as many as the CPUs beside the rounds
// until the rounds end, then workers.
func (b beside) lanes(workers int) lanes {
	if len(b.cpus) == 0 {
		return lanes{Workers: workers}
	}
	return lanes{Workers: workers, Narrow: min(workers, len(b.cpus)), Widen: b.roundsDone}
}

// now is where a count process starting now runs: off the timings' CPU
// while the rounds run, anywhere after (nil).
func (b beside) now() []int {
	if len(b.cpus) == 0 {
		return nil
	}
	select {
	case <-b.roundsDone:
		return nil
	default:
		return b.cpus
	}
}

// note says how the counts shared the machine with the rounds.
func (b beside) note(workers int) string {
	if len(b.cpus) == 0 {
		return ""
	}
	return fmt.Sprintf(", beside the bench rounds (on %s while they ran, leaving the timings' CPU to them)", plural(min(workers, len(b.cpus)), "worker"))
}

// batchName is a batch's messages for a progress line.
func batchName(ms []string) string {
	if len(ms) == 1 {
		return ms[0]
	}
	return fmt.Sprintf("%s and %d more", ms[0], len(ms)-1)
}

// countProcesses are the plan's processes in the order they start: batch by
// batch (countBatches); within one, its processes in turn, the sides of
// each in ABBA order (base first in the first).
func (g *run) countProcesses(ps programs, plan budget.CPUForecast, sz sizes) []countProcess {
	var procs []countProcess
	for _, b := range countBatches(ps, plan, sz) {
		for process := range b.processes {
			for _, side := range interleave.Order(len(ps.sides()), process) {
				p := ps.sides()[side]
				var ms []string
				price := budget.ProcessStart
				// One of the batch's processes on head also counts each
				// message's added content, the messages dealt round the
				// processes: one more loop each, in no more processes,
				// and no process much longer than the others.
				var added []string
				for j, m := range b.messages {
					if !p.has(m) {
						continue
					}
					ms = append(ms, m)
					price += budget.CountPrice(sz.rows(sideIndex(ps, side), m, p.sel.Formats))
					if j%b.processes != process || sideIndex(ps, side) != 1 {
						continue
					}
					if rows := sz.addedRows(m, p.sel.Formats); len(rows) > 0 {
						price += budget.CountPrice(rows)
						added = append(added, m)
					}
				}
				if len(ms) > 0 {
					procs = append(procs, countProcess{index: len(procs), messages: ms, side: side, process: process, price: price, added: added})
				}
			}
		}
	}
	return procs
}

// countBatch is messages counted together, in processes processes a side.
type countBatch struct {
	messages  []string
	processes int
}

// countBatches groups the plan's messages, in its order, into batches of
// messages counted in as many processes and held by the same sides (so a
// compared message's batch is the same on both), each batch's process
// priced at most budget.CountBatch beyond its start: the start is paid
// once a batch, and a batch is small enough that the meter still cuts in
// steps, a timeout never ends a whole stage's work, and the workers share
// the batches' processes.
func countBatches(ps programs, plan budget.CPUForecast, sz sizes) []countBatch {
	var out []countBatch
	var cur countBatch
	var curPrice time.Duration
	curSides := 0
	for _, m := range plan.Counted {
		price := budget.CountPrice(sz.rows(1, m.Name, nil))
		sides := ps.holding(m.Name)
		if len(cur.messages) > 0 && (m.Processes != cur.processes || sides != curSides || curPrice+price > budget.CountBatch) {
			out = append(out, cur)
			cur, curPrice = countBatch{}, 0
		}
		cur.messages, cur.processes, curSides = append(cur.messages, m.Name), m.Processes, sides
		curPrice += price
	}
	if len(cur.messages) > 0 {
		out = append(out, cur)
	}
	return out
}

// keepWholeProcesses keeps, of each message, the processes that finished on
// every side (a process of one side alone compares nothing), and
// returns how many it kept per message.
func (g *run) keepWholeProcesses(c *counts, ps programs, procs []countProcess, results [][]cpucost.Result) map[string]int {
	whole := map[string]map[int]bool{}
	for i, u := range procs {
		for _, m := range u.messages {
			if whole[m] == nil {
				whole[m] = map[int]bool{}
			}
			if _, seen := whole[m][u.process]; !seen {
				whole[m][u.process] = true
			}
			if results[i] == nil {
				whole[m][u.process] = false
			}
		}
	}
	ran := map[string]int{}
	for i, u := range procs {
		same := map[string]float64{}
		for _, r := range results[i] {
			op, m, format, _ := compare.ParseName(r.Name)
			switch {
			case !whole[m][u.process]:
			case r.Added:
				if without, ok := same[r.Name]; ok { // its same-content loop came first
					if c.added == nil {
						c.added = map[string][]addedCount{}
					}
					c.added[m] = append(c.added[m], addedCount{op: op, format: format, without: without, with: r.InstrPerOp()})
				}
			case sideIndex(ps, u.side) == 0:
				c.base = append(c.base, r)
			default:
				c.head = append(c.head, r)
				same[r.Name] = r.InstrPerOp()
			}
		}
	}
	for m, procs := range whole {
		for _, ok := range procs {
			if ok {
				ran[m]++
			}
		}
	}
	return ran
}

// countMetrics compares each op's counts, base against head: exact
// numbers, so no test and no p-value. A side's center is the median of its
// processes' counts, and its n their number; the noise floor is
// cpucost.FloorOf (the format's, or twice what this op's own counts
// spread, whichever is larger), and a change is significant past it. The
// verdict gates a growth only above it. The functions whose own cost moved
// past the same floor say why (functionsMoved). A side alone compares
// nothing.
func countMetrics(base, head []cpucost.Result) []formatMetric {
	bySide := [2]map[string][]float64{perOp(base), perOp(head)}
	profiles := [2]map[string][]cpucost.Profile{profilesOf(base), profilesOf(head)}
	ops := map[string]int{}
	for _, r := range base {
		ops[r.Name] = r.Ops
	}
	var out []formatMetric
	for _, name := range sortedKeys(bySide[1]) {
		b, h := bySide[0][name], bySide[1][name]
		if len(b) == 0 {
			continue
		}
		op, message, format, ok := compare.ParseName(name)
		if !ok {
			continue
		}
		bs, hs := countSummary(b), countSummary(h)
		delta := compare.DeltaPct(bs.Center, hs.Center)
		floor := cpucost.FloorOf(format, bs.Center, b, h)
		m := report.Metric{Name: op, Unit: cpucost.UnitInstructions, Base: &bs, Head: &hs, DeltaPct: delta,
			NoiseFloor: &floor.Pct, Delta: "~", Ops: ops[name]}
		if floor.FromCounts {
			m.NoiseFloorFrom = report.FloorFromCounts
		} else {
			m.NoiseFloorFrom = report.FloorFromFormat
		}
		m.Significant = delta != nil && verdict.PastNoiseFloor(*delta, m.NoiseFloor)
		m.Functions = functionsMoved(profiles[0][name], profiles[1][name], floor.Pct/100*bs.Center, hs.Center-bs.Center)
		if m.Significant {
			m.Delta = fmt.Sprintf("%+.2f%%", *delta)
		}
		out = append(out, formatMetric{message: message, format: format, Metric: m})
	}
	return out
}

// perOp is each op's instructions per operation, one per process, by
// benchmark name.
func perOp(rs []cpucost.Result) map[string][]float64 {
	out := map[string][]float64{}
	for _, r := range rs {
		out[r.Name] = append(out[r.Name], r.InstrPerOp())
	}
	return out
}

// profilesOf is each op's profiles, one per process that read one, by
// benchmark name.
func profilesOf(rs []cpucost.Result) map[string][]cpucost.Profile {
	out := map[string][]cpucost.Profile{}
	for _, r := range rs {
		if r.Profile != nil {
			out[r.Name] = append(out[r.Name], r.Profile)
		}
	}
	return out
}

// countSummary is one side's counts of one op: their median, lowest and
// highest.
func countSummary(xs []float64) report.Summary {
	return report.Summary{Center: median(xs), Lo: slices.Min(xs), Hi: slices.Max(xs), N: len(xs)}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
