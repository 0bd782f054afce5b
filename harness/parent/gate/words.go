package gate

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The words stages put together for notes and messages.

// joinNotes joins a stage's clauses: "a; b".
func joinNotes(notes ...string) string {
	out := ""
	for _, n := range notes {
		switch {
		case n == "":
		case out == "":
			out = n
		default:
			out += "; " + n
		}
	}
	return out
}

// plural is "1 message" or "3 messages" ("3 processes").
func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	if strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// without is list less the names in cut, in order.
func without(list, cut []string) []string {
	var out []string
	for _, m := range list {
		if !slices.Contains(cut, m) {
			out = append(out, m)
		}
	}
	return out
}

// brief is d to the second as a user writes it: 2m, 1m10s.
func brief(d time.Duration) string {
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	return s
}

// stoppedNote is what a stage the plan may cut says when the budget's
// deadline stopped it (budget.Stop).
const stoppedNote = "stopped at the time budget's deadline: what was still running is cut"
