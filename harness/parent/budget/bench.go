package budget

import (
	"cmp"
	"fmt"
	"strings"
	"time"
)

// MinBenchtime is the shortest benchmark the plan asks for: below it the
// testing package's own calibration is most of the time.
const MinBenchtime = 10 * time.Millisecond

// Message is one message's part of a round.
type Message struct {
	Name string
	// Price is its part of one measured round (both sides, every format
	// and op) at the measured benchtime.
	Price time.Duration
	// Fixed is its part of a round that does not scale with benchtime:
	// building its records in each side's program.
	Fixed time.Duration
	// Gating is false for a message whose schema is identical on both
	// sides: its time cannot fail the gate, so it is cut first.
	Gating bool
}

// Bench is what the plan knows when the warm-up round has run.
type Bench struct {
	Budget    time.Duration // what the rounds may take
	Rounds    int           // rounds asked for
	Benchtime time.Duration // per benchmark, as asked
	// Measured is the benchtime the warm-up round ran at, which the
	// messages' costs are for; 0: Benchtime.
	Measured  time.Duration
	MinRounds int // the fewest rounds that can reach significance
	// Overhead is a round's cost that does not scale with benchtime and
	// is not any message's (starting the programs).
	Overhead time.Duration
	Messages []Message // in priority order: the first is cut last
	// Unpriced are messages with no price (the warm-up did not reach
	// them): not timed, and counted among those the plan cut.
	Unpriced []string
}

// BenchForecast is what the rounds do.
type BenchForecast struct {
	Deadline time.Time // when the rounds must be done (Budget.Forecast sets it)
	// WarmDeadline is when the warm-up round that prices the rounds must
	// stop (Budget.Forecast sets it): messages it did not reach by then are
	// not timed.
	WarmDeadline time.Time
	Rounds       int
	Benchtime    time.Duration
	// Round is what one round of the timed messages is priced at: what
	// the rounds' meter starts from.
	Round   time.Duration
	Timed   []string
	Untimed []string
	Note    string // empty when nothing was cut
}

// ForecastBench fits the bench rounds into b.Budget, cutting in order, each
// step only when the one before cannot fit:
//
//  1. shorter benchmarks (benchtime down to MinBenchtime), all rounds kept:
//     the rounds are what the rank test needs;
//  2. fewer rounds, down to the fewest that can still reach significance
//     after Holm's correction (Bench.MinRounds, from verdict.MinRounds);
//  3. fewer messages timed: those whose schema did not change first (their
//     time cannot fail the gate), then the last in priority order.
func ForecastBench(b Bench) BenchForecast {
	timed := append([]Message(nil), b.Messages...)
	p := BenchForecast{Rounds: b.Rounds, Benchtime: b.Benchtime, Untimed: append([]string(nil), b.Unpriced...)}
	var cuts []string
	if len(b.Unpriced) > 0 {
		cuts = append(cuts, fmt.Sprintf("the warm-up round did not reach %d", len(b.Unpriced)))
	}
	for {
		cost := roundPrice(b, timed, p.Benchtime)
		fits := func(count int, bt time.Duration) bool {
			return time.Duration(count)*roundPrice(b, timed, bt) <= b.Budget
		}
		switch {
		case fits(p.Rounds, p.Benchtime):
		case fits(p.Rounds, MinBenchtime):
			// The largest benchtime that fits, all rounds kept.
			fixed := fixedPrice(b, timed)
			variable := cost - fixed
			perRound := b.Budget/time.Duration(p.Rounds) - fixed
			p.Benchtime = max(MinBenchtime, time.Duration(float64(b.Benchtime)*float64(perRound)/float64(variable)).Truncate(time.Millisecond))
			cuts = append(cuts, fmt.Sprintf("benchtime %s → %s", b.Benchtime, p.Benchtime))
		case fits(b.MinRounds, MinBenchtime):
			p.Benchtime = MinBenchtime
			p.Rounds = int(b.Budget / roundPrice(b, timed, MinBenchtime))
			cuts = append(cuts, fmt.Sprintf("benchtime %s → %s", b.Benchtime, p.Benchtime), fmt.Sprintf("rounds %d → %d", b.Rounds, p.Rounds))
		case len(timed) > 0:
			i := cutIndex(timed)
			p.Untimed = append(p.Untimed, timed[i].Name)
			timed = append(timed[:i:i], timed[i+1:]...)
			continue
		}
		break
	}
	for _, m := range timed {
		p.Timed = append(p.Timed, m.Name)
	}
	p.Round = roundPrice(b, timed, p.Benchtime)
	if len(timed) == 0 {
		p.Rounds = 0
	}
	if len(p.Untimed) > 0 {
		cuts = append(cuts, fmt.Sprintf("%d of %d messages not timed", len(p.Untimed), len(b.Messages)+len(b.Unpriced)))
	}
	if len(cuts) > 0 {
		p.Note = fmt.Sprintf("to fit %s: %s", b.Budget.Round(time.Second), strings.Join(cuts, ", "))
	}
	return p
}

// roundPrice is one round of messages at benchtime bt: the fixed costs,
// plus the messages' measured costs scaled to bt.
func roundPrice(b Bench, ms []Message, bt time.Duration) time.Duration {
	var variable time.Duration
	for _, m := range ms {
		variable += m.Price
	}
	if m := cmp.Or(b.Measured, b.Benchtime); m > 0 {
		variable = time.Duration(float64(variable) * float64(bt) / float64(m))
	}
	return fixedPrice(b, ms) + variable
}

// fixedPrice is what a round of ms costs whatever the benchtime: starting
// the programs, and building each message's records.
func fixedPrice(b Bench, ms []Message) time.Duration {
	c := b.Overhead
	for _, m := range ms {
		c += m.Fixed
	}
	return c
}

// cutIndex is the message to stop timing: the last one that cannot gate,
// else the last one.
func cutIndex(ms []Message) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if !ms[i].Gating {
			return i
		}
	}
	return len(ms) - 1
}
