package render

import (
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// A head that loosens the rules that judge it gets one line under the
// schema checks, its rule as code; a report without buf_rules has none;
// hostile text stays text.
func TestBufRulesLineSaysWhatHeadsConfigChanges(t *testing.T) {
	const change = "buf.yaml loosens breaking: `except: FIELD_NO_DELETE` (judged by the base's rules; applies once merged)"
	fail := fixture(t, "fail")
	if out := Report(fail, Context{}); strings.Contains(out, "⚖️") {
		t.Fatal("head's rules are the base's: no rules line")
	}
	loosened := fixture(t, "fail")
	loosened.BufRules = &report.BufRules{From: []string{"the base's buf.yaml"}, Change: change,
		HeadOnly: []report.Finding{{Kind: "lint", File: "a.proto", Rule: "X", Message: "m"}}}
	out := Report(loosened, Context{})
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "⚖️") {
			lines = append(lines, l)
		}
	}
	want := "> ⚖️ buf.yaml loosens breaking: `except: FIELD_NO_DELETE` (judged by the base's rules; applies once merged) · head's own rules alone find 1 more finding"
	if len(lines) != 1 || lines[0] != want {
		t.Fatalf("rules lines %q, want %q", lines, want)
	}
	if strings.Index(out, "#### Schema checks") > strings.Index(out, "⚖️") {
		t.Error("the rules line is not under the schema checks")
	}
	hostile := fixture(t, "fail")
	hostile.BufRules = &report.BufRules{Change: "x <img src=x onerror=alert(1)> [l](https://evil.example) `a` b"}
	for _, l := range strings.Split(Report(hostile, Context{}), "\n") {
		if strings.Contains(l, "⚖️") && l != "> ⚖️ x &lt;img src=x onerror=alert(1)&gt; \\[l\\](https:/\u200b/evil.example) `a` b" {
			t.Errorf("hostile line %q", l)
		}
	}
}
