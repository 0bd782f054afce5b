package budget

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// pipeRows are n rows of 100,000 records, 1 µs a record a pass and 100 ms
// to start a pass: one row with 2 sides and 5 rounds is 14 passes, 2.8 s.
func pipeRows(n int, gating func(i int) bool) []PipeRow {
	var out []PipeRow
	for i := range n {
		out = append(out, PipeRow{Key: fmt.Sprintf("m%02d.V1/protobuf", i), Gating: gating(i), N: 100_000, Rounds: 5,
			Pass: time.Microsecond, Start: 100 * time.Millisecond})
	}
	return out
}

func always(int) bool { return true }

// Rows that fit run as asked; rows that do not get smaller backlogs first,
// then the rounds the verdict needs at least, then the last rows go.
func TestFitRowsCutsBacklogsThenRoundsThenRows(t *testing.T) {
	rs := pipeRows(4, always)
	if f := fitRows(rs, 2, 3, 12*time.Second, 1); f[3].n != 100_000 || f[3].rounds != 5 || !f[3].timed {
		t.Fatalf("4 × 2.8 s fit 12 s: %+v", f)
	}
	f := fitRows(rs, 2, 3, 8*time.Second, 1)
	if f[0].n >= 100_000 || f[0].n < MinBacklog || f[0].rounds != 5 || !f[3].timed {
		t.Fatalf("smaller backlogs, all rounds: %+v", f)
	}
	// At 1,000 records a row is 14 × 101 ms ≈ 1.41 s; with 3 rounds 1.01 s.
	f = fitRows(rs, 2, 3, 4500*time.Millisecond, 1)
	if f[0].n != MinBacklog || f[0].rounds >= 5 || f[0].rounds < 3 || !f[3].timed {
		t.Fatalf("fewer rounds, down to 3: %+v", f)
	}
	f = fitRows(rs, 2, 3, 2500*time.Millisecond, 1)
	if !f[0].timed || !f[1].timed || f[2].timed || f[3].timed || f[0].rounds != 3 {
		t.Fatalf("the last rows go: %+v", f)
	}
	// A non-gating row goes before the gating ones after it.
	rs = pipeRows(3, func(i int) bool { return i != 0 })
	f = fitRows(rs, 2, 3, 2500*time.Millisecond, 1)
	if f[0].timed || !f[1].timed || !f[2].timed {
		t.Fatalf("the non-gating row first: %+v", f)
	}
	// A backlog the byte budget sized below MinBacklog keeps its size.
	small := []PipeRow{{Key: "s/json", Gating: true, N: 300, Rounds: 5, Pass: time.Microsecond, Start: 100 * time.Millisecond}}
	if f := fitRows(append(small, pipeRows(3, always)...), 2, 3, 3*time.Second, 1); f[0].n != 300 {
		t.Fatalf("a small backlog grew or shrank: %+v", f)
	}
}

// On a fake clock where every pass costs twice its price, the plan learns
// it from the first row's fill and cuts the later rows, ends every row
// before the deadline, and says what it cut.
func TestPipelinePlanEndsBeforeTheDeadline(t *testing.T) {
	clock, start := newClock()
	b := Budget{Start: start, Total: 30 * time.Second, Now: clock.now}
	rs := pipeRows(10, always)
	plan := b.Pipeline(rs, 2, 3)
	timed := 0
	for _, r := range rs {
		n, rounds, ok := plan.Row(r.Key)
		if !ok {
			continue
		}
		timed++
		done, ok := plan.Fill(r.Key, n)
		if !ok {
			t.Fatalf("%s: fill refused right after Row", r.Key)
		}
		clock.spend(2 * 4 * (r.Start + time.Duration(n)*r.Pass))
		done()
		for round := range rounds {
			done, ok := plan.Round(r.Key, n, round)
			if !ok {
				break
			}
			clock.spend(2 * 2 * (r.Start + time.Duration(n)*r.Pass))
			done()
		}
		if clock.t.After(b.Deadline()) {
			t.Fatalf("%s ended %s past the deadline", r.Key, clock.t.Sub(b.Deadline()))
		}
	}
	note := plan.Note()
	if timed == 0 || timed == 10 || len(plan.Untimed()) != 10-timed || !strings.Contains(note, "rows not timed") || !strings.Contains(note, "smaller backlogs") {
		t.Fatalf("timed %d, untimed %v, note %q", timed, plan.Untimed(), note)
	}
	t.Logf("%d of 10 rows timed: %s", timed, note)
}
