package markdown

import (
	"math"
	"strings"
)

// XYChart is an x/y chart: bars or lines over labelled x positions.
type XYChart struct {
	Title  string
	X      []string
	YTitle string
	YLo    float64
	YHi    float64
	Series []Series
}

// Series is one chart's bars or line.
type Series struct {
	Kind   string // bar | line
	Values []float64
}

// Chart is a mermaid xychart-beta block. Labels keep only letters, digits
// and a little punctuation: a mermaid string cannot hold a quote, and
// mermaid reads directives (`%%{…}%%`) anywhere in a block.
func Chart(c XYChart) Md {
	num := func(x float64) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = 0
		}
		return NumberString(x)
	}
	labels := make([]string, len(c.X))
	for i, l := range c.X {
		labels[i] = `"` + MermaidLabel(l) + `"`
	}
	lines := []string{
		"```mermaid",
		"xychart-beta",
		`    title "` + MermaidLabel(c.Title) + `"`,
		"    x-axis [" + strings.Join(labels, ", ") + "]",
		`    y-axis "` + MermaidLabel(c.YTitle) + `" ` + num(c.YLo) + " --> " + num(c.YHi),
	}
	for _, s := range c.Series {
		kind := "line"
		if s.Kind == "bar" {
			kind = "bar"
		}
		values := make([]string, len(s.Values))
		for i, v := range s.Values {
			values[i] = num(v)
		}
		lines = append(lines, "    "+kind+" ["+strings.Join(values, ", ")+"]")
	}
	return Md{strings.Join(append(lines, "```"), "\n")}
}

// MermaidLabel keeps the characters a mermaid string literal can hold
// without quoting rules: letters, digits and a little punctuation; each
// other UTF-16 unit becomes _.
func MermaidLabel(s string) string { return KeepOnly(oneLine(s), "_ .:/+,-") }
