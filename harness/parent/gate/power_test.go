package gate

import (
	"fmt"
	"github.com/wiregate/wiregate/harness/parent/compare"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// benchOut is rounds of benchfmt lines for message in json: encode and
// decode, each round's ns/op at center·(1 ± spread) in turn.
func benchOut(message string, rounds int, center, spread float64) string {
	var b strings.Builder
	for i := range rounds {
		v := center * (1 + spread*float64(i%3-1))
		for _, op := range []string{"Encode", "Decode"} {
			fmt.Fprintf(&b, "Benchmark%s/%s/json-2\t100\t%.1f ns/op\t48 B/op\t2 allocs/op\n", op, message, v)
		}
	}
	return b.String()
}

// A message whose base timings are tight has the power its threshold needs
// once enough rounds ran; a noisy one, one with too few rounds, one with a
// threshold under its spread and one never timed have not.
func TestPoweredStopsOnlyWhatCanAlreadySeeItsThreshold(t *testing.T) {
	ten := func(string, string) float64 { return 10 }
	powered := func(out []byte, gated, candidates []string, threshold func(string, string) float64) []string {
		return judgePower(out, candidates, familyCutoff(out, gated), 10, threshold).Powered
	}
	out := []byte(benchOut("a.Tight", 10, 1000, 0.005) + benchOut("a.Noisy", 10, 1000, 0.3))
	if got := powered(out, []string{"a.Tight", "a.Noisy"}, []string{"a.Tight", "a.Noisy", "a.Untimed"}, ten); !slices.Equal(got, []string{"a.Tight"}) {
		t.Errorf("10 rounds: powered %v, want a.Tight alone", got)
	}
	few := []byte(benchOut("a.Tight", 4, 1000, 0.005) + benchOut("a.Noisy", 4, 1000, 0.3))
	if got := powered(few, []string{"a.Tight", "a.Noisy"}, []string{"a.Tight"}, ten); len(got) != 0 {
		t.Errorf("4 rounds cannot reach alpha/4 whatever the spread: powered %v", got)
	}
	strict := func(m, f string) float64 { return 0.5 }
	if got := powered(out, []string{"a.Tight", "a.Noisy"}, []string{"a.Tight"}, strict); len(got) != 0 {
		t.Errorf("a 0.5%% threshold under a 1%% spread: powered %v", got)
	}
	// The family is every gating timing: with 40 more gating messages the
	// cutoff is alpha/84, which 10 rounds of a tight message still reach
	// and 6 do not.
	var many strings.Builder
	gated := []string{"a.Tight", "a.Noisy"}
	for i := range 40 {
		name := fmt.Sprintf("b.M%02d", i)
		gated = append(gated, name)
		many.WriteString(benchOut(name, 6, 1000, 0.3))
	}
	if got := powered([]byte(benchOut("a.Tight", 6, 1000, 0.005)+many.String()), gated, []string{"a.Tight"}, ten); len(got) != 0 {
		t.Errorf("6 rounds in a family of 84: powered %v", got)
	}
	if got := powered([]byte(string(out)+many.String()), gated, []string{"a.Tight"}, ten); !slices.Equal(got, []string{"a.Tight"}) {
		t.Errorf("10 rounds in a family of 84: powered %v", got)
	}
}

// After 4 rounds, a message whose spread (±30%) would leave its MDE above
// twice a 10% threshold even over all 10 planned rounds is futile; one at
// ±3% is not (10 rounds would see 10%), nor is any message before 4
// rounds, nor one whose plan has no rounds left to project.
func TestFutileStopsOnlyWhatAllPlannedRoundsCouldNotReach(t *testing.T) {
	ten := func(string, string) float64 { return 10 }
	gated := []string{"a.Noisy", "a.Fair"}
	four := []byte(benchOut("a.Noisy", 4, 1000, 0.3) + benchOut("a.Fair", 4, 1000, 0.03))
	p := judgePower(four, gated, familyCutoff(four, gated), 10, ten)
	if !slices.Equal(p.Futile, []string{"a.Noisy"}) || len(p.Powered) != 0 {
		t.Errorf("4 of 10 rounds: %+v, want a.Noisy futile alone", p)
	}
	two := []byte(benchOut("a.Noisy", 2, 1000, 0.3) + benchOut("a.Fair", 2, 1000, 0.03))
	if p := judgePower(two, gated, familyCutoff(two, gated), 10, ten); len(p.Futile) != 0 {
		t.Errorf("2 rounds are too few to read a spread from: %+v", p)
	}
	if p := judgePower(four, gated, familyCutoff(four, gated), 4, ten); len(p.Futile) != 0 {
		t.Errorf("no rounds left to project: %+v", p)
	}
}

// Before any round, the noise a history point measured decides the same
// way: a message one of whose timings spreads ±30% cannot see twice a 10%
// threshold in 10 rounds and is not timed, with each timing's predicted
// MDE (nil where none could ever reach the cutoff); one at ±1% is timed;
// one the point has no noise for is timed; a non-gating message is never
// asked about.
func TestPlannedFutileDecidesFromTheHistorysNoise(t *testing.T) {
	ten := func(string, string) float64 { return 10 }
	noise := map[string]map[string][]float64{
		"a.Noisy": {"json/encode": {0.7, 1.3, 0.75, 1.25, 1, 0.7, 1.3}, "json/decode": {0.99, 1.01, 1}},
		"a.Quiet": {"json/encode": {0.99, 1.01, 1, 0.995}},
		"a.Twice": {"json/encode": {0.7, 1.3}},
	}
	got := plannedFutile(noise, []string{"a.Noisy", "a.Quiet", "a.Unknown"}, 0.05/6, 10, ten)
	if len(got) != 1 || got["a.Noisy"] == nil {
		t.Fatalf("planned futile %v, want a.Noisy alone", got)
	}
	enc, dec := got["a.Noisy"]["json/encode"], got["a.Noisy"]["json/decode"]
	if enc == nil || *enc <= 20 || dec == nil || *dec >= 10 {
		t.Errorf("a.Noisy's predicted MDEs: encode %v, decode %v", enc, dec)
	}
	if got := plannedFutile(noise, []string{"a.Noisy"}, 0.05/6, 1, ten); got["a.Noisy"]["json/decode"] != nil {
		t.Errorf("one round can never reach a cutoff: %v", got)
	}
}

func TestPowerNoteCountsByRounds(t *testing.T) {
	got := powerNote(map[string]int{"a": 8, "b": 8, "c": 10}, map[string]int{"d": 4}, map[string]int{"e": 4, "f": 6}, 10)
	if !strings.Contains(got, "then no further: 2 after 8 rounds, 1 after 10 rounds") || !strings.Contains(got, "even 10 rounds") || !strings.HasSuffix(got, "1 after 4 rounds") ||
		!strings.Contains(got, "head showed no slowdown of 1/4 of it: 1 after 4 rounds, 1 after 6 rounds") {
		t.Errorf("note %q", got)
	}
	if powerNote(nil, nil, nil, 10) != "" {
		t.Error("a note with nothing stopped")
	}
}

// familyCutoff is Holm's strictest cutoff at alpha 0.05 over every timing
// of gated in out: the whole change's family when out holds all of it.
func familyCutoff(out []byte, gated []string) float64 {
	samples := timeSamples(out)
	n := 0
	for _, m := range gated {
		n += len(samples[m])
	}
	return 0.05 / float64(max(n, 1))
}

// A pipeline row stops when powered, and when futile only while head shows
// no fall of its threshold: a noisy row whose head drains as fast as base
// stops after 4 rounds, the same row with head 30% slower drains on.
func TestAFutilePipelineRowStopsOnlyWhileHeadShowsNoFall(t *testing.T) {
	noisy := []float64{100, 140, 70, 120} // ±30%: an MDE far above 5% even at 10 rounds
	same := []float64{105, 130, 75, 115}
	slower := []float64{70, 90, 50, 80}
	cutoff := 0.001
	if got := pipeStops(noisy, same, cutoff, 5, 10); got != stopFutile {
		t.Errorf("noisy row, no fall: %v, want stopFutile", got)
	}
	if got := pipeStops(noisy, slower, cutoff, 5, 10); got != drainOn {
		t.Errorf("noisy row, head 30%% slower: %v, want drainOn", got)
	}
	steady := []float64{100, 100.1, 99.9, 100, 100.05, 99.95}
	if got := pipeStops(steady, slower, 0.05, 50, 10); got != stopPowered {
		t.Errorf("steady row at a 50%% threshold: %v, want stopPowered", got)
	}
	if got := pipeStops(noisy[:2], same[:2], cutoff, 5, 10); got != drainOn {
		t.Errorf("2 rounds: %v, want drainOn (futility is read from %d rounds)", got, futileFrom)
	}
}

// A row whose spread gives the rounds planned the power its threshold needs
// stops after 4 rounds while head shows no fall of a quarter of the
// threshold, and drains on when head shows more, when the spread would not
// give the planned rounds that power, or before 4 rounds. The 7 rounds
// planned are the fewest a 42-row family (cutoff 0.05/42) can clear: 4
// rounds a side cannot, so the row is neither powered nor futile there.
func TestAPoweredRowWithoutAFallStopsEarly(t *testing.T) {
	cutoff := 0.05 / 42
	base := []float64{100, 102, 98, 101} // ±2%: a 10% fall clears the cutoff at 7 rounds
	same := []float64{101, 99, 100, 102}
	if got := pipeStops(base, same, cutoff, 10, 7); got != stopNoFall {
		t.Errorf("steady row, head as fast: %v, want stopNoFall", got)
	}
	if mde, _ := plannedMDE(base, cutoff, 7); mde == nil || *mde > 10 {
		t.Errorf("planned MDE %v: want at or under the 10%% it stopped for", mde)
	}
	if mde, _ := compare.TimeMDE(base, cutoff); mde != nil {
		t.Errorf("MDE at the 4 rounds drained %v: want none (this is not the powered stop)", *mde)
	}
	if got := pipeStops(base, []float64{96, 98, 97, 99}, cutoff, 10, 7); got != drainOn { // -2.5% < fall
		t.Errorf("steady row, head 3%% slower (more than a quarter of 10%%): %v, want drainOn", got)
	}
	wide := []float64{100, 108, 93, 104} // 7 rounds could show 16%, not 10%; under 2× 10%: not futile
	if got := pipeStops(wide, same, cutoff, 10, 7); got != drainOn {
		t.Errorf("wide row: %v, want drainOn", got)
	}
	if got := pipeStops(base[:2], same[:2], cutoff, 10, 7); got != drainOn {
		t.Errorf("2 rounds: %v, want drainOn", got)
	}
}

// What the no-fall stop costs and buys, simulated (seeded): rows of 4
// rounds a side with normal noise, a 42-row family's cutoff, 7 rounds
// planned, a 10% threshold. A true fall of the threshold stops early in
// under 1% of rows at any spread (0.16% at 4%, 0.26% at 6%, where 7 rounds
// only just have the power or lack it); with no fall, most rows at a 2%
// spread stop. Only the check after 4 rounds is simulated.
func TestTheNoFallStopRarelyMissesAFallOfTheThreshold(t *testing.T) {
	cutoff := 0.05 / 42
	rng := rand.New(rand.NewPCG(1, 2))
	rate := func(sigma, fall float64) float64 {
		stops, n := 0, 5000
		for range n {
			base, head := make([]float64, 4), make([]float64, 4)
			for i := range 4 {
				base[i] = 100 + rng.NormFloat64()*sigma
				head[i] = 100*(1-fall/100) + rng.NormFloat64()*sigma
			}
			if pipeStops(base, head, cutoff, 10, 7) == stopNoFall {
				stops++
			}
		}
		return float64(stops) / float64(n)
	}
	for _, sigma := range []float64{1, 2, 3, 4, 6} {
		r := rate(sigma, 10)
		t.Logf("spread %.0f%%: a true 10%% fall stopped early in %.2f%% of rows; no fall, in %.1f%%", sigma, 100*r, 100*rate(sigma, 0))
		if r >= 0.01 {
			t.Errorf("spread %.0f%%, a true 10%% fall: stopped early in %.2f%% of rows, want under 1%%", sigma, 100*r)
		}
	}
	if r := rate(2, 0); r < 0.8 {
		t.Errorf("spread 2%%, no fall: stopped early in %.0f%% of rows, want most", 100*r)
	}
}

// A message whose every timing's spread, on both sides, gives the rounds
// planned the power its threshold needs is timed no further while head
// shows no slowdown of a quarter of that threshold; a slowdown past it, a
// spread too wide, or fewer than 4 rounds keep it timed.
func TestAMessageWithoutASlowdownStopsEarly(t *testing.T) {
	line := func(op, msg string, ns float64) string {
		return fmt.Sprintf("Benchmark%s/%s/protobuf-2 \t 1000 \t %.1f ns/op\n", op, msg, ns)
	}
	rounds := func(msg string, enc, dec []float64) []byte {
		var b strings.Builder
		for i := range enc {
			b.WriteString(line("Encode", msg, enc[i]))
			b.WriteString(line("Decode", msg, dec[i]))
		}
		return []byte(b.String())
	}
	steady := []float64{100, 102, 98, 101}
	slower := []float64{104, 106, 103, 105} // +4%: past a quarter of 10%
	wide := []float64{100, 108, 93, 104}
	ten := func(string, string) float64 { return 10 }
	cutoff, planned := 0.05/84, 10
	base := append(rounds("a.Same", steady, steady), append(rounds("b.Slower", steady, steady), rounds("c.Wide", wide, steady)...)...)
	head := append(rounds("a.Same", steady, steady), append(rounds("b.Slower", steady, slower), rounds("c.Wide", wide, steady)...)...)
	got := judgeNoSlowdown(base, head, []string{"a.Same", "b.Slower", "c.Wide"}, cutoff, planned, ten)
	if !slices.Equal(got, []string{"a.Same"}) {
		t.Errorf("stopped %v, want only a.Same", got)
	}
	short := append(rounds("a.Same", steady[:2], steady[:2]), []byte{}...)
	if got := judgeNoSlowdown(short, short, []string{"a.Same"}, cutoff, planned, ten); len(got) != 0 {
		t.Errorf("2 rounds: stopped %v", got)
	}
	if got := judgeNoSlowdown(base, head, []string{"a.Same"}, cutoff, 4, ten); len(got) != 0 {
		t.Errorf("no rounds left to plan: stopped %v", got)
	}
}
