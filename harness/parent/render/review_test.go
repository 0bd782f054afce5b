package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// The comment as a reviewer reads it, on the golden reports: one row per
// changed schema element, one block that approves what fails, what fails
// before what was cut, and layout noise said as such.

// tableRows are the violations table's rows.
func tableRows(t *testing.T, out string) []string {
	t.Helper()
	start := strings.Index(out, "|  | kind | subject | detail |")
	if start < 0 {
		t.Fatal("no violations table")
	}
	lines := strings.Split(out[start:], "\n")[2:]
	for i, l := range lines {
		if !strings.HasPrefix(l, "|") {
			return lines[:i]
		}
	}
	return lines
}

func TestAFieldRenamedAndRetypedIsOneRow(t *testing.T) {
	r := golden(t, "release")
	out := Report(r, Context{})
	rows := tableRows(t, out)
	var field7 []string
	breakingRows := 0
	for _, row := range rows {
		if strings.Contains(row, "`profile_id`") {
			field7 = append(field7, row)
		}
		if strings.Contains(row, "| breaking") {
			breakingRows++
		}
	}
	if len(field7) != 1 {
		t.Fatalf("%d rows for field 7", len(field7))
	}
	var e report.Element
	for _, x := range r.Elements {
		if x.Name == "profile_id" {
			e = x
		}
	}
	if len(e.Violations) != 4 || !strings.Contains(field7[0], "<sub>to approve it: `/wiregate approve "+e.ID+"`</sub>") || strings.Count(field7[0], "/wiregate approve") != 1 {
		t.Error(field7[0])
	}
	// One row per element, not one per finding.
	breaking := len(violationsWhere(r.Violations, func(v report.Violation) bool { return v.Kind == "breaking" }))
	if breakingRows != len(r.Elements) || len(r.Elements) >= breaking {
		t.Errorf("%d breaking rows, %d elements, %d findings", breakingRows, len(r.Elements), breaking)
	}
	// The headline counts changes, and says how many findings they make.
	base, findings := 0, 0
	for _, x := range r.Elements {
		if x.Kind == "breaking" && x.Against == "" {
			base++
			findings += len(x.Violations)
		}
	}
	mustMatch(t, strings.Split(out, "\n")[0], `^## ❌ wiregate: fail — `+itoa(base)+` breaking changes \(`+itoa(findings)+` findings\), `)
}

func TestOneBlockApprovesEverythingThatFails(t *testing.T) {
	r := golden(t, "release")
	out := Report(r, Context{})
	block := regexp.MustCompile("(?s)\\*\\*To approve everything that fails\\*\\*, post as one comment:\n\n```text\n(.*?)\n```").FindStringSubmatch(out)
	if block == nil {
		t.Fatal("no approve-all block")
	}
	lines := strings.Split(block[1], "\n")
	if lines[0] != r.ApproveAll[0] {
		t.Error(lines[0])
	}
	ids := map[string]bool{}
	for _, l := range lines {
		for _, w := range strings.Fields(l) {
			if strings.HasPrefix(w, "wg-") {
				ids[w] = true
			}
		}
	}
	// Every blocking violation is named, by its own id or its element's.
	for _, v := range violationsWhere(r.Violations, blocking) {
		ok := ids[v.ID]
		for _, e := range r.Elements {
			for _, id := range e.Violations {
				ok = ok || id == v.ID && ids[e.ID]
			}
		}
		if !ok {
			t.Errorf("%s (%s) is not approved by the block", v.ID, v.Subject)
		}
	}
	for _, f := range r.ApproveFiles {
		mustContain(t, out, "- `"+f.File+"`: `"+f.Line+"`")
	}
}

func TestAFailureWithCutFiguresPutsTheTableAndTheBlockBeforeTheCuts(t *testing.T) {
	out := Report(golden(t, "fail-cuts"), Context{})
	table, cut := strings.Index(out, "|  | kind | subject | detail |"), strings.Index(out, "⏱")
	if !(table > 0 && cut > table && strings.Index(out, "**To approve everything that fails**") < cut) {
		t.Errorf("table %d, block %d, cut %d", table, strings.Index(out, "**To approve everything that fails**"), cut)
	}
}

func orderAvro(t *testing.T, r *report.Report) *report.Format {
	for i := range r.Messages {
		if r.Messages[i].Name == "orders.v1.Order" {
			for j := range r.Messages[i].Formats {
				if r.Messages[i].Formats[j].Format == "avro" {
					return &r.Messages[i].Formats[j]
				}
			}
		}
	}
	t.Fatal("no orders.v1.Order avro")
	return nil
}

func avroTimeCell(t *testing.T, out string) string {
	section := out[strings.Index(out, "### `orders.v1.Order`"):]
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "| avro |") {
			return strings.Split(l, " | ")[3]
		}
	}
	t.Fatal("no avro row")
	return ""
}

func TestIdenticalExactFiguresWithASignificantTimeDeltaSayLayoutNoise(t *testing.T) {
	r := golden(t, "release")
	avro := orderAvro(t, r)
	for i := range avro.Metrics {
		avro.Metrics[i].LayoutNoise = false
	}
	decode := metricOf(*avro, "decode", "sec/op")
	decode.Base.Center, decode.Head.Center = 632e-9, 594e-9
	decode.DeltaPct, decode.P, decode.Significant, decode.LayoutNoise = f64(-6.0), f64(0.008), true, true
	cell := avroTimeCell(t, Report(reparse(t, r), Context{}))
	if cell != "<sub>632 ns → 594 ns (-6.0%) layout noise: bytes, instructions and allocations equal on both sides</sub>" {
		t.Error(cell)
	}
}

func TestATimingPlannedUnableToFailReadsNotTimed(t *testing.T) {
	r := golden(t, "release")
	avro := orderAvro(t, r)
	for i := range avro.Metrics {
		if m := &avro.Metrics[i]; m.Unit == "sec/op" {
			m.Base, m.Head, m.DeltaPct, m.P, m.Significant, m.Delta, m.NotTimed, m.MDE, m.LayoutNoise = nil, nil, nil, nil, false, "not timed", true, f64(37.5), false
		}
	}
	out := Report(reparse(t, r), Context{})
	if cell := avroTimeCell(t, out); cell != "<sub>not timed</sub>" {
		t.Error(cell)
	}
	mustContain(t, out, "37.5%")
}

func TestAFullCommentDropsTheMeasuredApproveLinesFirst(t *testing.T) {
	r := golden(t, "release")
	var part *Part
	for _, p := range Parts(r, Context{}) {
		if p.Cut == cutApproveLines {
			part = &p
		}
	}
	if part == nil || part.Compact == nil {
		t.Fatal("the block may not be cut")
	}
	mustContain(t, part.Md.Source(), r.ApproveAll[1])
	compact := part.Compact.Md.Source()
	mustContain(t, compact, r.ApproveAll[0], "and "+itoa(len(r.ApproveAll)-1)+" measured regressions, whose lines the job summary has")
	if strings.Contains(compact, " up to ") {
		t.Error("a measured line in the compact block")
	}
}
