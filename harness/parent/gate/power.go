package gate

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/compare"
)

// timeLine is one benchmark line's name and ns/op.
var timeLine = regexp.MustCompile(`^(Benchmark\S+)\s+\d+\s+([0-9.eE+]+) ns/op`)

// powered are the messages among candidates whose every timing can already
// show a slowdown of its time threshold at the Holm cutoff: the minimum
// detectable effect of each of their encode and decode timings, over the
// base's rounds so far, is at or under the threshold. More rounds would not
// change what their verdict can see, so they are timed no further.
//
// Only the base's spread decides, as the reported MDE does, never the
// difference from head: a rule that stopped on the delta would bias the
// test it feeds, one that stops on the spread of one side does not.
//
// The cutoff is alpha over the family: every timing of the gating messages
// in base (those stopped before included).
func powered(base []byte, gatingMessages, candidates []string, alpha float64, threshold func(message, format string) float64) []string {
	samples := map[string]map[string][]float64{} // message → format/op → ns/op
	sc := bufio.NewScanner(bytes.NewReader(base))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		m := timeLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		op, message, format, ok := compare.ParseName(m[1])
		v, err := strconv.ParseFloat(m[2], 64)
		if !ok || err != nil {
			continue
		}
		if samples[message] == nil {
			samples[message] = map[string][]float64{}
		}
		key := format + "/" + op
		samples[message][key] = append(samples[message][key], v)
	}
	family := 0
	for _, name := range gatingMessages {
		family += len(samples[name])
	}
	cutoff := alpha / float64(max(family, 1))
	var out []string
	for _, name := range candidates {
		series := samples[name]
		if len(series) == 0 {
			continue
		}
		ok := true
		for key, vs := range series {
			format, _, _ := strings.Cut(key, "/")
			mde, _ := compare.TimeMDE(vs, cutoff)
			if mde == nil || *mde > threshold(name, format) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, name)
		}
	}
	return out
}

// poweredNote says which messages stopped early and after how many rounds.
func poweredNote(stopped map[string]int) string {
	if len(stopped) == 0 {
		return ""
	}
	byRounds := map[int]int{}
	for _, n := range stopped {
		byRounds[n]++
	}
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(byRounds)) {
		parts = append(parts, fmt.Sprintf("%d after %d rounds", byRounds[n], n))
	}
	return fmt.Sprintf("timed to the power the time threshold needs (the MDE at the Holm cutoff at or under it), then no further: %s", strings.Join(parts, ", "))
}

// timeThreshold is the time threshold of one message in one format.
func (g *run) timeThreshold(message, format string) float64 {
	return g.cfg.ThresholdsFor(message, format).TimePct
}
