package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Beyond one runner: hundreds of messages changed for one cause read as
// one group with a compact row each, every violation visible within a
// comment; and the headline says what was judged whenever a figure was cut.

func fitsAComment(t *testing.T, body string) {
	t.Helper()
	if n := md.UTF16Len(body); n > CommentLimit {
		t.Fatalf("%d characters", n)
	}
}

func TestA400MessageChangeThroughOneCauseIsOneGroup(t *testing.T) {
	r := metadataChange(400)
	body := commentOf(t, r)
	fitsAComment(t, body)
	mustContain(t, body, "\n### Changed through `org.example.api.v2.Metadata` · 400 messages\n\n❌ 100 messages fail: ")
	if strings.Count(body, "\n### Changed through") != 1 {
		t.Error("not one group heading")
	}
	// Every failing message has its row, with the reason, before any passing one.
	rows := regexp.MustCompile("\n\\| `([^`]+)` \\| [^\n]* \\| (❌[^|\n]*|✅) \\|").FindAllStringSubmatch(body, -1)
	firstPass := -1
	for i, row := range rows {
		if row[2] == "✅" && firstPass < 0 {
			firstPass = i
		}
	}
	for _, v := range r.Violations {
		name, found := strings.Split(v.Subject, "/")[0], false
		for _, row := range rows {
			found = found || row[1] == name && strings.HasPrefix(row[2], "❌ size")
		}
		if !found {
			t.Errorf("%s has no failing row", name)
		}
	}
	if firstPass < len(r.Violations) {
		t.Error("a passing row before a failing one")
	}
	// The per-message sections went first, and the comment says where they are.
	mustMatch(t, body, `✂️ Cut to fit: [^.]*grouped messages' full sections`)
	if strings.Contains(body, "\n### `org.example") {
		t.Error("a per-message section in the comment")
	}
	mustContain(t, Summary(reparse(t, r), Context{RunURL: "https://github.com/o/r/actions/runs/9"}), "\n### `"+messageName(1)+"`")
}

func TestWhenEvery400GroupedMessageFailsEachKeepsItsRowCounted(t *testing.T) {
	r := metadataChange(400)
	sv := r.Violations[0]
	r.Violations = nil
	for _, m := range r.Messages {
		for _, f := range []string{"protobuf", "json", "avro"} {
			size, cpu := sv, sv
			size.Subject = m.Name + "/" + f + "/size"
			cpu.Kind, cpu.Subject, cpu.Unit, cpu.ThresholdPct = "cpu", m.Name+"/"+f+"/encode/instr", "instr/op", f64(2)
			r.Violations = append(r.Violations, size, cpu)
		}
	}
	body := commentOf(t, r)
	fitsAComment(t, body)
	mustContain(t, body, "❌ 400 messages fail: ")
	for _, m := range r.Messages {
		mustMatch(t, body, "\\| `"+regexp.QuoteMeta(m.Name)+"` \\|[^\n]*\\| ❌ 3 size regressions, 3 CPU regressions \\|\n")
	}
	mustMatch(t, body, `✂️ Cut to fit: [^.]*failing group rows' figures \(each counts its violations\)`)
	// With room, the rows quote the figures instead.
	few := commentOf(t, metadataChange(40))
	if strings.Contains(few, "failing group rows' figures") {
		t.Error("figures cut with room for them")
	}
	mustContain(t, few, "| ❌ size +8.0% on protobuf/size (limit 5.0%) |")
}

func TestAMergeOf75ShardsNotesGoesBeforeAnyFailingRow(t *testing.T) {
	r := metadataChange(400)
	var shards []string
	for i := 1; i <= 75; i++ {
		shards = append(shards, fmt.Sprintf("shard %d/75: to fit the time budget: 31 of 50 messages counted over 1 rotation of the record pool instead of 4 (exact all the same), 19 of 50 messages not counted", i))
	}
	r.Cut.CPU = &report.CPUCut{Note: strings.Join(shards, "; "), Uncounted: []string{"a.B"}}
	r.Cut.Bench = &report.BenchCut{Rounds: 10, Benchtime: "10ms", Note: strings.Join(shards, "; "), Untimed: []string{"a.B"}}
	body := commentOf(t, r)
	fitsAComment(t, body)
	for _, v := range r.Violations {
		mustContain(t, body, "| `"+strings.Split(v.Subject, "/")[0]+"` |")
	}
	if strings.Contains(body, "shard 75/75: to fit") {
		t.Error("the shards' notes stayed")
	}
	mustContain(t, body, "⏱ 1 message whose instructions were not counted")
	mustMatch(t, body, `✂️ Cut to fit: [^.]*the time budget's note per stage`)
	// A single runner's notes, short, stay.
	one := metadataChange(40)
	one.Cut.CPU = &report.CPUCut{Note: "to fit the time budget: 3 of 40 messages not counted", Uncounted: []string{"a.B"}}
	mustContain(t, commentOf(t, one), "> ⏱ Instruction counts, to fit the time budget: 3 of 40 messages not counted")
}

func TestASmallGroupIsShownMessageByMessage(t *testing.T) {
	r := changedReport(3, 3, false, 20)
	r.Change.Groups = []report.Group{{Cause: []string{"a.Shared"}, Messages: r.Change.Changed}}
	body := commentOf(t, r)
	if strings.Contains(body, "Changed through") || strings.Count(body, "\n### `org.example") != 3 {
		t.Errorf("%.1000s", body)
	}
}

func TestTheHeadlineSaysWhatWasJudgedWhenTheBudgetCutAFigure(t *testing.T) {
	r := metadataChange(10)
	r.Violations, r.Result, r.ExitCode = []report.Violation{}, "pass", 0
	r.Coverage = &report.Coverage{Changed: 353, Sized: 353, Counted: 10, Timed: 0, Piped: 12, Expected: []string{"sized", "counted", "timed", "piped"},
		Cut: map[string][]string{"counted": {"a.B"}, "timed": {"a.B"}, "piped": {"a.B"}}}
	r.Cut.ShardsNeeded = 12
	first := func() string { return strings.Split(commentOf(t, r), "\n")[1] }
	if got := first(); got != "## ✅ wiregate: pass on what was measured — no schema or wire-cost regressions · 353 changed: 353 sized, 10 counted, 0 timed, 12 drained; `max-shards: 12` measures all" {
		t.Error(got)
	}
	r.Coverage.Cut = nil
	if got := first(); got != "## ✅ wiregate: pass — no schema or wire-cost regressions" {
		t.Errorf("nothing cut: nothing to say; %s", got)
	}
	r.Coverage.Cut = map[string][]string{"timed": {"a.B"}}
	r.Merged = &report.Merged{Count: 8, Parts: []int{1, 2, 3, 5, 6, 7, 8}, Missing: []int{4}, MissingNames: []string{"4/8"}}
	mustMatch(t, first(), "353 changed: 353 sized, 10 counted, 0 timed, 12 drained; 1 shard missing \\(4/8\\); `max-shards: 12` measures all$")
}

// Rows that tie on failing and size read in a locale's order of names,
// not bytes': case apart first.
func TestGroupRowsThatTieReadInNameOrder(t *testing.T) {
	r := metadataChange(4)
	r.Violations = []report.Violation{}
	names := []string{"a.b.Zeta", "a.b.alpha", "a.b.Beta", "a.b.gamma"}
	for i := range r.Messages {
		r.Messages[i].Name = names[i]
	}
	r.Change.Changed, r.Change.Groups[0].Messages, r.Pipeline, r.History = names, names, []report.Pipeline{}, nil
	var order []string
	for _, m := range regexp.MustCompile("\n\\| `(a\\.b\\.[A-Za-z]+)` \\|").FindAllStringSubmatch(Report(reparse(t, r), Context{}), -1) {
		order = append(order, m[1])
	}
	if strings.Join(order, " ") != "a.b.alpha a.b.Beta a.b.gamma a.b.Zeta" {
		t.Error(order)
	}
}
