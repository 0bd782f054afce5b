package cpucost

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestNoiseFloorIsTheLargerOfPercentAndInstructions(t *testing.T) {
	for _, c := range []struct {
		format string
		base   float64
		want   float64
	}{
		{"protobuf", 10000, 0.5},     // 16 instr/op is 0.16%
		{"avro", 1600, 1},            // 16 of 1,600
		{"json", 40000, 1},           // 256 instr/op is 0.64%
		{"json", 10000, 2.56},        // 256 of 10,000
		{"msgpack", 100000, 4},       //
		{"no-such-format", 5000, 10}, // the widest: 500 of 5,000
		{"json", 0, 1},
	} {
		if got := NoiseFloorPct(c.format, c.base); got != c.want {
			t.Errorf("%s at %.0f instr/op: %v%%, want %v%%", c.format, c.base, got, c.want)
		}
	}
}

// spread is one measured A/A row: the lowest count and how far apart the
// counts were, in percent of it.
type spread struct {
	name     string
	format   string
	low, pct float64
	source   string
}

// measuredSpreads reads the A/A figures (scripts/figures/cpu.sh): the
// instr/op sections of cpu-aa.txt and cpu-aa-extra.txt (name, lowest,
// |Δ|, %) and the rows of cpu-gate-aa.txt (name, min Δ, max Δ, lowest,
// spread, spread %, floor, caught).
func measuredSpreads(t *testing.T) []spread {
	t.Helper()
	var out []spread
	for _, file := range []string{"cpu-aa.txt", "cpu-aa-extra.txt", "cpu-gate-aa.txt"} {
		path := filepath.Join("..", "..", "..", "docs", "results", file)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		section := ""
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "  ") {
				section = line
				continue
			}
			fields := strings.Fields(line)
			num := func(i int) float64 {
				v, err := strconv.ParseFloat(strings.TrimSuffix(fields[i], "%"), 64)
				if err != nil {
					t.Fatalf("%s: %q: field %d: %v", file, line, i, err)
				}
				return v
			}
			var s spread
			switch {
			case file == "cpu-gate-aa.txt" && len(fields) == 9 && strings.Count(fields[0], "/") == 2:
				s = spread{name: fields[0], low: num(3), pct: num(5)}
			case file != "cpu-gate-aa.txt" && strings.HasPrefix(section, "instr/op") && strings.HasPrefix(fields[0], "Benchmark"):
				s = spread{name: fields[0], low: num(1), pct: num(3)}
			default:
				continue
			}
			s.format, s.source = s.name[strings.LastIndex(s.name, "/")+1:], file
			out = append(out, s)
		}
		f.Close()
	}
	return out
}

// Every spread measured between identical counts is at most half its
// format's floor: rerunning the figures with a wider spread fails here
// until the floor is raised.
func TestFloorsCoverTheMeasuredSpreads(t *testing.T) {
	spreads := measuredSpreads(t)
	seen := map[string]bool{}
	for _, s := range spreads {
		seen[s.format] = true
		if floor := NoiseFloorPct(s.format, s.low); s.pct > floor/2 {
			t.Errorf("%s (%s): identical counts %.3f%% apart, more than half its floor %.2f%%", s.name, s.source, s.pct, floor)
		}
	}
	for format := range floors {
		if !seen[format] {
			t.Errorf("no measured spread for %s: its floor is a guess", format)
		}
	}
	if len(spreads) < 60 {
		t.Fatalf("read %d spreads: the figures' format changed?", len(spreads))
	}
}
