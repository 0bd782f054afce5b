package render

import (
	"fmt"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// annotationTitles are the schema checks' names on an annotation.
var annotationTitles = map[string]string{report.KindLint: "buf lint", report.KindBreaking: "buf breaking", report.KindAvro: "Avro compatibility"}

// GitHub is the report as GitHub Actions workflow commands, for a step's
// output: one annotation per violation that names a file (an error, or a
// warning when a label or an approval allowed it) on its line — none for a
// shard's part, whose verdict is the merge's — then each warning, then
// the verdict: why it failed, one line a reason, or that it passed.
func GitHub(r *report.Report) string {
	var b strings.Builder
	for _, v := range r.Violations {
		if v.File == "" || r.Shard != nil {
			continue
		}
		level := "warning"
		if v.Blocking() {
			level = "error"
		}
		title, ok := annotationTitles[v.Kind]
		if !ok {
			title = "wiregate " + v.Kind
		}
		if v.Against != "" {
			title += " vs release " + v.Against
		}
		props := []string{"file=" + property(v.File)}
		if v.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", v.Line))
		}
		if v.Column > 0 {
			props = append(props, fmt.Sprintf("col=%d", v.Column))
		}
		props = append(props, "title="+property(title))
		fmt.Fprintf(&b, "::%s %s::%s\n", level, strings.Join(props, ","), data(v.Detail))
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "::warning title=wiregate::%s\n", data(w))
	}
	if r.ExitCode == 0 {
		fmt.Fprintf(&b, "::notice title=wiregate::%s\n", data(r.ExitReason))
		return b.String()
	}
	var reasons []string
	for _, v := range r.Violations {
		switch {
		case !v.Blocking():
		case v.Kind == report.KindError:
			reasons = append(reasons, v.Detail)
		default:
			reasons = append(reasons, v.Kind+": "+v.Subject+": "+v.Detail)
		}
	}
	if len(reasons) == 0 {
		reasons = append(reasons, r.Errors...)
	}
	if len(reasons) == 0 {
		reasons = append(reasons, r.ExitReason)
	}
	fmt.Fprintf(&b, "::error title=wiregate::%s\n", data("wiregate failed:\n"+strings.Join(reasons, "\n")))
	return b.String()
}

// data escapes a workflow command's message: nothing in it can end the
// line or start another command.
func data(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// property escapes a workflow command's property value.
func property(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
