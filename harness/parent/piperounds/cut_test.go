package piperounds

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// noTime is a schedule with no time left: it times no row and says so.
type noTime struct{ asked []string }

func (s *noTime) Row(key string) (int64, int, bool) {
	s.asked = append(s.asked, key)
	return 0, 0, false
}
func (s *noTime) Fill(string, int64) (func(), bool) { return nil, false }
func (s *noTime) Round(string, int64, int) (func(), bool) {
	return nil, false
}
func (s *noTime) Untimed() []string { return s.asked }
func (s *noTime) Note() string      { return "nothing fits" }

// A pipeline whose context the deadline ended before it began starts no
// broker and is no error: each row is asked of the schedule, which times
// none, and the result says so. Without Cut the same end is an error.
func TestAPipelineCutBeforeItBeginsDrainsNothing(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	deadline := errors.New("deadline")
	cancel(deadline)
	sizes := []benchprog.Size{{Message: "a.V1", Format: "protobuf", BytesMean: 100, Records: 256},
		{Message: "b.V1", Format: "protobuf", BytesMean: 100, Records: 256}}
	s := &noTime{}
	o := Options{Sides: []Side{{Name: "base", Sizes: sizes}, {Name: "head", Sizes: sizes}}, Broker: "embedded", N: 1000, Rounds: 5,
		Schedule: s, Cut: func(ctx context.Context) bool { return errors.Is(context.Cause(ctx), deadline) }}
	res, err := Run(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 0 || res.Stopped != "" || !slices.Equal(res.Untimed, []string{"a.V1/protobuf", "b.V1/protobuf"}) || res.Cut != "nothing fits" {
		t.Fatalf("rows %d, stopped %q, untimed %v, cut %q", len(res.Rows), res.Stopped, res.Untimed, res.Cut)
	}
	o.Cut = nil
	if _, err := Run(ctx, o); err == nil {
		t.Fatal("without Cut an ended context is no error")
	}
}

// A row stopped in a round keeps the rounds every side finished.
func TestAStoppedRowKeepsItsWholeRounds(t *testing.T) {
	row := Row{Sides: map[string]*Samples{
		"base": {RPS: []float64{1, 2, 3}, NsPerMsg: []float64{1, 2, 3}},
		"head": {RPS: []float64{1, 2}, NsPerMsg: []float64{1, 2}},
	}}
	row.wholeRounds()
	for name, s := range row.Sides {
		if len(s.RPS) != 2 || len(s.NsPerMsg) != 2 {
			t.Errorf("%s: %v %v, want the 2 whole rounds", name, s.RPS, s.NsPerMsg)
		}
	}
}
