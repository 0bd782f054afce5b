package render

import (
	"strings"
	"testing"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
)

func TestTheMarkerNamesWorkflowAndJobAndCannotBeEndedEarly(t *testing.T) {
	for _, c := range []struct{ workflow, job, want string }{
		{"CI", "schemas", "<!-- wiregate:CI/schemas -->"},
		{"x --> <img src=x>", "job", "<!-- wiregate:x -_ _img src_x_/job -->"},
		{"Schema gate (v2)", "wiregate", "<!-- wiregate:Schema gate (v2)/wiregate -->"},
		{"🙂", "j", "<!-- wiregate:__/j -->"},
	} {
		if got := StickyMarker(c.workflow, c.job); got != c.want {
			t.Errorf("%q %q: %s", c.workflow, c.job, got)
		}
	}
}

func TestTheBodyStartsWithTheMarkerAndFitsAComment(t *testing.T) {
	m := StickyMarker("CI", "a")
	body := Comment(m, []Part{{Md: md.CodeBlock("text", strings.Repeat(strings.Repeat("y", 10)+"\n", 10000))}}, Context{RunURL: "https://example.test/run/9"})
	if !strings.HasPrefix(body, m+"\n") || md.UTF16Len(body) > CommentLimit || strings.Count(body, "<!--") != 1 {
		t.Errorf("%.200s", body)
	}
	mustContain(t, body, "Report cut to fit; the job summary of [this run](https://example.test/run/9) has all of it")
	// Elsewhere the whole report is where that CI keeps it.
	mustContain(t, Comment(m, []Part{{Md: md.CodeBlock("text", strings.Repeat("y\n", 40000))}}, Context{Whole: "the job's report.md artifact"}), "Report cut to fit; the job's report.md artifact has all of it")
}
