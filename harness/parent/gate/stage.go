package gate

import (
	"context"
	"fmt"
	"time"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/subcmd"
)

// stage runs f as the named stage: it logs the start, times it, and
// records it in the report with the note f returns and its error as one
// line. f's result is returned even when it failed: a stage that stops
// part way (the budget, a signal, a broken child) returns what it had
// measured, and Run records that too.
func stage[T any](ctx context.Context, g *run, name string, f func(context.Context) (T, string, error)) (T, bool) {
	g.o.Log("wiregate: %s", name)
	start := time.Now()
	cancelled := ctx.Err() != nil
	v, note, err := f(ctx)
	st := report.Stage{Name: name, Seconds: time.Since(start).Seconds(), Note: note}
	if err != nil && cancelled {
		return v, false // the stage that was running when the signal came recorded it
	}
	if err != nil && ctx.Err() != nil {
		err = context.Cause(ctx) // "interrupted by SIGINT", not what a killed child made of it
	}
	if err != nil {
		st.Error = subcmd.OneLine(err.Error())
		g.r.Errors = append(g.r.Errors, name+": "+st.Error)
		g.o.Log("wiregate: %s failed: %s", name, st.Error)
	}
	g.r.Stages = append(g.r.Stages, st)
	return v, err == nil
}

// warn adds a one-line warning to the report.
func (g *run) warn(format string, args ...any) {
	w := subcmd.OneLine(fmt.Sprintf(format, args...))
	g.r.Warnings = append(g.r.Warnings, w)
	g.o.Log("wiregate: warning: %s", w)
}

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
