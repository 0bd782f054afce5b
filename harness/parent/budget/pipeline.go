package budget

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// MinBacklog is the smallest backlog worth timing: below it a drain is
// mostly the consumer's start-up. A row the byte budget sized below it is
// timed as sized.
const MinBacklog = 1000

// PipeRow is one pipeline row (message and format) as asked, and its
// price.
type PipeRow struct {
	Key    string // message/format
	Gating bool   // its throughput can fail the gate
	N      int64  // backlog asked for (pipeline-messages, or fewer by pipeline-bytes)
	Rounds int    // decoded rounds asked for
	// Pass is one pass over one record of the backlog on one side (fill,
	// raw drain or a decoded drain), and Start one pass's fixed cost
	// (starting a producer or a consumer).
	Pass, Start time.Duration
}

// PipelineForecast is the pipeline's schedule: before each row, each fill and
// each decoded round, package piperounds asks it what to do, and it
// answers from the rows' prices, corrected by a meter (one extrapolation
// rule, Meter's) into the time left. A row keeps its backlog and rounds
// while the rest fit; else, cut in order for the rows left: smaller
// backlogs (down to MinBacklog), fewer rounds (down to the fewest that can
// reach significance), then rows not timed, the last non-gating first.
// Safe for concurrent use; piperounds runs one row at a time.
type PipelineForecast struct {
	meter     *Meter
	rows      []PipeRow // in priority order
	sides     int
	minRounds int

	mu                            sync.Mutex
	smallerN, fewerRounds, fewest int
	untimed                       []string
	took                          map[string]*pipeTook
}

// pipeTook is what a row's passes took and how many there were.
type pipeTook struct {
	took   time.Duration
	passes int64
}

// Pipeline is the pipeline's forecast: rows in priority order, measured on
// sides sides, each with at least minRounds decoded rounds to be worth a
// test, all of it by the budget's deadline.
func (b Budget) Pipeline(rows []PipeRow, sides, minRounds int) *PipelineForecast {
	return &PipelineForecast{meter: b.Meter(b.Deadline()), rows: rows, sides: max(sides, 1), minRounds: max(minRounds, 1),
		took: map[string]*pipeTook{}}
}

// Row is what row key may do: its backlog and decoded rounds, fitted with
// every row after it into the time left; ok is false when it is not timed.
// Rows are asked in their priority order.
func (p *PipelineForecast) Row(key string) (n int64, rounds int, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.IndexFunc(p.rows, func(r PipeRow) bool { return r.Key == key })
	if i < 0 {
		return 0, 0, false
	}
	rest := p.rows[i:]
	fit := fitRows(rest, p.sides, p.minRounds, p.meter.Left(), p.meter.Correction())
	r, f := p.rows[i], fit[0]
	if !f.timed {
		p.untimed = append(p.untimed, key)
		return 0, 0, false
	}
	if f.n < r.N {
		p.smallerN++
	}
	if f.rounds < r.Rounds {
		p.fewerRounds++
		if p.fewest == 0 || f.rounds < p.fewest {
			p.fewest = f.rounds
		}
	}
	return f.n, f.rounds, true
}

// Fill is a row's fill and raw drain of n records on every side starting,
// when it may: done records what it took.
func (p *PipelineForecast) Fill(key string, n int64) (done func(), ok bool) {
	done, ok = p.meter.Start(p.pass(key, n) * time.Duration(2*p.sides))
	return p.timed(done, key, int64(2*p.sides)), ok
}

// timed is done that also keeps what passes passes of row key took.
func (p *PipelineForecast) timed(done func(), key string, passes int64) func() {
	if done == nil {
		return nil
	}
	start := p.meter.now()
	return func() {
		done()
		p.mu.Lock()
		defer p.mu.Unlock()
		t := p.took[key]
		if t == nil {
			t = &pipeTook{}
			p.took[key] = t
		}
		t.took += p.meter.now().Sub(start)
		t.passes += passes
	}
}

// PassTimes is what one pass of each row that ran took on one side, at the backlog
// it drained.
func (p *PipelineForecast) PassTimes() map[string]time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]time.Duration{}
	for key, t := range p.took {
		if t.passes > 0 {
			out[key] = t.took / time.Duration(t.passes)
		}
	}
	return out
}

// Round is one decoded round of a row of n records on every side starting,
// when it may; a round the meter refuses ends the row's rounds (the note
// counts it).
func (p *PipelineForecast) Round(key string, n int64, round int) (done func(), ok bool) {
	done, ok = p.meter.Start(p.pass(key, n) * time.Duration(p.sides))
	done = p.timed(done, key, int64(p.sides))
	if !ok {
		p.mu.Lock()
		p.fewerRounds++
		if p.fewest == 0 || round < p.fewest {
			p.fewest = round
		}
		p.mu.Unlock()
	}
	return done, ok
}

// pass is one pass over row key's n records on one side, as priced.
func (p *PipelineForecast) pass(key string, n int64) time.Duration {
	i := slices.IndexFunc(p.rows, func(r PipeRow) bool { return r.Key == key })
	if i < 0 {
		return 0
	}
	return p.rows[i].Start + time.Duration(n)*p.rows[i].Pass
}

// Untimed are the rows the plan left no time for.
func (p *PipelineForecast) Untimed() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.untimed)
}

// Note says what the plan cut; empty when nothing.
func (p *PipelineForecast) Note() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var cuts []string
	if p.smallerN > 0 {
		cuts = append(cuts, fmt.Sprintf("%s with smaller backlogs", rows(p.smallerN)))
	}
	if p.fewerRounds > 0 {
		cuts = append(cuts, fmt.Sprintf("%s with fewer rounds (down to %d)", rows(p.fewerRounds), p.fewest))
	}
	if n := len(p.untimed); n > 0 {
		cuts = append(cuts, fmt.Sprintf("%d of %d rows not timed", n, len(p.rows)))
	}
	if len(cuts) == 0 {
		return ""
	}
	return "to fit the time budget: " + strings.Join(cuts, ", ")
}

func rows(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// rowFit is one row as fitted.
type rowFit struct {
	n      int64
	rounds int
	timed  bool
}

// fitRows fits rows into left at prices scaled by correction: every row as
// asked when they fit; else one share of every backlog (never below
// MinBacklog, nor below what was asked), the largest that fits; else, at
// the smallest backlogs, fewer rounds down to minRounds; else rows dropped,
// the last non-gating first, then the last.
func fitRows(rs []PipeRow, sides, minRounds int, left time.Duration, correction float64) []rowFit {
	fit := make([]rowFit, len(rs))
	for i, r := range rs {
		fit[i] = rowFit{n: r.N, rounds: r.Rounds, timed: true}
	}
	cost := func() time.Duration {
		var c time.Duration
		for i, r := range rs {
			if fit[i].timed {
				passes := time.Duration(sides * (2 + fit[i].rounds))
				c += passes * (r.Start + time.Duration(fit[i].n)*r.Pass)
			}
		}
		return time.Duration(float64(c) * correction)
	}
	if cost() <= left {
		return fit
	}
	scale := func(share float64) {
		for i, r := range rs {
			fit[i].n = max(min(r.N, MinBacklog), int64(share*float64(r.N)))
		}
	}
	lo, hi := 0.0, 1.0
	for range 30 {
		mid := (lo + hi) / 2
		scale(mid)
		if cost() <= left {
			lo = mid
		} else {
			hi = mid
		}
	}
	scale(lo)
	for rounds := slices.MaxFunc(rs, func(a, b PipeRow) int { return a.Rounds - b.Rounds }).Rounds; cost() > left && rounds > minRounds; {
		rounds--
		for i, r := range rs {
			fit[i].rounds = min(r.Rounds, max(rounds, min(r.Rounds, minRounds)))
		}
	}
	for cost() > left {
		i := lastTimed(rs, fit)
		if i < 0 {
			break
		}
		fit[i].timed = false
	}
	return fit
}

// lastTimed is the row to stop timing next: the last non-gating one still
// timed, else the last one; -1 when none is.
func lastTimed(rs []PipeRow, fit []rowFit) int {
	for i := len(rs) - 1; i >= 0; i-- {
		if fit[i].timed && !rs[i].Gating {
			return i
		}
	}
	for i := len(rs) - 1; i >= 0; i-- {
		if fit[i].timed {
			return i
		}
	}
	return -1
}
