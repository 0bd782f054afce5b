package budget

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// refitMargin is the part of the time left that a re-fit plans into:
// rounds on a shared runner vary by around a tenth, and a plan that fits
// exactly stops its last round at the deadline.
const refitMargin = 0.9

// Refit re-fits the bench rounds after the first one ran, by what it took:
// the warm-up prices a round from a single short pass, and when it priced
// low the rounds would stop at the deadline short of the fewest that can
// reach significance — timing that can fail nothing. When the rounds left
// would end past p.Deadline at the measured cost, the messages timed are
// re-fitted (ForecastBench's order of cuts, at p's benchtime, every price
// scaled by what the round measured against what it was priced at) into
// the time left for the rounds left. The messages it cuts have one round
// of samples, which the caller drops. prices are the ones p was planned
// from.
func (b Budget) Refit(p BenchForecast, prices Prices, took time.Duration) BenchForecast {
	left := time.Duration(float64(p.Deadline.Sub(b.Now())) * refitMargin)
	if p.Rounds <= 1 || len(p.Timed) == 0 || time.Duration(p.Rounds-1)*took <= left {
		return p
	}
	bench := prices.bench(left)
	bench.Messages = slices.DeleteFunc(bench.Messages, func(m Message) bool { return !slices.Contains(p.Timed, m.Name) })
	bench.Unpriced = nil
	priced := roundPrice(bench, bench.Messages, p.Benchtime)
	if priced <= 0 || took <= priced {
		return p
	}
	ratio := float64(took) / float64(priced)
	bench.Overhead = time.Duration(float64(bench.Overhead) * ratio)
	for i := range bench.Messages {
		bench.Messages[i].Price = time.Duration(float64(bench.Messages[i].Price) * ratio)
		bench.Messages[i].Fixed = time.Duration(float64(bench.Messages[i].Fixed) * ratio)
	}
	// The rounds left; both sides run each round at the same benchtime,
	// so a shorter one from here on biases neither.
	bench.Rounds, bench.MinRounds, bench.Benchtime = p.Rounds-1, max(bench.MinRounds-1, 1), p.Benchtime
	rest := ForecastBench(bench)
	out := p
	out.Rounds, out.Benchtime, out.Round = 1+rest.Rounds, rest.Benchtime, rest.Round
	out.Timed = rest.Timed
	out.Untimed = append(slices.Clone(p.Untimed), rest.Untimed...)
	var cuts []string
	if rest.Benchtime != p.Benchtime {
		cuts = append(cuts, fmt.Sprintf("benchtime %s → %s", p.Benchtime, rest.Benchtime))
	}
	if out.Rounds != p.Rounds {
		cuts = append(cuts, fmt.Sprintf("rounds %d → %d", p.Rounds, out.Rounds))
	}
	if n := len(rest.Untimed); n > 0 {
		cuts = append(cuts, fmt.Sprintf("%d more messages not timed", n))
	}
	if len(cuts) == 0 {
		return p
	}
	cut := fmt.Sprintf("the first round took %s against %s priced: %s", took.Round(100*time.Millisecond), priced.Round(100*time.Millisecond), strings.Join(cuts, ", "))
	out.Note = cut
	if p.Note != "" {
		out.Note = p.Note + "; " + cut
	}
	return out
}
