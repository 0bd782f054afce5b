package render

import (
	"strings"
	"testing"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Why a count grew: the functions the gate names under each cpu violation.

// sectionOf is message's part of the report, up to the next message.
func sectionOf(out, message string) string {
	return strings.Split(strings.SplitN(out, "### `"+message+"`", 2)[1], "\n### ")[0]
}

func jsonDecodeCount(r *report.Report, i int) *report.Metric {
	return metricOf(r.Messages[i].Formats[0], "decode", instrUnit)
}

func TestACPUViolationHasABlockNamingTheFunctionsThatGrew(t *testing.T) {
	r := reparse(t, withCPURegressions(changedReport(3, 3, false, 20), 1))
	out := Report(r, Context{})
	own := sectionOf(out, messageName(0))
	metric := jsonDecodeCount(r, 0)
	delta := md.Round(metric.Head.Center - metric.Base.Center)
	fns := metric.Functions
	d := func(x float64) string { return md.NumberString(x) }
	summary := "<details><summary><code>json</code> decode +" + d(delta) + " instr/op: <code>protowire.ConsumeVarint</code> +" + d(fns[0].SelfDelta) +
		", allocation +" + d(fns[1].SelfDelta) + ", <code>v1.(*TelemetryEvent).ProtoReflect</code> +" + d(fns[2].SelfDelta) + ", …</summary>"
	mustContain(t, own, summary, "`protowire.ConsumeVarint` alone accounts for +"+d(fns[0].SelfDelta)+" of the +"+d(delta)+" instr/op.",
		"| `v1.(*TelemetryEvent).ProtoReflect` (generated) | 40 → "+d(40+fns[2].SelfDelta)+" (+"+d(fns[2].SelfDelta)+") | 52 → "+d(52+fns[2].SelfDelta)+" (+"+d(fns[2].SelfDelta)+") |")
	// Under the table, which holds the failing row.
	if strings.Index(own, summary) < strings.Index(own, "| json |") {
		t.Error("the block is above the table")
	}
	// A message without a cpu violation has no block, nor does a count
	// that named no function.
	if strings.Contains(sectionOf(out, messageName(1)), "<details><summary><code>") {
		t.Error("a block without a cpu violation")
	}
	aa := reparse(t, withCPURegressions(changedReport(3, 3, false, 20), 1))
	jsonDecodeCount(aa, 0).Functions = nil
	if strings.Contains(Report(aa, Context{}), "<details><summary><code>json</code> decode") {
		t.Error("a block without functions")
	}
	// Without a function that explains most, no sentence.
	jsonDecodeCount(r, 0).Functions[0].ExplainsMost = false
	if strings.Contains(Report(r, Context{}), "alone accounts for") {
		t.Error("a sentence without a function explaining most")
	}
}

func TestFunctionNamesAreEscapedInTheSummaryAndInTheTable(t *testing.T) {
	r := reparse(t, withCPURegressions(changedReport(1, 1, false, 20), 1))
	fns := jsonDecodeCount(r, 0).Functions
	fns[0].Name = "</summary><img src=x onerror=alert(1)> @team `x` <!-- wiregate"
	fns[1].Name = "</details><script>"
	out := Report(r, Context{})
	var summary string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "<details><summary><code>json</code> decode") {
			summary = l
		}
	}
	mustContain(t, summary, "<code>&lt;/summary&gt;&lt;img src=x onerror=alert(1)&gt; \u200b@\u200bteam `x` &lt;!\u200b-- wiregate</code>", " &lt;/details&gt;&lt;script&gt; ")
	// In the table, names are code spans: literal, whatever they hold.
	mustContain(t, out, "| "+md.Code(fns[0].Name).Source()+" |")
	if strings.Contains(out, "<!-- wiregate") || strings.Contains(out, "<script>") {
		t.Error("markup got through")
	}
}

func TestFiftyMessagesWithTwentyCPUViolationsFitAComment(t *testing.T) {
	r := reparse(t, withCPURegressions(changedReport(50, 50, false, 20), 20))
	body := Comment("<!-- wiregate -->", Parts(r, Context{}), Context{})
	fitsAComment(t, body)
	blocks := strings.Count(body, "<details><summary><code>json</code> decode")
	if cut := strings.Contains(body, "which functions grew in each cpu violation"); (cut && blocks != 0) || (!cut && blocks != 20) {
		t.Errorf("%d blocks, cut %v", blocks, cut)
	}
}

func TestShortOfRoomTheProfileBlocksGoAfterTheBulkBeforeTheTables(t *testing.T) {
	r := reparse(t, withCPURegressions(changedReport(50, 50, false, 20), 20))
	parts := Parts(r, Context{})
	// Room for the kinds cut after the profile blocks, and not for them.
	before := map[Cut]bool{}
	for _, c := range cuts {
		if c.kind == cutProfiles {
			break
		}
		before[c.kind] = true
	}
	var rest []Part
	for _, p := range parts {
		switch {
		case !before[p.Cut]:
			rest = append(rest, p)
		case p.Compact != nil:
			rest = append(rest, *p.Compact)
		}
	}
	room := md.UTF16Len(Assemble(rest))
	out := Fit(parts, Room{Limit: room - 1, Whole: md.F("report.md")})
	if strings.Contains(out, "<details><summary><code>json</code> decode") {
		t.Error("a profile block survived the cut")
	}
	mustContain(t, out, "bytes/msg charts, which functions grew in each cpu violation.")
	if n := strings.Count(out, "| json |"); n != 50 {
		t.Errorf("%d tables of 50", n)
	}
	mustContain(t, Fit(parts, Room{Limit: room + 100_000, Whole: md.F("report.md")}), "<details><summary><code>json</code> decode")
}
