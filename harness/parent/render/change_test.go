package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/internal/gfm"
	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// The comment leads with the change: what changed in full, the rest one
// counted line with the names folded, and any module within GitHub's limit.

var (
	detailsBlock = regexp.MustCompile(`(?s)<details><summary>(.*?)</summary>.*?</details>`)
	htmlComment  = regexp.MustCompile(`(?s)<!--.*?-->`)
	anyTag       = regexp.MustCompile(`<[^>]+>`)
	anEntity     = regexp.MustCompile(`&(lt|gt|amp|quot);`)
	spaces       = regexp.MustCompile(`\s+`)
)

// visible is what a reader sees of rendered markdown before opening
// anything: the text, with each <details> down to its summary.
func visible(t *testing.T, markdown string) string {
	html := gfm.HTML(t, markdown)
	html = detailsBlock.ReplaceAllString(html, "$1")
	html = htmlComment.ReplaceAllString(html, "")
	html = anyTag.ReplaceAllString(html, " ")
	html = anEntity.ReplaceAllString(html, "x")
	return strings.TrimSpace(spaces.ReplaceAllString(html, " "))
}

// foldedNames is the names a collapsed list holds, after its summary.
func foldedNames(t *testing.T, markdown, summary string) []string {
	t.Helper()
	m := regexp.MustCompile("<details><summary>" + summary + "</summary>\n\n```text\n((?s).*?)\n```\n\n</details>").FindStringSubmatch(markdown)
	if m == nil {
		t.Fatalf("no folded list %s in\n%.3000s", summary, markdown)
	}
	return strings.Split(m[len(m)-1], "\n")
}

func sameNames(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("names %v, want %v", got, want)
	}
}

func TestAnAAOf60MessagesIsAFewHundredBytesVisible(t *testing.T) {
	r := aaReport(60)
	body := commentOf(t, r)
	seen := visible(t, body)
	if len(seen) >= 500 {
		t.Errorf("%d bytes visible: %s", len(seen), seen)
	}
	if !strings.Contains(seen, "60 messages unchanged (schema identical): not re-measured") {
		t.Error(seen)
	}
	sameNames(t, foldedNames(t, body, `60 messages unchanged \(schema identical\): not re-measured`), r.Change.Unchanged)
	if regexp.MustCompile(`(?m)mermaid|^### `).MatchString(body) {
		t.Error("a chart or a message section in an A/A")
	}
}

func TestNoSchemaChangedSaysSoAndWhatRan(t *testing.T) {
	body := commentOf(t, aaReport(3))
	if strings.Split(body, "\n")[1] != "## ✅ wiregate: pass — no schema changed" {
		t.Error(body)
	}
	onlyLint := aaReport(3)
	onlyLint.Stages = onlyLint.Stages[:1]
	if !strings.Contains(commentOf(t, onlyLint), "**No schema changed**: ran lint; nothing to measure") {
		t.Error(commentOf(t, onlyLint))
	}
	if strings.Contains(strings.ToLower(commentOf(t, changedReport(3, 1, false, 20))), "no schema changed") {
		t.Error("a change set with a change says no schema changed")
	}
}

func TestOneChangedMessageOfThreeInFullTheOthersFolded(t *testing.T) {
	body := commentOf(t, changedReport(3, 1, false, 20))
	for _, want := range []string{
		"\n### `" + messageName(0) + "`\n\n❌ size +8.0% on protobuf/size (limit 5.0%)\n",
		"| protobuf | 150.0 → 162.0 (+8.0%) |",
		`x-axis ["json", "protobuf", "avro"]`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q", want)
		}
	}
	sameNames(t, foldedNames(t, body, `2 messages unchanged \(schema identical\): not re-measured`), []string{messageName(1), messageName(2)})
	for _, other := range []string{messageName(1), messageName(2)} {
		if strings.Contains(body, "### `"+other+"`") {
			t.Errorf("%s has a section", other)
		}
	}
}

func TestAMessageNewOnHeadShowsHeadsFiguresOnly(t *testing.T) {
	r := changedReport(2, 2, false, 20)
	added := &r.Messages[1]
	added.Status = report.StatusNew
	for i := range added.Formats {
		f := &added.Formats[i]
		f.Size = &report.Size{Base: 0, Head: f.Size.Head}
		for j := range f.Metrics {
			f.Metrics[j].Base, f.Metrics[j].DeltaPct, f.Metrics[j].P, f.Metrics[j].Significant = nil, nil, nil, false
		}
	}
	for i := range r.Pipeline {
		if p := &r.Pipeline[i]; p.Message == added.Name {
			p.Base, p.DeltaPct, p.P = nil, nil, nil
		}
	}
	r.History.Messages = r.History.Messages[:1]
	r.Change.Changed, r.Change.New = []string{messageName(0)}, []string{messageName(1)}
	body := commentOf(t, r)
	section := strings.Split(strings.Split(body, "### `"+messageName(1)+"` · new on head\n\n")[1], "\n<sub>Cells: ")[0]
	if !strings.HasPrefix(section, "🆕 New on head: nothing to compare, head's figures only.\n") {
		t.Error(section)
	}
	var rows []string
	for _, l := range strings.Split(section, "\n") {
		if regexp.MustCompile(`^\| (json|protobuf|avro)`).MatchString(l) {
			rows = append(rows, l)
		}
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, row := range rows {
		if strings.ContainsAny(row, "→%") {
			t.Error(row)
		}
	}
	if rows[1] != "| protobuf | 163.1 | 540 ns | 540 ns | 3,349<br>3,349 | 926k |" {
		t.Error(rows[1])
	}
	if strings.Contains(section, "mermaid") || strings.Index(body, "### `"+messageName(0)+"`") > strings.Index(body, "### `"+messageName(1)+"`") {
		t.Error("a chart for the new message, or the changed one after it")
	}
}

func TestRemovedMessagesAreOneCountedLine(t *testing.T) {
	r := aaReport(2)
	r.Change.Removed, r.Change.NoSchemaChanged = []string{"old.v1.Gone", "old.v1.Went"}, false
	sameNames(t, foldedNames(t, commentOf(t, r), `2 messages removed \(only the base declares them\)`), []string{"old.v1.Gone", "old.v1.Went"})
}

// verdictLines checks that every changed message has its heading and verdict line.
func verdictLines(t *testing.T, body string, names []string) {
	t.Helper()
	for _, name := range names {
		if !regexp.MustCompile("\n### `" + regexp.QuoteMeta(name) + "`\n\n(❌|✅) [^\n]+\n").MatchString(body) {
			t.Errorf("%s has no verdict line", name)
		}
	}
}

func Test56ChangedMessagesFitACommentWithEveryVerdictLine(t *testing.T) {
	r := changedReport(56, 56, false, 20)
	if whole := Report(reparse(t, r), Context{}); md.UTF16Len(whole) <= CommentLimit {
		t.Fatalf("the whole report is %d characters: the test must make the budget cut", md.UTF16Len(whole))
	}
	body := commentOf(t, r)
	if md.UTF16Len(body) > CommentLimit {
		t.Fatalf("%d characters", md.UTF16Len(body))
	}
	verdictLines(t, body, r.Change.Changed)
	cut := regexp.MustCompile(`\n<sub>✂️ Cut to fit: ([^.]*)\. the job summary of \[this run\]\(https://github\.com/o/r/actions/runs/9\) has all of it\.</sub>\n$`).FindStringSubmatch(body)
	if cut == nil {
		t.Fatalf("%s", body[len(body)-500:])
	}
	// Detail went first, in the budget's order; each changed message's table stayed.
	if !strings.HasPrefix(cut[1], "benchstat text, noise floors, stage timings") {
		t.Error(cut[1])
	}
	if n := strings.Count(body, "\n| protobuf | "); n != 56 {
		t.Errorf("%d tables of 56", n)
	}
	if strings.Contains(body, "> ✂️ Report cut to fit") {
		t.Error("a cut mid-text")
	}
}

func Test1276MessagesMeasuredOneChangedAndLintDebtFitAComment(t *testing.T) {
	r := changedReport(1276, 1, true, 20)
	r.Findings = lintDebt(67)
	body := commentOf(t, r)
	if md.UTF16Len(body) > CommentLimit {
		t.Fatalf("%d characters", md.UTF16Len(body))
	}
	verdictLines(t, body, []string{messageName(0)})
	for _, want := range []string{
		"\n1,275 messages unchanged (schema identical): measured (measure: all); their exact figures cannot differ and their timings cannot fail the gate\n",
		"67 lint findings the base already has (existing debt)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q", want)
		}
	}
	if !regexp.MustCompile(`✂️ Cut to fit: [^.]*unchanged messages' tables[^.]*\.`).MatchString(body) {
		t.Error("the unchanged tables were not said cut")
	}
}

func TestA1276MessageAAIsAShortComment(t *testing.T) {
	body := commentOf(t, aaReport(1276))
	if md.UTF16Len(body) > CommentLimit || !strings.Contains(body, "1,276 messages unchanged (schema identical): not re-measured") || len(visible(t, body)) >= 500 {
		t.Errorf("%.500s", body)
	}
}

func TestLintDebtIsFoldedAndOnlyWhatThePRAddsFails(t *testing.T) {
	r := aaReport(3)
	r.Findings = lintDebt(14)
	body := commentOf(t, r)
	if strings.Split(body, "\n")[1] != "## ✅ wiregate: pass — no schema changed" || !strings.Contains(body, "\n| buf lint | ✅ ok |  |\n") {
		t.Errorf("%.800s", body)
	}
	debt := regexp.MustCompile(`(?s)<details><summary>14 lint findings the base already has \(existing debt\)</summary>\n\n(.*?)\n\n</details>`).FindStringSubmatch(body)
	if debt == nil || len(strings.Split(debt[1], "\n")) != 14 {
		t.Fatalf("%v", debt)
	}
	if !regexp.MustCompile(`(?m)^- ` + "`" + `proto/api/v2/resource0\.proto:10:1` + "`" + ` FIELD_LOWER_SNAKE_CASE: Field name "fooBar0" should be lower_snake_case, such as "foo_bar0"\.$`).MatchString(debt[1]) {
		t.Error(debt[1])
	}
	// One the pull request adds fails (the gate's verdict, rendered), and only it is in the row.
	r.Findings = append(r.Findings, report.Finding{Kind: "lint", File: "proto/new.proto", Line: 3, Column: 1, Rule: "ENUM_ZERO_VALUE_SUFFIX", Message: "Enum zero value should end in _UNSPECIFIED."})
	r.Violations = []report.Violation{{Kind: "lint", Subject: "proto/new.proto", Detail: "Enum zero value should end in _UNSPECIFIED.", File: "proto/new.proto", Line: 3}}
	r.Result = "fail"
	failing := commentOf(t, r)
	if strings.Split(failing, "\n")[1] != "## ❌ wiregate: fail — 1 lint finding" {
		t.Error(strings.Split(failing, "\n")[1])
	}
	if !strings.Contains(failing, "| buf lint | ❌ 1 | `proto/new.proto:3:1` ENUM_ZERO_VALUE_SUFFIX: Enum zero value should end in \\_UNSPECIFIED. |\n") ||
		!strings.Contains(failing, "<summary>14 lint findings the base already has (existing debt)</summary>") {
		t.Errorf("%.1500s", failing)
	}
}

func TestABaseOrHeadTheGateDidNotNameReadsAsWhatItIs(t *testing.T) {
	stopped := Report(errorReport(report.Rev{}, report.Rev{}, "input count: not a number"), Context{})
	local := Report(errorReport(report.Rev{Ref: "HEAD", Sha: strings.Repeat("a", 40)}, report.Rev{}, "x"), Context{})
	shaOnly := Report(errorReport(report.Rev{Ref: strings.Repeat("f", 40), Sha: strings.Repeat("f", 40)}, report.Rev{Ref: "feature"}, "x"), Context{})
	for _, c := range []struct{ got, want string }{
		{stopped, "\nbase not resolved (the run stopped before choosing it) → head the working tree\n"},
		{local, "\nbase `HEAD` @ aaaaaaa → head the working tree\n"},
		{shaOnly, "\nbase `fffffff` → head `feature`\n"},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("no %q in\n%s", c.want, c.got)
		}
	}
	if strings.Contains(stopped+local+shaOnly, "?") {
		t.Error("a ? for a side")
	}
}
