// Package compare compares base and head benchmark runs with benchstat's
// statistics (golang.org/x/perf benchmath: median, 95% confidence interval,
// Mann-Whitney U test) and renders benchstat's own text table, so the
// numbers wiregate gates on are the numbers `benchstat base.txt head.txt`
// prints.
package compare

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"

	"github.com/wiregate/wiregate/harness/parent/compare/internal/benchtab"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// confidence is the level of the summaries' intervals, as benchstat's default.
const confidence = 0.95

// Comparison is one benchmark in one unit, base vs head.
type Comparison struct {
	// Name is the benchmark as benchstat prints it, e.g.
	// "Decode/telemetry.v1.TelemetryEvent/protobuf-2".
	Name string `json:"name"`
	// Op, Message and Format are parsed from Name when it has wiregate's
	// shape (<Op>/<message>/<format>[-procs]); Op is lower case.
	Op      string `json:"op,omitempty"`
	Message string `json:"message,omitempty"`
	Format  string `json:"format,omitempty"`
	// Unit is benchstat's unit: ns/op becomes sec/op.
	Unit        string         `json:"unit"`
	Base        report.Summary `json:"base"`
	Head        report.Summary `json:"head"`
	DeltaPct    *float64       `json:"delta_pct"` // nil when base is 0 and head is not
	P           *float64       `json:"p"`
	Significant bool           `json:"significant"` // p <= alpha, as benchstat decides "~"
	Delta       string         `json:"delta"`       // benchstat's delta column: "~" or "+12.34%"
	// NoiseFloorPct is the smallest relative change this run could have
	// told from noise (see NoiseFloor); nil with NoiseFloorReason when none.
	NoiseFloorPct    *float64 `json:"noise_floor_pct"`
	NoiseFloorReason string   `json:"noise_floor_reason,omitempty"`
	Warnings         []string `json:"warnings,omitempty"`

	// base and assumption are what MDE tests again at a stricter level.
	base       []float64
	assumption benchmath.Assumption
}

// MDE is the smallest relative change, in percent, this comparison could
// have told from noise at level alpha (a Holm cutoff: stricter than the
// run's alpha when one run makes many tests): NoiseFloor's test on the
// same samples. Nil with the reason when nothing could reach alpha.
func (c Comparison) MDE(alpha float64) (*float64, string) {
	return NoiseFloor(c.base, c.assumption, alpha)
}

// Result is a whole base-vs-head comparison.
type Result struct {
	Comparisons []Comparison
	// Text is benchstat's text table for the two files, byte for byte.
	Text string
	// Warnings are benchstat's stderr lines: unparsable lines in the inputs.
	Warnings []string
}

// Metric converts c to the report's metric entry; name is encode or decode.
func (c Comparison) Metric(name string) report.Metric {
	base, head := c.Base, c.Head
	return report.Metric{Name: name, Unit: c.Unit, Base: &base, Head: &head, DeltaPct: c.DeltaPct,
		P: c.P, Significant: c.Significant, Delta: c.Delta, NoiseFloor: c.NoiseFloorPct}
}

// Files compares two benchfmt inputs the way `benchstat base head` does;
// baseName and headName label the columns (and name the files in errors).
func Files(base, head io.Reader, baseName, headName string, alpha float64) (*Result, error) {
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	baseLabel, headLabel := baseName, headName
	if baseName == headName {
		// benchfmt.Files disambiguates a path given twice the same way.
		baseLabel, headLabel = baseName+"#0", headName+"#1"
	}
	inputs := []input{{name: baseName, label: baseLabel, r: base}, {name: headName, label: headLabel, r: head}}

	// The projections benchstat uses by default: one table per config and
	// unit, a row per full benchmark name, a column per file.
	filter, err := benchproc.NewFilter("*")
	if err != nil {
		return nil, err
	}
	var parser benchproc.ProjectionParser
	tableBy, _, err := parser.ParseWithUnit(".config", filter)
	if err != nil {
		return nil, err
	}
	rowBy, err := parser.Parse(".fullname", filter)
	if err != nil {
		return nil, err
	}
	colBy, err := parser.Parse(".file", filter)
	if err != nil {
		return nil, err
	}
	if _, err := parser.Parse("", filter); err != nil { // benchstat's empty -ignore
		return nil, err
	}
	residue := parser.Residue()

	thresholds := benchmath.DefaultThresholds
	thresholds.CompareAlpha = alpha
	builder := benchtab.NewBuilder(tableBy, rowBy, colBy, residue)
	var reader benchfmt.Reader
	var warnings []string
	names := make([]map[string]int, len(inputs))
	for i, in := range inputs {
		data, err := io.ReadAll(in.r)
		if err != nil {
			return nil, exitcode.BadInput("%s: cannot read it: %v", in.name, err)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, exitcode.BadInput("%s is empty; pass the benchfmt output of `wiregate bench` (or `go test -bench`)", in.name)
		}
		names[i] = map[string]int{}
		reader.Reset(bytes.NewReader(data), in.name, ".file", in.label)
		for reader.Scan() {
			switch rec := reader.Result().(type) {
			case *benchfmt.SyntaxError:
				warnings = append(warnings, rec.Error())
			case *benchfmt.Result:
				names[i][string(rec.Name.Full())]++
				builder.Add(rec)
			}
		}
		if err := reader.Err(); err != nil {
			return nil, exitcode.BadInput("%s: %v", in.name, err)
		}
		if len(names[i]) == 0 {
			return nil, exitcode.BadInput("%s has no benchmark results (lines like `BenchmarkDecode/m/protobuf-2 1000 312 ns/op`); pass the benchfmt output of `wiregate bench`", in.name)
		}
	}
	if err := checkSameBenchmarks(inputs[0].name, inputs[1].name, names[0], names[1]); err != nil {
		return nil, err
	}

	tables := builder.ToTables(benchtab.TableOpts{Confidence: confidence, Thresholds: &thresholds, Units: reader.Units()})
	var text strings.Builder
	if err := tables.ToText(&text, false); err != nil {
		return nil, err
	}
	comps, err := comparisons(tables, inputs[0].name, inputs[1].name)
	if err != nil {
		return nil, err
	}
	return &Result{Comparisons: comps, Text: text.String(), Warnings: warnings}, nil
}

type input struct {
	name, label string
	r           io.Reader
}

func checkAlpha(alpha float64) error {
	if !(alpha > 0 && alpha < 1) {
		return exitcode.BadInput("alpha %v is not in (0, 1); write e.g. 0.05", alpha)
	}
	return nil
}

// checkSameBenchmarks refuses two files that share no benchmark: comparing
// them would print an empty-looking table and gate on nothing.
func checkSameBenchmarks(baseName, headName string, base, head map[string]int) error {
	for n := range base {
		if _, ok := head[n]; ok {
			return nil
		}
	}
	return exitcode.BadInput("%s and %s have no benchmark names in common (%s has %s, %s has %s); compare runs of the same benchmarks",
		baseName, headName, baseName, firstName(base), headName, firstName(head))
}

func firstName(m map[string]int) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) > 1 {
		return fmt.Sprintf("%s and %d more", names[0], len(names)-1)
	}
	return names[0]
}

// comparisons reads the per-cell statistics back out of benchstat's tables,
// so the JSON and the text come from the very same computation.
func comparisons(tables *benchtab.Tables, baseName, headName string) ([]Comparison, error) {
	var out []Comparison
	for _, t := range tables.Tables {
		if len(t.Cols) < 2 {
			continue // a unit only one side reported
		}
		baseCol, headCol := t.Cols[0], t.Cols[1]
		for _, row := range t.Rows {
			b, okB := t.Cells[benchtab.TableKey{Row: row, Col: baseCol}]
			h, okH := t.Cells[benchtab.TableKey{Row: row, Col: headCol}]
			if !okB || !okH || h.Baseline == nil {
				continue // only on one side: nothing to compare
			}
			name := row.StringValues()
			nb, nh := len(b.Sample.Values), len(h.Sample.Values)
			if nb != nh {
				return nil, exitcode.BadInput("%s (%s) has n=%d in %s vs n=%d in %s; run both sides with the same count",
					name, t.Unit, nb, baseName, nh, headName)
			}
			c := fromCells(b.Summary, h.Summary, h.Comparison, nb, nh)
			c.Name, c.Unit = name, t.Unit
			c.Op, c.Message, c.Format, _ = ParseName(name)
			c.NoiseFloorPct, c.NoiseFloorReason = NoiseFloor(b.Sample.Values, t.Assumption, b.Sample.Thresholds.CompareAlpha)
			c.base, c.assumption = append([]float64(nil), b.Sample.Values...), t.Assumption
			for _, w := range append(append(b.Sample.Warnings, b.Summary.Warnings...), append(h.Summary.Warnings, h.Comparison.Warnings...)...) {
				c.Warnings = append(c.Warnings, w.Error())
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// fromCells builds a Comparison from benchmath's summaries and test.
func fromCells(base, head benchmath.Summary, cmp benchmath.Comparison, nBase, nHead int) Comparison {
	p := cmp.P
	c := Comparison{
		Base:        report.Summary{Center: base.Center, Lo: base.Lo, Hi: base.Hi, N: nBase},
		Head:        report.Summary{Center: head.Center, Lo: head.Lo, Hi: head.Hi, N: nHead},
		P:           &p,
		Significant: !(cmp.P > cmp.Alpha), // FormatDelta's own test for "~"
		Delta:       cmp.FormatDelta(base.Center, head.Center),
	}
	c.DeltaPct = DeltaPct(base.Center, head.Center)
	return c
}

// DeltaPct is the change from base to head in percent: the one place
// wiregate computes a delta (metrics, sizes, pipeline rows). Nil when base
// is 0 and head is not, or the result is not finite.
func DeltaPct(base, head float64) *float64 {
	var d float64
	switch {
	case base == head:
		d = 0
	case base == 0:
		return nil
	default:
		d = (head/base - 1) * 100
	}
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return nil
	}
	return &d
}

var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

// ParseName splits a wiregate benchmark name "Decode/pkg.Msg/protobuf-2"
// (with or without the "Benchmark" prefix and the -procs suffix) into
// "decode", "pkg.Msg", "protobuf". ok is false for any other shape.
func ParseName(name string) (op, message, format string, ok bool) {
	name = strings.TrimPrefix(name, "Benchmark")
	parts := strings.Split(name, "/")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", "", "", false
	}
	return strings.ToLower(parts[0]), parts[1], procsSuffix.ReplaceAllString(parts[2], ""), true
}
