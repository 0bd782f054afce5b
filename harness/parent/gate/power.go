package gate

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/piperounds"
)

// futileFactor: a message whose timings, at the spread seen so far and
// over every round planned, would still leave an MDE above this many times
// its threshold is timed no further. A margin, because a few early rounds
// can look noisier than the rest: stopping a timing that could have failed
// is the costlier mistake.
const futileFactor = 2

// futileFrom is the fewest rounds whose spread is read as the run's.
const futileFrom = 4

// power is what the base's rounds so far say of each message still timed:
// Powered messages can already show a slowdown of their time threshold at
// the Holm cutoff (every encode and decode timing's minimum detectable
// effect is at or under it), so more rounds would not change what their
// verdict sees; Futile ones could not, even over all planned rounds at the
// spread seen so far, within futileFactor of it (they stay named as unable
// to fail). Both are timed no further.
//
// Only the base's spread decides, as the reported MDE does, never the
// difference from head: a rule that stopped on the delta would bias the
// test it feeds, one that stops on the spread of one side does not.
type power struct {
	Powered, Futile []string
}

// judgePower reads base (benchfmt of the rounds so far) for candidates, at
// cutoff (verdict.StrictestCutoff of the whole change's time family).
// planned is the most rounds the plan runs.
func judgePower(base []byte, candidates []string, cutoff float64, planned int, threshold func(message, format string) float64) power {
	samples := timeSamples(base)
	var p power
	for _, name := range candidates {
		series := samples[name]
		if len(series) == 0 {
			continue
		}
		powered, futile := true, false
		for _, key := range slices.Sorted(maps.Keys(series)) {
			format, _, _ := strings.Cut(key, "/")
			p, f := seriesPower(series[key], cutoff, threshold(name, format), planned)
			powered, futile = powered && p, futile || f
		}
		switch {
		case powered:
			p.Powered = append(p.Powered, name)
		case futile:
			p.Futile = append(p.Futile, name)
		}
	}
	return p
}

// seriesPower is the power rule for one series of the base's samples (a
// timing's ns/op, a pipeline row's records/s): powered when its MDE at
// cutoff is at or under limit (%), futile when, at the spread seen over
// futileFrom or more samples and repeated to planned, it would stay above
// futileFactor × limit.
func seriesPower(vs []float64, cutoff, limit float64, planned int) (powered, futile bool) {
	if mde, _ := compare.TimeMDE(vs, cutoff); mde != nil && *mde <= limit {
		powered = true
	}
	if len(vs) >= futileFrom && planned > len(vs) {
		if mde, _ := plannedMDE(vs, cutoff, planned); mde != nil && *mde > futileFactor*limit {
			futile = true
		}
	}
	return powered, futile
}

// judgeNoSlowdown reads both sides' benchfmt of the rounds so far for
// candidates: the messages every one of whose timings, at each side's
// spread over futileFrom rounds or more, would have the power its time
// threshold needs over the rounds planned (plannedMDE at or under it), and
// whose head shows no slowdown of 1/noFallShare of it. They are timed no
// further: a slowdown of the threshold would have shown as more and kept
// them timed. It stops only to accept, as the pipeline's no-fall stop
// does (pipeStops): no false failure is likelier than with every round
// timed; what it can cost is a little power.
func judgeNoSlowdown(base, head []byte, candidates []string, cutoff float64, planned int, threshold func(message, format string) float64) []string {
	bs, hs := timeSamples(base), timeSamples(head)
	var out []string
	for _, name := range candidates {
		b, h := bs[name], hs[name]
		ok := len(b) > 0 && len(b) == len(h)
		for _, key := range slices.Sorted(maps.Keys(b)) {
			if !ok {
				break
			}
			format, _, _ := strings.Cut(key, "/")
			ok = noSlowdown(b[key], h[key], cutoff, threshold(name, format), planned)
		}
		if ok {
			out = append(out, name)
		}
	}
	return out
}

// noSlowdown is judgeNoSlowdown's rule for one timing's ns/op so far.
func noSlowdown(base, head []float64, cutoff, limit float64, planned int) bool {
	return piperounds.Median(head) <= piperounds.Median(base)*(1+limit/100/noFallShare) &&
		powerPlanned(base, head, cutoff, limit, planned)
}

// powerPlanned is whether both sides' samples so far (futileFrom rounds
// or more, rounds still to come) would have the power limit needs over
// planned rounds: both, because 4 rounds of one can look tight by chance.
func powerPlanned(base, head []float64, cutoff, limit float64, planned int) bool {
	if len(base) < futileFrom || len(head) < futileFrom || planned <= len(base) {
		return false
	}
	b, _ := plannedMDE(base, cutoff, planned)
	h, _ := plannedMDE(head, cutoff, planned)
	return b != nil && h != nil && max(*b, *h) <= limit
}

// pipeStop is what a pipeline row's rounds so far decide.
type pipeStop int

const (
	drainOn pipeStop = iota
	stopPowered
	stopFutile
	stopNoFall
)

// noFallShare: a row whose spread gives the rounds planned the power its
// threshold needs stops early when head shows no fall of a 1/noFallShare
// part of that threshold (pipeStops).
const noFallShare = 4

// pipeStops is seriesPower for a pipeline row, base's and head's records/s
// so far: powered stops it; futile stops it only while head shows no fall
// of limit (head's median at least 1-limit% of base's). A row whose spread,
// on both sides, gives the rounds planned the power limit needs
// (powerPlanned) stops too while head shows no fall of a quarter of limit:
// a fall of limit would have shown, at that spread, as more than that, and
// kept the row draining. Neither guard can make a false failure likelier than
// draining every round: a row they stop cannot fail, and every failure
// they allow is one the full rounds would have judged too (stopping to
// accept, never to reject). What they cost is a little power: a fall of
// exactly limit that read as under a quarter of it after futileFrom rounds.
func pipeStops(base, head []float64, cutoff, limit float64, planned int) pipeStop {
	powered, futile := seriesPower(base, cutoff, limit, planned)
	fall := 1 - piperounds.Median(head)/piperounds.Median(base) // fraction; negative: head is faster
	switch {
	case powered:
		return stopPowered
	case futile && fall <= limit/100:
		return stopFutile
	case fall <= limit/100/noFallShare && powerPlanned(base, head, cutoff, limit, planned):
		return stopNoFall
	}
	return drainOn
}

// plannedMDE is the MDE base's samples so far would have over planned
// rounds at the spread they show (extend).
func plannedMDE(base []float64, cutoff float64, planned int) (*float64, string) {
	return compare.TimeMDE(extend(base, planned), cutoff)
}

// notTimed are the timings planned before any round runs (plannedFutile):
// by message, each series' ("format/op") predicted MDE at the rounds the
// plan allows, nil where none could ever reach the cutoff.
type notTimed map[string]map[string]*float64

// plannedFutile is the in-run futility rule applied before the first
// round, from noise the base's history point measured (each timing's
// samples relative to their median, report.MeasuringTime.Noise): a gating message
// one of whose timings, at that noise over the planned rounds, would still
// leave its MDE above futileFactor × its time threshold is not timed at
// all, instead of being timed futileFrom rounds to learn what the last run
// already knew. Only noise decides, as in the run.
func plannedFutile(noise map[string]map[string][]float64, gating []string, cutoff float64, planned int, threshold func(message, format string) float64) notTimed {
	out := notTimed{}
	for _, m := range gating {
		series := noise[m]
		futile := false
		mdes := map[string]*float64{}
		for _, key := range slices.Sorted(maps.Keys(series)) {
			format, _, _ := strings.Cut(key, "/")
			mde, _ := compare.TimeMDE(extend(series[key], planned), cutoff)
			mdes[key] = mde
			futile = futile || mde == nil || *mde > futileFactor*threshold(m, format)
		}
		if futile {
			out[m] = mdes
		}
	}
	return out
}

// timeSamples are base's ns/op values: message → format/op → one per round.
func timeSamples(base []byte) map[string]map[string][]float64 {
	samples := map[string]map[string][]float64{}
	sc := bufio.NewScanner(bytes.NewReader(base))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		op, message, format, ok := compare.ParseName(m[1])
		v, err := strconv.ParseFloat(m[4], 64)
		if !ok || err != nil {
			continue
		}
		if samples[message] == nil {
			samples[message] = map[string][]float64{}
		}
		key := format + "/" + op
		samples[message][key] = append(samples[message][key], v)
	}
	return samples
}

// extend is vs repeated to n values: samples with the spread seen so far,
// as many as the plan would take.
func extend(vs []float64, n int) []float64 {
	if len(vs) == 0 {
		return nil // no spread seen: nothing to repeat
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = vs[i%len(vs)]
	}
	return out
}

// powerNote says which messages stopped early, why, and after how many
// rounds.
func powerNote(powered, futile, noSlow map[string]int, planned int) string {
	var notes []string
	if s := byRounds(powered); s != "" {
		notes = append(notes, "timed to the power the time threshold needs (the MDE at the Holm cutoff at or under it), then no further: "+s)
	}
	if s := byRounds(noSlow); s != "" {
		notes = append(notes, fmt.Sprintf("timed no further where %d rounds at the spread seen would have the power the time threshold needs and head showed no slowdown of 1/%d of it: %s", planned, noFallShare, s))
	}
	if s := byRounds(futile); s != "" {
		notes = append(notes, fmt.Sprintf("timed no further where even %d rounds at the spread seen would leave the MDE above %d× the time threshold (unable to fail; their counts still gate): %s", planned, futileFactor, s))
	}
	return joinNotes(notes...)
}

// notTimedNote says which messages were not timed, planned so.
func notTimedNote(n notTimed, planned int) string {
	if len(n) == 0 {
		return ""
	}
	return fmt.Sprintf("%s not timed: at the noise the base's history point measured, even %d rounds would leave the MDE above %d× the time threshold (unable to fail; their counts still gate)",
		plural(len(n), "message"), planned, futileFactor)
}

// byRounds is "2 after 8 rounds, 1 after 10 rounds".
func byRounds(stopped map[string]int) string {
	count := map[int]int{}
	for _, n := range stopped {
		count[n]++
	}
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(count)) {
		parts = append(parts, fmt.Sprintf("%d after %d rounds", count[n], n))
	}
	return strings.Join(parts, ", ")
}

// timeThreshold is the time threshold of one message in one format.
func (g *run) timeThreshold(message, format string) float64 {
	return g.cfg.ThresholdsFor(message, format).TimePct
}
