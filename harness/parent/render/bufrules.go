package render

import (
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// bufRulesNote says how head's buf config changes the rules that judge
// it: Go's one line (report.BufRules.Change), its backtick spans as code
// spans and the rest as text, and how many findings head's own rules
// alone raise. Empty when head's rules are the base's.
func bufRulesNote(r *report.Report) md.Md {
	b := r.BufRules
	if b == nil || b.Change == "" {
		return md.Empty
	}
	more := md.Empty
	if n := len(b.HeadOnly); n > 0 {
		more = md.F(" · head's own rules alone find {}", count(n, "more finding", "more findings"))
	}
	return md.F("> ⚖️ {}{}", spans(b.Change), more)
}

// spans renders a line whose odd backtick-delimited pieces are code:
// every piece is escaped for its place, whatever the line holds.
func spans(line string) md.Md {
	pieces := strings.Split(line, "`")
	out := make([]md.Md, len(pieces))
	for i, p := range pieces {
		if i%2 == 1 {
			out[i] = md.Code(p)
		} else {
			out[i] = md.Text(p)
		}
	}
	return md.Join(out, md.Empty)
}
